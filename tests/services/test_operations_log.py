"""Every change is an operation: the tables and the action log always agree.

Random sequences of registrations, unregistrations (with waitlist promotions), check-ins,
deck submissions, settings changes and a start run through the real services on a real
SQLite file. After each refused operation nothing has changed; at the end, folding the log
gives exactly the tournament the tables hold.
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

from bot.services import Services
from bot.store.database import open_database
from bot.store.verify import verify_all
from domain.errors import DomainError
from tests.services.conftest import (
    GUILD,
    JUDGE_ROLE,
    LEGAL_DECK,
    NOW,
    ORGANIZER_ROLE,
    admin,
    judge,
    organizer,
    player,
)

ILLEGAL_DECK = LEGAL_DECK.decode().replace("4,けいおん！,01-001", "5,けいおん！,01-001", 1)
RESTRICTED = (
    '[[limit]]\nregulations = ["single"]\neffective = 2014-05-03\nlabel = "制限"\n'
    'title = "けいおん！"\nnumber = "01-001"\nmax_copies = 2\n'
).encode()

PLAYERS = st.integers(min_value=1, max_value=6)
STEPS = st.one_of(
    st.tuples(st.just("register"), PLAYERS),
    st.tuples(st.just("unregister"), PLAYERS),
    st.tuples(st.just("checkin"), PLAYERS),
    st.tuples(st.just("submit"), PLAYERS, st.booleans()),
    st.tuples(st.just("settings"), st.integers(min_value=0, max_value=6)),
    st.tuples(st.just("start")),
    st.tuples(st.just("wait"), st.integers(min_value=1, max_value=90)),
    # A running event: pairing, the clock, reports, confirmations, judges, drops, the end.
    st.tuples(st.just("pair")),
    st.tuples(st.just("repair")),
    st.tuples(st.just("clock")),
    st.tuples(st.just("report"), PLAYERS, st.sampled_from(["win", "lose", "concede", "time"])),
    st.tuples(st.just("confirm"), PLAYERS),
    st.tuples(st.just("dispute"), PLAYERS, st.sampled_from(["win", "lose", "time"])),
    st.tuples(st.just("judge"), st.integers(min_value=1, max_value=3), st.booleans()),
    st.tuples(st.just("drop"), PLAYERS),
    st.tuples(st.just("undrop"), PLAYERS),
    st.tuples(st.just("extend"), st.integers(min_value=1, max_value=3)),
    st.tuples(st.just("finish")),
)


async def snapshot(services: Services) -> list[tuple[Any, ...]]:
    rows: list[tuple[Any, ...]] = []
    async with services.store.database.read() as connection:
        for table in ("tournaments", "players", "decks", "action_log"):
            async with connection.execute(f"SELECT * FROM {table} ORDER BY 1, 2") as cursor:
                rows += [(table, *row) for row in await cursor.fetchall()]
    return rows


async def run_step(services: Services, step: tuple[Any, ...], clock: list[Any]) -> None:
    action = step[0]
    if action == "register":
        await services.registration.register(player(step[1]), None)
    elif action == "unregister":
        await services.registration.unregister(player(step[1]), None)
    elif action == "checkin":
        await services.registration.check_in(player(step[1]), None)
    elif action == "submit":
        deck = LEGAL_DECK if step[2] else ILLEGAL_DECK.encode()
        await services.decks.submit(player(step[1]), None, deck, "deck.csv")
    elif action == "settings":
        variants: list[dict[str, Any]] = [
            {"starts_at": (NOW + timedelta(minutes=60)).isoformat(), "checkin_minutes": 0},
            {"decklist_required": False},
            {"missing_deck_policy": "start_anyway"},
            {"mix_two_minimum": 10},
            {"late_registration_rounds": 1},
            {"restricted_list": ("restricted.toml", RESTRICTED)},
            {"restricted_list": ("bad.toml", b"[[limit]\n")},  # refused: malformed
        ]
        await services.tournaments.update_settings(organizer(), None, **variants[step[1]])
    elif action == "start":
        await services.lifecycle.start(organizer(), None)
    elif action == "wait":
        clock[0] += timedelta(minutes=step[1])
    elif action == "pair":
        await services.rounds.pair(organizer(), None)
    elif action == "repair":
        await services.rounds.repair(organizer(), None)
    elif action == "clock":
        await services.rounds.start_clock(organizer(), None)
    elif action == "report":
        await services.rounds.report(player(step[1]), None, step[2], 2, 3)
    elif action == "confirm":
        mine = await services.rounds.my_match(player(step[1]), None)
        await services.rounds.confirm(
            player(step[1]), mine.tournament.id, mine.round.number, mine.match.table
        )
    elif action == "dispute":
        mine = await services.rounds.my_match(player(step[1]), None)
        counts = (1, 4) if step[2] == "time" else (None, None)
        await services.rounds.dispute(
            player(step[1]),
            mine.tournament.id,
            mine.round.number,
            mine.match.table,
            step[2],
            *counts,
        )
    elif action == "judge":
        choice = "double_loss" if step[2] else "time"
        await services.rounds.set_result(
            judge(), None, table=step[1], choice=choice, first_points=1, second_points=4
        )
    elif action == "drop":
        await services.rounds.drop(player(step[1]), None)
    elif action == "undrop":
        await services.rounds.undrop(organizer(), None, player(step[1]).user_id)
    elif action == "extend":
        await services.rounds.extend(judge(), None, step[1], 5)
    elif action == "finish":
        await services.rounds.finish(organizer(), None)
    elif action == "penalty":
        preview = await services.judges.preview_penalty(
            judge(), None, player(step[1]).user_id, step[2], "other", "理由"
        )
        await services.judges.confirm(judge(), preview.pending_id)
    elif action == "revoke":
        await services.judges.revoke(organizer(), None, step[1])
    elif action == "call":
        await services.judges.call(player(step[1]), None, "help")
    elif action in ("claim", "resolve"):
        found = await services.tournaments.info(organizer(), None)
        calls = found.tournament.calls
        if calls:
            call = calls[-1].id
            if action == "claim":
                await services.judges.claim(judge(), found.tournament.id, call)
            else:
                await services.judges.resolve(judge(), found.tournament.id, call, step[1])
    elif action == "noshow":
        _, current = await services.rounds.status(organizer(), None)
        match = current.match_at(step[1])
        if match is not None and match.players:
            await services.judges.no_show(judge(), None, step[1], match.players[0])
    elif action == "undo":
        undo = await services.judges.preview_undo(organizer(), None)
        await services.judges.confirm(organizer(), undo.pending_id)


async def run_story(
    steps: list[tuple[Any, ...]],
    folder: Path,
    setup: tuple[int, ...] = (),
    started: int = 0,
) -> None:
    database = await open_database(folder / "bot.sqlite3")
    clock = [NOW]
    services = Services(database, clock=lambda: clock[0], seeds=lambda: 4242)
    try:
        await services.guilds.configure(
            admin(), organizer_role_id=ORGANIZER_ROLE, judge_role_id=JUDGE_ROLE, locale="ja"
        )
        await services.tournaments.create(
            organizer(), name="Cup", format="swiss", regulation="single", max_players=4
        )
        for variant in setup:
            await run_step(services, ("settings", variant), clock)
        if started:
            # Often enough, a running event: that many players with legal lists, started.
            for number in range(1, started + 1):
                await run_step(services, ("register", number), clock)
                await run_step(services, ("submit", number, True), clock)
            with contextlib.suppress(DomainError):  # e.g. a restricted list made them illegal
                await run_step(services, ("start",), clock)
        applied: list[str] = []
        for step in steps:
            before = await snapshot(services)
            try:
                await run_step(services, step, clock)
                applied.append(step[0])
            except DomainError:
                assert await snapshot(services) == before, f"refused {step} left rows behind"
        async with database.read() as connection:
            verdicts = await verify_all(connection)
        assert [v.differences for v in verdicts] == [()]
        assert all(v.agrees for v in verdicts), verdicts
        if currently_in_test_context():
            for kind in sorted(set(applied)):
                event(f"applied {kind}")  # shown with --hypothesis-show-statistics
    finally:
        await database.close()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.integers(min_value=0, max_value=5), unique=True, max_size=3),
    st.sampled_from([0, 0, 3, 4, 5]),
    st.lists(STEPS, max_size=40),
)
def test_folding_the_log_gives_the_tables_and_refusals_leave_nothing(
    setup: list[int], started: int, steps: list[tuple[Any, ...]]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run_story(steps, Path(folder), tuple(setup), started))


def test_an_unchanged_log_replays_across_a_cold_start(tmp_path: Path) -> None:
    """The cache is only a cache: a new process reading the same file agrees too."""
    steps = [("register", n) for n in range(1, 6)] + [("submit", n, True) for n in range(1, 5)]
    asyncio.run(run_story([*steps, ("start",)], tmp_path))

    async def reread() -> None:
        database = await open_database(tmp_path / "bot.sqlite3")
        try:
            services = Services(database, clock=lambda: NOW)
            _, entries = await services.registration.players(GUILD, None)
            assert [e.status.value for e in entries].count("active") == 4
        finally:
            await database.close()

    asyncio.run(reread())


RUNNING_STEPS = st.one_of(
    st.tuples(st.just("pair")),
    st.tuples(st.just("clock")),
    st.tuples(st.just("report"), PLAYERS, st.sampled_from(["win", "lose", "concede", "time"])),
    st.tuples(st.just("report"), PLAYERS, st.sampled_from(["win", "lose", "concede", "time"])),
    st.tuples(st.just("confirm"), PLAYERS),
    st.tuples(st.just("confirm"), PLAYERS),
    st.tuples(st.just("dispute"), PLAYERS, st.sampled_from(["win", "lose", "time"])),
    st.tuples(st.just("judge"), st.integers(min_value=1, max_value=3), st.booleans()),
    st.tuples(st.just("extend"), st.integers(min_value=1, max_value=3)),
    st.tuples(st.just("drop"), PLAYERS),
    st.tuples(st.just("undrop"), PLAYERS),
    st.tuples(st.just("repair")),
    st.tuples(st.just("finish")),
    st.tuples(
        st.just("penalty"),
        PLAYERS,
        st.sampled_from(["caution", "warning", "game_loss", "disqualification"]),
    ),
    st.tuples(st.just("revoke"), st.integers(min_value=1, max_value=4)),
    st.tuples(st.just("call"), PLAYERS),
    st.tuples(st.just("claim")),
    st.tuples(st.just("resolve"), st.integers(min_value=0, max_value=5)),
    st.tuples(st.just("noshow"), st.integers(min_value=1, max_value=3)),
    st.tuples(st.just("undo")),
    st.tuples(st.just("undo")),
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=2, max_value=6), st.lists(RUNNING_STEPS, min_size=5, max_size=60))
def test_a_running_event_always_agrees_with_its_log(
    players: int, steps: list[tuple[Any, ...]]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run_story([("pair",), *steps], Path(folder), (1,), players))
