"""The table-side device: hardware adapters, the referee app and the CLI."""
