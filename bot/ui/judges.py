"""The judges' texts: penalties and their previews, judge calls, the action log and undo.
Presentation only: no writes."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

import discord

from bot.i18n import Lang, t
from bot.ui.messages import fit_message
from bot.ui.pagination import EMBED_DESCRIPTION_LIMIT
from bot.ui.render import safe
from bot.ui.rounds import describe_result, name_of
from domain.engine.results import MatchResult
from domain.errors import InvalidInput
from domain.tournament import codec
from domain.tournament.log import Action
from domain.tournament.model import Tournament
from domain.tournament.penalties import JudgeCall, Penalty, PenaltyType
from domain.tournament.rounds import Match

if TYPE_CHECKING:
    from bot.services.judging import PenaltyOutcome, PenaltyPreview


def penalty_type(kind: PenaltyType, lang: Lang) -> str:
    return t(f"ui.penalty.type.{kind.value}", lang)


def infraction_name(penalty: Penalty, lang: Lang) -> str:
    return t(f"ui.penalty.infraction.{penalty.infraction.value}", lang)


def penalty_notice(tournament: Tournament, penalty: Penalty, lang: Lang) -> str:
    """What the penalised player is told, by DM or at their next command."""
    text = t(
        "ui.penalty.notice",
        lang,
        tournament=safe(tournament.name),
        type=penalty_type(penalty.type, lang),
        infraction=infraction_name(penalty, lang),
        reason=safe(penalty.reason),
    )
    if penalty.type is PenaltyType.DISQUALIFICATION:
        text += "\n" + t("ui.penalty.notice_dq", lang, tournament=safe(tournament.name))
    return text


def penalty_log(tournament: Tournament, penalty: Penalty, judge: str, lang: Lang) -> str:
    return t(
        "ui.penalty.log",
        lang,
        judge=safe(judge),
        player=name_of(tournament, penalty.player_id),
        type=penalty_type(penalty.type, lang),
        id=penalty.id,
        infraction=infraction_name(penalty, lang),
        rule=penalty.type.rule,
        reason=safe(penalty.reason),
    )


def penalty_line(tournament: Tournament, penalty: Penalty, lang: Lang) -> str:
    """One line of /penalty list."""
    return t(
        "ui.penalty.list_line",
        lang,
        id=penalty.id,
        at=int(penalty.at.timestamp()),
        player=name_of(tournament, penalty.player_id),
        type=penalty_type(penalty.type, lang),
        infraction=infraction_name(penalty, lang),
        round=penalty.round,
        revoked=t("ui.penalty.earlier_revoked", lang) if penalty.revoked else "",
        reason=safe(penalty.reason),
    )


def preview_embed(preview: PenaltyPreview, lang: Lang) -> discord.Embed:
    """The penalty before the judge confirms it: the player's earlier penalties and the
    suggested escalation (R-PEN-2)."""
    op = preview.operation
    tournament = preview.tournament
    lines = [
        t(
            "ui.penalty.preview_body",
            lang,
            type=penalty_type(op.penalty, lang),
            rule=op.penalty.rule,
            infraction=t(f"ui.penalty.infraction.{op.infraction.value}", lang),
            infraction_rule=op.infraction.rule,
            reason=safe(op.reason),
        ),
        "",
    ]
    if preview.earlier:
        lines.append(t("ui.penalty.earlier_title", lang, count=len(preview.earlier)))
        lines += [
            t(
                "ui.penalty.earlier_line",
                lang,
                id=p.id,
                type=penalty_type(p.type, lang),
                infraction=infraction_name(p, lang),
                round=p.round,
                reason=safe(p.reason),
            )
            + (t("ui.penalty.earlier_revoked", lang) if p.revoked else "")
            for p in preview.earlier
        ]
    else:
        lines.append(t("ui.penalty.earlier_none", lang))
    suggestion = preview.suggestion
    if suggestion is not None:  # the regulation gives no level here, and nothing earlier
        lines += [
            "",
            t(
                "ui.penalty.suggestion",
                lang,
                type=penalty_type(suggestion.type, lang),
                rule=suggestion.rule,
            ),
        ]
    return discord.Embed(
        title=t(
            "ui.penalty.preview_title", lang, player=name_of(tournament, preview.player.user_id)
        ),
        description=fit_message("\n".join(lines), EMBED_DESCRIPTION_LIMIT - 96),
    )


# -- judge calls --------------------------------------------------------------------------


def call_where(tournament: Tournament, call: JudgeCall, lang: Lang) -> str:
    played = tournament.round(call.round)
    match = played.match_at(call.table) if played and call.table else None
    if match is not None and len(match.players) == 2:
        first, second = match.players
        return t(
            "ui.judge.call_where_table",
            lang,
            round=call.round,
            table=call.table,
            first=name_of(tournament, first),
            second=name_of(tournament, second),
        )
    return t("ui.judge.call_where_none", lang, round=call.round)


def call_text(tournament: Tournament, call: JudgeCall, lang: Lang) -> str:
    """The call as the judges see it: where, who, and what happened."""
    reason = (
        t("ui.judge.call_reason", lang, reason=safe(call.reason))
        if call.reason
        else t("ui.judge.call_no_reason", lang)
    )
    return t(
        "ui.judge.call_post",
        lang,
        id=call.id,
        where=call_where(tournament, call, lang),
        player=name_of(tournament, call.player_id),
        reason=reason,
    )


def waited(call: JudgeCall, lang: Lang) -> str:
    end = call.claimed_at or call.resolved_at or call.called_at
    seconds = int((end - call.called_at).total_seconds())
    return t("ui.judge.waited", lang, minutes=seconds // 60, seconds=seconds % 60)


def call_reping(call: JudgeCall, now: datetime, lang: Lang) -> str:
    """The judges pinged again: how long the call has waited, and where to claim it. Not a
    second copy of the call (with a second 対応する that would turn into one when pressed)."""
    minutes = int((now - call.called_at).total_seconds() // 60)
    return t("ui.judge.reping", lang, id=call.id, minutes=minutes)


# -- the action log -----------------------------------------------------------------------


def action_time(action: Action) -> int:
    return int(datetime.fromisoformat(action.created_at).timestamp())


def action_what(tournament: Tournament, action: Action, lang: Lang) -> str:
    """What an operation did, in words: its kind, whom it was about, and, for a match,
    where and with what result (「結果の記録（第 2 回戦 テーブル 3: ムギの勝ち）」), so that
    /undo says what it takes back."""
    key = f"ui.log.kind.{action.kind}"
    try:
        what = t(key, lang)
    except KeyError:
        what = action.kind
    player = action.payload.get("player_id")
    if isinstance(player, int) and player != action.actor_id:
        what += f" → {name_of(tournament, player)}"
    source = action.payload.get("copied_from")
    if action.kind == "create_tournament" and isinstance(source, int):
        key = "ui.log.repeated" if action.payload.get("repeated") else "ui.log.copied"
        what += t(key, lang, source=source)
    return what + _where_and_result(tournament, action, lang)


def _where_and_result(tournament: Tournament, action: Action, lang: Lang) -> str:
    payload = action.payload
    number, table = payload.get("round"), payload.get("table")
    if not isinstance(number, int) or number < 1:
        return ""
    played = tournament.round(number)
    match = None
    if played is not None and isinstance(table, int):
        match = played.match_at(table)
    elif played is not None and isinstance(payload.get("player_id"), int):
        match = played.match_of(payload["player_id"])  # a report names the player, not the table
    if match is not None and match.players:
        where = t("ui.log.where_table", lang, round=number, table=match.table)
    else:
        where = t("ui.log.where_round", lang, round=number)
    result = _result_of(tournament, action, match, lang)
    if result is None:
        return t("ui.log.details", lang, where=where)
    return t("ui.log.details_result", lang, where=where, result=result)


def _result_of(
    tournament: Tournament, action: Action, match: Match | None, lang: Lang
) -> str | None:
    """The result the operation gave (a judge's, a no-show) or claimed (a report, a
    dispute's claim)."""
    payload = action.payload
    claimed = action.kind in ("report_result", "dispute_result")
    if claimed and isinstance(payload.get("claim"), str):
        return t(f"ui.report.{payload['claim']}", lang)
    if match is None or len(match.players) != 2:
        return None
    if action.kind == "set_result":
        try:
            result = codec.decode(MatchResult, payload.get("result"))
        except InvalidInput:
            return None
        return describe_result(tournament, match, result, lang)
    if action.kind == "record_no_show" and isinstance(payload.get("player_id"), int):
        result = MatchResult.no_show(str(payload["player_id"]))
        return describe_result(tournament, match, result, lang)
    return None


def action_line(tournament: Tournament, action: Action, lang: Lang) -> str:
    actor = f"<@{action.actor_id}>" if action.actor_id else t("ui.log.the_bot", lang)
    return t(
        "ui.log.line",
        lang,
        id=action.id,
        at=action_time(action),
        actor=actor,
        what=action_what(tournament, action, lang),
    )


def log_lines(tournament: Tournament, actions: Sequence[Action], lang: Lang) -> list[str]:
    return [action_line(tournament, action, lang) for action in actions] or [
        t("ui.log.empty", lang)
    ]


def penalty_given_text(outcome: PenaltyOutcome, lang: Lang) -> str:
    """The judge's confirmation: the penalty, and the match it turned (R-PEN-3, R-PEN-4)."""
    tournament, penalty = outcome.tournament, outcome.penalty
    lines = [
        t(
            "ui.penalty.given",
            lang,
            player=name_of(tournament, penalty.player_id),
            type=penalty_type(penalty.type, lang),
            id=penalty.id,
            rule=penalty.type.rule,
        )
    ]
    if outcome.match is not None and penalty.effect is not None:
        lines.append(
            t(
                "ui.penalty.match_turned",
                lang,
                round=penalty.effect.round,
                table=penalty.effect.table,
                result=describe_result(tournament, outcome.match, outcome.match.result, lang),
            )
        )
    return "\n".join(lines)


def room_text(room: int | None, lang: Lang) -> str:
    """「対戦部屋: #卓3」 on a line of its own, for a call at a table with a match room."""
    return "\n" + t("rooms.in_call", lang, room=f"<#{room}>") if room is not None else ""


def claimed_text(
    tournament: Tournament, call: JudgeCall, judge: str, lang: Lang, room: int | None = None
) -> str:
    """The call's post once a judge took it: the table's match room (`room`) stays on it,
    one tap to where the judge is going."""
    claimed = t("ui.judge.claimed", lang, judge=safe(judge), waited=waited(call, lang))
    return call_text(tournament, call, lang) + room_text(room, lang) + "\n" + claimed


def resolved_text(
    tournament: Tournament, call: JudgeCall, judge: str, lang: Lang, room: int | None = None
) -> str:
    """The call's post once resolved: by whom, and the table's new end with an extension
    (R-MATCH-7); the table's match room (`room`) stays on it."""
    text = call_text(tournament, call, lang) + room_text(room, lang) + "\n"
    played = tournament.round(call.round)
    match = played.match_at(call.table) if played and call.table else None
    ends = played.table_ends_at(match) if played and match else None
    if call.extension_minutes and ends is not None:
        return text + t(
            "ui.judge.resolved_extended",
            lang,
            judge=safe(judge),
            table=call.table,
            minutes=call.extension_minutes,
            end=int(ends.timestamp()),
        )
    return text + t("ui.judge.resolved", lang, judge=safe(judge), waited=waited(call, lang))
