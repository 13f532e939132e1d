"""The argument a staff listing's page buttons carry: the tournament, an optional player
(0: everyone) and the reader's language, as `12.0.ja`."""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import Lang, normalise_locale
from domain.errors import IllegalTransition


@dataclass(frozen=True)
class Listing:
    tournament_id: int
    player_id: int | None
    lang: Lang

    def encode(self) -> str:
        return f"{self.tournament_id}.{self.player_id or 0}.{self.lang}"

    @classmethod
    def parse(cls, arg: str) -> Listing:
        """The listing a page button names; one that names nothing is out of date."""
        parts = arg.split(".")
        if len(parts) != 3 or not all(part.isascii() and part.isdigit() for part in parts[:2]):
            raise IllegalTransition("errors.stale_button")
        tournament, player, lang = parts
        return cls(int(tournament), int(player) or None, normalise_locale(lang))
