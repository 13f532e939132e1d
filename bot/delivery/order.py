"""Which waiting notices may go now: the order a reader can see.

Notices to different places go out side by side, each place at its own pace. What must
not be overtaken:
- one table's notices, in the order they happened (a report's confirm request before its
  result, a dispute before the judge's decision), wherever each goes. Where they stand in
  the same line (the same first place) they go to that place's lane together, which keeps
  their order and may gather them into one message; a staff decision (`urgent`), which
  goes ahead in its lane, still waits for the table's earlier notices to be done. The
  staff's places (#log, #judges) never wait behind the players' backlog: a notice there
  waits only for the table's earlier notices to the staff;
- a notice that leads others (`Traits.lead`): a round's pairings post before everything
  else of that round (its reports thread is opened on it; its reminders follow it), the
  final standings before what comes after them;
- within one place, the order of writing; a notice that has to wait keeps its place in the
  line of its first place, so a later notice for the same place waits behind it.

Pure: a list of the waiting notices in, the ones free to go out.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from bot.notify.plan import TRAITS, Lead, Place
from bot.store.outbox import Outgoing

# The places configured once per server: a notice waiting for its turn holds their line.
SERVER_PLACES = frozenset(
    {Place.PAIRINGS, Place.STANDINGS, Place.ANNOUNCEMENTS, Place.JUDGES, Place.LOG, Place.STAFF}
)
STAFF_PLACES = frozenset({Place.JUDGES, Place.LOG, Place.STAFF})


def is_staff_line(line: tuple[object, ...] | None) -> bool:
    return line is not None and len(line) == 2 and line[1] in STAFF_PLACES


def round_of(notice: Outgoing) -> int | None:
    return notice.data.about_round


def post_of(notice: Outgoing) -> tuple[object, ...]:
    """The post a refresh brings up to date."""
    return (notice.tournament_id, notice.say, notice.data.about_round)


def table_of(notice: Outgoing) -> tuple[int, int] | None:
    """(round, table) of a notice about one table; None for anything else."""
    number, table = notice.data.about_round, notice.data.about_table
    if number is None or table is None:
        return None
    return number, table


def first_place(notice: Outgoing) -> tuple[object, ...] | None:
    """The line a notice stands in before it is resolved to a channel: its first place."""
    if not notice.places:
        return None
    place = notice.places[0]
    if place in SERVER_PLACES:
        return (notice.guild_id, place)
    if place in (Place.PLAYER, Place.PLAYER_WITHOUT_THREAD, Place.PLAYER_WITHOUT_ROOM):
        return ("dm", notice.user)
    if place in (Place.ROUND_THREAD, Place.ROUND_CHANNEL):
        return (notice.tournament_id, place, round_of(notice))
    if place is Place.TABLE_ROOM:  # one table's room: its own line
        return (notice.tournament_id, place, table_of(notice))
    return None


def free_to_go(waiting: Sequence[Outgoing], sending: Iterable[int] = ()) -> list[Outgoing]:
    """The notices of `waiting` (not done, oldest first) that may go out now; those whose
    ids are in `sending` are on their way already, and still hold back what follows them."""
    on_the_way = set(sending)
    # A table with notices not done: the lines they stand in.
    held_tables: dict[tuple[int | None, int, int], set[tuple[object, ...] | None]] = {}
    held_rounds: set[tuple[int | None, int]] = set()
    held_tournaments: set[int | None] = set()
    held_lines: set[tuple[object, ...]] = set()
    free: list[Outgoing] = []
    for notice in waiting:
        tournament = notice.tournament_id
        number = round_of(notice)
        table = table_of(notice)
        line = first_place(notice)
        held = (
            tournament in held_tournaments
            or (number is not None and (tournament, number) in held_rounds)
            or (
                table is not None
                and _held_by_table(notice, line, held_tables.get((tournament, *table)))
            )
            or (line is not None and line in held_lines)
        )
        if not held and notice.id not in on_the_way:
            free.append(notice)
        if held and line is not None:
            held_lines.add(line)  # a later notice for the same place waits behind it
        # Until it is done, what follows it in its table, or what it leads, waits for it.
        if table is not None:
            held_tables.setdefault((tournament, *table), set()).add(line)
        lead = TRAITS[notice.say].lead
        if lead is Lead.ROUND and number is not None:
            held_rounds.add((tournament, number))
        elif lead is Lead.TOURNAMENT:
            held_tournaments.add(tournament)
    return free


def _held_by_table(
    notice: Outgoing,
    line: tuple[object, ...] | None,
    earlier_lines: set[tuple[object, ...] | None] | None,
) -> bool:
    """Whether earlier notices of the notice's table hold it back: those in another line
    do (for a notice to the staff, those to the staff only), and any do for a staff
    decision (it goes ahead in its lane)."""
    if not earlier_lines:
        return False
    if TRAITS[notice.say].urgent or line is None:
        return True
    if is_staff_line(line):
        earlier_lines = {earlier for earlier in earlier_lines if is_staff_line(earlier)}
    return bool(earlier_lines - {line})


TableKey = tuple[int | None, int, int]
RoundKey = tuple[int | None, int]
LineKey = tuple[object, ...]


class Order:
    """`free_to_go`, kept as notices come and go, so that a burst of thousands costs each
    notice a few lookups: what a newer notice must wait for is counted by key (its table,
    the round or tournament a waiting notice leads, the line of a notice held back). When
    one is done, only the held-back notices it could have held (its table's, its round's
    or tournament's if it leads them, its line's) are looked at again, in order, and
    behind each one freed the rest of its line."""

    def __init__(self) -> None:
        self.known: dict[int, Outgoing] = {}  # not done, oldest first
        self.held: dict[int, Outgoing] = {}  # of those, the ones that must wait
        # The known notices by what they hold back: a table's (oldest first), the leaders
        # of a round and of a tournament.
        self._tables: dict[TableKey, list[Outgoing]] = {}
        self._round_leads: dict[RoundKey, list[int]] = {}
        self._tournament_leads: dict[int | None, list[int]] = {}
        # The held-back notices by key, to look at again; a line's oldest first.
        self._held_tables: dict[TableKey, set[int]] = {}
        self._held_rounds: dict[RoundKey, set[int]] = {}
        self._held_tournaments: dict[int | None, set[int]] = {}
        self._held_lines: dict[LineKey, list[int]] = {}
        self._tournaments: Counter[int | None] = Counter()  # known notices of each

    def waiting_of(self, tournament_id: int | None) -> int:
        """How many of a tournament's notices are known (not done)."""
        return self._tournaments[tournament_id]

    def __len__(self) -> int:
        return len(self.known)

    @property
    def newest(self) -> int:
        return next(reversed(self.known), 0)

    def add(self, notice: Outgoing) -> bool:
        """A notice newer than every known one; True when it may go now."""
        assert notice.id > self.newest
        held = self._holds(notice)
        self.known[notice.id] = notice
        self._tournaments[notice.tournament_id] += 1
        table, number, lead = table_of(notice), round_of(notice), TRAITS[notice.say].lead
        if table is not None:
            self._tables.setdefault((notice.tournament_id, *table), []).append(notice)
        if lead is Lead.ROUND and number is not None:
            self._round_leads.setdefault((notice.tournament_id, number), []).append(notice.id)
        elif lead is Lead.TOURNAMENT:
            self._tournament_leads.setdefault(notice.tournament_id, []).append(notice.id)
        if held:
            self._hold(notice)
        return not held

    def done(self, notice_id: int) -> list[Outgoing]:
        """A notice is done (sent, skipped or failed): the held-back notices now free."""
        notice = self.known.pop(notice_id, None)
        if notice is None:
            return []
        self._tournaments[notice.tournament_id] -= 1
        if not self._tournaments[notice.tournament_id]:
            del self._tournaments[notice.tournament_id]
        was_held = notice_id in self.held
        if was_held:
            self._let_go(notice)
        tournament, table, number = notice.tournament_id, table_of(notice), round_of(notice)
        candidates: set[int] = set()
        if table is not None:
            key = (tournament, *table)
            _remove(self._tables, key, notice)
            candidates |= self._held_tables.get(key, set())
        lead = TRAITS[notice.say].lead
        if lead is Lead.ROUND and number is not None:
            _remove(self._round_leads, (tournament, number), notice_id)
            candidates |= self._held_rounds.get((tournament, number), set())
        elif lead is Lead.TOURNAMENT:
            _remove(self._tournament_leads, tournament, notice_id)
            candidates |= self._held_tournaments.get(tournament, set())
        line = first_place(notice)
        if was_held and line is not None:
            candidates |= {held for held in self._held_lines.get(line, ()) if held > notice_id}
        freed: list[Outgoing] = []
        looking = sorted(candidates)
        while looking:
            candidate = self.held.get(heapq.heappop(looking))
            if candidate is None or self._holds(candidate):
                continue
            self._let_go(candidate)
            freed.append(candidate)
            behind = first_place(candidate)
            for later in self._held_lines.get(behind, ()) if behind is not None else ():
                if later > candidate.id and later not in looking:
                    heapq.heappush(looking, later)
        return sorted(freed, key=lambda free: free.id)

    def _holds(self, notice: Outgoing) -> bool:
        """Whether the known notices older than `notice` hold it back (`free_to_go`)."""
        tournament, table, number = notice.tournament_id, table_of(notice), round_of(notice)
        line = first_place(notice)
        if any(lead < notice.id for lead in self._tournament_leads.get(tournament, ())):
            return True
        if number is not None and any(
            lead < notice.id for lead in self._round_leads.get((tournament, number), ())
        ):
            return True
        if table is not None:
            earlier = {
                first_place(other)
                for other in self._tables.get((tournament, *table), ())
                if other.id < notice.id
            }
            if _held_by_table(notice, line, earlier):
                return True
        if line is not None:
            return any(held < notice.id for held in self._held_lines.get(line, ()))
        return False

    def _hold(self, notice: Outgoing) -> None:
        self.held[notice.id] = notice
        tournament, table, number = notice.tournament_id, table_of(notice), round_of(notice)
        self._held_tournaments.setdefault(tournament, set()).add(notice.id)
        if number is not None:
            self._held_rounds.setdefault((tournament, number), set()).add(notice.id)
        if table is not None:
            self._held_tables.setdefault((tournament, *table), set()).add(notice.id)
        line = first_place(notice)
        if line is not None:
            self._held_lines.setdefault(line, []).append(notice.id)

    def _let_go(self, notice: Outgoing) -> None:
        del self.held[notice.id]
        tournament, table, number = notice.tournament_id, table_of(notice), round_of(notice)
        _discard(self._held_tournaments, tournament, notice.id)
        if number is not None:
            _discard(self._held_rounds, (tournament, number), notice.id)
        if table is not None:
            _discard(self._held_tables, (tournament, *table), notice.id)
        line = first_place(notice)
        if line is not None:
            _remove(self._held_lines, line, notice.id)


def _remove(index: dict[Any, list[Any]], key: Any, value: Any) -> None:
    values = index[key]
    values.remove(value)
    if not values:
        del index[key]


def _discard(index: dict[Any, set[int]], key: Any, value: int) -> None:
    values = index[key]
    values.discard(value)
    if not values:
        del index[key]
