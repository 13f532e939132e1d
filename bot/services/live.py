"""The public live page's reads: a tournament found by its page's address, and
what of it anyone may see, decided here with the domain's own rules.

The page's reader is nobody in particular (`ANONYMOUS`): it sees what any member of the
server sees in Discord (pairings, results, standings, the bracket), decklists only once
the organizer published them (`require_deck_visible`, as `/deck show` decides), and never
a user id, a penalty, a judge call or a report's claims. Player names are the display
names already shown in the server's channels; two players with one name are told apart
by their arrival number, never by their id.

Nothing here writes. `/tournament page on|off` is `TournamentService.set_page`.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from typing import Any

from bot.services.base import Service
from bot.services.profiles import profile_view
from bot.services.ratings import RatingsMemo
from bot.services.series import series_view
from bot.store.commits import Committed
from bot.store.uow import Store
from domain.decks import DeckEntry, read_stored_decklist
from domain.engine.placings import stage
from domain.engine.players import PlayerStatus
from domain.engine.results import MatchResult, ResultKind
from domain.engine.state import Phase
from domain.errors import NotFound, PermissionDenied
from domain.series.standings import TIEBREAKS
from domain.tournament.model import IN_EVENT, Tournament
from domain.tournament.operations import Actor as TournamentActor
from domain.tournament.operations import RenewLivePage, Role, SetLivePage
from domain.tournament.permissions import require_deck_visible
from domain.tournament.rounds import Match, Round, RoundKind
from domain.tournament.views import StandingLine, Views, bracket_seeds, knockout_rounds

log = logging.getLogger(__name__)

# The page's reader: no user id (0 is nobody's), no role beyond a player's.
ANONYMOUS = TournamentActor(0, Role.PLAYER)
PAGE_SWITCHES = frozenset({SetLivePage.kind, RenewLivePage.kind})
NOBODY = -1  # an owner who is not the reader, to ask the rule when there is no list yet
STANDINGS_PER_PAGE = 100
DECKLISTS_PER_PAGE = 50

# (tournament id, its new version, whether the commit switched its page on or off)
VersionListener = Callable[[int, int, bool], None]


def public_url(tournament: Tournament, base_url: str | None) -> str | None:
    """The tournament's live page as the public reaches it (see `Tournament.page_url`)."""
    return tournament.page_url(base_url)


@dataclass(frozen=True)
class PageRef:
    """Where a public page's tournament is, and the version it is at."""

    slug: str
    guild_id: int
    tournament_id: int
    version: int


@dataclass(frozen=True)
class LivePage:
    """A public page's tournament as of one version, and what is read about it (worked out
    once for the version, shared with the bot's commands and posts in its process)."""

    slug: str
    version: int
    tournament: Tournament
    views: Views
    # Table → its match room (a voice channel) in the newest round, where the event has
    # rooms: kept beside the tournament, read with its version (`Store.rooms_shown`).
    rooms: Mapping[int, int] = field(default_factory=dict)


class LiveService(Service):
    """Read-only: finds a public page's tournament; the views below say what it shows."""

    def __init__(self, store: Store, ratings: RatingsMemo, **shared: Any) -> None:
        super().__init__(store, **shared)
        self.ratings = ratings  # one server's ratings, kept once for every reader of them

    def watch(self, listener: VersionListener) -> Callable[[], None]:
        """`listener(tournament_id, version, switched)` after each commit this process makes
        or, on PostgreSQL, hears of from another; returns the function that stops it. A
        process that hears no commits (`python -m bot web`) polls `pages()` instead (a page
        switched off is one that is no longer listed)."""

        def on_commit(committed: Committed) -> None:
            if committed.tournament_id is not None and committed.version is not None:
                # Turned on or off, or moved: the page as it was must not be answered.
                switched = bool(PAGE_SWITCHES & set(committed.kinds))
                listener(committed.tournament_id, committed.version, switched)

        return self.store.commits.subscribe(on_commit)

    async def pages(self) -> list[PageRef]:
        """Every public page, with its tournament's version (for a page served by another
        process than the bot's, which hears no commits)."""
        return [PageRef(*row) for row in await self.store.page_versions()]

    async def open(self, slug: str) -> LivePage | None:
        """The tournament behind a public page's address, or None (no such page, or off)."""
        found = await self.store.page_versions(slug)
        if not found:
            return None
        ref = PageRef(*found[0])
        async with self.reader(ref.guild_id) as tx:
            tournament = await tx.load(ref.tournament_id)
            version = tx.versions.get(ref.tournament_id, ref.version)
        if tournament is None or not tournament.page_public or tournament.page_slug != slug:
            return None
        rooms: Mapping[int, int] = {}
        if tournament.settings.rooms and not tournament.phase.over and tournament.current_round:
            rooms = await self.store.rooms.rooms(tournament.id, tournament.current_round)
        return LivePage(slug, version, tournament, tx.views(tournament), rooms)

    # -- the series the event is in, the records players chose to show ------------------

    async def series_of(self, page: LivePage) -> list[SeriesPart]:
        """Each series the page's event is in, with its standings now (a series changes
        without the event changing: read afresh, never from the page's cache)."""
        tournament = page.tournament
        async with self.reader(tournament.guild_id) as tx:
            config = await tx.guild_config()
            views = [
                await series_view(tx, series, config.ratings, self.ratings)
                for series in await tx.books.series_of(tournament.id)
            ]
        parts = []
        for view in views:
            table = view.series.table
            rows = tuple(
                SeriesRowPart(
                    standing.rank,
                    standing.name,
                    standing.points,
                    standing.events_played,
                    standing.best_finish,
                    standing.swiss_points,
                    round(view.ratings[standing.player_id].ordinal, 2)
                    if view.ratings is not None and standing.player_id in view.ratings
                    else None,
                )
                for standing in view.standings
            )
            parts.append(
                SeriesPart(
                    name=view.series.name,
                    points=tuple((band.first, band.last, band.points) for band in table.bands),
                    participation=table.participation,
                    tiebreaks=tuple(tiebreak.value for tiebreak in TIEBREAKS),
                    events=tuple((e.name, e.event_date.isoformat()) for e in view.counted),
                    standings=rows,
                )
            )
        return parts

    async def profiles_of(self, page: LivePage) -> list[ProfilePart]:
        """The records of the event's players who chose to show them (/profile public), by
        the name the page shows them under; nobody else's."""
        tournament = page.tournament
        names = public_names(tournament, page.views)
        async with self.reader(tournament.guild_id) as tx:
            profiles = await tx.books.profiles()
            config = await tx.guild_config()
            shown = [p for user, p in profiles.items() if p.public and user in tournament.players]
            everything = await tx.tournaments() if shown else []
            ratings = None
            if shown and config.ratings.shown:
                ratings = self.ratings.of(tx.guild_id, everything, tx.versions)
        parts = []
        for profile in shown:
            view = profile_view(
                profile.user_id,
                names[profile.user_id],
                profile,
                everything,
                ratings=ratings,
                staff=False,
            )
            record = view.record
            parts.append(
                ProfilePart(
                    name=names[profile.user_id],
                    events_played=record.events_played,
                    event_wins=record.event_wins,
                    best_finish=record.best_finish,
                    swiss=(record.swiss.wins, record.swiss.losses, record.swiss.draws),
                    top_cut=(record.top_cut.wins, record.top_cut.losses, record.top_cut.draws),
                    titles=record.titles,
                    rating=round(view.rating.rating.ordinal, 2) if view.rating else None,
                    events=tuple(
                        EventPart(
                            event.name,
                            event.event_date.isoformat(),
                            event.placing.finish,
                            event.players,
                            (event.swiss + event.top_cut).wins,
                            (event.swiss + event.top_cut).losses,
                            (event.swiss + event.top_cut).draws,
                            event.placing.dropped,
                            event.placing.disqualified,
                        )
                        for event in record.events
                    ),
                )
            )
        parts.sort(key=lambda part: part.name)
        return parts


# -- names ----------------------------------------------------------------------------------


def public_names(tournament: Tournament, views: Views | None = None) -> Mapping[int, str]:
    """Each player's display name; a name two players share gets their arrival number
    ("Aoi #3"), so that no user id is ever needed to tell them apart. (`views`: the
    tournament's, to work them out once per version.)"""
    if views is not None:
        return views.memo("public names", lambda: public_names(tournament))
    counts = Counter(entry.display_name for entry in tournament.players.values())
    return {
        user: entry.display_name
        if counts[entry.display_name] == 1
        else f"{entry.display_name} #{entry.seq}"
        for user, entry in tournament.players.items()
    }


# -- the overview ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TableClock:
    table: int
    ends_at: datetime
    minutes: int  # the extension (R-MATCH-7)


@dataclass(frozen=True)
class Overview:
    name: str
    format: str
    regulation: str
    event_date: str
    phase: str
    time_limit_minutes: int
    planned_rounds: int | None
    top_cut: int | None
    registered: int  # still in the event
    dropped: int  # left it (R-FMT-7); the page counts them among those who entered
    disqualified: int
    waitlisted: int
    max_players: int | None
    current_round: int
    round_kind: str | None
    started_at: datetime | None
    ends_at: datetime | None
    extended: tuple[TableClock, ...]
    tables: int
    tables_finished: int
    # every round paired: (number, kind, the key of its name, the players of its stage);
    # the page names a top-cut round as people do: 準々決勝, 準決勝, 決勝
    rounds: tuple[tuple[int, str, str, int], ...]
    decks_published: bool
    has_bracket: bool


def overview(tournament: Tournament) -> Overview:
    current = tournament.current
    extended: tuple[TableClock, ...] = ()
    tables = finished = 0
    if current is not None:
        played = [m for m in current.matches if len(m.players) == 2]
        tables = len(played)
        finished = sum(1 for m in played if current.finished(m))
        extended = tuple(
            TableClock(m.table, ends, m.extension_minutes)
            for m in played
            if m.extension_minutes and (ends := current.table_ends_at(m)) is not None
        )
    return Overview(
        name=tournament.name,
        format=tournament.format.value,
        regulation=tournament.regulation,
        event_date=tournament.event_date.isoformat(),
        phase=tournament.phase.value,
        time_limit_minutes=tournament.time_limit_minutes,
        planned_rounds=tournament.round_count,
        top_cut=tournament.top_cut,
        registered=tournament.count(*IN_EVENT),
        dropped=tournament.count(PlayerStatus.DROPPED),
        disqualified=tournament.count(PlayerStatus.DISQUALIFIED),
        waitlisted=tournament.count(PlayerStatus.WAITLISTED),
        max_players=tournament.max_players,
        current_round=tournament.current_round,
        round_kind=current.kind.value if current else None,
        started_at=current.started_at if current else None,
        ends_at=current.ends_at if current else None,
        extended=extended,
        tables=tables,
        tables_finished=finished,
        rounds=tuple((r.number, r.kind.value, *_round_name(r)) for r in tournament.rounds),
        decks_published=decks_public(tournament),
        has_bracket=any(r.kind is RoundKind.ELIMINATION for r in tournament.rounds),
    )


def _round_name(played: Round) -> tuple[str, int]:
    """The key of a round's name in the page's catalog, and its stage's players."""
    if played.kind is RoundKind.SWISS:
        return "round", 0
    seats = stage(max(len(played.matches) * 2, 2))
    return f"stage_{seats.kind.value}", seats.players


# -- pairings -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    name: str
    points: int  # 勝ち点 going into the round


@dataclass(frozen=True)
class ShownResult:
    """A result as the page words it: its kind, the winner's seat (0, 1, None), the
    point-zone counts of a time-out, the seat that goes on after a drawn bracket match."""

    kind: str
    winner: int | None
    point_zone: tuple[int, int] | None
    advancing: int | None = None


@dataclass(frozen=True)
class Table:
    table: int
    seats: tuple[Seat, ...]  # two players, one for a bye, none for an empty bracket slot
    # ready (paired, the clock not started), playing, waiting (reported, not confirmed),
    # judge (disputed), finished
    state: str
    result: ShownResult | None
    extension_minutes: int
    ends_at: datetime | None
    # Its match room: a link that opens the voice channel in Discord (None: no room).
    room: str | None = None


@dataclass(frozen=True)
class Pairings:
    round: int
    kind: str
    ends_at: datetime | None
    tables: tuple[Table, ...]


def shown_result(match: Match, result: MatchResult | None) -> ShownResult | None:
    if result is None:
        return None
    if result.kind in (ResultKind.BYE, ResultKind.DOUBLE_LOSS, ResultKind.TIME_DRAW):
        winner = None
    else:
        found = result.winner(match.ids)
        winner = match.ids.index(found) if found in match.ids else None
    advancing = match.players.index(match.advancing) if match.advancing in match.players else None
    return ShownResult(result.kind.value, winner, result.point_zone, advancing)


def _state(played: Round, match: Match) -> str:
    if played.finished(match):
        return "finished"
    if match.disputed:
        return "judge"
    if match.reports:
        return "waiting"
    return "playing" if played.started_at is not None else "ready"


def room_link(guild_id: int, channel_id: int) -> str:
    """A link that opens a channel in Discord (the app, or the browser's client)."""
    return f"https://discord.com/channels/{guild_id}/{channel_id}"


def pairings(
    tournament: Tournament,
    number: int | None = None,
    views: Views | None = None,
    rooms: Mapping[int, int] | None = None,
) -> Pairings:
    """One round's tables (the current round by default); NotFound for a round not paired.
    `rooms`: each table's match room in the newest round (an older round's rooms belong
    to other tables now, and are not shown)."""
    views = views if views is not None else Views(tournament)
    played = tournament.round(number) if number is not None else tournament.current
    if played is None:
        raise NotFound("web.no_round")
    shown = rooms if rooms is not None and played.number == tournament.current_round else {}
    names = public_names(tournament, views)
    # 勝ち点 from the Swiss rounds before this one, as the pairings post shows them.
    points = views.points_before(played.number)
    tables = tuple(
        Table(
            table=match.table,
            seats=tuple(Seat(names[p], points.get(p, 0)) for p in match.players),
            state=_state(played, match),
            result=shown_result(match, match.result) if played.finished(match) else None,
            extension_minutes=match.extension_minutes,
            ends_at=played.table_ends_at(match),
            room=room_link(tournament.guild_id, shown[match.table])
            if match.table in shown
            else None,
        )
        for match in played.matches
    )
    return Pairings(played.number, played.kind.value, played.ends_at, tables)


# -- standings ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    rank: int
    name: str
    points: int
    opponents_points: Fraction
    record: str
    status: str  # active, dropped, disqualified
    top_cut: int | None = None  # after the finish: 1 優勝, 2 準優勝, 4 ベスト4, 8 ベスト8 …
    seed: int | None = None  # the bracket's seed, where seeded players share a rank


@dataclass(frozen=True)
class StandingsPage:
    final: bool
    after_round: int
    page: int  # from 1
    pages: int
    total: int
    per_page: int
    rows: tuple[Standing, ...]


def current_standings(tournament: Tournament, views: Views | None = None) -> Sequence[StandingLine]:
    """The one place the page reads standings from the domain: the final placings once the
    event has finished (top cut first), the Swiss standings before."""
    return (views if views is not None else Views(tournament)).placings


def standings(
    tournament: Tournament,
    page: int = 1,
    per_page: int = STANDINGS_PER_PAGE,
    views: Views | None = None,
) -> StandingsPage:
    """One page of the standings (ties share a rank, R-FMT-5); NotFound past the last page."""
    views = views if views is not None else Views(tournament)
    lines = current_standings(tournament, views)
    pages = max(1, -(-len(lines) // per_page))
    if not 1 <= page <= pages:
        raise NotFound("web.no_page")
    names = public_names(tournament, views)
    chunk = lines[(page - 1) * per_page : page * per_page]
    rows = tuple(
        Standing(
            rank=line.rank,
            name=names[line.user_id],
            points=line.points,
            opponents_points=line.opponents_points,
            record=line.record,
            status=line.status.value
            if line.status in (PlayerStatus.DROPPED, PlayerStatus.DISQUALIFIED)
            else "active",
            top_cut=line.top_cut.best if line.top_cut else None,
            seed=line.seed,
        )
        for line in chunk
    )
    return StandingsPage(
        final=tournament.phase is Phase.FINISHED,
        after_round=views.after_round,
        page=page,
        pages=pages,
        total=len(lines),
        per_page=per_page,
        rows=rows,
    )


# -- the bracket ----------------------------------------------------------------------------


@dataclass(frozen=True)
class BracketSeat:
    name: str
    seed: int | None


@dataclass(frozen=True)
class BracketMatch:
    seats: tuple[BracketSeat | None, BracketSeat | None]
    winner: int | None  # the seat that went on, once decided
    result: ShownResult | None
    double_loss: bool


@dataclass(frozen=True)
class Bracket:
    rounds: tuple[tuple[BracketMatch, ...], ...]  # every round of the bracket, later ones empty
    numbers: tuple[int, ...]  # the event's round number of each bracket round played


def bracket(tournament: Tournament, views: Views | None = None) -> Bracket:
    """The top cut (or the whole elimination event); NotFound before its first round."""
    played = [r for r in tournament.rounds if r.kind is RoundKind.ELIMINATION]
    if not played:
        raise NotFound("web.no_bracket")
    names = public_names(tournament, views)
    seeds = bracket_seeds(knockout_rounds(tournament)[0].matches)
    rounds: list[tuple[BracketMatch, ...]] = []
    for current in played:
        matches = []
        for match, advancing in zip(current.matches, current.advancing(), strict=True):
            players = (*match.players, None, None)[:2]
            decided = current.finished(match) and len(match.players) == 2
            winner = players.index(advancing) if decided and advancing in players else None
            seats = tuple(
                BracketSeat(names[p], seeds.get(p)) if p is not None else None for p in players
            )
            matches.append(
                BracketMatch(
                    (seats[0], seats[1]),
                    winner,
                    shown_result(match, match.result) if decided else None,
                    decided and match.result is not None and advancing is None,
                )
            )
        rounds.append(tuple(matches))
    first = len(rounds[0])
    total = max(first.bit_length(), len(rounds))
    while len(rounds) < total:
        empty = BracketMatch((None, None), None, None, False)
        rounds.append(tuple(empty for _ in range(max(1, first >> len(rounds)))))
    return Bracket(tuple(rounds), tuple(r.number for r in played))


# -- decklists and the titles played (after /deck publish only) -----------------------------


def decks_public(tournament: Tournament) -> bool:
    """Whether the page's anonymous reader may see every list: exactly `/deck show`'s rule."""
    owners = list(tournament.decks) or [NOBODY]
    try:
        for owner in owners:
            require_deck_visible(tournament, ANONYMOUS, owner)
    except PermissionDenied:
        return False
    return True


def require_decks_public(tournament: Tournament) -> None:
    """Refuse as "not found" (the page answers 404, never 403) while lists are private."""
    if not decks_public(tournament):
        raise NotFound("web.not_found")


@dataclass(frozen=True)
class DeckCard:
    title: str
    number: str
    name: str
    count: int


@dataclass(frozen=True)
class PublicDeck:
    number: int  # the player's arrival number: the list's address on the page
    name: str
    rank: int | None
    titles: tuple[str, ...]
    fingerprint: str
    total: int
    cards: tuple[DeckCard, ...]
    ex_cards: tuple[DeckCard, ...]


@dataclass(frozen=True)
class DecklistsPage:
    page: int
    pages: int
    total: int
    decks: tuple[PublicDeck, ...]  # without their cards: one list is `decklist`


def _ranks(tournament: Tournament, views: Views | None = None) -> Mapping[int, int]:
    known = views if views is not None else Views(tournament)
    return known.memo("public ranks", lambda: {line.user_id: line.rank for line in known.placings})


def _public_deck(
    tournament: Tournament,
    user_id: int,
    rank: int | None,
    cards: bool,
    names: Mapping[int, str],
) -> PublicDeck:
    stored = tournament.decks[user_id]
    entry = tournament.players[user_id]
    decklist = read_stored_decklist(stored.canonical)

    def listed(entries: Sequence[DeckEntry]) -> tuple[DeckCard, ...]:
        return tuple(DeckCard(e.key.title, e.key.number, e.name, e.count) for e in entries)

    titles = tuple(dict.fromkeys(line.title for line in decklist.lines))
    return PublicDeck(
        number=entry.seq,
        name=names[user_id],
        rank=rank,
        titles=titles,
        fingerprint=stored.fingerprint,
        total=stored.total,
        cards=listed(decklist.entries) if cards else (),
        ex_cards=listed(decklist.ex_entries) if cards else (),
    )


def _deck_owners(tournament: Tournament, views: Views | None = None) -> list[int]:
    """Owners of a list, best placing first, then by arrival."""
    ranks = _ranks(tournament, views)
    return sorted(
        tournament.decks,
        key=lambda user: (ranks.get(user, 1 << 30), tournament.players[user].seq),
    )


def decklists(tournament: Tournament, page: int = 1, views: Views | None = None) -> DecklistsPage:
    require_decks_public(tournament)
    views = views if views is not None else Views(tournament)
    owners = views.memo("deck owners", lambda: _deck_owners(tournament, views))
    pages = max(1, -(-len(owners) // DECKLISTS_PER_PAGE))
    if not 1 <= page <= pages:
        raise NotFound("web.no_page")
    ranks = _ranks(tournament, views)
    names = public_names(tournament, views)
    chunk = owners[(page - 1) * DECKLISTS_PER_PAGE : page * DECKLISTS_PER_PAGE]
    decks = tuple(
        _public_deck(tournament, user, ranks.get(user), cards=False, names=names) for user in chunk
    )
    return DecklistsPage(page, pages, len(owners), decks)


def decklist(tournament: Tournament, number: int, views: Views | None = None) -> PublicDeck:
    """One published list, by its player's arrival number."""
    require_decks_public(tournament)
    owner = next((e.user_id for e in tournament.players.values() if e.seq == number), None)
    if owner is None or owner not in tournament.decks:
        raise NotFound("web.not_found")
    rank = _ranks(tournament, views).get(owner)
    return _public_deck(tournament, owner, rank, cards=True, names=public_names(tournament, views))


@dataclass(frozen=True)
class TitleShare:
    title: str
    decks: int  # lists that play the title
    share: Fraction  # of all lists
    placings: tuple[int, ...]  # the ranks of those lists, best first
    best: int | None


@dataclass(frozen=True)
class TitleDistribution:
    decks: int
    titles: tuple[TitleShare, ...]  # most played first


def title_distribution(tournament: Tournament, views: Views | None = None) -> TitleDistribution:
    """作品分布: each title played, in how many lists and at which placings."""
    require_decks_public(tournament)
    ranks = _ranks(tournament, views)
    played: dict[str, list[int | None]] = {}
    for user, stored in tournament.decks.items():
        decklist = read_stored_decklist(stored.canonical)
        for title in dict.fromkeys(line.title for line in decklist.lines):
            played.setdefault(title, []).append(ranks.get(user))
    total = len(tournament.decks)
    shares = [
        TitleShare(
            title=title,
            decks=len(placed),
            share=Fraction(len(placed), total),
            placings=tuple(sorted(r for r in placed if r is not None)),
            best=min((r for r in placed if r is not None), default=None),
        )
        for title, placed in played.items()
    ]
    shares.sort(key=lambda s: (-s.decks, s.best or 1 << 30, s.title))
    return TitleDistribution(total, tuple(shares))


# -- which parts of the page a change touched -----------------------------------------------

PARTS = ("overview", "pairings", "standings", "bracket", "decklists", "titles")


def changed_parts(before: Tournament, after: Tournament) -> set[str]:
    """The parts of the page whose views may differ between two versions of a tournament
    (cheap: unchanged rounds and entries are the same objects from one version to the
    next). A part named here is fetched again by the readers; one left out must not have
    changed."""
    players = before.players is not after.players and before.players != after.players
    rounds = before.rounds != after.rounds
    phase = before.phase is not after.phase
    changed = set()
    if overview(before) != overview(after):
        changed.add("overview")
    if rounds or players:
        changed.add("pairings")
    if rounds or players or phase:
        changed |= {"standings", "bracket"}
    # Before the lists are public, a submitted list moves nothing: who is still changing
    # their deck is nobody's business.
    public = decks_public(after)
    decks = decks_public(before) != public or (public and before.decks != after.decks)
    if decks or (public and (rounds or players or phase)):
        changed |= {"decklists", "titles"}
    return changed


# -- the series an event is in, and the records of players who opted in ---------------------


@dataclass(frozen=True)
class SeriesRowPart:
    rank: int
    name: str
    points: int
    events_played: int
    best_finish: int | None
    swiss_points: int
    rating: float | None  # when the server shows ratings in the series


@dataclass(frozen=True)
class SeriesPart:
    """A series the page's event is in: its points table, the events that counted, its
    declared tiebreaks and its standings. Names as the events showed them; no user id."""

    name: str
    points: tuple[tuple[int, int, int], ...]  # (first place, last place, points)
    participation: int
    tiebreaks: tuple[str, ...]
    events: tuple[tuple[str, str], ...]  # (name, date) of each finished event, oldest first
    standings: tuple[SeriesRowPart, ...]


@dataclass(frozen=True)
class EventPart:
    name: str
    date: str
    place: int
    players: int
    wins: int
    losses: int
    draws: int
    dropped: bool
    disqualified: bool


@dataclass(frozen=True)
class ProfilePart:
    """A player of the page's event who chose to show their record (/profile public): the
    server's finished events, never a penalty or a user id."""

    name: str
    events_played: int
    event_wins: int
    best_finish: int | None
    swiss: tuple[int, int, int]  # wins, losses, draws
    top_cut: tuple[int, int, int]
    titles: tuple[tuple[str, int], ...]  # from published decklists only
    rating: float | None
    events: tuple[EventPart, ...]
