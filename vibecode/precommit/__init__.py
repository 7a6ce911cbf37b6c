"""The pre-commit check on exactly what is staged, and the git hook that runs it."""
