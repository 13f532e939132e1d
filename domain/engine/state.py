"""The tournament state machine: registration → running → top cut → finished, or, before
the start, registration → cancelled (中止).

While running, each Swiss round goes paired → in progress → complete; it completes by
itself when the last table reports. Every step returns a new state; a step the current
state does not allow raises `IllegalTransition` naming what is missing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum

from domain.errors import IllegalTransition, InvalidInput


class Phase(StrEnum):
    REGISTRATION = "registration"
    RUNNING = "running"
    TOP_CUT = "top_cut"
    FINISHED = "finished"
    CANCELLED = "cancelled"  # called off before the start (中止): nothing more happens

    @property
    def over(self) -> bool:
        """Nothing more happens: finished, or cancelled before the start."""
        return self in (Phase.FINISHED, Phase.CANCELLED)


class RoundStatus(StrEnum):
    PAIRED = "paired"
    IN_PROGRESS = "in_progress"
    COMPLETE = "complete"


@dataclass(frozen=True)
class RoundState:
    number: int
    status: RoundStatus
    tables: frozenset[int]
    reported: frozenset[int] = frozenset()

    @property
    def missing_tables(self) -> list[int]:
        return sorted(self.tables - self.reported)


@dataclass(frozen=True)
class TournamentState:
    phase: Phase = Phase.REGISTRATION
    planned_rounds: int = 0
    current: RoundState | None = None

    @property
    def round_number(self) -> int:
        return self.current.number if self.current else 0

    def start(self, planned_rounds: int) -> TournamentState:
        """Close registration and start the Swiss rounds (R-FMT-2: a fixed number)."""
        self._require(Phase.REGISTRATION, "start")
        if planned_rounds < 1:
            raise InvalidInput(
                "engine.rounds.invalid_override", rounds=planned_rounds, rule="R-FMT-2"
            )
        return replace(self, phase=Phase.RUNNING, planned_rounds=planned_rounds)

    def pair_round(self, tables: Iterable[int]) -> TournamentState:
        """Pair the next round; the previous one must have every result in."""
        self._require(Phase.RUNNING, "pair_round")
        self._require_round_complete("pair_round")
        if self.round_number >= self.planned_rounds:
            raise IllegalTransition(
                "engine.state.all_rounds_played", rounds=self.planned_rounds, rule="R-FMT-2"
            )
        number = self.round_number + 1
        return replace(self, current=RoundState(number, RoundStatus.PAIRED, frozenset(tables)))

    def begin_round(self) -> TournamentState:
        """Start the clock on a paired round (a round of byes only is complete at once)."""
        current = self._current_round("begin_round")
        if current.status is not RoundStatus.PAIRED:
            raise self._illegal("begin_round")
        status = RoundStatus.IN_PROGRESS if current.tables else RoundStatus.COMPLETE
        return replace(self, current=replace(current, status=status))

    def record_result(self, table: int) -> TournamentState:
        """A table reported (again, for a correction); the last report completes the round."""
        current = self._current_round("record_result")
        if current.status is RoundStatus.PAIRED:
            raise self._illegal("record_result")
        if table not in current.tables:
            raise InvalidInput("engine.state.unknown_table", round=current.number, table=table)
        reported = current.reported | {table}
        status = RoundStatus.COMPLETE if reported == current.tables else current.status
        return replace(self, current=replace(current, reported=reported, status=status))

    def start_top_cut(self) -> TournamentState:
        """After the last Swiss round, on to single elimination (R-FMT-1)."""
        self._require(Phase.RUNNING, "start_top_cut")
        self._require_swiss_done("start_top_cut")
        return replace(self, phase=Phase.TOP_CUT)

    def cancel(self) -> TournamentState:
        """Call the event off before it starts (中止). A started event is finished instead:
        its results stand."""
        self._require(Phase.REGISTRATION, "cancel")
        return replace(self, phase=Phase.CANCELLED)

    def finish(self) -> TournamentState:
        """End the event: after the top cut, or after the last Swiss round without one."""
        if self.phase is Phase.RUNNING:
            self._require_swiss_done("finish")
        elif self.phase is not Phase.TOP_CUT:
            raise self._illegal("finish")
        return replace(self, phase=Phase.FINISHED)

    # -- checks ---------------------------------------------------------------------------

    def _require(self, phase: Phase, step: str) -> None:
        if self.phase is not phase:
            raise self._illegal(step)

    def _illegal(self, step: str) -> IllegalTransition:
        if self.current is None:  # no round yet: nothing to say of one
            return IllegalTransition("engine.state.illegal_step", step=step, phase=self.phase.value)
        return IllegalTransition(
            "engine.state.illegal_step_in_round",
            step=step,
            phase=self.phase.value,
            round=self.round_number,
            status=self.current.status.value,
        )

    def _current_round(self, step: str) -> RoundState:
        if self.phase is not Phase.RUNNING or self.current is None:
            raise self._illegal(step)
        return self.current

    def _require_round_complete(self, step: str) -> None:
        current = self.current
        if current is not None and current.status is not RoundStatus.COMPLETE:
            raise IllegalTransition(
                "engine.state.missing_results",
                round=current.number,
                tables=tuple(current.missing_tables),
                step=step,
            )

    def _require_swiss_done(self, step: str) -> None:
        self._require_round_complete(step)
        if self.round_number < self.planned_rounds:
            raise IllegalTransition(
                "engine.state.rounds_remaining",
                played=self.round_number,
                rounds=self.planned_rounds,
                step=step,
                rule="R-FMT-2",
            )
