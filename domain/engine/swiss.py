"""Swiss pairing (R-FMT-3, R-FMT-7): fast greedy, exact repair where needed, explained.

Players are ordered by points, best first, in an order drawn from the round's seed within
each points group (so round 1, where everyone has 0, is a random pairing). The bye goes to
a lowest-scored player who has not had one. The rest are paired:

1. Greedily, in order: each player meets the next compatible (not yet met) player. That
   pairs within points groups and floats the odd player of a group down one group.
2. The result is checked against the quality target. With no rematch, every pair inside
   one group or the next, and each group boundary crossed only when an odd number of
   players sits above it, the pairing is provably optimal (the "groups crossed" total is
   at its lower bound, and so is the sum of squared point differences); that is the
   usual case and costs nothing more.
3. Otherwise a field of at most 256 players is solved whole and exactly with a blossom
   matching (`domain.engine.matching`): each pair costs its groups crossed, then its
   squared point difference, a rematch a prohibitive amount more, so none remains that
   could be avoided. The solve is warm-started from the greedy pairing and runs on a
   small graph (players at most 8 places and 2 groups apart); its LP prices prove that
   no pair left out could do better, or name the groups to add (then it runs again).
4. A larger field re-solves each faulty pair exactly over a window of ±12 ranks around
   it (plus the partners of the players in it), rematch edges left out. Windows grow
   (±48, …) while faults remain; one still holding a rematch is finally solved whole.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from domain.engine.explanation import Explanation
from domain.engine.history import SwissEntrant, entrants_from_history
from domain.engine.matching import (
    Prices,
    min_cost_perfect_matching,
    min_cost_perfect_matching_with_prices,
)
from domain.engine.players import Player
from domain.engine.results import RecordedMatch
from domain.errors import InvalidInput

WINDOW_RADIUS = 12
WINDOW_GROWTH = 4
# Fields up to this size are solved whole and exactly when greedy is not provably optimal
# (the limit the worst-case sweep set: docs/BENCHMARKS.md, "Worst case:
# `bench/pairing_worst.py`"); larger ones repair windows around faults.
EXACT_FIELD_LIMIT = 256
# Past this size a whole-field solve is too slow for a live event; a rematch still left
# after windows of ±192 ranks stays (in practice no such field has an avoidable one).
WHOLE_FIELD_LIMIT = 512
MAX_WINDOW_RADIUS = 192
# Whole-field solves first offer only pairs this many groups and places apart; the
# solve's prices prove the rest could not do better (or name the groups to add).
GROUP_REACH = 2
RANK_BAND = 8


@dataclass(frozen=True)
class SwissPairing:
    """One round's pairing: pairs best table first (higher-ranked player first), the bye,
    the explanation, and the quality measures the tests and the simulator report."""

    round: int
    pairs: tuple[tuple[str, str], ...]
    bye: str | None
    explanation: tuple[Explanation, ...]
    groups_crossed: int
    lower_bound: int
    pair_downs: tuple[tuple[str, str], ...]
    rematches: tuple[tuple[str, str], ...]


def pair_swiss_round(
    entrants: Sequence[SwissEntrant], seed: int, round_number: int = 1
) -> SwissPairing:
    """Pair one Swiss round of the active `entrants` (see the module docstring)."""
    _check_unique(entrants)
    order = _seeded_order(entrants, seed)
    bye, bye_note = _choose_bye(order)
    field = _Field([entrant for entrant in order if entrant is not bye])
    partner = _greedy(field)
    partner = _repair(field, partner)
    if field.rematch_pairs(partner) and bye is not None:
        # A different bye might free a rematch-free pairing: let an exact solve choose it.
        moved = _solve_with_bye_choice(order, field, partner)
        if moved is not None:
            bye, field, partner = moved
            bye_note = Explanation(
                "engine.explain.bye_to_avoid_rematch", {"player": bye.player, "points": bye.points}
            )
    return _result(field, partner, bye, bye_note, seed, round_number)


def pair_next_round(
    players: Sequence[Player], matches: Iterable[RecordedMatch], seed: int
) -> SwissPairing:
    """Pair the round after the last one in `matches`, for the active `players` only."""
    history = list(matches)
    round_number = max((match.round for match in history), default=0) + 1
    return pair_swiss_round(entrants_from_history(players, history), seed, round_number)


# -- ordering and the bye ---------------------------------------------------------------


def _check_unique(entrants: Sequence[SwissEntrant]) -> None:
    seen: set[str] = set()
    for entrant in entrants:
        if entrant.player in seen:
            raise InvalidInput("engine.swiss.duplicate_player", player=entrant.player)
        seen.add(entrant.player)


def _seeded_order(entrants: Sequence[SwissEntrant], seed: int) -> list[SwissEntrant]:
    """Points first; within a points group, an order drawn from `seed` (R-FMT-3)."""
    order = sorted(entrants, key=lambda entrant: entrant.player)
    random.Random(seed).shuffle(order)
    order.sort(key=lambda entrant: -entrant.points)
    return order


def _choose_bye(order: list[SwissEntrant]) -> tuple[SwissEntrant | None, Explanation | None]:
    """The last-ordered of the lowest-scored players without a bye, if the count is odd."""
    if len(order) % 2 == 0:
        return None, None
    for skipped, entrant in enumerate(reversed(order)):
        if entrant.byes == 0:
            params: dict[str, str | int] = {"player": entrant.player, "points": entrant.points}
            if skipped:
                params["skipped"] = skipped
                return entrant, Explanation("engine.explain.bye_skipped_had_bye", params)
            return entrant, Explanation("engine.explain.bye_lowest", params)
    # Everyone has had a bye: a second one cannot be avoided.
    last = order[-1]
    return last, Explanation(
        "engine.explain.bye_repeat", {"player": last.player, "points": last.points}
    )


# -- the field in rank order --------------------------------------------------------------


class _Field:
    """The players to pair, in rank order, as positions 0..m-1 with their points groups."""

    def __init__(self, players: list[SwissEntrant]) -> None:
        self.players = players
        self.points = [entrant.points for entrant in players]
        self.names = [entrant.player for entrant in players]
        self.met_names = [entrant.opponents for entrant in players]
        self.opponents = _OpponentPositions(self.names, self.met_names)
        self.group: list[int] = []
        self.group_sizes: list[int] = []
        for points in self.points:
            if not self.group_sizes or points != self.points[len(self.group) - 1]:
                self.group_sizes.append(0)
            self.group.append(len(self.group_sizes) - 1)
            self.group_sizes[-1] += 1
        # A boundary below group b must be crossed when an odd number of players is above it.
        above = 0
        self.odd_boundary: list[int] = []
        for size in self.group_sizes[:-1]:
            above += size
            self.odd_boundary.append(above % 2)
        self.lower_bound = sum(self.odd_boundary)

    def __len__(self) -> int:
        return len(self.players)

    def met(self, i: int, j: int) -> bool:
        """Whether the players at positions i and j have played each other."""
        return self.names[j] in self.met_names[i]

    def pairs(self, partner: list[int]) -> list[tuple[int, int]]:
        return [(i, j) for i, j in enumerate(partner) if i < j]

    def rematch_pairs(self, partner: list[int]) -> list[tuple[int, int]]:
        names, met = self.names, self.met_names
        return [(i, j) for i, j in self.pairs(partner) if names[j] in met[i]]

    def crossings(self, partner: list[int]) -> list[int]:
        """How many pairs cross each group boundary."""
        count = [0] * len(self.odd_boundary)
        group = self.group
        for i, j in enumerate(partner):
            if i < j and group[i] != group[j]:
                for boundary in range(group[i], group[j]):
                    count[boundary] += 1
        return count

    def faults(self, partner: list[int]) -> list[tuple[int, int]]:
        """Pairs that keep the pairing from being provably optimal (module docstring)."""
        count = self.crossings(partner)
        group, names, met, odd = self.group, self.names, self.met_names, self.odd_boundary
        faulty = []
        for i, j in enumerate(partner):
            if i > j:
                continue
            crossed = group[j] - group[i]
            if (
                names[j] in met[i]
                or crossed > 1
                or (crossed == 1 and count[group[i]] > odd[group[i]])
            ):
                faulty.append((i, j))
        return faulty

    def pair_cost(self, i: int, j: int, crossing_weight: int) -> int:
        """Groups crossed first, then the squared point difference."""
        low, high = (i, j) if i < j else (j, i)
        crossed = self.group[high] - self.group[low]
        return crossed * crossing_weight + (self.points[low] - self.points[high]) ** 2


class _OpponentPositions:
    """Each player's opponents as field positions, worked out for a player when first asked
    (the greedy pass and the checks use names; only exact solves need positions)."""

    def __init__(self, names: list[str], met_names: list[frozenset[str]]) -> None:
        self._names = names
        self._met_names = met_names
        self._position: dict[str, int] | None = None
        self._sets: list[set[int] | None] = [None] * len(names)

    def __getitem__(self, i: int) -> set[int]:
        found = self._sets[i]
        if found is None:
            if self._position is None:
                self._position = {name: k for k, name in enumerate(self._names)}
            position = self._position
            found = {position[o] for o in self._met_names[i] if o in position}
            self._sets[i] = found
        return found


# -- step 1: greedy -----------------------------------------------------------------------


def _greedy(field: _Field) -> list[int]:
    """Pair each first unpaired player with the next unpaired one not met before."""
    size = len(field)
    following = list(range(1, size + 1))  # a linked list of the unpaired positions
    preceding = list(range(-1, size - 1))
    partner = [-1] * size
    head = 0

    def unlink(k: int) -> None:
        nonlocal head
        before, after = preceding[k], following[k]
        if before >= 0:
            following[before] = after
        else:
            head = after
        if after < size:
            preceding[after] = before

    while head < size:
        i = head
        unlink(i)
        met, names = field.met_names[i], field.names
        j = head
        while j < size and names[j] in met:
            j = following[j]
        if j == size:
            j = head  # only rematches left: take the nearest; the repair deals with it
        unlink(j)
        partner[i], partner[j] = j, i
    return partner


# -- steps 2 and 3: check and repair ----------------------------------------------------


def _repair(field: _Field, partner: list[int]) -> list[int]:
    faults = field.faults(partner)
    if not faults:
        return partner
    if len(field) <= EXACT_FIELD_LIMIT:
        return _solve_whole_field(field, partner)
    radius = WINDOW_RADIUS
    while faults:
        if 2 * radius >= len(field) or radius > MAX_WINDOW_RADIUS:
            has_rematch = any(field.met(i, j) for i, j in faults)
            if has_rematch and len(field) <= WHOLE_FIELD_LIMIT:
                partner = _solve_whole_field(field, partner)
            break
        for low, high in _windows(faults, radius, len(field)):
            _solve_window(field, partner, low, high)
        radius *= WINDOW_GROWTH
        if radius > WINDOW_RADIUS * WINDOW_GROWTH and not field.rematch_pairs(partner):
            break  # only extra groups crossed, already optimal within ±48 ranks
        faults = field.faults(partner)
    return partner


def _windows(faults: list[tuple[int, int]], radius: int, size: int) -> list[tuple[int, int]]:
    """Rank ranges of ±radius around each faulty pair, overlapping ones merged."""
    merged: list[tuple[int, int]] = []
    for i, j in sorted(faults):
        low, high = max(0, i - radius), min(size - 1, j + radius)
        if merged and low <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return merged


def _solve_window(field: _Field, partner: list[int], low: int, high: int) -> None:
    """Re-pair the window (and its players' partners) optimally, without rematches."""
    members = sorted(set(range(low, high + 1)) | {partner[k] for k in range(low, high + 1)})
    spread = field.points[members[0]] - field.points[members[-1]]
    weight = (len(members) // 2 + 1) * spread * spread + 1
    edges = [
        (a, b, field.pair_cost(members[a], members[b], weight))
        for a in range(len(members))
        for b in range(a + 1, len(members))
        if members[b] not in field.opponents[members[a]]
    ]
    index = {k: a for a, k in enumerate(members)}
    start = [index.get(partner[k], -1) for k in members]
    mate = min_cost_perfect_matching(len(members), edges, start)
    if mate is None:
        return  # no rematch-free pairing inside this window: a wider one may find one
    old = sum(field.pair_cost(k, partner[k], weight) for k in members if k < partner[k])
    new = sum(cost for a, b, cost in edges if mate[a] == b)
    if new < old or any(field.met(k, partner[k]) for k in members):
        for a, b in enumerate(mate):
            partner[members[a]] = members[b]


def _solve_whole_field(field: _Field, partner: list[int]) -> list[int]:
    """Exact solve of the whole field; rematches only where nothing else is possible."""
    size = len(field)
    spread = field.points[0] - field.points[-1]
    weight = (size // 2 + 1) * spread * spread + 1
    rematch_cost = (size // 2 + 1) * (len(field.group_sizes) * weight + spread * spread) + 1
    mate = _solve_by_group_reach(field, partner, weight, rematch_cost)
    return mate if mate is not None else partner


def _solve_by_group_reach(
    field: _Field, partner: list[int], weight: int, rematch_cost: int
) -> list[int] | None:
    """Min-cost perfect matching of the field, exact, on a graph kept small.

    At first only players at most `RANK_BAND` places apart and at most `GROUP_REACH`
    groups apart are offered as pairs. The solve's prices (LP duals) then show whether a
    pair left out could still lower the cost; every pair between the groups of such a
    pair is then offered and the solve repeated, warm-started from the last answer,
    until none could. A non-rematch pair's cost depends only on the two groups, so the
    check looks at the dearest players of each group first and stops early.
    """
    size = len(field)
    groups = len(field.group_sizes)
    group, opponents = field.group, field.opponents
    members: list[list[int]] = [[] for _ in range(groups)]
    for k in range(size):
        members[group[k]].append(k)
    first = [m[0] for m in members]
    group_cost = [
        [
            abs(h - g) * weight + (field.points[first[g]] - field.points[first[h]]) ** 2
            for h in range(groups)
        ]
        for g in range(groups)
    ]
    # Per pair of groups: 0 nothing offered, 1 pairs within the rank band, 2 every pair.
    offered = [[int(abs(h - g) <= GROUP_REACH) for h in range(groups)] for g in range(groups)]

    def cost(i: int, j: int) -> int:
        paid = group_cost[group[i]][group[j]]
        return paid + rematch_cost if j in opponents[i] else paid

    def is_offered(i: int, j: int) -> bool:
        state = offered[group[i]][group[j]]
        return state == 2 or (state == 1 and abs(i - j) <= RANK_BAND)

    start = partner
    while True:
        edges: list[tuple[int, int, int]] = []
        for i in range(size):
            gi = group[i]
            row = offered[gi]
            band_end = min(size, i + RANK_BAND + 1)
            edges.extend((i, j, cost(i, j)) for j in range(i + 1, band_end) if row[group[j]])
            for h in range(gi, groups):
                if row[h] == 2:
                    edges.extend((i, j, cost(i, j)) for j in members[h] if j >= band_end)
        solved = min_cost_perfect_matching_with_prices(size, edges, start)
        if solved is None:
            return None
        mate, prices = solved

        def cleared(u: int, v: int, prices: Prices = prices) -> bool:
            return is_offered(u, v) or prices.cannot_improve(u, v, cost(u, v))

        candidates = {(g, h) for g in range(groups) for h in range(g, groups) if offered[g][h] < 2}
        widen = prices.improving_classes(group, candidates, lambda g, h: group_cost[g][h], cleared)
        if not widen:
            return mate
        for g, h in widen:
            offered[g][h] = offered[h][g] = 2
        start = mate


def _solve_with_bye_choice(
    order: list[SwissEntrant], field: _Field, partner: list[int]
) -> tuple[SwissEntrant, _Field, list[int]] | None:
    """Exact solve with a stand-in 'bye' player, when the chosen bye forced a rematch.

    Costs, most important first: a second bye, a rematch, the bye going above the lowest
    group with a player without a bye, groups crossed, squared point differences.
    """
    if len(order) > EXACT_FIELD_LIMIT:
        return None
    everyone = _Field(order)
    size = len(everyone)
    spread = everyone.points[0] - everyone.points[-1]
    groups = len(everyone.group_sizes)
    weight = (size // 2 + 1) * spread * spread + 1
    bye_weight = (size // 2 + 1) * (groups * weight + spread * spread) + 1
    rematch_cost = groups * bye_weight * 2
    second_bye_cost = (size // 2 + 1) * rematch_cost + 1
    eligible_groups = [everyone.group[k] for k in range(size) if everyone.players[k].byes == 0]
    lowest_eligible = max(eligible_groups, default=groups - 1)
    edges = [
        (
            i,
            j,
            everyone.pair_cost(i, j, weight) + (rematch_cost if j in everyone.opponents[i] else 0),
        )
        for i in range(size)
        for j in range(i + 1, size)
    ]
    for k, entrant in enumerate(everyone.players):
        distance = abs(lowest_eligible - everyone.group[k])
        cost = distance * bye_weight + (second_bye_cost if entrant.byes and eligible_groups else 0)
        edges.append((k, size, cost))
    # Warm start: the pairing so far, with the chosen bye paired to the stand-in.
    index = {entrant.player: k for k, entrant in enumerate(order)}
    start = [size] * (size + 1)
    for k, entrant in enumerate(field.players):
        start[index[entrant.player]] = index[field.players[partner[k]].player]
    start[size] = next(k for k in range(size) if start[k] == size)
    mate = min_cost_perfect_matching(size + 1, edges, start)
    if mate is None:
        return None
    bye = everyone.players[mate[size]]
    moved_field = _Field([entrant for entrant in order if entrant is not bye])
    position = {entrant.player: index for index, entrant in enumerate(moved_field.players)}
    moved_partner = [-1] * len(moved_field)
    for k in range(size):
        if k != mate[size]:
            mine = position[everyone.players[k].player]
            moved_partner[mine] = position[everyone.players[mate[k]].player]
    if len(moved_field.rematch_pairs(moved_partner)) >= len(field.rematch_pairs(partner)):
        return None
    return bye, moved_field, moved_partner


# -- the answer and its explanation ------------------------------------------------------


def _result(
    field: _Field,
    partner: list[int],
    bye: SwissEntrant | None,
    bye_note: Explanation | None,
    seed: int,
    round_number: int,
) -> SwissPairing:
    names = [entrant.player for entrant in field.players]
    pairs = field.pairs(partner)
    count = field.crossings(partner)
    notes = [
        Explanation(
            "engine.explain.order",
            {"round": round_number, "seed": seed, "groups": len(field.group_sizes)},
        )
    ]
    if bye_note is not None:
        notes.append(bye_note)
    pair_downs: list[tuple[str, str]] = []
    rematches: list[tuple[str, str]] = []
    for i, j in pairs:
        if field.met(i, j):
            rematches.append((names[i], names[j]))
            notes.append(
                Explanation(
                    "engine.explain.rematch_unavoidable", {"player": names[i], "opponent": names[j]}
                )
            )
        if field.group[i] != field.group[j]:
            pair_downs.append((names[i], names[j]))
            notes.append(_pair_down_note(field, count, i, j))
    return SwissPairing(
        round=round_number,
        pairs=tuple((names[i], names[j]) for i, j in pairs),
        bye=bye.player if bye is not None else None,
        explanation=tuple(notes),
        groups_crossed=sum(count),
        lower_bound=field.lower_bound,
        pair_downs=tuple(pair_downs),
        rematches=tuple(rematches),
    )


def _pair_down_note(field: _Field, count: list[int], i: int, j: int) -> Explanation:
    upper, lower = field.players[i], field.players[j]
    params: dict[str, str | int] = {
        "player": upper.player,
        "points": upper.points,
        "opponent": lower.player,
        "opponent_points": lower.points,
    }
    boundary = field.group[i]
    if field.group[j] - boundary == 1 and count[boundary] == field.odd_boundary[boundary] == 1:
        # An odd number of players had these points or more: one of them had to go down.
        params["above"] = sum(field.group_sizes[: boundary + 1])
        return Explanation("engine.explain.pair_down_odd_group", params)
    return Explanation("engine.explain.pair_down_avoid_rematch", params)
