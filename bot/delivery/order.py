"""Which waiting notices may go now: the order a reader can see.

Notices to different places go out side by side, each place at its own pace. What must
not be overtaken:
- one table's notices, in the order they happened (a report's confirm request before its
  result, a dispute before the judge's decision), wherever each goes;
- a notice that leads others (`Traits.lead`): a round's pairings post before everything
  else of that round (its reports thread is opened on it; its reminders follow it), the
  final standings before what comes after them;
- within one place, the order of writing; a notice that has to wait keeps its place in the
  line of its first place, so a later notice for the same place waits behind it.

Pure: a list of the waiting notices in, the ones free to go out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from bot.notify.plan import TRAITS, Lead, Place
from bot.store.outbox import Outgoing

# The places configured once per server: a notice waiting for its turn holds their line.
SERVER_PLACES = frozenset(
    {Place.PAIRINGS, Place.STANDINGS, Place.ANNOUNCEMENTS, Place.JUDGES, Place.LOG, Place.STAFF}
)


def round_of(notice: Outgoing) -> int | None:
    number = notice.data.get("round")
    return number if isinstance(number, int) else None


def table_of(notice: Outgoing) -> tuple[int, int] | None:
    """(round, table) of a notice about one table; None for anything else."""
    number = round_of(notice)
    if number is None:
        return None
    table = notice.data.get("table")
    if isinstance(table, int):
        return number, table
    tables = notice.data.get("tables")
    if isinstance(tables, list) and len(tables) == 1 and isinstance(tables[0], int):
        return number, tables[0]
    return None


def first_place(notice: Outgoing) -> tuple[object, ...] | None:
    """The line a notice stands in before it is resolved to a channel: its first place."""
    if not notice.places:
        return None
    place = notice.places[0]
    if place in SERVER_PLACES:
        return (notice.guild_id, place)
    if place in (Place.PLAYER, Place.PLAYER_WITHOUT_THREAD):
        return ("dm", notice.user)
    if place in (Place.ROUND_THREAD, Place.ROUND_CHANNEL):
        return (notice.tournament_id, place, round_of(notice))
    return None


def free_to_go(waiting: Sequence[Outgoing], sending: Iterable[int] = ()) -> list[Outgoing]:
    """The notices of `waiting` (not done, oldest first) that may go out now; those whose
    ids are in `sending` are on their way already, and still hold back what follows them."""
    on_the_way = set(sending)
    held_tables: set[tuple[int | None, int, int]] = set()
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
            or (table is not None and (tournament, *table) in held_tables)
            or (line is not None and line in held_lines)
        )
        if not held and notice.id not in on_the_way:
            free.append(notice)
        if held and line is not None:
            held_lines.add(line)  # a later notice for the same place waits behind it
        # Until it is done, what follows it in its table, or what it leads, waits for it.
        if table is not None:
            held_tables.add((tournament, *table))
        lead = TRAITS[notice.say].lead
        if lead is Lead.ROUND and number is not None:
            held_rounds.add((tournament, number))
        elif lead is Lead.TOURNAMENT:
            held_tournaments.add(tournament)
    return free


class Order:
    """`free_to_go`, kept as notices come and go, so that a burst of thousands costs each
    notice a few lookups: what a newer notice must wait for is counted by key (its table,
    the round or tournament a waiting notice leads, the line of a notice held back), and
    the held-back notices are looked at again, in order, when one is done."""

    def __init__(self) -> None:
        self.known: dict[int, Outgoing] = {}  # not done, oldest first
        self.held: dict[int, Outgoing] = {}  # of those, the ones that must wait
        self._tables: Counter[tuple[int | None, int, int]] = Counter()
        self._rounds: Counter[tuple[int | None, int]] = Counter()
        self._tournaments: Counter[int | None] = Counter()
        self._lines: Counter[tuple[object, ...]] = Counter()

    def __len__(self) -> int:
        return len(self.known)

    @property
    def newest(self) -> int:
        return next(reversed(self.known), 0)

    def add(self, notice: Outgoing) -> bool:
        """A notice newer than every known one; True when it may go now."""
        assert notice.id > self.newest
        tournament, table, number = notice.tournament_id, table_of(notice), round_of(notice)
        line = first_place(notice)
        held = (
            self._tournaments[tournament] > 0
            or (number is not None and self._rounds[(tournament, number)] > 0)
            or (table is not None and self._tables[(tournament, *table)] > 0)
            or (line is not None and self._lines[line] > 0)
        )
        self.known[notice.id] = notice
        self._count(notice, 1)
        if held:
            self.held[notice.id] = notice
            if line is not None:
                self._lines[line] += 1
        return not held

    def done(self, notice_id: int) -> list[Outgoing]:
        """A notice is done (sent, skipped or failed): the held-back notices now free."""
        notice = self.known.pop(notice_id, None)
        if notice is None:
            return []
        self._count(notice, -1)
        if self.held.pop(notice_id, None) is not None:
            line = first_place(notice)
            if line is not None:
                self._lines[line] -= 1
        if not self.held:
            return []
        last = next(reversed(self.held))
        prefix = [known for known in self.known.values() if known.id <= last]
        on_the_way = [known.id for known in prefix if known.id not in self.held]
        freed = [n for n in free_to_go(prefix, on_the_way) if n.id in self.held]
        for free in freed:
            del self.held[free.id]
            line = first_place(free)
            if line is not None:
                self._lines[line] -= 1
        return freed

    def _count(self, notice: Outgoing, step: int) -> None:
        tournament, table, number = notice.tournament_id, table_of(notice), round_of(notice)
        if table is not None:
            self._tables[(tournament, *table)] += step
        lead = TRAITS[notice.say].lead
        if lead is Lead.ROUND and number is not None:
            self._rounds[(tournament, number)] += step
        elif lead is Lead.TOURNAMENT:
            self._tournaments[tournament] += step
