"""The terminal game (``zefiria play``): board rendering, texts in two languages, input loop."""
