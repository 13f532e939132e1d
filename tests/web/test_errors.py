"""A stranger's odd requests get short, well-formed answers: 404 for a number too long to
be a number, a plain 500 with the security headers when something fails, a 405 that says
what is allowed, and no traceback in the log for a request that does not parse."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from bot.web import server as web_server
from bot.web.server import CSP
from tests.web.conftest import Site

HUGE = "9" * 5000


async def test_a_number_of_5000_digits_is_not_found(running: Site) -> None:
    slug = await running.slug()
    for path in (
        f"/t/{slug}/api/pairings.json?round={HUGE}",
        f"/t/{slug}?v={HUGE}",
        f"/t/{slug}/decklists/{HUGE}",
        f"/t/{slug}/api/decklists/{HUGE}.json",
    ):
        response = await running.client.get(path)
        assert response.status == 404, path
        assert response.headers["Content-Security-Policy"] == CSP


async def test_a_failing_handler_answers_500_with_the_headers_and_logs_once(
    running: Site, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(web_server, "bracket", broken)
    monkeypatch.setattr(web_server, "ERRORS", web_server.ErrorLog())
    slug = await running.slug()
    with caplog.at_level(logging.ERROR):
        for _ in range(5):
            response = await running.client.get(f"/t/{slug}/api/bracket.json")
            assert response.status == 500
            assert response.headers["Content-Security-Policy"] == CSP
            assert response.headers["X-Content-Type-Options"] == "nosniff"
            assert "a bug" not in await response.text()
    logged = [r for r in caplog.records if r.exc_info and "bracket" in r.getMessage()]
    assert len(logged) == 1


async def test_a_405_says_what_is_allowed(running: Site) -> None:
    slug = await running.slug()
    response = await running.client.post(f"/t/{slug}", data=b"x")
    assert response.status == 405
    assert "GET" in response.headers["Allow"]
    assert response.headers["Content-Security-Policy"] == CSP


async def test_a_request_that_does_not_parse_logs_no_traceback(
    running: Site, caplog: pytest.LogCaptureFixture
) -> None:
    server = running.client.server
    with caplog.at_level(logging.INFO):
        for garbage in (
            b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n",
            b"GET /\x00bad HTTP/1.1\r\n\r\n",
            b"GET / HTTP/1.1\r\nHo st: x\r\n\r\n",
        ):
            reader, writer = await asyncio.open_connection(server.host, server.port)
            writer.write(garbage)
            answer = await asyncio.wait_for(reader.read(200), 5)
            assert answer.split(b"\r\n")[0].endswith(b"400 Bad Request")
            writer.close()
    noisy = [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]
    assert noisy == []
