"""The organizer's panel: its buttons run the same steps as the commands (the service decides
who may: a player pressing one is refused), so an event runs without typing a command. Beside
the steps, its tools: before the start the restricted list (/tournament settings
restricted_list) and during registration the entry import (/tournament import), each a form
with a file upload; after the start 公開 (/deck publish, asked first); while a round's clock
runs 全体延長 (/round extend, a form for the minutes); and the event's series (/series add
and remove, /series create)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from bot.i18n import show_date, t
from bot.services.base import TournamentRef
from bot.services.rounds import PostState
from bot.ui.buttons import (
    EXTEND_MINUTES_FIELD,
    IMPORT_FILE_FIELD,
    IMPORT_FORM,
    PANEL_STEP,
    PANEL_TOOL,
    PUBLISH,
    RESTRICTED_FILE_FIELD,
    RESTRICTED_FORM,
    ROUND_EXTEND_FORM,
    CustomId,
    Labels,
    Tool,
    import_form,
    publish_view,
    restricted_form,
    round_extend_form,
)
from bot.ui.messages import acknowledge, edit_answer, interaction_lang, reply
from bot.ui.render import rooms_reply, safe
from bot.ui.rounds import POST_NOT_YET, round_name
from bot.ui.routing import ButtonHandler
from bot.ui.stateless import ModalHandler, send_stateless_modal, submitted_files
from cogs.common import (
    SETTINGS_FILE_LIMIT,
    Host,
    RoutedCog,
    actor_of,
    bot_permissions,
    free_channels,
    offering_fewer_rooms,
    read_attachment,
)
from cogs.event_steps import (
    finish_event,
    import_entries,
    renew_page,
    send_export,
    show_series_menu,
    show_start_preview,
)
from cogs.rounds.pairing import extend_whole_round, pair_next_round, start_round_clock
from domain.errors import InvalidInput
from domain.timeparse import typed_count
from domain.tournament.play import MAX_EXTENSION_MINUTES
from domain.tournament.steps import Step


class Panel(RoutedCog):
    def buttons(self) -> Iterable[tuple[CustomId, ButtonHandler]]:
        return [
            (PANEL_STEP, self.step_pressed),
            (PANEL_TOOL, self.tool_pressed),
            (PUBLISH, self.publish_pressed),
        ]

    def forms(self) -> Iterable[tuple[CustomId, ModalHandler]]:
        return [
            (IMPORT_FORM, self.import_submitted),
            (RESTRICTED_FORM, self.restricted_submitted),
            (ROUND_EXTEND_FORM, self.extend_submitted),
        ]

    async def step_pressed(
        self, interaction: discord.Interaction[Any], step: str, tournament: int
    ) -> None:
        await self.services.tournaments.may_use_panel(actor_of(interaction))
        reference = tournament
        chosen = Step(step)
        if chosen is Step.START:
            await show_start_preview(self.services, interaction, reference)
        elif chosen in (Step.PAIR, Step.TOP_CUT):
            await pair_next_round(self.services, interaction, reference)
        elif chosen is Step.START_CLOCK:
            await start_round_clock(self.services, interaction, reference)
        elif chosen is Step.NEXT_ROUND:
            await self.next_round(interaction, reference)
        elif chosen is Step.POST_STANDINGS:
            await self.services.rounds.post_standings(actor_of(interaction), reference)
            await reply(interaction, t("ui.panel.standings_posted", interaction_lang(interaction)))
        elif chosen is Step.FINISH:
            await finish_event(self.services, interaction, reference)
        else:
            await send_export(self.services, interaction, reference)

    async def tool_pressed(
        self, interaction: discord.Interaction[Any], tool: str, tournament: int
    ) -> None:
        actor = actor_of(interaction)
        lang = interaction_lang(interaction)
        await self.services.tournaments.may_use_panel(actor)
        chosen = Tool(tool)
        if chosen is Tool.SERIES:
            await show_series_menu(self.services, interaction, tournament)
        elif chosen is Tool.ROOMS:  # on or off, the other way from now
            async with offering_fewer_rooms(interaction):
                updated = await self.services.tournaments.set_rooms(
                    actor,
                    tournament,
                    on=None,
                    granted=bot_permissions(interaction),
                    free_channels=free_channels(interaction),
                )
                await reply(interaction, rooms_reply(updated, lang))
        elif chosen is Tool.NEW_PAGE:
            await renew_page(self.services, interaction, tournament)
        elif chosen is Tool.PUBLISH:
            found, count = await self.services.decks.may_publish(actor, tournament)
            text = t("ui.deck.publish_confirm", lang, name=safe(found.name), count=count)
            await reply(interaction, text, view=publish_view(tournament, Labels(lang)))
        elif chosen is Tool.EXTEND_ROUND:
            # 全体延長: a judge's, and only while the rules would extend the round (its clock
            # runs, a table still plays), checked before the form asks for the minutes.
            found = await self.services.rounds.may_extend_round(actor, tournament)
            current = found.current
            assert current is not None
            form = round_extend_form(tournament, round_name(current, lang), lang)
            await send_stateless_modal(interaction, form)
        elif chosen is Tool.RESTRICTED:
            # The organizer's check before the form opens, as /tournament settings' before
            # the file is read; the lists must not be locked yet (R-DECK-4).
            await self.services.tournaments.may_change_deck_rules(actor, tournament)
            await send_stateless_modal(interaction, restricted_form(tournament, lang))
        else:  # 参加者の取り込み, checked as /tournament import is before the file is read
            await self.services.registration.may_import(actor, tournament)
            await send_stateless_modal(interaction, import_form(tournament, lang))

    async def publish_pressed(
        self, interaction: discord.Interaction[Any], choice: str, tournament: int
    ) -> None:
        """公開する / やめる under the question: the lists made public (organizers only: the
        service decides), or nothing."""
        lang = interaction_lang(interaction)
        actor = actor_of(interaction)
        if choice == "no":
            await edit_answer(interaction, content=t("ui.deck.publish_kept", lang), view=None)
            return
        await self.services.decks.may_publish(actor, tournament)  # a refusal is a new reply
        await acknowledge(interaction, update=True)
        published, count = await self.services.decks.publish(actor, tournament)
        text = t("ui.deck.published", lang, name=safe(published.name), count=count)
        await edit_answer(interaction, content=text, view=None)

    async def restricted_submitted(
        self, interaction: discord.Interaction[Any], values: dict[str, str], tournament: int
    ) -> None:
        """The 制限カードリスト form: the file is read only once the actor is known to be an
        organizer, then saved as /tournament settings saves it (all or nothing)."""
        lang = interaction_lang(interaction)
        actor = actor_of(interaction)
        await acknowledge(interaction)
        services = self.services.tournaments
        await services.may_change_settings(actor)
        files = submitted_files(interaction, RESTRICTED_FILE_FIELD)
        if not files:  # a form sent without its file: Discord requires one
            raise InvalidInput("files.missing")
        data = await read_attachment(files[0], SETTINGS_FILE_LIMIT)
        updated = (
            await services.update_settings(
                actor, tournament, restricted_list=(files[0].filename, data)
            )
        ).tournament
        text = t(
            "ui.restricted.saved",
            lang,
            name=safe(updated.name),
            file=safe(files[0].filename),
            date=show_date(updated.event_date),
        )
        await reply(interaction, text)

    async def extend_submitted(
        self, interaction: discord.Interaction[Any], values: dict[str, str], tournament: int
    ) -> None:
        """The 全体延長 form: the minutes as typed (full-width digits too), then what
        /round extend does."""
        minutes = typed_count(
            values.get(EXTEND_MINUTES_FIELD, ""),
            key="ui.rounds.not_extension_minutes",
            rule="R-MATCH-7",
            maximum=MAX_EXTENSION_MINUTES,
        )
        await extend_whole_round(self.services, interaction, tournament, minutes)

    async def import_submitted(
        self, interaction: discord.Interaction[Any], values: dict[str, str], tournament: int
    ) -> None:
        files = submitted_files(interaction, IMPORT_FILE_FIELD)
        await import_entries(self.services, interaction, tournament, files[0] if files else None)

    async def next_round(
        self, interaction: discord.Interaction[Any], reference: TournamentRef
    ) -> None:
        """次の回戦: the next round paired and its clock started, in one press."""
        lang = interaction_lang(interaction)
        await acknowledge(interaction)
        async with offering_fewer_rooms(interaction):
            paired = await self.services.rounds.next_round(
                actor_of(interaction), reference, free_channels=free_channels(interaction)
            )
            assert paired.round.ends_at is not None
            end = int(paired.round.ends_at.timestamp())
            text = t(
                "ui.panel.next_round", lang, round_name=round_name(paired.round, lang), end=end
            )
            if paired.posted is not PostState.POSTED:
                text += "\n" + t(POST_NOT_YET[paired.posted], lang)
            if paired.rooms_waiting:
                text += "\n" + t("rooms.waiting", lang, waiting=paired.rooms_waiting)
            await reply(interaction, text)


async def setup(bot: Host) -> None:
    await bot.add_cog(Panel(bot))
