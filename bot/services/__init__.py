"""Use cases: one transaction each, permissions decided by the tournament model, every
change an operation that the unit of work stores and logs."""

from __future__ import annotations

from typing import TypeVar

from bot.services.base import Clock, SeedSource, Service, random_seed, utc_now
from bot.services.clock import ClockService
from bot.services.decks import DeckService
from bot.services.guilds import GuildService
from bot.services.judging import JudgeService
from bot.services.lifecycle import LifecycleService
from bot.services.live import LiveService
from bot.services.profiles import ProfileService
from bot.services.registration import RegistrationService
from bot.services.reminders import ReminderService
from bot.services.rounds import RoundService
from bot.services.series import SeriesService
from bot.services.tournaments import TournamentService
from bot.store.backend import Database
from bot.store.shards import Shards
from bot.store.uow import Store

S = TypeVar("S", bound=Service)


class Services:
    """Everything the cogs may ask for. Built once per bot from the database and a clock."""

    def __init__(
        self,
        database: Database,
        *,
        clock: Clock = utc_now,
        seeds: SeedSource = random_seed,
        default_locale: str = "ja",
        shards: Shards | None = None,
        claim_seconds: float = 60.0,
    ) -> None:
        store = Store(
            database, default_lang=default_locale, shards=shards, claim_seconds=claim_seconds
        )

        def build(kind: type[S]) -> S:
            return kind(store, clock=clock, seeds=seeds, default_locale=default_locale)

        self.store = store
        self.guilds = build(GuildService)
        self.tournaments = build(TournamentService)
        self.registration = build(RegistrationService)
        self.decks = build(DeckService)
        self.lifecycle = build(LifecycleService)
        self.rounds = build(RoundService)
        self.round_clock = build(ClockService)
        self.judges = build(JudgeService)
        self.live = build(LiveService)
        self.profiles = build(ProfileService)
        self.series = build(SeriesService)
        self.reminders = build(ReminderService)
        # One server's ratings, kept once for every reader of them.
        self.series.ratings = self.live.ratings = self.profiles.ratings
