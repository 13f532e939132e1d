"""The steps of an event that both a slash command and the organizer's panel take: the
start's preview, the finish, the export, and the entry import (with the member directory it
reads); and the panel's series menu, which the series cog shows again after each change.

Each answers the person who acted; what others are told is the notifier's plan.
"""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.i18n import show_date, t
from bot.services import Services
from bot.services.base import TournamentRef
from bot.services.live import public_url
from bot.services.registration import MemberDirectory
from bot.ui.buttons import Labels, start_view
from bot.ui.entry import start_preview_text
from bot.ui.export import matches_csv
from bot.ui.messages import (
    acknowledge,
    edit_answer,
    fit_or_attach,
    interaction_lang,
    render_error,
    reply,
)
from bot.ui.render import safe
from bot.ui.rounds import standing_rows
from bot.ui.series import import_report_text, series_menu
from bot.ui.standings import standings_csv
from bot.worker import off_loop
from cogs.common import Host, actor_of, bot_of, read_attachment
from domain.errors import IllegalTransition, InvalidInput

MEMBERS_PER_REQUEST = 1000  # Discord's most per List Guild Members request
IMPORT_FILE_LIMIT = 256 * 1024  # domain.entry_import.MAX_IMPORT_BYTES


async def show_start_preview(
    services: Services, interaction: discord.Interaction[Any], reference: TournamentRef
) -> None:
    """/tournament start and the panel's 開始: what the start would do, before it does."""
    lang = interaction_lang(interaction)
    await acknowledge(interaction)
    preview = await services.lifecycle.preview(actor_of(interaction), reference)
    content, file = fit_or_attach(start_preview_text(preview, lang), "start.txt", lang)
    view = start_view(preview.tournament.id, Labels(lang))
    await reply(interaction, content, file=file, view=view)


async def finish_event(
    services: Services, interaction: discord.Interaction[Any], reference: TournamentRef
) -> None:
    """/tournament finish and the panel's 終了; the final standings post is the notifier's."""
    lang = interaction_lang(interaction)
    await acknowledge(interaction)
    final = await services.rounds.finish(actor_of(interaction), reference)
    text = t("ui.finish.reply", lang, tournament=safe(final.tournament.name))
    if final.next_event is not None:
        upcoming = final.next_event
        text += "\n" + t(
            "ui.finish.next_event",
            lang,
            name=safe(upcoming.name),
            date=show_date(upcoming.event_date),
        )
    elif final.next_refused is not None:
        text += "\n" + t(
            "ui.finish.next_refused", lang, problem=render_error(final.next_refused, lang)
        )
    await reply(interaction, text)


async def member_directory(bot: Host, guild: discord.Guild) -> MemberDirectory:
    """The server's members, for the entry import to find the people a CSV names: their
    shown names and every name each is known by. Listing members needs the Server Members
    intent in the Developer Portal; without it the import is refused, saying how to turn it
    on (Discord IDs are checked against the same list)."""
    shown: dict[int, str] = {}
    names: dict[str, set[int]] = {}
    after = 0
    try:
        while True:
            batch = await bot.http.get_members(guild.id, MEMBERS_PER_REQUEST, after or None)
            for member in batch:
                user = member["user"]
                user_id = int(user["id"])
                if user.get("bot"):
                    continue
                display = member.get("nick") or user.get("global_name") or user["username"]
                shown[user_id] = display
                for name in {display, user.get("global_name"), user["username"]}:
                    if name:
                        names.setdefault(name, set()).add(user_id)
            if len(batch) < MEMBERS_PER_REQUEST:
                break
            after = int(batch[-1]["user"]["id"])
    except discord.Forbidden:
        raise IllegalTransition("entry_import.members_hidden") from None
    return MemberDirectory(shown, {name: frozenset(ids) for name, ids in names.items()})


async def import_entries(
    services: Services,
    interaction: discord.Interaction[Any],
    reference: TournamentRef,
    file: discord.Attachment | None,
) -> None:
    """/tournament import and the panel's 参加者の取り込み form: the CSV's entries, all or
    none (the organizer's check comes before the file is read or the members listed)."""
    lang = interaction_lang(interaction)
    await acknowledge(interaction)
    actor = actor_of(interaction)
    await services.registration.may_import(actor, reference)
    if file is None:  # a form sent without its file: Discord requires one
        raise InvalidInput("files.missing")
    data = await read_attachment(file, IMPORT_FILE_LIMIT)
    assert interaction.guild is not None
    directory = await member_directory(bot_of(interaction), interaction.guild)
    report = await services.registration.import_entries(actor, reference, data, directory)
    content, attached = fit_or_attach(import_report_text(report, lang), "import.txt", lang)
    await reply(interaction, content, file=attached)


async def send_export(
    services: Services, interaction: discord.Interaction[Any], reference: TournamentRef
) -> None:
    """/tournament export and the panel's 書き出し: the files, to the person who asked."""
    lang = interaction_lang(interaction)
    await acknowledge(interaction)
    exported = await services.rounds.export(actor_of(interaction), reference)
    found = exported.standings.tournament
    # Every player's line and every match: written off the event loop.
    table, matches = await off_loop(
        lambda: (
            standings_csv(standing_rows(exported.standings.lines), lang),
            matches_csv(found, exported.matches, lang),
        )
    )
    stem = f"tournament-{found.id}"
    await reply(
        interaction,
        t("ui.export.reply", lang, tournament=safe(found.name)),
        files=[
            discord.File(io.BytesIO(table), filename=f"{stem}-standings.csv"),
            discord.File(io.BytesIO(matches), filename=f"{stem}-matches.csv"),
            discord.File(io.BytesIO(exported.record), filename=f"{stem}.json"),
        ],
    )


async def show_series_menu(
    services: Services,
    interaction: discord.Interaction[Any],
    tournament: int,
    *,
    said: str | None = None,
) -> None:
    """The panel's シリーズ, to the organizer (the service refuses anyone else): a new
    private message from the panel; after a change from the menu, the menu itself, up to
    date, with what was done (`said`) above it."""
    overview = await services.series.overview(actor_of(interaction), tournament)
    embed, view = series_menu(overview, interaction_lang(interaction))
    if said is None or interaction.message is None:
        await reply(interaction, said, embed=embed, view=view)
    else:
        await edit_answer(interaction, content=said, embed=embed, view=view)


async def renew_page(
    services: Services, interaction: discord.Interaction[Any], reference: TournamentRef
) -> None:
    """/tournament page new, or the panel's 新しいアドレス: the page's new address, and that
    the old one shows nothing now."""
    lang = interaction_lang(interaction)
    switch = await services.tournaments.renew_page(actor_of(interaction), reference)
    found = switch.tournament
    url = public_url(found, bot_of(interaction).settings.web_public_url)
    if not found.page_public:
        key = "web.reply.renewed_hidden"
    elif url is None:
        key = "web.reply.on_no_server"
    else:
        key = "web.reply.renewed"
    await reply(interaction, t(key, lang, name=safe(found.name), url=url or ""))
