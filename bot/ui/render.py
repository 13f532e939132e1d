"""Embeds and texts for tournaments, players and decks. Presentation only: no writes."""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

import discord

from bot.i18n import LANGUAGES, Lang, show_date, t
from bot.ui.buttons import PASTE_BOX
from bot.ui.pagination import Page, page_of
from bot.ui.text import code_block, unchecked_lines, violation_text
from domain.decks import Violation
from domain.event import EventFormat
from domain.tournament.operations import Repeat, RoomSpectators

if TYPE_CHECKING:
    from bot.services.decks import DeckSubmission, DeckView
    from bot.services.lifecycle import StartReport
    from bot.services.registration import Registration
    from bot.services.tournaments import TournamentSummary
    from domain.guild import GuildConfig
    from domain.tournament import Entry, Tournament

EMBED_DESCRIPTION_LIMIT = 4096
MESSAGE_LIMIT = 2000


# Explicit bidi embeddings, overrides and isolates (LRE…RLO, LRI…PDI): a name that opens
# one would reorder the rest of the line it is shown on.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


@lru_cache(maxsize=16384)  # the names of four 4,096-player events
def safe(text: str) -> str:
    """User-supplied text, shown literally: no markdown tricks, no pings, and a name with
    RTL controls kept in its own isolate (FSI…PDI closes whatever it left open). Kept per
    text: a pairings post of 2,048 tables escapes the same 4,096 names at every mark."""
    escaped = discord.utils.escape_mentions(discord.utils.escape_markdown(text))
    if _BIDI_CONTROLS.intersection(text):
        return f"\u2068{escaped}\u2069"
    return escaped


def format_name(value: str, lang: Lang) -> str:
    return t(f"ui.format.{value}", lang)


def regulation_name(value: str, lang: Lang) -> str:
    return t(f"ui.regulation.{value}", lang)


def rounds_text(tournament: Tournament, lang: Lang) -> str:
    if tournament.format is EventFormat.ELIMINATION:
        return t("ui.announce.elimination_value", lang)
    if tournament.round_count is None:
        return t("ui.auto_rounds", lang)
    return t("ui.announce.rounds_value", lang, rounds=tournament.round_count)


def setup_embed(config: GuildConfig, lang: Lang) -> discord.Embed:
    embed = discord.Embed(title=t("ui.setup.title", lang))
    if not config.configured:
        embed.description = t("ui.setup.not_configured", lang)
    none = t("ui.none", lang)

    def role(role_id: int | None) -> str:
        return f"<@&{role_id}>" if role_id else none

    def channel(channel_id: int | None) -> str:
        return f"<#{channel_id}>" if channel_id else none

    embed.add_field(name=t("ui.setup.organizer_role", lang), value=role(config.organizer_role_id))
    embed.add_field(name=t("ui.setup.judge_role", lang), value=role(config.judge_role_id))
    for key, value in (
        ("announcements", config.announcements_channel_id),
        ("pairings", config.pairings_channel_id),
        ("standings", config.standings_channel_id),
        ("judge_calls", config.judge_calls_channel_id),
        ("log", config.log_channel_id),
        ("staff", config.staff_channel_id),
    ):
        embed.add_field(name=t(f"ui.setup.{key}", lang), value=channel(value))
    posting = config.locale
    embed.add_field(
        name=t("ui.setup.language", lang),
        value=t(f"ui.language.{posting}", lang) if posting in LANGUAGES else none,
    )
    if posting in LANGUAGES:
        other = "en" if posting == "ja" else "ja"
        key = "ui.setup.buttons_both" if config.bilingual_buttons else "ui.setup.buttons_one"
        names = {"language": t(f"ui.language.{posting}", lang)}
        names["other"] = t(f"ui.language.{other}", lang)
        embed.add_field(name=t("ui.setup.buttons", lang), value=t(key, lang, **names))
    embed.add_field(
        name=t("ui.setup.ratings", lang), value=t(f"ui.ratings.{config.ratings.value}", lang)
    )
    return embed


def tournament_embed(summary: TournamentSummary, lang: Lang) -> discord.Embed:
    tournament = summary.tournament
    embed = discord.Embed(title=t("ui.tournament.title", lang, name=safe(tournament.name)))

    def field(key: str, value: str, inline: bool = True) -> None:
        embed.add_field(name=t(f"ui.tournament.{key}", lang), value=value, inline=inline)

    field("state", t(f"ui.state.{tournament.phase.value}", lang))
    field("format", format_name(tournament.format.value, lang))
    field("regulation", regulation_name(tournament.regulation, lang))
    field("rounds", rounds_text(tournament, lang))
    if tournament.top_cut:
        field("top_cut", t("ui.tournament.top_cut_value", lang, count=tournament.top_cut))
    field(
        "time_limit",
        t("ui.tournament.time_limit_value", lang, minutes=tournament.time_limit_minutes),
    )
    field("date", show_date(tournament.event_date))
    if tournament.titles:
        field("titles", safe("、".join(tournament.titles)), inline=False)
    limit = str(tournament.max_players) if tournament.max_players else t("ui.unlimited", lang)
    field(
        "players",
        t(
            "ui.tournament.players_value",
            lang,
            registered=summary.registered,
            limit=limit,
            waitlisted=summary.waitlisted,
        ),
        inline=False,
    )
    required = "decklists_required" if tournament.decklist_required else "decklists_optional"
    field("decklists", t(f"ui.tournament.{required}", lang))
    if tournament.late_registration_rounds:
        field(
            "late_registration",
            t(
                "ui.tournament.late_registration_value",
                lang,
                rounds=tournament.late_registration_rounds,
            ),
        )
    if tournament.checkin_minutes and tournament.starts_at:
        field(
            "checkin",
            t(
                "ui.tournament.checkin_value",
                lang,
                minutes=tournament.checkin_minutes,
                start=int(tournament.starts_at.timestamp()),
            ),
            inline=False,
        )
    settings = tournament.settings
    if settings.ex_deck:
        shared = "ex_deck_shared" if settings.ex_copies_shared else "ex_deck_separate"
        field("ex_deck", t(f"ui.tournament.{shared}", lang), inline=False)
    if tournament.restricted_list:
        field("restricted", t("ui.tournament.uploaded", lang))
    if settings.repeat is not Repeat.NONE:
        field("repeat", t(f"ui.repeat.{settings.repeat.value}", lang))
    if tournament.starts_at is not None:
        reminders = "reminders_on" if settings.reminders else "reminders_off"
        field("reminders", t(f"ui.tournament.{reminders}", lang))
    if settings.rooms:
        hidden = settings.room_spectators is RoomSpectators.HIDDEN
        shown = t("rooms.setting_hidden" if hidden else "rooms.setting_on", lang)
        if settings.room_limit:
            shown += t("rooms.setting_limit", lang, tables=settings.room_limit)
        field("rooms", shown)
    field("id", str(tournament.id))
    return embed


def rooms_reply(tournament: Tournament, lang: Lang) -> str:
    """The organizer's answer to turning match rooms on or off."""
    settings = tournament.settings
    if not settings.rooms:
        return t("rooms.off", lang, name=safe(tournament.name))
    watching = t(f"rooms.spectators_{settings.room_spectators.value}", lang)
    text = t("rooms.on", lang, name=safe(tournament.name), spectators=watching)
    if settings.room_limit:
        text += t("rooms.limited", lang, tables=settings.room_limit)
    return text


def rooms_chosen_reply(tournament: Tournament, lang: Lang) -> str:
    """The organizer's answer to their choice where the rooms would not fit."""
    settings = tournament.settings
    if not settings.rooms:
        return t("rooms.chosen_none", lang, name=safe(tournament.name))
    return t("rooms.chosen_fewer", lang, name=safe(tournament.name), tables=settings.room_limit)


def announcement_created(tournament: Tournament, lang: Lang, *, checkin: bool) -> str:
    """The registration post's text; it speaks of check-in only while its button is shown."""
    how = "ui.announce.how_to_enter_checkin" if checkin else "ui.announce.how_to_enter"
    return t(
        "ui.announce.created",
        lang,
        how=t(how, lang),
        name=safe(tournament.name),
        format=format_name(tournament.format.value, lang),
        regulation=regulation_name(tournament.regulation, lang),
        time_limit=tournament.time_limit_minutes,
    )


def violation_line(violation: Violation, lang: Lang) -> str:
    """One bullet: the message with its user text escaped, then the rule once, in words."""
    return f"• {violation_text(violation, lang, escape=safe)}"


def deck_report(
    submission: DeckSubmission, lang: Lang
) -> tuple[str, discord.Embed | None, discord.File | None]:
    """(content, embed, file): every violation listed; a file when they overflow an embed."""
    check = submission.check
    if check.legal:
        key = "ui.deck.legal_stored" if submission.stored else "ui.deck.legal_checked"
        content = t(
            key,
            lang,
            total=check.total,
            fingerprint=submission.fingerprint,
            tournament=safe(submission.tournament.name),
        )
        return "\n".join([content, *unchecked_lines(check.unchecked, lang)]), None, None
    lines = [violation_line(v, lang) for v in check.violations]
    body = "\n".join(lines)
    # The attached file is plain text: no markdown escapes there.
    plain = "\n".join(f"• {violation_text(v, lang)}" for v in check.violations)
    embed = discord.Embed(
        title=t("ui.deck.illegal_count", lang, count=len(lines)), colour=discord.Colour.red()
    )
    file = None
    if len(body) <= EMBED_DESCRIPTION_LIMIT:
        embed.description = body
    else:
        embed.description = (
            _fit(lines, EMBED_DESCRIPTION_LIMIT - 100) + "\n…\n" + t("ui.deck.report_file", lang)
        )
        file = discord.File(io.BytesIO(plain.encode("utf-8")), filename="deck-report.txt")
    content = "\n".join([t("ui.deck.illegal", lang), *unchecked_lines(check.unchecked, lang)])
    return content, embed, file


def _fit(lines: Sequence[str], limit: int) -> str:
    kept: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > limit:
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(kept)


def deck_embed(view: DeckView, lang: Lang) -> tuple[discord.Embed, discord.File | None]:
    text = view.decklist.canonical_text()
    embed = discord.Embed(
        title=t(
            "ui.deck.show_title",
            lang,
            name=safe(view.owner_name),
            tournament=safe(view.tournament.name),
        )
    )
    file = None
    block = code_block(text)
    if len(block) <= EMBED_DESCRIPTION_LIMIT:
        embed.description = block
    else:
        file = discord.File(io.BytesIO(text.encode("utf-8")), filename="decklist.txt")
    # A footer shows no Discord timestamp: the moment of submission is a field.
    submitted = f"<t:{int(view.record.submitted_at.timestamp())}:f>"
    embed.add_field(name=t("ui.deck.submitted", lang), value=submitted)
    footer = t(
        "ui.deck.show_footer",
        lang,
        fingerprint=view.record.fingerprint,
        total=view.record.total,
    )
    if view.record.locked_at:
        footer += f" · {t('ui.deck.locked', lang)}"
    embed.set_footer(text=footer)
    return embed, file


MODAL_TEXT_LIMIT = 4000  # Discord's limit for one text input
DECK_FIELD = "decklist"


def paste_box(tournament_id: int, store: bool, lang: Lang) -> discord.ui.Modal:
    """The box to paste a list in (/deck submit or /deck check without a file, デッキ提出).
    Its custom id carries what it is for, so a box opened before a restart still arrives
    (routed by bot/ui/stateless.py)."""
    kind = "box" if store else "cbox"
    modal = discord.ui.Modal(
        title=t("ui.deck.modal_title", lang),
        custom_id=PASTE_BOX(kind=kind, tournament=tournament_id),
    )
    modal.add_item(
        discord.ui.TextInput(
            label=t("ui.deck.modal_label", lang),
            custom_id=DECK_FIELD,
            style=discord.TextStyle.paragraph,
            placeholder=t("ui.deck.modal_placeholder", lang),
            max_length=MODAL_TEXT_LIMIT,
        )
    )
    return modal


def registered_text(result: Registration, lang: Lang) -> str:
    """The answer to /register and to the 参加登録 button."""
    name = safe(result.tournament.name)
    if result.waitlist_position is not None:
        text = t("ui.register.waitlisted", lang, tournament=name, position=result.waitlist_position)
    elif result.late_round:
        text = t("ui.register.late", lang, tournament=name, round=result.late_round)
    else:
        text = t("ui.register.ok", lang, tournament=name)
    if result.tournament.decklist_required:
        text += "\n" + t("ui.register.deck_reminder", lang)
    return text


TOURNAMENTS_PER_PAGE = 15


def tournament_list_page(tournaments: Sequence[Tournament], lang: Lang, page: int) -> Page:
    """/tournament list: one line per tournament, newest first."""
    lines = [
        t(
            "ui.tournament.list_line",
            lang,
            name=safe(item.name),
            id=item.id,
            state=t(f"ui.state.{item.phase.value}", lang),
            format=t(f"ui.format.{item.format.value}", lang),
            regulation=t(f"ui.regulation.{item.regulation}", lang),
        )
        for item in tournaments
    ] or [t("ui.tournament.list_empty", lang)]
    chunk, index, count = page_of(lines, TOURNAMENTS_PER_PAGE, page)
    embed = discord.Embed(title=t("ui.tournament.list_title", lang), description="\n".join(chunk))
    embed.set_footer(text=t("ui.tournament.list_footer", lang, page=index + 1, pages=count))
    return Page(embed, index, count)


def start_reply(report: StartReport, lang: Lang) -> str:
    """What the organizer reads once the event has started: who plays, who was dropped."""
    started = report.tournament
    lines = [
        t(
            "ui.start.reply",
            lang,
            name=safe(started.name),
            players=len(report.players),
            seed=started.seed,
        )
    ]
    for key, players in (
        ("ui.start.without_deck", report.without_deck),
        ("ui.start.not_checked_in", report.not_checked_in),
        ("ui.start.dropped", report.dropped),
    ):
        if players:
            lines.append(t(key, lang, names=[safe(p.display_name) for p in players]))
    return "\n".join(lines)


PLAYERS_PER_PAGE = 20


def players_page(tournament: Tournament, players: Sequence[Entry], lang: Lang, page: int) -> Page:
    """/players: everyone who entered, in arrival order, with who is no longer in."""
    lines = [
        f"{number}. {safe(player.display_name)} (<@{player.user_id}>)"
        + ("" if player.in_event else f" · {t(f'ui.status.{player.status}', lang)}")
        for number, player in enumerate(players, start=1)
    ] or [t("ui.players.empty", lang)]
    chunk, index, count = page_of(lines, PLAYERS_PER_PAGE, page)
    in_event = sum(1 for p in players if p.in_event)
    embed = discord.Embed(
        title=t("ui.players.title", lang, name=safe(tournament.name), count=in_event),
        description="\n".join(chunk),
    )
    embed.set_footer(text=t("ui.players.footer", lang, page=index + 1, pages=count))
    return Page(embed, index, count)
