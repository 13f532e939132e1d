"""The four regulations (R-REG-1 … R-REG-4) and the violations a check reports."""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from domain.decks.cards import CardKey
from domain.errors import InvalidInput


class Regulation(enum.StrEnum):
    MIX = "mix"  # R-REG-1 ミックスレギュレーション
    SINGLE = "single"  # R-REG-2 シングルレギュレーション
    MIX_TWO = "mix-two"  # R-REG-3 MIX-Two limited
    EVENT = "event"  # R-REG-4 発売記念大会


_ALIASES: dict[str, Regulation] = {
    "mix": Regulation.MIX,
    "ミックス": Regulation.MIX,
    "ミックスレギュレーション": Regulation.MIX,
    "single": Regulation.SINGLE,
    "シングル": Regulation.SINGLE,
    "シングルレギュレーション": Regulation.SINGLE,
    "mixtwo": Regulation.MIX_TWO,
    "mixtwolimited": Regulation.MIX_TWO,
    "event": Regulation.EVENT,
    "releaseevent": Regulation.EVENT,
    "発売記念": Regulation.EVENT,
    "発売記念大会": Regulation.EVENT,
}


def parse_regulation(text: str) -> Regulation:
    """`mix`, `single`, `mix-two` (also `mix_two`, `MIX-Two limited`), `event`, or Japanese.

    Raises `InvalidInput` (`decks.unknown_regulation`) for anything else.
    """
    key = "".join(
        char
        for char in unicodedata.normalize("NFKC", str(text)).casefold()
        if char.isalnum() and char.isprintable()
    )
    found = _ALIASES.get(key)
    if found is None:
        raise InvalidInput(
            "decks.unknown_regulation",
            value=str(text)[:40],
            choices=", ".join(regulation.value for regulation in Regulation),
        )
    return found


@dataclass(frozen=True)
class Violation:
    """A broken rule: `t(key, lang, **params)` says what is wrong and how to fix it.

    `cards` are the cards concerned (may be empty); `params` values are strings and numbers.
    """

    rule: str
    key: str
    params: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    cards: tuple[CardKey, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))
