"""Restricted-card lists (制限カード), per regulation and dated (R-REG-5, R-REG-6).

TOML, exactly:

    [[limit]]                                  # a per-card maximum: 0 bans the card
    regulations = ["single", "event"]          # any of: mix, single, mix-two, event
    effective = 2014-05-03
    label = "メモリーズカード"
    title = "ゆるゆり"
    number = "01-046"
    max_copies = 1

    [[group]]                                  # at most max_total cards from the group
    regulations = ["mix", "mix-two"]
    effective = 2014-05-03
    label = "プレシャス1"
    max_total = 1
    cards = [{title = "ゆるゆり", number = "01-063"}, {title = "ゆるゆり", number = "01-121"}]

Only entries effective on or before the event date apply; for the same card (a `limit`) or the
same group label (a `group`), the newest such entry wins, and on the same date the later one
in the file. In a release event, the メモリーズカード and プレシャス1 entries are the single
regulation's (R-REG-6); its other entries are the event's own.

A label is free text, except that the regulation's categories may be written as it writes them,
`【メモリーズカード】`, `[プレシャス１]`, in either width: a label in 【】 or [] brackets must
be one of `CATEGORIES`, so a misspelt category is refused rather than silently skipped.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from domain.decks.cards import CardKey, card_number, loose_title_key, normalise_text, title_text
from domain.decks.datafiles import (
    load_toml,
    reject_unknown_fields,
    require_count,
    require_date,
    require_text,
    show_value,
)
from domain.decks.errors import DataFileError
from domain.decks.regulation import Regulation, parse_regulation
from domain.errors import InvalidInput

CATEGORIES: tuple[str, ...] = ("メモリーズカード", "プレシャス1")
"""The regulation's restricted categories (R-REG-6), as it names them."""

_BRACKETS = re.compile(r"[【\[](?P<inner>.*)[】\]]")


def _bracketed(label: str) -> str | None:
    """The text inside 【…】 or […] (either width), or None when `label` is not bracketed."""
    match = _BRACKETS.fullmatch(normalise_text(label))
    return None if match is None else match["inner"]


def label_key(label: str) -> str:
    """A label's comparison key: without 【】/[] brackets, width, case, spaces or punctuation."""
    inner = _bracketed(label)
    return loose_title_key(label if inner is None else inner)


SINGLE_LIST_LABELS: frozenset[str] = frozenset(label_key(name) for name in CATEGORIES)
"""R-REG-6: in a release event these categories follow the single regulation's list."""

_LIMIT_FIELDS = {"regulations", "effective", "label", "title", "number", "max_copies", "note"}
_GROUP_FIELDS = {"regulations", "effective", "label", "max_total", "cards", "note"}


@dataclass(frozen=True)
class CardLimit:
    """At most `max_copies` of one card (0: banned)."""

    regulations: frozenset[Regulation]
    effective: dt.date
    label: str
    card: CardKey
    max_copies: int
    where: str = ""


@dataclass(frozen=True)
class GroupLimit:
    """At most `max_total` cards in all from `cards`."""

    regulations: frozenset[Regulation]
    effective: dt.date
    label: str
    max_total: int
    cards: tuple[CardKey, ...]
    where: str = ""


def _applies_to(regulations: frozenset[Regulation], label: str, regulation: Regulation) -> bool:
    if regulation is Regulation.EVENT and label_key(label) in SINGLE_LIST_LABELS:
        return Regulation.SINGLE in regulations  # R-REG-6
    return regulation in regulations


@dataclass(frozen=True)
class RestrictedList:
    limits: tuple[CardLimit, ...] = ()
    groups: tuple[GroupLimit, ...] = ()

    def in_force(
        self,
        regulation: Regulation,
        date: dt.date,
        canonical: Callable[[str], str] = title_text,
    ) -> tuple[tuple[CardLimit, ...], tuple[GroupLimit, ...]]:
        """The limits and groups that apply to `regulation` on `date`, newest entry winning.

        `canonical` maps the titles written in the list to the catalogue's names, so that
        they compare with a decklist's resolved titles.
        """
        limits: dict[CardKey, CardLimit] = {}
        for limit in self.limits:
            if limit.effective > date or not _applies_to(
                limit.regulations, limit.label, regulation
            ):
                continue
            card = CardKey(canonical(limit.card.title), limit.card.number)
            current = limits.get(card)
            if current is None or limit.effective >= current.effective:
                limits[card] = replace(limit, card=card)
        groups: dict[str, GroupLimit] = {}
        for group in self.groups:
            if group.effective > date or not _applies_to(
                group.regulations, group.label, regulation
            ):
                continue
            label = label_key(group.label)
            chosen = groups.get(label)
            if chosen is None or group.effective >= chosen.effective:
                cards = tuple(
                    dict.fromkeys(
                        CardKey(canonical(card.title), card.number) for card in group.cards
                    )
                )
                groups[label] = replace(group, cards=cards)
        return tuple(limits.values()), tuple(groups.values())


def load_restricted_list(data: str | bytes, *, source: str = "restricted.toml") -> RestrictedList:
    """Read a restricted list; a `DataFileError` names the entry (`[[limit]] #3`) and field."""
    document = load_toml(data, source)
    reject_unknown_fields(document, {"limit", "group"}, source)
    limits = tuple(
        _limit(entry, f"{source} [[limit]] #{index}")
        for index, entry in enumerate(_tables(document, "limit", source), start=1)
    )
    groups = tuple(
        _group(entry, f"{source} [[group]] #{index}")
        for index, entry in enumerate(_tables(document, "group", source), start=1)
    )
    return RestrictedList(limits=limits, groups=groups)


def _tables(document: Mapping[str, object], name: str, source: str) -> list[dict[str, object]]:
    value = document.get(name, [])
    if not isinstance(value, list):
        raise DataFileError("decks.data.not_a_table", where=f"{source} [[{name}]]")
    for index, entry in enumerate(value, start=1):
        if not isinstance(entry, dict):
            raise DataFileError("decks.data.not_a_table", where=f"{source} [[{name}]] #{index}")
    return value


def _regulations(entry: Mapping[str, object], where: str) -> frozenset[Regulation]:
    if "regulations" not in entry:
        raise DataFileError("decks.data.missing_field", where=where, field="regulations")
    value = entry["regulations"]
    if not isinstance(value, list) or not value:
        raise DataFileError("decks.data.bad_list", where=where, field="regulations")
    found: set[Regulation] = set()
    for item in value:
        try:
            found.add(parse_regulation(item if isinstance(item, str) else ""))
        except InvalidInput:
            raise DataFileError(
                "decks.data.bad_regulation",
                where=where,
                field="regulations",
                value=show_value(item),
            ) from None
    return frozenset(found)


def _label(entry: Mapping[str, object], where: str) -> str:
    label = require_text(entry, "label", where)
    if _bracketed(label) is not None and label_key(label) not in SINGLE_LIST_LABELS:
        raise DataFileError(
            "decks.data.unknown_label",
            where=where,
            field="label",
            value=show_value(label),
            allowed=", ".join(f"【{name}】" for name in CATEGORIES),
        )
    return label


def _card(entry: Mapping[str, object], where: str, prefix: str = "") -> CardKey:
    title = require_text(entry, "title", where, shown_as=f"{prefix}title")
    field = f"{prefix}number"
    if "number" not in entry:
        raise DataFileError("decks.data.missing_field", where=where, field=field)
    raw = entry["number"]
    number = card_number(raw) if isinstance(raw, str) else None
    if number is None:
        raise DataFileError(
            "decks.data.bad_number", where=where, field=field, value=show_value(raw)
        )
    return CardKey(title_text(title), number)


def _limit(entry: Mapping[str, object], where: str) -> CardLimit:
    reject_unknown_fields(entry, _LIMIT_FIELDS, where)
    return CardLimit(
        regulations=_regulations(entry, where),
        effective=require_date(entry, "effective", where),
        label=_label(entry, where),
        card=_card(entry, where),
        max_copies=require_count(entry, "max_copies", where),
        where=where,
    )


def _group(entry: Mapping[str, object], where: str) -> GroupLimit:
    reject_unknown_fields(entry, _GROUP_FIELDS, where)
    regulations = _regulations(entry, where)
    effective = require_date(entry, "effective", where)
    label = _label(entry, where)
    max_total = require_count(entry, "max_total", where)
    if "cards" not in entry:
        raise DataFileError("decks.data.missing_field", where=where, field="cards")
    value = entry["cards"]
    if not isinstance(value, list) or not value:
        raise DataFileError("decks.data.bad_list", where=where, field="cards")
    cards: list[CardKey] = []
    for index, card in enumerate(value, start=1):
        prefix = f"cards[{index}]."
        if not isinstance(card, dict):
            raise DataFileError("decks.data.not_a_table", where=f"{where} cards[{index}]")
        reject_unknown_fields(card, {"title", "number", "name"}, f"{where} cards[{index}]")
        cards.append(_card(card, where, prefix))
    return GroupLimit(regulations, effective, label, max_total, tuple(cards), where)
