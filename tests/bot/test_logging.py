"""The token never appears in a log line, whatever way it tries to get there."""

from __future__ import annotations

import io
import logging
from types import SimpleNamespace

import pytest

from bot.logging_setup import REDACTED, configure_logging

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GxYzAb.s3cr3t-t0k3n-value"


@pytest.fixture
def captured(monkeypatch: pytest.MonkeyPatch) -> io.StringIO:
    stream = io.StringIO()
    monkeypatch.setattr("sys.stderr", stream)
    configure_logging("DEBUG", secrets=[TOKEN])
    yield stream
    logging.getLogger().handlers.clear()


def test_token_in_message_arguments_and_tracebacks_is_redacted(captured: io.StringIO) -> None:
    log = logging.getLogger("test.redaction")
    log.info("connecting with %s", TOKEN)
    log.debug(f"headers: {{'Authorization': 'Bot {TOKEN}'}}")
    try:
        raise RuntimeError(f"login failed for {TOKEN}")
    except RuntimeError:
        log.exception("boom")
    output = captured.getvalue()
    assert TOKEN not in output
    assert output.count(REDACTED) == 3  # the message, the header and the exception text
    assert "connecting with" in output


def test_only_discords_voice_warnings_are_silenced(captured: io.StringIO) -> None:
    # This bot has no voice; discord.py's two warnings about it only alarm people.
    import discord

    discord.Client(intents=discord.Intents.none())  # logs them when PyNaCl/davey are missing
    client_log = logging.getLogger("discord.client")
    client_log.warning("PyNaCl is not installed, voice will NOT be supported")
    client_log.warning("davey is not installed, voice will NOT be supported")
    client_log.warning("the gateway closed the connection")
    logging.getLogger("other").warning("PyNaCl is not installed, voice will NOT be supported")
    output = captured.getvalue()
    assert output.count("voice will NOT be supported") == 1  # only another logger's
    assert "other: PyNaCl" in output
    assert "the gateway closed the connection" in output


def test_silencing_the_voice_warnings_twice_adds_one_filter(captured: io.StringIO) -> None:
    configure_logging("INFO")
    configure_logging("INFO")
    assert len(logging.getLogger("discord.client").filters) == 1


def test_an_autocomplete_answered_too_late_is_one_warning_line(captured: io.StringIO) -> None:
    import discord

    response = SimpleNamespace(status=404, reason="Not Found")
    late = discord.NotFound(response, {"code": 10062, "message": "Unknown interaction"})  # type: ignore[arg-type]
    tree = logging.getLogger("discord.app_commands.tree")
    try:
        raise late
    except discord.NotFound:
        tree.exception("Ignoring exception in autocomplete for %r", "register")
    try:
        raise discord.NotFound(response, {"code": 10008, "message": "Unknown message"})  # type: ignore[arg-type]
    except discord.NotFound:
        tree.exception("Ignoring exception in autocomplete for %r", "players")
    lines = captured.getvalue().splitlines()
    assert "WARNING" in lines[0]
    assert "autocomplete for 'register': answered too late" in lines[0]
    assert "10062" in lines[0]
    # Any other error keeps its level and its traceback.
    assert "ERROR" in lines[1]
    assert "Traceback" in captured.getvalue()
    assert "10062" not in captured.getvalue().split("Traceback")[1]
