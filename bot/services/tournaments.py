"""Creating, finding, configuring and listing tournaments."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date, datetime
from functools import partial
from typing import Any, TypeVar

from bot.errors import StorageError
from bot.i18n import LANGUAGES, Lang, t
from bot.notify.plan import panel_here
from bot.services.actors import Actor
from bot.services.base import Service, TournamentRef
from bot.services.copies import create_copy, plan_copy
from bot.store.commits import Committed
from bot.store.uow import Store
from domain.decks.event_files import read_uploaded_files
from domain.engine.players import PlayerStatus
from domain.errors import (
    DomainError,
    IllegalTransition,
    InvalidInput,
    PermissionDenied,
    one_of,
)
from domain.event import EventConfig, make_event_config
from domain.guild import GuildConfig
from domain.series.repeat import next_date, parse_repeat
from domain.timeparse import JST, parse_date, parse_local_datetime
from domain.tournament.model import Tournament
from domain.tournament.operations import (
    CancelTournament,
    ChangeSettings,
    CreateTournament,
    MissingDeckPolicy,
    NoShowTiebreak,
    RenewLivePage,
    Repeat,
    Role,
    RoomSpectators,
    SetLivePage,
    SettingsChange,
)
from domain.tournament.permissions import require_role
from domain.tournament.registration import check_deck_rules_changeable
from domain.tournament.rooms import check_rooms_fit, missing_for_rooms

AUTOCOMPLETE_LIMIT = 25  # Discord's limit of autocomplete choices
CHOICE_LABEL_LIMIT = 100  # Discord's limit of a choice's name
# Discord drops an autocomplete not answered within 3 s: the first one of a guild waits at
# most this long for its one read (the writer may hold the database), then offers nothing.
FIRST_READ_WAIT = 2.0


@dataclass(frozen=True)
class TournamentSummary:
    tournament: Tournament
    registered: int
    waitlisted: int
    config: GuildConfig
    copied_from: Tournament | None = None  # 「前回と同じ設定で作成」: the tournament copied


def summarize(
    tournament: Tournament, config: GuildConfig, copied_from: Tournament | None = None
) -> TournamentSummary:
    return TournamentSummary(
        tournament,
        tournament.count(PlayerStatus.REGISTERED, PlayerStatus.ACTIVE),
        tournament.count(PlayerStatus.WAITLISTED),
        config,
        copied_from,
    )


def choice_label(tournament: Tournament, lang: Lang) -> str:
    """「【受付中】name（12人／定員24人）」: at most Discord's 100 characters, the name cut to
    fit."""
    players = tournament.count(PlayerStatus.REGISTERED, PlayerStatus.ACTIVE)
    limit = tournament.config.max_players
    if limit:
        count = t("ui.choice.count_limited", lang, players=players, limit=limit)
    else:
        count = t("ui.choice.count", lang, players=players)
    state = t(f"ui.choice.state.{tournament.phase.value}", lang)
    frame = t("ui.choice.label", lang, state=state, name="{name}", count=count)
    room = CHOICE_LABEL_LIMIT - len(frame) + len("{name}")
    name = tournament.name if len(tournament.name) <= room else tournament.name[: room - 1] + "…"
    return frame.replace("{name}", name, 1)


def new_page_slug() -> str:
    """A live page's address: 128 random bits, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


@dataclass(frozen=True)
class PageSwitch:
    tournament: Tournament
    changed: bool  # False: the page already was as asked, nothing was written


class _Choice:
    """One tournament as autocomplete offers it. Its labels (every language) are made the
    first time they are asked for, not at every commit (a report rush commits hundreds of
    times a minute); then the `Tournament` is let go, so a guild's finished events cost a
    few strings."""

    __slots__ = ("_labels", "_tournament", "finished", "folded", "id")

    def __init__(self, tournament: Tournament) -> None:
        self.id = tournament.id
        self.folded = tournament.name.casefold()  # for matching what is typed
        self.finished = tournament.phase.over  # open first: finished, 中止 last
        self._tournament: Tournament | None = tournament
        self._labels: dict[Lang, str] = {}

    def label(self, lang: Lang) -> str:
        if self._tournament is not None:
            self._labels = {each: choice_label(self._tournament, each) for each in LANGUAGES}
            self._tournament = None
        return self._labels[lang]


class TournamentChoices:
    """Each guild's tournaments as autocomplete offers them, kept in memory.

    Members type into a tournament option all at once (a round starting, a report rush),
    and Discord drops an autocomplete not answered within 3 s. So an autocomplete reads
    nothing: a guild's tournaments are read once, at its first autocomplete (one read that
    every autocomplete arriving meanwhile shares), then kept current from the store's
    commits, each of which hands over the tournament it wrote at its new version (the store
    caches it before publishing). Nothing here waits for the database writer after that.
    """

    def __init__(self, store: Store, read: Callable[[int], Awaitable[list[Tournament]]]) -> None:
        self._store = store
        self._read = read
        self._guilds: dict[int, dict[int, _Choice]] = {}
        self._reading: dict[int, asyncio.Future[dict[int, _Choice]]] = {}
        self._commits: dict[int, int] = {}  # per guild: to see a commit land during a read
        store.commits.subscribe(self._committed)

    async def of(self, guild_id: int, *, wait: float) -> list[_Choice]:
        """The guild's choices; raises TimeoutError when its first read takes over `wait` s
        (the read goes on, for the next autocomplete)."""
        known = self._guilds.get(guild_id)
        if known is None:
            reading = self._reading.get(guild_id)
            if reading is None:
                reading = asyncio.ensure_future(self._load(guild_id))
                self._reading[guild_id] = reading
                reading.add_done_callback(partial(self._read_done, guild_id))
            known = await asyncio.wait_for(asyncio.shield(reading), wait)
        return list(known.values())

    def _read_done(self, guild_id: int, reading: asyncio.Future[dict[int, _Choice]]) -> None:
        self._reading.pop(guild_id, None)
        if not reading.cancelled():
            reading.exception()  # seen: a failed read is retried by the next autocomplete

    async def _load(self, guild_id: int) -> dict[int, _Choice]:
        choices: dict[int, _Choice] = {}
        for _ in range(3):
            commits = self._commits.get(guild_id, 0)
            choices = {found.id: _Choice(found) for found in await self._read(guild_id)}
            if self._commits.get(guild_id, 0) == commits:
                self._guilds[guild_id] = choices
                break
            # A commit landed while reading: what was read may predate it; read again.
        return choices

    def _committed(self, committed: Committed) -> None:
        if committed.tournament_id is None or committed.version is None:
            return
        guild_id = committed.guild_id
        self._commits[guild_id] = self._commits.get(guild_id, 0) + 1
        choices = self._guilds.get(guild_id)
        if choices is None:
            return
        written = self._store.cache.get(committed.tournament_id, committed.version)
        if written is None:  # not expected: the store caches before publishing
            del self._guilds[guild_id]  # read again at the next autocomplete
        else:
            choices[written.id] = _Choice(written)


class TournamentService(Service):
    def __init__(self, store: Store, **kwargs: Any) -> None:
        super().__init__(store, **kwargs)
        self.choices = TournamentChoices(store, self._guild_tournaments)

    async def _guild_tournaments(self, guild_id: int) -> list[Tournament]:
        async with self.reader(guild_id) as tx:
            return await tx.tournaments()

    def today(self) -> date:
        return self.clock().astimezone(JST).date()

    async def create(
        self,
        actor: Actor,
        *,
        name: str | None = None,
        format: str | None = None,
        regulation: str | None = None,
        rounds: int | None = None,
        top_cut: int | None = None,
        time_limit: int | None = None,
        titles: str | None = None,
        max_players: int | None = None,
        event_date: str | None = None,
        copy: str | None = None,
    ) -> TournamentSummary:
        """A new tournament, or with `copy` (「前回と同じ設定で作成」) a copy of that one: its
        event choices and every setting (restricted list, check-in, …), the next number in
        its name unless `name` is given, and the options given here in place of the copied
        ones."""
        if copy is not None and copy.strip():
            return await self._create_copy(
                actor,
                copy,
                name=name,
                format=format,
                regulation=regulation,
                rounds=rounds,
                top_cut=top_cut,
                time_limit=time_limit,
                titles=titles,
                max_players=max_players,
                event_date=event_date,
            )
        missing = [
            option
            for option, value in (("name", name), ("format", format), ("regulation", regulation))
            if not value
        ]
        if missing:
            raise InvalidInput("tournament.create_needs", options=tuple(missing))
        assert name is not None
        assert format is not None
        assert regulation is not None
        config = make_event_config(
            name=name,
            format=format,
            regulation=regulation,
            event_date=self._parse_date(event_date),
            rounds=rounds,
            top_cut=top_cut,
            time_limit_minutes=time_limit,
            titles=titles,
            max_players=max_players,
        )
        async with self.uow(actor) as tx:
            created, _ = await tx.create(CreateTournament(config))
            return summarize(created, await tx.guild_config())

    async def _create_copy(
        self,
        actor: Actor,
        reference: str,
        *,
        name: str | None,
        format: str | None,
        regulation: str | None,
        rounds: int | None,
        top_cut: int | None,
        time_limit: int | None,
        titles: str | None,
        max_players: int | None,
        event_date: str | None,
    ) -> TournamentSummary:
        day = parse_date(event_date) if event_date and event_date.strip() else None
        async with self.uow(actor) as tx:
            tx.authorize(CreateTournament)
            source = await tx.tournament(reference)
            config = source.config
            given = (format, regulation, rounds, top_cut, time_limit, titles, max_players)
            if any(value is not None for value in given):
                config = _overridden(
                    source,
                    format=format,
                    regulation=regulation,
                    rounds=rounds,
                    top_cut=top_cut,
                    time_limit=time_limit,
                    titles=titles,
                    max_players=max_players,
                )
            repeat = source.settings.repeat
            if day is None and (
                repeat is Repeat.NONE or next_date(source.event_date, repeat) < self.today()
            ):
                repeat, day = Repeat.NONE, self.today()
            planned = await plan_copy(tx, source, repeat, name=name, event_date=day, config=config)
            created = await create_copy(tx, planned)
            return summarize(created, await tx.guild_config(), copied_from=source)

    def _parse_date(self, text: str | None) -> date:
        return parse_date(text) if text and text.strip() else self.today()

    async def info(self, actor: Actor, reference: TournamentRef) -> TournamentSummary:
        async with self.reader(actor.guild_id) as tx:
            return summarize(await tx.tournament(reference), await tx.guild_config())

    async def overview(self, actor: Actor, *, include_finished: bool = True) -> list[Tournament]:
        async with self.reader(actor.guild_id) as tx:
            return await tx.tournaments(open_only=not include_finished)

    async def autocomplete(
        self, guild_id: int | None, typed: str, lang: Lang = "ja"
    ) -> list[tuple[str, str]]:
        """(label, value) pairs: open tournaments first, matching what was typed. A label
        shows the state and the player count in the reader's language:
        「【受付中】第12回 交流会（12人／定員24人）」. From memory (`TournamentChoices`);
        nothing when the guild's first read cannot finish in time (the command itself
        still works with a typed name)."""
        if guild_id is None:
            return []
        try:
            choices = await self.choices.of(guild_id, wait=FIRST_READ_WAIT)
        except (TimeoutError, StorageError):
            return []
        needle = typed.strip().casefold()
        matches = [choice for choice in choices if needle in choice.folded]
        matches.sort(key=lambda choice: (choice.finished, -choice.id))
        return [(c.label(lang), str(c.id)) for c in matches[:AUTOCOMPLETE_LIMIT]]

    async def update_settings(
        self,
        actor: Actor,
        reference: TournamentRef,
        *,
        late_registration_rounds: int | None = None,
        decklist_required: bool | None = None,
        missing_deck_policy: str | None = None,
        starts_at: str | None = None,
        checkin_minutes: int | None = None,
        mix_two_minimum: int | None = None,
        restricted_list: tuple[str, bytes] | None = None,
        titles_file: tuple[str, bytes] | None = None,
        card_database: tuple[str, bytes] | None = None,
        ex_deck: bool | None = None,
        ex_copies_shared: bool | None = None,
        noshow_minutes: int | None = None,
        noshow_tiebreak: str | None = None,
        repeat: str | None = None,
        reminders: bool | None = None,
    ) -> TournamentSummary:
        """Change organizer settings, all of them or none: one refused value refuses the
        whole change, and the refusal names that setting and says nothing was saved.
        Uploaded files, as (filename, bytes), are read only once the actor is known to be
        an organizer."""
        policy = tiebreak = start = None
        if missing_deck_policy is not None:
            key = "tournament.bad_missing_deck_policy"
            policy = _refused_as(
                "missing_deck", one_of, MissingDeckPolicy, missing_deck_policy, key
            )
        if noshow_tiebreak is not None:
            key = "tournament.bad_noshow_tiebreak"
            tiebreak = _refused_as("noshow_tiebreak", one_of, NoShowTiebreak, noshow_tiebreak, key)
        if starts_at is not None:
            start = self._parse_start(starts_at)
        repeats = None if repeat is None else _refused_as("repeat", parse_repeat, repeat)
        async with self.uow(actor) as tx:
            tournament = await tx.tournament(reference)
            uploads = {
                "restricted_list": restricted_list,
                "titles_file": titles_file,
                "card_database": card_database,
            }
            if any(uploads.values()):
                # Authorise before parsing anything a member uploaded.
                tx.authorize(ChangeSettings)
            files: dict[str, Any] = {}
            for setting, upload in uploads.items():
                files |= _refused_as(setting, read_uploaded_files, {setting: upload})
            change = SettingsChange(
                late_registration_rounds=late_registration_rounds,
                decklist_required=decklist_required,
                missing_deck_policy=policy,
                starts_at=start,
                clear_starts_at=starts_at is not None and start is None,
                checkin_minutes=checkin_minutes,
                mix_two_minimum=mix_two_minimum,
                ex_deck=ex_deck,
                ex_copies_shared=ex_copies_shared,
                noshow_minutes=noshow_minutes,
                noshow_tiebreak=tiebreak,
                repeat=repeats,
                reminders=reminders,
                **files,
            )
            try:
                updated, _ = await tx.apply(tournament, ChangeSettings(change))
            except (InvalidInput, IllegalTransition) as error:
                raise settings_refused(error) from error
            # What the organizer's answer shows: the tournament as saved, and its server's.
            return summarize(updated, await tx.guild_config())

    async def set_rooms(
        self,
        actor: Actor,
        reference: TournamentRef,
        *,
        on: bool | None,
        spectators: str | None = None,
        limit: int | None = None,
        granted: frozenset[str] = frozenset(),
        free_channels: int | None = None,
    ) -> Tournament:
        """Match rooms on or off (`on` None: the other way from now; the panel's button),
        what everyone else may do in them, and for how many tables (`limit`: tables 1 to
        N only, 0 every table). Turning them on is refused, with what is missing, where the
        bot cannot make them (`granted`: its server permissions), and, once the event runs,
        where they would not fit the server (`free_channels`: what it can still take)."""
        watching = None
        if spectators is not None:
            watching = _refused_as(
                "spectators", one_of, RoomSpectators, spectators, "rooms.bad_spectators"
            )
        async with self.uow(actor) as tx:
            tx.authorize(ChangeSettings)
            tournament = await tx.tournament(reference)
            wanted = not tournament.settings.rooms if on is None else on
            if wanted:
                missing = missing_for_rooms(granted)
                if missing:
                    raise InvalidInput("rooms.missing_permissions", missing=missing)
            change = SettingsChange(rooms=wanted, room_spectators=watching, room_limit=limit)
            try:
                updated, _ = await tx.apply(tournament, ChangeSettings(change))
            except (InvalidInput, IllegalTransition) as error:
                raise settings_refused(error) from error
            if updated.settings.rooms and updated.started_at is not None:
                # Made at once: refused whole (nothing written) if the server cannot hold them.
                check_rooms_fit(updated, free_channels, await tx.owned_rooms(updated.id))
        return updated

    async def cancel(self, actor: Actor, reference: str | None) -> Tournament:
        """/tournament cancel (中止), before the start: organizers only. Its players, its
        registration post and the server's calendar are told by the notifier."""
        async with self.uow(actor) as tx:
            tx.authorize(CancelTournament)
            tournament = await tx.tournament(reference)
            cancelled, _ = await tx.apply(tournament, CancelTournament())
        return cancelled

    async def may_use_panel(self, actor: Actor) -> None:
        """The panel's buttons are the staff's (each step then checks its own role): a
        player pressing one is told so, whatever the step."""
        async with self.reader_as(actor) as tx:
            if tx.actor.role < Role.JUDGE:
                raise PermissionDenied("permissions.panel_staff_only")

    async def post_panel(self, actor: Actor, reference: TournamentRef) -> Tournament:
        """The organizer's panel, posted where the command was used (staff only)."""
        async with self.uow(actor) as tx:
            require_role(tx.actor, Role.JUDGE)
            tournament = await tx.tournament(reference)
            await tx.tell(tournament, [panel_here(actor.channel_id)])
        return tournament

    async def may_change_settings(self, actor: Actor) -> None:
        """Refuse a non-organizer before their uploads are even downloaded."""
        async with self.reader_as(actor) as tx:
            tx.authorize(ChangeSettings)

    async def may_change_deck_rules(self, actor: Actor, reference: TournamentRef) -> None:
        """Before the panel's 制限カードリスト form opens: an organizer, and lists not yet
        locked (R-DECK-4), so nobody uploads a file the rules would refuse anyway."""
        async with self.reader_as(actor) as tx:
            tx.authorize(ChangeSettings)
            tournament = await tx.tournament(reference)
        check_deck_rules_changeable(tournament)

    def _parse_start(self, text: str) -> datetime | None:
        """`2026/12/01 13:00`, `今日 21時`, `21:00` as people type them (Japan time unless a
        zone is given; a day named from today is the clock's), or empty to clear."""
        if not text.strip():
            return None
        return _refused_as("starts_at", parse_local_datetime, text, now=self.clock())

    async def set_page(self, actor: Actor, reference: TournamentRef, public: bool) -> PageSwitch:
        """/tournament page on|off (organizers). The first time on makes the page's
        unguessable address; off hides the page and keeps the address for the next on.
        Asking for the state it already has changes nothing (and logs nothing)."""
        async with self.uow(actor) as tx:
            tx.authorize(SetLivePage)
            tournament = await tx.tournament(reference)
            if tournament.page_public == public:
                return PageSwitch(tournament, changed=False)
            slug = tournament.page_slug or new_page_slug()
            updated, _ = await tx.apply(tournament, SetLivePage(public, slug))
        return PageSwitch(updated, changed=True)

    async def renew_page(self, actor: Actor, reference: TournamentRef) -> PageSwitch:
        """/tournament page new, or the panel's 新しいアドレス (organizers): the page gets a
        new unguessable address and the old one shows nothing from then on (a leaked link,
        a screenshot with the address). Public or hidden stays as it was."""
        async with self.uow(actor) as tx:
            tx.authorize(RenewLivePage)
            tournament = await tx.tournament(reference)
            updated, _ = await tx.apply(tournament, RenewLivePage(new_page_slug()))
        return PageSwitch(updated, changed=True)


def _overridden(
    source: Tournament,
    *,
    format: str | None,
    regulation: str | None,
    rounds: int | None,
    top_cut: int | None,
    time_limit: int | None,
    titles: str | None,
    max_players: int | None,
) -> EventConfig:
    """`source`'s event choices with those given in their place. A new format brings its
    own top cut (only the one given), a new regulation its own titles (likewise)."""
    config = source.config
    return make_event_config(
        name=config.name,
        format=format or config.format.value,
        regulation=regulation or config.regulation,
        event_date=config.event_date,
        rounds=rounds if rounds is not None else config.rounds,
        top_cut=top_cut if top_cut is not None or format else config.top_cut,
        time_limit_minutes=time_limit if time_limit is not None else config.time_limit_minutes,
        titles=titles if titles is not None or regulation else ", ".join(config.titles),
        max_players=max_players if max_players is not None else config.max_players,
    )


T = TypeVar("T")

# The settings by the names organizers see (the options of /tournament settings) where the
# tournament's own name differs.
OPTION_OF_SETTING = {
    "late_registration_rounds": "late_registration",
    "missing_deck_policy": "missing_deck",
}
SETTINGS_REFUSED = "tournament.settings_refused"


def _refused_as(setting: str, read: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`read(...)`, or its refusal as the refusal of the change, naming `setting` (an option
    of /tournament settings)."""
    try:
        return read(*args, **kwargs)
    except (InvalidInput, IllegalTransition) as error:
        raise _refusal(error, SETTINGS_REFUSED, setting=setting) from error


def settings_refused(error: DomainError) -> DomainError:
    """The rules' refusal of a settings change as the organizer is told it: what is wrong,
    the setting to blame when the rule names one, and that nothing of the change was saved."""
    setting = error.params.get("setting")
    if setting is None:
        return _refusal(error, SETTINGS_REFUSED + "_unnamed")
    option = OPTION_OF_SETTING.get(str(setting), str(setting))
    return _refusal(error, SETTINGS_REFUSED, setting=option)


def _refusal(problem: DomainError, key: str, **params: object) -> DomainError:
    """`problem` told as `key`: the same kind of refusal, citing the same rule."""
    kind = IllegalTransition if isinstance(problem, IllegalTransition) else InvalidInput
    return kind(key, rule=problem.rule, problem=problem, **params)
