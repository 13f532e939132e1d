"""The registration post (an embed that players answer with buttons) and the text of the
start preview. Presentation only: no writes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.i18n import Lang, show_date, t
from bot.ui.render import format_name, regulation_name, safe
from bot.ui.text import unchecked_lines
from domain.event import EventFormat

if TYPE_CHECKING:
    from bot.services.lifecycle import StartPreview
    from domain.tournament import Tournament


def registration_embed(tournament: Tournament, lang: Lang) -> discord.Embed:
    """R-FMT-6: the format, regulation and time limit, announced before the event; with the
    date and when decklists are due."""
    embed = discord.Embed(
        title=t("ui.entry.title", lang, name=safe(tournament.name)),
        colour=discord.Colour.blurple(),
    )

    def field(name: str, value: str, inline: bool = True) -> None:
        embed.add_field(name=name, value=value, inline=inline)

    field(t("ui.tournament.date", lang), show_date(tournament.event_date))
    field(t("ui.tournament.format", lang), format_name(tournament.format.value, lang))
    field(t("ui.tournament.regulation", lang), regulation_name(tournament.regulation, lang))
    field(
        t("ui.tournament.time_limit", lang),
        t("ui.tournament.time_limit_value", lang, minutes=tournament.time_limit_minutes),
    )
    starts_at = tournament.settings.starts_at
    field(
        t("ui.entry.deadline", lang),
        t("ui.entry.deadline_at", lang, start=int(starts_at.timestamp()))
        if starts_at
        else t("ui.entry.deadline_start", lang),
        inline=False,
    )
    if tournament.checkin_minutes and starts_at:
        field(
            t("ui.tournament.checkin", lang),
            t(
                "ui.tournament.checkin_value",
                lang,
                minutes=tournament.checkin_minutes,
                start=int(starts_at.timestamp()),
            ),
            inline=False,
        )
    if tournament.max_players:
        field(
            t("ui.entry.capacity", lang),
            t("ui.entry.capacity_value", lang, limit=tournament.max_players),
        )
    if tournament.titles:
        field(t("ui.tournament.titles", lang), safe("、".join(tournament.titles)), inline=False)
    embed.set_footer(text=t("ui.entry.footer", lang, id=tournament.id))
    return embed


def start_preview_text(preview: StartPreview, lang: Lang) -> str:
    """Who the start would drop, the player count and the rounds, before anything changes."""
    tournament = preview.tournament
    if tournament.format is EventFormat.ELIMINATION:
        rounds = t("ui.announce.elimination_value", lang)
    else:
        rounds = t("ui.announce.rounds_value", lang, rounds=preview.rounds)
        if tournament.top_cut:
            rounds += t("ui.start_preview.top_cut", lang, top_cut=tournament.top_cut)
    lines = [
        t("ui.start_preview.intro", lang, name=safe(tournament.name)),
        t("ui.start_preview.players", lang, players=preview.playing),
        t("ui.start_preview.rounds", lang, rounds=rounds),
    ]
    for key, players in (
        ("ui.start.not_checked_in", preview.not_checked_in),
        ("ui.start.without_deck", preview.without_deck),
        ("ui.start.dropped", preview.dropped),
    ):
        if players:
            lines.append(t(key, lang, names=[safe(p.display_name) for p in players]))
    if not preview.dropped:
        lines.append(t("ui.start_preview.nobody_dropped", lang))
    # What the lists were checked against no file for, and how to attach it before the start.
    for missing, note in zip(
        preview.unchecked, unchecked_lines(preview.unchecked, lang), strict=True
    ):
        lines += [note, t(f"ui.start_preview.attach.{missing.value}", lang)]
    lines.append(t("ui.start_preview.confirm", lang))
    return "\n".join(lines)
