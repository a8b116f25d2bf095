"""Subcommands of the ``zefiria`` CLI, one module each."""
