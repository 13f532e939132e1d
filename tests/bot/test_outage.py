"""An outage is told once: one warning when it begins, nothing while it lasts, one line with
how long it lasted when it ends; the next outage is told again."""

from __future__ import annotations

import logging

import pytest

from bot.outage import Outage


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_an_outage_is_told_once_and_its_end_once(caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    outage = Outage(
        "the database", logging.getLogger("test.outage"), meanwhile="notices wait", clock=clock
    )
    caplog.set_level(logging.INFO, logger="test.outage")
    assert outage.succeeded() is None  # nothing was away: nothing to say
    assert not outage.ongoing
    first = [outage.failed(ConnectionRefusedError("refused")) for _ in range(250)]
    assert first == [True] + [False] * 249
    assert outage.ongoing
    clock.now += 60.0
    assert outage.succeeded() == pytest.approx(60.0)
    assert outage.succeeded() is None  # told once
    lines = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert lines == [
        ("WARNING", "the database is unavailable: refused; notices wait"),
        ("INFO", "the database is available again after 60.0 s (250 failed attempts meanwhile)"),
    ]
    assert all(r.exc_info is None for r in caplog.records)  # no traceback


def test_the_next_outage_is_told_again(caplog: pytest.LogCaptureFixture) -> None:
    outage = Outage("the database", logging.getLogger("test.outage"), clock=Clock())
    caplog.set_level(logging.INFO, logger="test.outage")
    for _ in range(2):
        outage.failed(TimeoutError("slow"))
        outage.failed(TimeoutError("slow"))
        outage.succeeded()
    assert outage.outages == 2
    assert [r.levelname for r in caplog.records] == ["WARNING", "INFO", "WARNING", "INFO"]
