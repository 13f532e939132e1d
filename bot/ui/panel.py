"""The organizer's panel: where the event stands, and its next steps as buttons, each
enabled only when the rules allow it (domain.tournament.steps), then its tools (シリーズ,
参加者の取り込み). Presentation only."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import discord

from bot.i18n import Lang, t
from bot.ui.buttons import PANEL_STEP, PANEL_TOOL, Style, Tool, button, stateless_view
from bot.ui.render import safe
from bot.ui.rounds import round_name, round_name_at
from domain.engine.players import PlayerStatus
from domain.engine.state import Phase
from domain.entry_import import import_allowed
from domain.event import EventFormat
from domain.tournament.model import Tournament
from domain.tournament.play import round_extendable
from domain.tournament.registration import (
    deck_rules_changeable,
    publish_allowed,
    without_legal_deck,
)
from domain.tournament.steps import Step, next_steps

# The buttons a phase shows (greyed out while the rules do not allow them yet).
SHOWN: dict[Phase, tuple[Step, ...]] = {
    Phase.REGISTRATION: (Step.START,),
    Phase.RUNNING: (
        Step.PAIR,
        Step.START_CLOCK,
        Step.NEXT_ROUND,
        Step.TOP_CUT,
        Step.POST_STANDINGS,
        Step.FINISH,
        Step.EXPORT,
    ),
    Phase.TOP_CUT: (Step.PAIR, Step.START_CLOCK, Step.NEXT_ROUND, Step.FINISH, Step.EXPORT),
    Phase.FINISHED: (Step.POST_STANDINGS, Step.EXPORT),
    Phase.CANCELLED: (),
}
STYLES = {Step.START: Style.danger, Step.NEXT_ROUND: Style.primary, Step.FINISH: Style.danger}
TOOLS_ROW = 2  # below the steps (at most two rows of five)


def tools(tournament: Tournament) -> list[Tool]:
    """The tools shown after the steps, each while the rules allow it: the restricted list
    until the lists are locked, the import while registration is open, 公開 once after the
    start, 全体延長 while the round's clock runs and a table still plays; the series
    whenever the event counts (a cancelled one has nothing left to do); a new page address
    once the page has one. At most five show at once (one row): the restricted list and
    the import only before the start, 全体延長 only after it."""
    allowed = {
        Tool.RESTRICTED: deck_rules_changeable(tournament),
        Tool.IMPORT: import_allowed(tournament),
        Tool.PUBLISH: publish_allowed(tournament),
        Tool.EXTEND_ROUND: round_extendable(tournament),
        Tool.SERIES: tournament.phase is not Phase.CANCELLED,
        Tool.ROOMS: not tournament.phase.over,
        Tool.NEW_PAGE: tournament.page_slug is not None and tournament.phase is not Phase.CANCELLED,
    }
    return [tool for tool in Tool if allowed[tool]]


def _step_items(
    tournament: Tournament, steps: Iterable[Step], lang: Lang, *, only_allowed: bool = False
) -> list[discord.ui.Button[Any]]:
    allowed = next_steps(tournament)
    shown = [
        step
        for step in steps
        if (step is not Step.TOP_CUT or tournament.format is EventFormat.SWISS_TOP_CUT)
        and (step in allowed or not only_allowed)
    ]
    return [
        button(
            PANEL_STEP(step=step.value, tournament=tournament.id),
            t(f"ui.panel.step.{step.value}", lang),
            STYLES.get(step, Style.secondary),
            disabled=step not in allowed,
        )
        for step in shown
    ]


def step_buttons(
    tournament: Tournament, steps: Iterable[Step], lang: Lang, *, only_allowed: bool = False
) -> discord.ui.View:
    return stateless_view(*_step_items(tournament, steps, lang, only_allowed=only_allowed))


def tool_buttons(tournament: Tournament, lang: Lang) -> list[discord.ui.Button[Any]]:
    """The phase's tools, on a row of their own below the steps."""
    return [
        button(
            PANEL_TOOL(tool=tool.value, tournament=tournament.id),
            _tool_label(tournament, tool, lang),
            row=TOOLS_ROW,
        )
        for tool in tools(tournament)
    ]


def _tool_label(tournament: Tournament, tool: Tool, lang: Lang) -> str:
    """A tool's label; the rooms' says whether they are on (a press turns them the other way)."""
    if tool is Tool.ROOMS:
        state = "rooms_on" if tournament.settings.rooms else "rooms_off"
        return t(f"ui.panel.tool.{state}", lang)
    return t(f"ui.panel.tool.{tool.value}", lang)


@dataclass(frozen=True)
class Backlog:
    """The tournament's notices still to be sent (besides the panel's own), for the staff:
    how many, since when, and the last error of the oldest that failed, if one did."""

    count: int
    since: datetime | None
    error: str | None


def panel_embed(
    tournament: Tournament, now: datetime, lang: Lang, backlog: Backlog | None = None
) -> discord.Embed:
    embed = discord.Embed(
        title=t("ui.panel.title", lang, tournament=safe(tournament.name)), timestamp=now
    )

    def field(key: str, value: str) -> None:
        embed.add_field(name=t(f"ui.panel.{key}", lang), value=value)

    if backlog is not None and backlog.count:
        embed.add_field(
            name=t("ui.panel.waiting", lang), value=waiting_text(backlog, now, lang), inline=False
        )

    field("state", t(f"ui.state.{tournament.phase.value}", lang))
    if tournament.phase is Phase.CANCELLED:
        return embed
    if tournament.phase is Phase.REGISTRATION:
        registered = tournament.count(PlayerStatus.REGISTERED)
        field("registered", t("ui.panel.registered_value", lang, count=registered))
        entries = tournament.entries(PlayerStatus.REGISTERED)
        if tournament.settings.decklist_required:
            # Those without a legal list may be dropped at the start: why 開始 may be greyed
            # out (the start's own count: `StartPlan`).
            decks = registered - len(without_legal_deck(tournament, entries))
            field("decks", t("ui.panel.count_of", lang, done=decks, total=registered))
        if tournament.settings.uses_checkin:
            checked = sum(1 for e in entries if e.checked_in_at)
            field("checked_in", t("ui.panel.count_of", lang, done=checked, total=registered))
        return embed
    current = tournament.current
    field("playing", str(tournament.count(PlayerStatus.ACTIVE)))
    if current is None:
        field("round", t("ui.panel.no_round", lang))
        return embed
    field("round", t("ui.panel.round_value", lang, round_name=round_name(current, lang)))
    if current.complete and tournament.phase is not Phase.FINISHED:
        # 「第 3 回戦の結果がすべて揃いました」: the next step's button is enabled below.
        name = round_name(current, lang)
        embed.description = t("ui.panel.round_complete", lang, round_name=name)
    tables = [m for m in current.matches if len(m.players) == 2]
    finished = sum(1 for m in tables if current.finished(m))
    field("results", t("ui.panel.count_of", lang, done=finished, total=len(tables)))
    field("disputes", str(sum(1 for m in tables if m.disputed and not current.finished(m))))
    field("calls", str(sum(1 for call in tournament.calls if call.open)))
    if current.ends_at is None:
        field("time", t("ui.panel.clock_not_started", lang))
    elif tournament.phase is not Phase.FINISHED:
        field("time", t("ui.panel.time_value", lang, end=int(current.ends_at.timestamp())))
    return embed


def waiting_text(backlog: Backlog, now: datetime, lang: Lang) -> str:
    """「送信待ちのお知らせ 12 件（最も古いもの 3 分前）」 and why they wait."""
    since = int((backlog.since or now).timestamp())
    counted = t("ui.panel.waiting_value", lang, count=backlog.count, since=since)
    if backlog.error is None:
        return counted + "\n" + t("ui.panel.waiting_in_turn", lang)
    error = safe(backlog.error[:120])
    return counted + "\n" + t("ui.panel.waiting_discord", lang, error=error)


def panel(
    tournament: Tournament, now: datetime, lang: Lang, backlog: Backlog | None = None
) -> tuple[discord.Embed, discord.ui.View]:
    """The panel's embed and buttons, as they should be now (with what waits to be told)."""
    steps = _step_items(tournament, SHOWN[tournament.phase], lang)
    view = stateless_view(*steps, *tool_buttons(tournament, lang))
    return panel_embed(tournament, now, lang, backlog), view


def round_complete(tournament: Tournament, number: int, lang: Lang) -> tuple[str, discord.ui.View]:
    """「第 3 回戦の結果がすべて揃いました」, with the buttons for what comes next."""
    nexts = (Step.NEXT_ROUND, Step.TOP_CUT, Step.PAIR, Step.POST_STANDINGS, Step.FINISH)
    text = t("ui.panel.round_complete", lang, round_name=round_name_at(tournament, number, lang))
    return text, step_buttons(tournament, nexts, lang, only_allowed=True)
