"""Use cases: one transaction each, permissions decided by the tournament model, every
change an operation that the unit of work stores and logs."""

from __future__ import annotations

from typing import TypeVar

from bot.notify.plan import plan
from bot.services.base import Clock, SeedSource, Service, random_seed, utc_now
from bot.services.clock import ClockService, ClockTimes
from bot.services.decks import DeckService
from bot.services.guilds import GuildService
from bot.services.judging import JudgeService
from bot.services.lifecycle import LifecycleService
from bot.services.live import LiveService
from bot.services.profiles import ProfileService
from bot.services.ratings import RatingsMemo
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
    """Everything the cogs may ask for, built once per bot, top to bottom: the store (with
    the notifier's plan it writes to the outbox), then each service with what it needs.
    Nothing is set on a service after it is built."""

    def __init__(
        self,
        database: Database,
        *,
        clock: Clock = utc_now,
        seeds: SeedSource = random_seed,
        default_locale: str = "ja",
        shards: Shards | None = None,
        claim_seconds: float = 60.0,
        clock_times: ClockTimes | None = None,
    ) -> None:
        store = Store(
            database,
            plan=plan,
            default_lang=default_locale,
            shards=shards,
            claim_seconds=claim_seconds,
        )
        # One server's ratings, kept once for every reader of them.
        ratings = RatingsMemo()

        def build(kind: type[S]) -> S:
            return kind(store, clock=clock, seeds=seeds, default_locale=default_locale)

        self.store = store
        self.guilds = build(GuildService)
        self.tournaments = build(TournamentService)
        self.registration = build(RegistrationService)
        self.decks = build(DeckService)
        self.lifecycle = build(LifecycleService)
        self.rounds = build(RoundService)
        self.round_clock = ClockService(
            store,
            clock_times or ClockTimes(),
            clock=clock,
            seeds=seeds,
            default_locale=default_locale,
        )
        self.judges = build(JudgeService)
        self.live = LiveService(
            store, ratings, clock=clock, seeds=seeds, default_locale=default_locale
        )
        self.profiles = ProfileService(
            store, ratings, clock=clock, seeds=seeds, default_locale=default_locale
        )
        self.series = SeriesService(
            store, ratings, clock=clock, seeds=seeds, default_locale=default_locale
        )
        self.reminders = build(ReminderService)
