"""Undo: a tournament without one of its operations is the fold of its log without it.

Only changes a person may regret are undoable (a result, a drop, a penalty, a pairing, an
extension …), never the registration or the start. An undo is refused when it is not
safe: a result after the next round was paired from it, or when an operation that came
later no longer applies without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.errors import DomainError, IllegalTransition
from domain.tournament.model import Tournament
from domain.tournament.replay import LoggedOperation, fold

UNDOABLE = frozenset(
    {
        "report_result",
        "confirm_result",
        "dispute_result",
        "set_result",
        "record_no_show",
        "drop",
        "undrop",
        "give_penalty",
        "revoke_penalty",
        "pair_round",
        "unpair_round",
        "start_round",
        "extend_table",
        "extend_round",
        "resolve_call",
    }
)
# These change results: once the next round is paired from them, they stand.
CHANGES_RESULTS = frozenset(
    {
        "report_result",
        "confirm_result",
        "set_result",
        "record_no_show",
        "give_penalty",
        "revoke_penalty",
    }
)


@dataclass(frozen=True)
class UndoPlan:
    target: LoggedOperation
    after: Tournament


def undone_ids(log: Sequence[LoggedOperation]) -> set[int]:
    return {int(entry.payload["action_id"]) for entry in log if entry.kind == "undo"}


def plan_undo(
    tournament_id: int,
    guild_id: int,
    log: Sequence[LoggedOperation],
    action_id: int | None = None,
) -> UndoPlan:
    """What undoing `action_id` (default: the last undoable operation) gives, or a refusal
    that says why."""
    undone = undone_ids(log)
    live = [entry for entry in log if entry.kind != "undo" and entry.id not in undone]
    if action_id is None:
        candidates = [entry for entry in live if entry.kind in UNDOABLE]
        if not candidates:
            raise IllegalTransition("undo.nothing")
        target = candidates[-1]
    else:
        found = [entry for entry in log if entry.id == action_id]
        if not found:
            raise IllegalTransition("undo.no_such_action", action=action_id)
        target = found[0]
        if target.id in undone:
            raise IllegalTransition("undo.already_undone", action=action_id)
        if target.kind not in UNDOABLE:
            raise IllegalTransition("undo.not_undoable", action=action_id, kind=target.kind)
    later = [entry for entry in live if entry.id > target.id]
    if target.kind in CHANGES_RESULTS and any(entry.kind == "pair_round" for entry in later):
        raise IllegalTransition("undo.next_round_paired", action=target.id, kind=target.kind)
    try:
        after = fold(tournament_id, guild_id, log, skip=undone | {target.id})
    except DomainError as error:
        raise IllegalTransition(
            "undo.later_depends", action=target.id, kind=target.kind, reason=error.key
        ) from None
    return UndoPlan(target, after)
