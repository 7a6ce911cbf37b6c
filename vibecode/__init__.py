"""vibecode: an offline coding assistant that verifies what a local model proposes."""

__version__ = "0.1.0"
