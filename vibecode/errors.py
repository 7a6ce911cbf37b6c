"""The one error hierarchy.

Every error a user can cause or fix is a :class:`VibecodeError`: it carries a message that says
what went wrong and a hint that says what to do. The CLI prints both as one paragraph and exits
with ``exit_code``; the TUI shows them as a notification. Anything else is a bug and may show a
traceback.
"""

from __future__ import annotations


class VibecodeError(Exception):
    """An error the user can understand and act on."""

    exit_code = 1

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message} {self.hint}"


class ConfigError(VibecodeError):
    """Bad settings: a config file that does not parse, an unknown key, a bad value."""

    exit_code = 2


class UsageError(VibecodeError):
    """Bad command-line input."""

    exit_code = 2


class EngineSpecError(ConfigError):
    """An engine spec that is not one of llama:/openai:/replay:/tiny."""


class ModelError(VibecodeError):
    """A model that cannot be found, read or loaded."""

    exit_code = 3


class ModelNotFound(ModelError):
    pass


class ModelLoadError(ModelError):
    """The file exists but llama.cpp cannot load it (not a GGUF, truncated, corrupt)."""


class DownloadError(ModelError):
    pass


class OfflineError(DownloadError):
    pass


class EngineError(VibecodeError):
    """The engine failed while generating."""

    exit_code = 4


class ContextOverflow(EngineError):
    """The prompt plus the requested tokens do not fit in the context."""


class ModelUnavailable(EngineError):
    """The engine cannot answer this request; callers record the step as unavailable and go on."""


class ReplayExhausted(ModelUnavailable):
    """A replay file has no (more) lines for the requested purpose."""


class Cancelled(VibecodeError):
    """The user cancelled the run."""

    exit_code = 130


class SandboxError(VibecodeError):
    """The sandbox itself failed (not the code it ran)."""

    exit_code = 5


class PatchError(VibecodeError):
    """An edit could not be extracted from model output or applied to a file."""

    exit_code = 6


class ExtractionError(PatchError):
    pass


class ApplyError(PatchError):
    pass


class GitError(VibecodeError):
    exit_code = 7


class ProblemError(VibecodeError):
    """A problem statement that cannot be parsed."""

    exit_code = 2


class CalibrationError(ConfigError):
    """A calibration map (``{"x": [...], "y": [...]}``) that cannot be read or is not monotone."""
