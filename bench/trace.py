"""What the bot did during a burst, traced from inside it: `bench/burst.py --trace DIR`.

A `sitecustomize` hook (beside bench/burst.py's loop-lag hook) records in the bot process,
with the wall-clock time: each interaction's arrival (its INTERACTION_CREATE parsed) and the
start of its first response, each SQLite statement (its connection, start and end), each
garbage collection of over 5 ms, and each job of the worker (its priority, when it was
queued, started and ended). `report` lines this up with the fake Discord's own times and
prints where the time went: for each kind of interaction, the time to reach the bot, the
time in the bot before its first response, and the time from there to Discord; then every
stall of the loop over 40 ms with the collections and worker jobs that overlapped it.
This is how the last three points of a 4,096-player round's end were found
(docs/BENCHMARKS.md, "the last three points").
"""

from __future__ import annotations

import shutil
import statistics
import time
from pathlib import Path

from tests.e2e.fake_discord import Reply

TRACE_HOOK = r"""
import gc as _gc
import os as _os
import time as _time

_TRACE = open(_os.environ["BENCH_TRACE"], "a", buffering=1, encoding="utf-8")


def _note(*fields):
    _TRACE.write(" ".join(str(field) for field in fields) + "\n")


import discord.state as _state
import discord.webhook.async_ as _webhook

_parse = _state.ConnectionState.parse_interaction_create


def _parsed(self, data):
    _note("arrived", data["id"], f"{_time.time():.4f}")
    return _parse(self, data)


_state.ConnectionState.parse_interaction_create = _parsed
_respond = _webhook.AsyncWebhookAdapter.create_interaction_response


def _responding(self, interaction_id, token, **kwargs):
    _note("responds", interaction_id, f"{_time.time():.4f}")
    return _respond(self, interaction_id, token, **kwargs)


_webhook.AsyncWebhookAdapter.create_interaction_response = _responding

import aiosqlite.core as _aiosqlite

_execute = _aiosqlite.Connection._execute


async def _executed(self, function, *args, **kwargs):
    started = _time.time()
    try:
        return await _execute(self, function, *args, **kwargs)
    finally:
        sql = args[0] if args and isinstance(args[0], str) else function.__name__
        ended = _time.time()
        _note("sql", id(self) % 1000, f"{started:.4f}", f"{ended:.4f}", "_".join(sql.split())[:60])


_aiosqlite.Connection._execute = _executed
_collecting = {}


def _collection(phase, info):
    if phase == "start":
        _collecting["at"] = _time.time()
    elif "at" in _collecting and _time.time() - _collecting["at"] > 0.005:
        _note("gc", info["generation"], f"{_collecting['at']:.4f}", f"{_time.time():.4f}")


_gc.callbacks.append(_collection)

import bot.worker as _worker

_submit = _worker._Worker.submit


def _submitted(self, priority, work):
    name = getattr(work, "__qualname__", None) or getattr(work, "func", work).__qualname__
    queued = _time.time()

    def timed():
        started = _time.time()
        try:
            return work()
        finally:
            ended = _time.time()
            times = (f"{moment:.4f}" for moment in (queued, started, ended))
            _note("job", name.replace(" ", "_"), int(priority), *times)

    return _submit(self, priority, timed)


_worker._Worker.submit = _submitted
"""


def save(folder: Path, into: Path, kinds: dict[str, list[Reply]], since: float) -> str:
    """The burst's trace kept in `into`, and where its time went (`report`)."""
    into.mkdir(parents=True, exist_ok=True)
    shutil.copy(folder / "trace.txt", into / f"trace-{int(since)}.txt")
    return report(folder / "trace.txt", folder / "lag.txt", kinds, since)


def report(trace: Path, lag: Path, kinds: dict[str, list[Reply]], since: float) -> str:
    """Where the time went in the burst that began at wall-clock `since`."""
    arrived: dict[str, float] = {}
    responds: dict[str, float] = {}
    overlaps: list[tuple[float, float, str]] = []
    for line in trace.read_text(encoding="utf-8").splitlines():
        kind, *fields = line.split()
        if kind == "arrived":
            arrived.setdefault(fields[0], float(fields[1]))
        elif kind == "responds":
            responds.setdefault(fields[0], float(fields[1]))
        elif kind == "gc":
            start, end = float(fields[1]), float(fields[2])
            overlaps.append((start, end, f"gc{fields[0]} {(end - start) * 1000:.0f} ms"))
        elif kind == "job" and float(fields[4]) - float(fields[3]) > 0.02:
            start, end = float(fields[3]), float(fields[4])
            overlaps.append((start, end, f"{fields[0]} {(end - start) * 1000:.0f} ms"))
    wall = time.time() - time.monotonic()  # the fake's clock is this process's
    lines = ["| interactions | to the bot | in the bot | to Discord |", "|---|---:|---:|---:|"]
    for kind, replies in kinds.items():
        spans: list[list[float]] = [[], [], []]
        for reply in replies:
            key, sent, answered = str(reply.id), reply.sent_at, reply.answer_time
            if sent is None or answered is None or key not in responds:
                continue
            sent += wall
            spans[0].append(arrived[key] - sent)
            spans[1].append(responds[key] - arrived[key])
            spans[2].append(answered - (responds[key] - sent))
        cells = [f"{statistics.median(s) * 1000:.0f} / {max(s) * 1000:.0f} ms" for s in spans if s]
        lines.append(f"| {kind} (median / max) | " + " | ".join(cells) + " |")
    lines.append("loop stalls over 40 ms (ms after the burst began; what overlapped):")
    for row in lag.read_text(encoding="utf-8").splitlines():
        at, late = (float(value) for value in row.split())
        if late > 40 and at >= since:
            began = at - late / 1000 - 0.01
            near = [what for start, end, what in overlaps if start < at and end > began]
            lines.append(f"  {late:.0f} ms ending at +{(at - since) * 1000:.0f}: {near}")
    return "\n".join(lines)
