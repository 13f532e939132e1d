"""Errors of the bot's own plumbing (settings, database), shown at start-up without a traceback."""

from __future__ import annotations


class StartupError(Exception):
    """Stops the CLI with a bilingual message and an exit code, never a traceback."""

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
