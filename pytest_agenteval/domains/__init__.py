"""The shipped environments. Each registers by entry point (pyproject.toml), as a third-party one does."""
