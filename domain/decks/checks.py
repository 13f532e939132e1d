"""Checking a decklist against the construction rules, a regulation and the event's lists.

Every violation is reported at once, each with its rule id and the cards concerned:

- R-REG-7: a title the catalogue does not know (with the closest known titles);
- R-DECK-1: not exactly 60 cards;
- R-DECK-2 / R-DECK-3: more than 4 copies of a card, parallels counted together;
- R-DECK-6: an EX deck where the event has none, or of more than 15 cards;
- R-REG-2 single (only the designated title, when the event names one), R-REG-3 MIX-Two
  limited, R-REG-4 release event (R-REG-1 mix adds nothing);
- R-REG-5 / R-REG-6: the restricted list in force on the event date;
- R-REG-1 / R-REG-8 with a card database: cards it does not list, or released after the date.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from domain.decks.carddb import CardDatabase
from domain.decks.cards import DECK_SIZE, MAX_COPIES, CardKey, title_key, title_text
from domain.decks.decklist import DeckEntry, Decklist, fingerprint
from domain.decks.defaults import default_titles
from domain.decks.regulation import Regulation, Violation
from domain.decks.restricted import RestrictedList
from domain.decks.titles import TitleCatalogue
from domain.errors import InvalidInput

DEFAULT_MIX_TWO_MINIMUM = 15
"""R-REG-3: at least 15 cards of each title (later regulations raised it; it is a setting)."""

DEFAULT_EX_DECK_LIMIT = 15
"""R-DECK-6: later products added an EX deck of up to 15 cards (「デッキ60枚、エクストラ15枚」)."""


def _listed(items: Iterable[object]) -> tuple[str, ...]:
    """A list param: the catalog joins it the reader's way (「A、B」 or "A, B")."""
    return tuple(str(item) for item in items)


@dataclass(frozen=True)
class DeckRules:
    """What a deck is checked against. `titles=None` means the shipped catalogue.

    `designated_titles`: the titles of a release event (R-REG-4), or the one title of a single
    event (R-REG-2) when the organizer names it. `ex_deck`: whether the event allows an EX deck
    of up to `ex_deck_limit` cards (R-DECK-6; off by default, as in the 2014 regulation);
    `ex_copies_shared`: whether the 4-copy rule counts the main and EX decks together.
    """

    regulation: Regulation
    date: dt.date
    designated_titles: tuple[str, ...] = ()
    mix_two_minimum: int = DEFAULT_MIX_TWO_MINIMUM
    titles: TitleCatalogue | None = None
    restricted: RestrictedList | None = None
    cards: CardDatabase | None = None
    ex_deck: bool = False
    ex_copies_shared: bool = True
    ex_deck_limit: int = DEFAULT_EX_DECK_LIMIT

    @property
    def catalogue(self) -> TitleCatalogue:
        return self.titles if self.titles is not None else default_titles()

    @property
    def has_designated_titles(self) -> bool:
        """Whether the event names titles: always for a release event (R-REG-4), optionally
        for a single event (R-REG-2), which then accepts only them."""
        if self.regulation is Regulation.EVENT:
            return True
        return self.regulation is Regulation.SINGLE and any(
            title_key(text) for text in self.designated_titles
        )

    @property
    def unchecked(self) -> tuple[Unchecked, ...]:
        """What a deck checked against these rules is not checked for: the card numbers
        without a card database, the restricted cards without a restricted list."""
        missing = []
        if self.cards is None:
            missing.append(Unchecked.CARD_NUMBERS)
        if self.restricted is None:
            missing.append(Unchecked.RESTRICTED_LIST)
        return tuple(missing)

    def designated(self) -> tuple[str, ...]:
        """R-REG-4: the designated titles as catalogue names.

        Raises `InvalidInput` when the event has none, or names a title the catalogue lacks:
        that is the organizer's mistake, not the player's.
        """
        catalogue = self.catalogue
        names: list[str] = []
        for text in self.designated_titles:
            if not title_key(text):
                continue
            name = catalogue.resolve(text)
            if name is None:
                suggestions = catalogue.suggest(text)
                raise InvalidInput(
                    "decks.unknown_designated_title",
                    rule="R-REG-4",
                    title=title_text(text),
                    suggestions=_listed(suggestions) if suggestions else "-",
                )
            if name not in names:
                names.append(name)
        if not names:
            raise InvalidInput("decks.no_designated_titles", rule="R-REG-4")
        return tuple(names)


class Unchecked(StrEnum):
    """What a check could not look at, because the organizer supplied no file for it (none
    ships with the bot): the answer says so rather than a plain 「使用できます」."""

    CARD_NUMBERS = "card_numbers"  # no card database: numbers against no card list (R-REG-8)
    RESTRICTED_LIST = "restricted_list"  # no restricted list: 制限カード unchecked (R-REG-5)


@dataclass(frozen=True)
class DeckCheck:
    """The outcome of `check_deck`. `decklist` has its titles resolved to catalogue names."""

    decklist: Decklist
    total: int
    titles: Mapping[str, int]
    violations: tuple[Violation, ...] = ()
    unknown_titles: tuple[str, ...] = field(default=())
    ex_total: int = 0
    unchecked: tuple[Unchecked, ...] = ()  # what the rules had no file to check against

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def fingerprint(self) -> str:
        """R-DECK-4: the fingerprint of the resolved list (aliases count as their title)."""
        return fingerprint(self.decklist)


def check_deck(decklist: Decklist, rules: DeckRules) -> DeckCheck:
    """Check `decklist` against `rules`; every violation found is reported.

    Raises `InvalidInput` only for a bad rule set (event without valid designated titles, a
    MIX-Two minimum outside 1–60), never for the deck.
    """
    if not 1 <= rules.mix_two_minimum <= DECK_SIZE:
        raise InvalidInput(
            "decks.bad_mix_two_minimum", rule="R-REG-3", value=rules.mix_two_minimum, max=DECK_SIZE
        )
    if not 0 <= rules.ex_deck_limit <= DECK_SIZE:
        raise InvalidInput(
            "decks.bad_ex_deck_limit", rule="R-DECK-6", value=rules.ex_deck_limit, max=DECK_SIZE
        )
    designated = rules.designated() if rules.has_designated_titles else ()
    catalogue = rules.catalogue
    violations: list[Violation] = []

    # R-REG-7: unknown titles, named with their lines and the closest known titles.
    unknown: dict[str, list[int]] = {}
    for line in (*decklist.lines, *decklist.ex_lines):
        if catalogue.resolve(line.title) is None:
            unknown.setdefault(line.title, []).append(line.line)
    for title, lines in unknown.items():
        suggestions = catalogue.suggest(title)
        params: dict[str, object] = {"title": title, "lines": _listed(lines)}
        if suggestions:
            params["suggestions"] = _listed(suggestions)
        violations.append(
            Violation(
                "R-REG-7",
                "decks.unknown_title" if suggestions else "decks.unknown_title_no_match",
                params,
            )
        )

    resolved = decklist.with_titles(catalogue.canonical)
    entries = resolved.entries
    total = resolved.total
    titles = _title_counts(entries)
    # Which titles a deck uses, for the regulations, counts the EX deck too.
    all_entries = resolved.all_entries
    all_titles = _title_counts(all_entries)

    # R-DECK-1: exactly 60.
    if total < DECK_SIZE:
        violations.append(
            Violation(
                "R-DECK-1", "decks.too_few_cards", {"total": total, "missing": DECK_SIZE - total}
            )
        )
    elif total > DECK_SIZE:
        violations.append(
            Violation(
                "R-DECK-1", "decks.too_many_cards", {"total": total, "extra": total - DECK_SIZE}
            )
        )

    violations.extend(_ex_violations(rules, resolved))

    # R-DECK-2, R-DECK-3: at most 4 of a card, parallels and duplicate lines counted together,
    # and the EX deck with the main deck unless the organizer counts them apart.
    copies = all_entries if rules.ex_copies_shared else (*entries, *resolved.ex_entries)
    for entry in copies:
        if entry.count > MAX_COPIES:
            card_params: dict[str, object] = {
                "title": entry.key.title,
                "number": entry.key.number,
                "count": entry.count,
                "max": MAX_COPIES,
                "extra": entry.count - MAX_COPIES,
                "lines": _listed(entry.lines),
            }
            if entry.has_parallels:
                card_params["numbers"] = _listed(entry.numbers)
                violations.append(
                    Violation(
                        "R-DECK-3", "decks.too_many_copies_parallel", card_params, (entry.key,)
                    )
                )
            else:
                violations.append(
                    Violation("R-DECK-2", "decks.too_many_copies", card_params, (entry.key,))
                )

    violations.extend(_regulation_violations(rules, all_titles, titles, designated, all_entries))
    if rules.restricted is not None:
        violations.extend(_restricted_violations(rules, rules.restricted, all_entries))
    if rules.cards is not None:
        violations.extend(_database_violations(rules, rules.cards, all_entries))

    return DeckCheck(
        decklist=resolved,
        total=total,
        titles=MappingProxyType(titles),
        violations=tuple(violations),
        unknown_titles=tuple(unknown),
        ex_total=resolved.ex_total,
        unchecked=rules.unchecked,
    )


def _ex_violations(rules: DeckRules, decklist: Decklist) -> list[Violation]:
    """R-DECK-6: an EX deck only where the event allows one, and of at most its limit."""
    ex_total = decklist.ex_total
    if not decklist.ex_lines:
        return []
    ex_cards = tuple(entry.key for entry in decklist.ex_entries)
    if not rules.ex_deck:
        return [Violation("R-DECK-6", "decks.ex_not_allowed", {"total": ex_total}, ex_cards)]
    if ex_total > rules.ex_deck_limit:
        params = {
            "total": ex_total,
            "max": rules.ex_deck_limit,
            "extra": ex_total - rules.ex_deck_limit,
        }
        return [Violation("R-DECK-6", "decks.ex_too_many", params, ex_cards)]
    return []


def _title_counts(entries: tuple[DeckEntry, ...]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for entry in entries:
        counts[entry.key.title] = counts.get(entry.key.title, 0) + entry.count
    return dict(sorted(counts.items(), key=lambda item: (-item[1], title_key(item[0]))))


def _describe(titles: Mapping[str, int]) -> tuple[str, ...]:
    return _listed(f"{title} ×{count}" for title, count in titles.items())


def _cards_of(entries: tuple[DeckEntry, ...], titles: set[str]) -> tuple[CardKey, ...]:
    return tuple(entry.key for entry in entries if entry.key.title in titles)


def _regulation_violations(
    rules: DeckRules,
    titles: dict[str, int],
    main_titles: dict[str, int],
    designated: tuple[str, ...],
    entries: tuple[DeckEntry, ...],
) -> list[Violation]:
    """`titles` counts the cards of both decks; `main_titles` the main deck's, which alone
    must reach the MIX-Two minimum."""
    found: list[Violation] = []
    if rules.regulation is Regulation.SINGLE and designated:
        # R-REG-2: the organizer named the event's title; no other one is accepted.
        outside = {title: count for title, count in titles.items() if title not in designated}
        if outside:
            found.append(
                Violation(
                    "R-REG-2",
                    "decks.single_not_designated",
                    {"titles": _describe(outside), "allowed": _listed(designated)},
                    _cards_of(entries, set(outside)),
                )
            )
    if rules.regulation is Regulation.SINGLE and len(titles) > 1:
        # R-REG-2: the title with the most cards is taken as the intended one.
        main, *others = titles
        found.append(
            Violation(
                "R-REG-2",
                "decks.single_other_titles",
                {
                    "main": main,
                    "count": len(titles),
                    "others": _describe({title: titles[title] for title in others}),
                },
                _cards_of(entries, set(others)),
            )
        )
    elif rules.regulation is Regulation.MIX_TWO:
        if len(titles) == 1:
            (only,) = titles
            found.append(
                Violation(
                    "R-REG-3",
                    "decks.mix_two_one_title",
                    {"title": only, "minimum": rules.mix_two_minimum},
                )
            )
        elif len(titles) > 2:
            found.append(
                Violation(
                    "R-REG-3",
                    "decks.mix_two_too_many_titles",
                    {"count": len(titles), "titles": _describe(titles)},
                    _cards_of(entries, set(list(titles)[2:])),
                )
            )
        else:
            for title in titles:
                count = main_titles.get(title, 0)
                if count < rules.mix_two_minimum:
                    found.append(
                        Violation(
                            "R-REG-3",
                            "decks.mix_two_too_few",
                            {
                                "title": title,
                                "count": count,
                                "minimum": rules.mix_two_minimum,
                                "missing": rules.mix_two_minimum - count,
                            },
                            _cards_of(entries, {title}),
                        )
                    )
    elif rules.regulation is Regulation.EVENT:
        # R-REG-4: only the designated titles.
        outside = {title: count for title, count in titles.items() if title not in designated}
        if outside:
            found.append(
                Violation(
                    "R-REG-4",
                    "decks.event_other_titles",
                    {"titles": _describe(outside), "allowed": _listed(designated)},
                    _cards_of(entries, set(outside)),
                )
            )
    return found


def _restricted_violations(
    rules: DeckRules, restricted: RestrictedList, entries: tuple[DeckEntry, ...]
) -> list[Violation]:
    limits, groups = restricted.in_force(rules.regulation, rules.date, rules.catalogue.canonical)
    counts = {entry.key: entry.count for entry in entries}
    found: list[Violation] = []
    for limit in limits:
        count = counts.get(limit.card, 0)
        if count <= limit.max_copies:
            continue
        params: dict[str, object] = {
            "label": limit.label,
            "title": limit.card.title,
            "number": limit.card.number,
            "count": count,
            "max": limit.max_copies,
            "extra": count - limit.max_copies,
            "effective": limit.effective.isoformat(),
        }
        key = "decks.banned_card" if limit.max_copies == 0 else "decks.restricted_card"
        found.append(Violation("R-REG-5", key, params, (limit.card,)))
    for group in groups:
        present = [(card, counts[card]) for card in group.cards if counts.get(card, 0)]
        total = sum(count for _, count in present)
        if total <= group.max_total:
            continue
        found.append(
            Violation(
                "R-REG-5",
                "decks.restricted_group",
                {
                    "label": group.label,
                    "total": total,
                    "max": group.max_total,
                    "extra": total - group.max_total,
                    "cards": _listed(f"{card} ×{count}" for card, count in present),
                    "effective": group.effective.isoformat(),
                },
                tuple(card for card, _ in present),
            )
        )
    return found


def _database_violations(
    rules: DeckRules, database: CardDatabase, entries: tuple[DeckEntry, ...]
) -> list[Violation]:
    index = database.index(rules.catalogue.canonical)
    found: list[Violation] = []
    for entry in entries:
        record = index.get(entry.key)
        params: dict[str, object] = {
            "title": entry.key.title,
            "number": entry.key.number,
            "lines": _listed(entry.lines),
        }
        if record is None:
            found.append(Violation("R-REG-1", "decks.unknown_card", params, (entry.key,)))
        elif record.release_date > rules.date:
            params.update(
                name=record.name or entry.name or "-",
                release_date=record.release_date.isoformat(),
                date=rules.date.isoformat(),
            )
            found.append(Violation("R-REG-8", "decks.not_yet_released", params, (entry.key,)))
    return found
