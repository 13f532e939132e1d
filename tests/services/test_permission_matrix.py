"""The permission matrix: every slash command of the live command tree × {player,
judge, organizer, member of another guild}, checked through the services on real SQLite.

The command list is read from a real TournamentBot's tree, so a new command without a row
in MATRIX fails `test_every_command_has_a_row`. To add one, write a `Row`:

    "penalty give": Row(
        phase="running",                      # the state it runs in (PHASES below)
        player=DENIED, judge=OK, organizer=OK,  # OK, DENIED (PermissionDenied) or NONE
        run=lambda s, a, c: s.penalties.give(a, c.ref, player=c.seated, ...),
    ),

`run(services, actor, ctx)` makes the service call(s) the command's cog makes. OK means
the call succeeds; DENIED that it raises PermissionDenied; NONE that it raises another
typed error because the actor has nothing there (a judge has no entry to unregister). The member of
another guild is always checked the same way: acting from their own guild (where they
even manage the server) on this guild's tournament by its id, they either get refused
(NotFound/PermissionDenied) or succeed without seeing or changing anything of this guild.
"""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

from bot.app import EXTENSIONS, TournamentBot
from bot.config import Settings
from bot.services import Services
from bot.services.actors import Actor
from bot.services.registration import MemberDirectory
from bot.store.actions import list_actions
from bot.store.database import open_database
from domain.errors import DomainError, NotFound, PermissionDenied
from tests.services.conftest import (
    GUILD,
    JUDGE_ROLE,
    LEGAL_DECK,
    NOW,
    ORGANIZER_ROLE,
    OTHER_GUILD,
    admin,
    judge,
    organizer,
    player,
)

OK, DENIED, NONE = "ok", "denied", "none"
ROLES = ("player", "judge", "organizer", "other guild")
NAME = "Matrix Cup"
RESTRICTED = b'[[limit]]\nregulations = ["single"]\neffective = 2014-05-03\nlabel = "x"\n'
RESTRICTED += b'title = "\xe3\x82\x86\xe3\x82\x8b\xe3\x82\x86\xe3\x82\x8a"\nnumber = "01-046"\n'
RESTRICTED += b"max_copies = 1\n"


@dataclass(frozen=True)
class Ctx:
    tournament_id: int
    seated: int  # a seated player other than the acting player (player 2)

    @property
    def ref(self) -> str:
        return str(self.tournament_id)


Run = Callable[[Services, Actor, Ctx], Awaitable[Any]]


@dataclass(frozen=True)
class Row:
    phase: str
    player: str
    judge: str
    organizer: str
    run: Run | None  # None: the command calls no service (e.g. /help)

    def expected(self, role: str) -> str:
        return {"player": self.player, "judge": self.judge, "organizer": self.organizer}[role]


def anyone(phase: str, run: Run | None) -> Row:
    return Row(phase, OK, OK, OK, run)


def staff(phase: str, run: Run, *, judge: str = DENIED) -> Row:
    return Row(phase, DENIED, judge, OK, run)


async def _set_table_1(s: Services, a: Actor, c: Ctx) -> Any:
    winner = (await s.rounds.status(a, c.ref))[1].matches[0].players[0]
    return await s.rounds.set_result(a, c.ref, table=1, choice="win", player=winner)


async def _table_1_first(s: Services, c: Ctx) -> int:
    return (await s.rounds.status(judge(), c.ref))[1].matches[0].players[0]


async def _give_caution(s: Services, a: Actor, c: Ctx) -> Any:
    target = await _table_1_first(s, c)
    preview = await s.judges.preview_penalty(a, c.ref, target, "caution", "other", "matrix")
    return await s.judges.confirm(a, preview.pending_id)


async def _no_show_table_1(s: Services, a: Actor, c: Ctx) -> Any:
    return await s.judges.no_show(a, c.ref, 1, await _table_1_first(s, c))


# The entry import: a CSV naming a member not entered yet, resolved by name (the cog lists members).
ENTRIES_CSV = b"Player 1\n"
MEMBERS = MemberDirectory({101: "Player 1"}, {"Player 1": frozenset({101})})
EMPTY_SERIES, FULL_SERIES = "Empty Series", "Full Series"


async def _undo_last(s: Services, a: Actor, c: Ctx) -> Any:
    preview = await s.judges.preview_undo(a, c.ref)
    return await s.judges.confirm(a, preview.pending_id)


MATRIX: dict[str, Row] = {
    "help": anyone("open", None),
    "setup server": Row(
        "open", DENIED, DENIED, DENIED, lambda s, a, c: s.guilds.configure(a, locale="en")
    ),
    "setup show": anyone("open", lambda s, a, c: s.guilds.show(a)),
    "tournament create": staff(
        "open",
        lambda s, a, c: s.tournaments.create(a, name="New", format="swiss", regulation="single"),
    ),
    "tournament info": anyone("open", lambda s, a, c: s.tournaments.info(a, c.ref)),
    "tournament list": anyone("open", lambda s, a, c: s.tournaments.overview(a)),
    "tournament settings": staff(
        "open",
        lambda s, a, c: s.tournaments.update_settings(
            a, c.ref, restricted_list=("r.toml", RESTRICTED), checkin_minutes=30
        ),
    ),
    # The live page is the organizers' to show or hide, in any phase.
    "tournament page": staff("open", lambda s, a, c: s.tournaments.set_page(a, c.ref, True)),
    # Match rooms: the organizers' switch (the bot's own permissions are checked after).
    "tournament rooms": staff(
        "open",
        lambda s, a, c: s.tournaments.set_rooms(
            a, c.ref, on=True, granted=frozenset({"manage_channels", "manage_roles"})
        ),
    ),
    "tournament start": staff("registered", lambda s, a, c: s.lifecycle.start(a, c.ref)),
    # Calling an event off, and importing entries, are the organizers'.
    "tournament cancel": staff("open", lambda s, a, c: s.tournaments.cancel(a, c.ref)),
    "tournament import": staff(
        "open",
        lambda s, a, c: s.registration.import_entries(a, c.ref, ENTRIES_CSV, MEMBERS),
    ),
    "tournament finish": staff("done", lambda s, a, c: s.rounds.finish(a, c.ref)),
    "tournament export": anyone("done", lambda s, a, c: s.rounds.export(a, c.ref)),
    # The panel is the staff's: judges see it and press what their role allows.
    "tournament panel": staff("open", lambda s, a, c: s.tournaments.post_panel(a, c.ref), judge=OK),
    "register": anyone("open", lambda s, a, c: s.registration.register(a, c.ref)),
    "unregister": Row(
        "registered", OK, NONE, NONE, lambda s, a, c: s.registration.unregister(a, c.ref)
    ),
    "checkin": Row("checkin", OK, NONE, NONE, lambda s, a, c: s.registration.check_in(a, c.ref)),
    "players": anyone("open", lambda s, a, c: s.registration.players(a.guild_id, c.ref)),
    "deck submit": Row(
        "registered",
        OK,
        NONE,
        NONE,
        lambda s, a, c: s.decks.submit(a, c.ref, LEGAL_DECK, "deck.csv"),
    ),
    "deck check": anyone("open", lambda s, a, c: s.decks.check(a, c.ref, LEGAL_DECK, "d.csv")),
    # Another player's list before /deck publish: judges and organizers only.
    "deck show": staff("registered", lambda s, a, c: s.decks.show(a, c.ref, c.seated), judge=OK),
    "deck publish": staff("started", lambda s, a, c: s.decks.publish(a, c.ref)),
    "round pair": staff("started", lambda s, a, c: s.rounds.pair(a, c.ref)),
    "round repair": staff("paired", lambda s, a, c: s.rounds.repair(a, c.ref)),
    "round start": staff("paired", lambda s, a, c: s.rounds.start_clock(a, c.ref)),
    "round status": anyone("running", lambda s, a, c: s.rounds.status(a, c.ref)),
    "report result": Row(
        "running", OK, DENIED, DENIED, lambda s, a, c: s.rounds.report(a, c.ref, "lose")
    ),
    "result set": staff("running", _set_table_1, judge=OK),
    "pairing": Row("running", OK, NONE, NONE, lambda s, a, c: s.rounds.my_match(a, c.ref)),
    # A player drops themselves (naming another is refused: the e2e story checks it);
    # judges and organizers name a player.
    "drop": anyone(
        "running",
        lambda s, a, c: s.rounds.drop(a, c.ref, None if a.user_id == ACTING else c.seated),
    ),
    "undrop": staff("dropped", lambda s, a, c: s.rounds.undrop(a, c.ref, c.seated)),
    "standings": anyone("running", lambda s, a, c: s.rounds.standings(a.guild_id, c.ref)),
    "penalty give": staff("running", _give_caution, judge=OK),
    # A player sees their own penalties; judges and organizers see everyone's.
    "penalty list": anyone("running", lambda s, a, c: s.judges.penalties(a, c.ref, None)),
    "penalty revoke": staff("penalised", lambda s, a, c: s.judges.revoke(a, c.ref, 1)),
    # Only a player in a match calls a judge; staff have no match to call from.
    "judge call": Row("running", OK, NONE, NONE, lambda s, a, c: s.judges.call(a, c.ref, "matrix")),
    "judge extend": staff("running", lambda s, a, c: s.rounds.extend(a, c.ref, 1, 5), judge=OK),
    "round extend": staff("running", lambda s, a, c: s.rounds.extend_round(a, c.ref, 5), judge=OK),
    "judge noshow": staff("running", _no_show_table_1, judge=OK),
    "log": staff("running", lambda s, a, c: s.judges.log(a, c.ref), judge=OK),
    "undo": staff("done", _undo_last),
    # A record is anyone's to read (the service shows penalties to staff only); a handle and
    # the live page's opt-in are each player's own.
    "profile show": anyone("open", lambda s, a, c: s.profiles.show(a, c.seated, "Player 2")),
    "profile handle": anyone("open", lambda s, a, c: s.profiles.set_handle(a, "Matrix Handle")),
    "profile public": anyone("open", lambda s, a, c: s.profiles.set_public(a, True)),
    # A series is the organizers' to make and change; its standings anyone's to read.
    "series create": staff("open", lambda s, a, c: s.series.create(a, "Season")),
    "series add": staff("series", lambda s, a, c: s.series.add(a, EMPTY_SERIES, c.ref)),
    "series remove": staff("series", lambda s, a, c: s.series.remove(a, FULL_SERIES, c.ref)),
    "series points": staff(
        "series", lambda s, a, c: s.series.set_points(a, FULL_SERIES, "優勝 = 5\n参加 = 1\n")
    ),
    "series standings": anyone(
        "series", lambda s, a, c: s.series.standings(a.guild_id, FULL_SERIES)
    ),
}
ACTING = player(1).user_id


def stranger() -> Actor:
    # Manages their own server: even that gives nothing in this one.
    return Actor(999, OTHER_GUILD, "Stranger", manages_guild=True)


def actor_for(role: str) -> Actor:
    return {"player": player(1), "judge": judge(), "organizer": organizer()}.get(role, stranger())


# -- the states the rows run in, built once and copied per cell --------------------------


async def build(services: Services, phase: str) -> None:
    await services.guilds.configure(
        admin(), organizer_role_id=ORGANIZER_ROLE, judge_role_id=JUDGE_ROLE, locale="ja"
    )
    await services.tournaments.create(
        organizer(), name=NAME, format="swiss", regulation="single", rounds=1
    )
    others = [player(n) for n in range(2, 6)]
    if phase == "checkin":
        await services.tournaments.update_settings(
            organizer(), None, starts_at="2026-12-01 13:30", checkin_minutes=60
        )
    entrants = others if phase == "open" else [player(1), *others]
    for actor in entrants:
        await services.registration.register(actor, None)
        await services.decks.submit(actor, None, LEGAL_DECK, "deck.csv")
    if phase in ("open", "registered", "checkin"):
        return
    if phase == "series":  # a finished event, in one series of two
        await services.lifecycle.start(organizer(), None)
        await services.rounds.pair(organizer(), None)
        await services.rounds.start_clock(organizer(), None)
        current = (await services.rounds.status(organizer(), None))[1]
        for match in current.matches:
            if len(match.players) == 2:
                await services.rounds.set_result(
                    judge(), None, table=match.table, choice="win", player=match.players[0]
                )
        finished = await services.rounds.finish(organizer(), None)
        for name in (EMPTY_SERIES, FULL_SERIES):
            await services.series.create(organizer(), name)
        await services.series.add(organizer(), FULL_SERIES, str(finished.tournament.id))
        return
    await services.lifecycle.start(organizer(), None)
    if phase == "started":
        return
    await services.rounds.pair(organizer(), None)
    if phase == "paired":
        return
    await services.rounds.start_clock(organizer(), None)
    if phase == "done":
        current = (await services.rounds.status(organizer(), None))[1]
        for match in current.matches:
            if len(match.players) == 2:
                await services.rounds.set_result(
                    judge(), None, table=match.table, choice="win", player=match.players[0]
                )
    if phase == "dropped":
        await services.rounds.drop(organizer(), None, player(2).user_id)
    if phase == "penalised":  # a running round where a judge already gave penalty #1
        tournament_id = (await services.tournaments.info(organizer(), None)).tournament.id
        await _give_caution(services, judge(), Ctx(tournament_id, player(2).user_id))


PHASES = (
    "series",
    "open",
    "registered",
    "checkin",
    "started",
    "paired",
    "running",
    "done",
    "dropped",
    "penalised",
)


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    import asyncio

    folder = tmp_path_factory.mktemp("matrix")

    async def make(phase: str) -> Path:
        path = folder / f"{phase}.sqlite3"
        database = await open_database(path)
        try:
            await build(Services(database, clock=lambda: NOW, seeds=lambda: 424242), phase)
            await database.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            await database.close()
        return path

    async def make_all() -> dict[str, Path]:
        return {phase: await make(phase) for phase in PHASES}

    return asyncio.run(make_all())


async def live_commands(folder: Path) -> list[str]:
    database = await open_database(folder / "tree.sqlite3")
    bot = TournamentBot(Settings(), database)
    try:
        for extension in EXTENSIONS:
            await bot.load_extension(extension)
        return sorted(
            c.qualified_name
            for c in bot.tree.walk_commands()
            if isinstance(c, app_commands.Command)
        )
    finally:
        await bot.close()
        await database.close()


async def test_every_command_has_a_row(clean_env: Path) -> None:
    commands = await live_commands(clean_env)
    missing = [name for name in commands if name not in MATRIX]
    assert missing == [], f"add a Row to MATRIX for {missing} (see the module docstring)"
    assert sorted(set(MATRIX) - set(commands)) == [], "rows for commands that no longer exist"


@pytest.fixture
async def opened(
    request: pytest.FixtureRequest, templates: dict[str, Path], tmp_path: Path
) -> AsyncIterator[Services]:
    phase = request.param
    path = tmp_path / "bot.sqlite3"
    shutil.copy(templates[phase], path)
    database = await open_database(path)
    try:
        yield Services(database, clock=lambda: NOW, seeds=lambda: 424242)
    finally:
        await database.close()


async def our_state(services: Services) -> tuple[int, object]:
    async with services.store.database.read() as connection:
        actions = await list_actions(connection, guild_id=GUILD)
    return len(actions), await services.guilds.config(GUILD)


CELLS = [(command, role) for command in sorted(MATRIX) for role in ROLES]


@pytest.mark.parametrize(
    ("command", "role", "opened"),
    [(c, r, MATRIX[c].phase) for c, r in CELLS],
    ids=[f"{c}-{r}" for c, r in CELLS],
    indirect=["opened"],
)
async def test_the_matrix(command: str, role: str, opened: Services) -> None:
    row = MATRIX[command]
    if row.run is None:
        return  # no service: nothing to allow or refuse (the row says so)
    services = opened
    (tournament,) = [t for t in await services.tournaments.overview(admin()) if t.name == NAME]
    ctx = Ctx(tournament.id, player(2).user_id)
    actor = actor_for(role)
    if role == "other guild":
        before = await our_state(services)
        try:
            result = await row.run(services, actor, ctx)
        except (NotFound, PermissionDenied):
            pass
        else:
            assert NAME not in repr(result), f"/{command} showed another guild's tournament"
        assert await our_state(services) == before, f"/{command} changed another guild"
        return
    expected = row.expected(role)
    try:
        await row.run(services, actor, ctx)
    except PermissionDenied as error:
        outcome, detail = DENIED, error.key
    except DomainError as error:
        outcome, detail = NONE, error.key
    else:
        outcome, detail = OK, ""
    assert outcome == expected, f"/{command} as {role}: {outcome} ({detail}), want {expected}"


def test_the_matrix_size() -> None:
    # The size of the permission matrix: commands × roles checked.
    assert len(CELLS) == len(MATRIX) * len(ROLES)
