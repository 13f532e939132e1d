"""A server's tournament set-up (/setup): its staff roles, channels and language."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Ratings(StrEnum):
    """Whether the server shows its players' ratings (domain.series.ratings), and where.
    They never affect pairings."""

    HIDDEN = "hidden"
    PROFILE = "profile"  # in /profile
    SERIES = "series"  # in /profile and as a column of the series standings

    @property
    def shown(self) -> bool:
        return self is not Ratings.HIDDEN


@dataclass(frozen=True)
class GuildConfig:
    guild_id: int
    organizer_role_id: int | None = None
    judge_role_id: int | None = None
    announcements_channel_id: int | None = None
    pairings_channel_id: int | None = None
    standings_channel_id: int | None = None
    judge_calls_channel_id: int | None = None
    log_channel_id: int | None = None
    staff_channel_id: int | None = None  # the organizer's panel; else the log channel
    locale: str | None = None  # None until /setup: the DEFAULT_LOCALE setting applies
    # Buttons on posts labelled in both languages (「結果報告 / Report result」), for servers
    # whose members read Japanese and English; else in the posting language only.
    bilingual_buttons: bool = False
    # Player ratings (opt-in): hidden, shown in /profile, or also as a column of the
    # series standings (`Ratings`).
    ratings: Ratings = Ratings.HIDDEN

    @property
    def configured(self) -> bool:
        return self.locale is not None
