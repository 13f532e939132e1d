"""Titles (作品) and the title logos each one admits (R-REG-7).

The regulation's title-logo table lost its logo column, so the mapping is data: the shipped
`data/titles.toml`, or a file the organizer loads in the same format:

    [[title]]
    name = "けいおん！"
    aliases = ["けいおん！！", "映画けいおん！"]

Titles compare after NFKC and case folding, ignoring white space; when that finds nothing, a
comparison that also ignores punctuation and symbols (`けいおん` for `けいおん！`) is tried, as
long as it points at one title only.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from domain.decks.cards import loose_title_key, title_key, title_text
from domain.decks.datafiles import load_toml, reject_unknown_fields, require_text
from domain.decks.errors import DataFileError

MAX_SUGGESTIONS = 3
_SUGGESTION_CUTOFF = 0.5


@dataclass(frozen=True)
class Title:
    """A title of the catalogue and the other logos/spellings that count as it."""

    name: str
    aliases: tuple[str, ...] = ()


class TitleCatalogue:
    """The known titles; resolves what a player wrote to a title's name."""

    def __init__(self, titles: Iterable[Title]) -> None:
        self.titles: tuple[Title, ...] = tuple(titles)
        exact: dict[str, str] = {}
        loose: dict[str, set[str]] = {}
        for title in self.titles:
            for spelling in (title.name, *title.aliases):
                exact.setdefault(title_key(spelling), title.name)
                loose.setdefault(loose_title_key(spelling), set()).add(title.name)
        self._exact: Mapping[str, str] = MappingProxyType(exact)
        self._loose: Mapping[str, str] = MappingProxyType(
            {key: next(iter(names)) for key, names in loose.items() if len(names) == 1 and key}
        )

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(title.name for title in self.titles)

    def __len__(self) -> int:
        return len(self.titles)

    def __contains__(self, text: object) -> bool:
        return isinstance(text, str) and self.resolve(text) is not None

    def resolve(self, text: str) -> str | None:
        """The name of the title `text` means, or None when it is not a known title or logo."""
        found = self._exact.get(title_key(text))
        if found is None:
            found = self._loose.get(loose_title_key(text))
        return found

    def canonical(self, text: str) -> str:
        """The title's name when known, else `text` tidied (`title_text`)."""
        return self.resolve(text) or title_text(text)

    def suggest(self, text: str, limit: int = MAX_SUGGESTIONS) -> tuple[str, ...]:
        """The names of the titles closest to `text` (difflib), best first; maybe none."""
        spellings = self._exact
        matches = difflib.get_close_matches(
            title_key(text), spellings, n=len(spellings), cutoff=_SUGGESTION_CUTOFF
        )
        names: list[str] = []
        for match in matches:
            name = spellings[match]
            if name not in names:
                names.append(name)
            if len(names) == limit:
                break
        return tuple(names)


def load_titles(data: str | bytes, *, source: str = "titles.toml") -> TitleCatalogue:
    """Read a titles file (`[[title]]` tables with `name` and optional `aliases`).

    Raises `DataFileError` naming the entry and field when the file is malformed, or when two
    titles claim the same spelling.
    """
    document = load_toml(data, source)
    reject_unknown_fields(document, {"title"}, source)
    entries = document.get("title")
    if not isinstance(entries, list) or not entries:
        raise DataFileError("decks.data.no_entries", where=source, table="[[title]]")
    titles: list[Title] = []
    owner: dict[str, tuple[int, str]] = {}
    for index, entry in enumerate(entries, start=1):
        where = f"{source} [[title]] #{index}"
        if not isinstance(entry, dict):
            raise DataFileError("decks.data.not_a_table", where=where)
        reject_unknown_fields(entry, {"name", "aliases"}, where)
        name = require_text(entry, "name", where)
        aliases_value = entry.get("aliases", [])
        if not isinstance(aliases_value, list):
            raise DataFileError("decks.data.bad_list", where=where, field="aliases")
        aliases: list[str] = []
        for position, alias in enumerate(aliases_value, start=1):
            if not isinstance(alias, str) or not title_key(alias):
                raise DataFileError(
                    "decks.data.bad_text", where=where, field=f"aliases[{position}]"
                )
            aliases.append(alias.strip())
        for spelling in (name, *aliases):
            key = title_key(spelling)
            previous = owner.get(key)
            if previous is not None and previous[0] != index:
                raise DataFileError(
                    "decks.data.duplicate_title",
                    where=where,
                    spelling=spelling,
                    other=previous[1],
                )
            owner[key] = (index, f"#{index} {name}")
        titles.append(Title(name=name, aliases=tuple(aliases)))
    return TitleCatalogue(titles)
