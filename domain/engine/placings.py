"""Final placings (R-FMT-1, R-FMT-5): the top cut's placings first, then everyone else in
the Swiss standings' order.

The winner of the top cut is first, the other finalist second, and every other player of
the bracket is placed by the round they went out in, sharing that rank: the two who lost a
semifinal are both 3rd (ベスト4), the four who lost a quarterfinal 5th (ベスト8). A player
who left the event while still in the bracket (R-FMT-7, R-PEN-4) goes out in the round
they were not paired for: their next opponent advanced with a bye.

A placing can put a player above someone with more points (the winner of the top cut with
9 points above a finalist with 12): such lines carry an explanation the renderer shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction

from domain.engine.results import MatchResult
from domain.engine.standings import Standing, with_rank
from domain.errors import InvalidInput


class StageKind(StrEnum):
    FINAL = "final"  # 決勝
    SEMIFINAL = "semifinal"  # 準決勝
    QUARTERFINAL = "quarterfinal"  # 準々決勝
    ROUND_OF = "round_of"  # an earlier round: the round of 16, of 32, …


@dataclass(frozen=True)
class Stage:
    """A knockout round named by the seats of its bracket: 2 the final, 4 the semifinals,
    8 the quarterfinals, 16 the round of 16, …"""

    players: int

    @property
    def kind(self) -> StageKind:
        return {
            2: StageKind.FINAL,
            4: StageKind.SEMIFINAL,
            8: StageKind.QUARTERFINAL,
        }.get(self.players, StageKind.ROUND_OF)


def stage(players_left: int) -> Stage:
    """The stage of a knockout round from the players left in it: 2 → the final, 4 → a
    semifinal, 8 → a quarterfinal, 16 → the round of 16. A field short of a power of two
    (byes fill the seats) counts as the bracket it fills: 6 players are a quarterfinal."""
    if players_left < 2:
        raise InvalidInput("engine.elimination.too_few_players", players=players_left)
    return Stage(1 << (players_left - 1).bit_length())


class PlaceKind(StrEnum):
    WINNER = "winner"  # 優勝
    RUNNER_UP = "runner_up"  # 準優勝
    BEST = "best"  # ベスト4, ベスト8, ベスト16, …


@dataclass(frozen=True)
class TopCutPlace:
    """Where a player finished in the top cut: `best` is 1 for the winner, 2 for the
    runner-up, and for everyone else the bracket seats of the round they went out in
    (4: ベスト4, 8: ベスト8, …)."""

    best: int

    @property
    def kind(self) -> PlaceKind:
        if self.best == 1:
            return PlaceKind.WINNER
        if self.best == 2:
            return PlaceKind.RUNNER_UP
        return PlaceKind.BEST


class PlacingExplanation(StrEnum):
    """Why a line stands above a line with more points (or a better tiebreak)."""

    WON_TOP_CUT = "won_top_cut"  # the top cut's winner is first, whatever the points
    WENT_FURTHER_IN_TOP_CUT = "went_further_in_top_cut"  # out in a later knockout round


@dataclass(frozen=True)
class KnockoutMatch:
    """One slot of a knockout round: two players, one (a bye) or none (an empty slot after
    a double loss, R-PEN-3), the result, and who the judge sent on from a draw (R-FMT-1)."""

    players: tuple[str, ...]
    result: MatchResult | None = None
    decided: str | None = None

    @property
    def advancing(self) -> str | None:
        """Who goes on from this slot: the winner, the bye, the judge's choice, or nobody."""
        if self.decided is not None:
            return self.decided
        if len(self.players) == 1:
            return self.players[0]
        if self.result is None or not self.players:
            return None
        return self.result.winner(self.players)


@dataclass(frozen=True)
class Placing:
    """One line of the final placings: the Swiss standing with its final `rank`."""

    standing: Standing
    top_cut: TopCutPlace | None = None
    explanation: PlacingExplanation | None = None

    @property
    def rank(self) -> int:
        return self.standing.rank

    @property
    def player(self) -> str:
        return self.standing.player


def top_cut_bands(
    knockout: Sequence[Sequence[KnockoutMatch]],
) -> list[tuple[TopCutPlace, list[str]]]:
    """The top cut's placings, best first, from its rounds in order, each round's slots in
    bracket order: the winner, the runner-up, then each round's losers. A bracket not yet
    down to its final places nobody."""
    if not knockout or len(knockout[-1]) != 1:
        return []
    bands: list[tuple[TopCutPlace, list[str]]] = []
    champion = knockout[-1][0].advancing
    if champion is not None:
        bands.append((TopCutPlace(1), [champion]))
    for index in range(len(knockout) - 1, -1, -1):
        played = knockout[index]
        out = [p for match in played for p in match.players if p != match.advancing]
        if index > 0:
            # R-FMT-7, R-PEN-4: advanced from the round before, then left: out in this one.
            seated = {p for match in played for p in match.players}
            out += [
                p
                for match in knockout[index - 1]
                if (p := match.advancing) is not None and p not in seated
            ]
        if out:
            bands.append((TopCutPlace(2 * len(played)), out))
    return bands


def final_placings(
    standings: Sequence[Standing], knockout: Sequence[Sequence[KnockoutMatch]]
) -> tuple[Placing, ...]:
    """The final placings: the top cut's bands (each in the Swiss standings' order, sharing
    a rank), then everyone else in the Swiss standings' order, ties sharing a rank
    (R-FMT-5). Without a finished bracket, the Swiss standings as they are."""
    bands = top_cut_bands(knockout)
    order = {row.player: index for index, row in enumerate(standings)}
    placed: list[Placing] = []
    in_top_cut: set[str] = set()
    for place, players in bands:
        rank = len(placed) + 1
        for player in sorted(players, key=order.__getitem__):
            placed.append(Placing(with_rank(standings[order[player]], rank), place))
        in_top_cut.update(players)
    previous: Standing | None = None
    rank = 0
    for row in standings:
        if row.player in in_top_cut:
            continue
        if previous is None or row.sort_key != previous.sort_key:
            rank = len(placed) + 1  # a tie shares the rank of its first line
        placed.append(Placing(with_rank(row, rank)))
        previous = row
    return _explained(placed)


def _explained(placed: list[Placing]) -> tuple[Placing, ...]:
    """Each top-cut line placed above a better Swiss line gets its explanation (one pass
    from the bottom, keeping the best Swiss line seen below)."""
    lines = list(placed)
    best_below: tuple[int, Fraction] | None = None
    for index in range(len(lines) - 1, -1, -1):
        line = lines[index]
        key = line.standing.sort_key
        if line.top_cut is not None and best_below is not None and best_below > key:
            why = (
                PlacingExplanation.WON_TOP_CUT
                if line.top_cut.kind is PlaceKind.WINNER
                else PlacingExplanation.WENT_FURTHER_IN_TOP_CUT
            )
            lines[index] = replace(line, explanation=why)
        if best_below is None or key > best_below:
            best_below = key
    return tuple(lines)


def prize_order(placings: Sequence[Placing], strict: Sequence[Standing]) -> tuple[Placing, ...]:
    """R-FMT-5: one rank per player where prizes need it. Each top-cut band and each tie
    below it is broken by `strict`, the Swiss standings in a strict order drawn from the
    recorded seed (`strict_order`)."""
    drawn = {row.player: index for index, row in enumerate(strict)}
    ordered = sorted(placings, key=lambda line: (line.rank, drawn.get(line.player, len(drawn))))
    return tuple(
        line if line.rank == index else replace(line, standing=with_rank(line.standing, index))
        for index, line in enumerate(ordered, start=1)
    )
