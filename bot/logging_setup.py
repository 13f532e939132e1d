"""Logging to stderr, with every secret scrubbed from every line.

The scrubbing happens in the formatter, after the message, its arguments and any traceback
are rendered, so a token cannot slip out through `%r` of an object or an exception text.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable

REDACTED = "[REDACTED]"


# Discord's code for an interaction that can no longer be answered (its 3 s passed).
UNKNOWN_INTERACTION = 10062


class ExpiredInteractionFilter(logging.Filter):
    """discord.py logs an autocomplete that was answered too late (Discord's 3 s had
    passed: 10062 Unknown interaction) at ERROR with a whole traceback. Nothing can be done
    about one, and in a flood the tracebacks cost as much CPU as the answers, which makes
    the bot later still: one WARNING line instead, with nothing to format."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if getattr(error, "code", None) == UNKNOWN_INTERACTION:
            record.msg = f"{record.getMessage()}: answered too late ({error})"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


class RedactingFormatter(logging.Formatter):
    def __init__(self, fmt: str, secrets: Iterable[str]) -> None:
        super().__init__(fmt)
        # Longest first, so a secret that contains another is replaced whole.
        self._secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def format(self, record: logging.LogRecord) -> str:
        return self.redact(super().format(record))

    def redact(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        return text


# discord.py warns at every start that the voice libraries are missing (PyNaCl, davey):
# this bot has no voice, so those two lines only alarm organizers.
VOICE_WARNINGS = frozenset(
    {
        "PyNaCl is not installed, voice will NOT be supported",
        "davey is not installed, voice will NOT be supported",
    }
)


class NoVoiceWarnings(logging.Filter):
    """Drops exactly discord.py's "voice will NOT be supported" warnings."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() not in VOICE_WARNINGS


def startup_secrets() -> list[str]:
    """The token and the database password as the environment and `.env` give them (read
    raw: the settings may be the very thing that failed), longest first."""
    import os

    from bot.store.urls import url_secrets

    values = dict(os.environ)
    try:
        from dotenv import dotenv_values

        values = {**{k: v for k, v in dotenv_values(".env").items() if v}, **values}
    except Exception:  # no .env, or one that does not read: the environment alone
        pass
    found = {values.get("DISCORD_TOKEN", "").strip()}
    found.update(url_secrets(values.get("DATABASE_URL", "").strip()))
    return sorted((s for s in found if s), key=len, reverse=True)


def configure_logging(level: str, secrets: Iterable[str] = ()) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        RedactingFormatter("%(asctime)s %(levelname)-8s %(name)s: %(message)s", secrets)
    )
    root = logging.getLogger()
    for existing in list(root.handlers):
        root.removeHandler(existing)
    root.addHandler(handler)
    root.setLevel(level)
    # discord.py's HTTP debug lines echo request bodies; keep them at INFO unless asked.
    if level != "DEBUG":
        logging.getLogger("discord.http").setLevel(logging.WARNING)
    # aiosqlite logs every statement at DEBUG, which drowns everything else out.
    logging.getLogger("aiosqlite").setLevel(logging.INFO)
    voice_warner = logging.getLogger("discord.client")
    if not any(isinstance(f, NoVoiceWarnings) for f in voice_warner.filters):
        voice_warner.addFilter(NoVoiceWarnings())
    tree = logging.getLogger("discord.app_commands.tree")
    if not any(isinstance(f, ExpiredInteractionFilter) for f in tree.filters):
        tree.addFilter(ExpiredInteractionFilter())
