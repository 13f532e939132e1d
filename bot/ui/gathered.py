"""Several tables' notices for one place, in few messages.

A round's reports thread takes about one post a second, and a round can have 2,048 tables:
told one message each, a round's "ask your opponent" and "result confirmed" would take an
hour. When several wait for the same place, each becomes one line (`Line`), and the lines
share messages within Discord's limits: the lines that ping someone in the text (2,000
characters, 100 pings), the others in embeds (10 of 4,096 characters, 6,000 in all). A
notice alone keeps its own message (`bot.ui.notices`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import discord

from bot.i18n import t
from bot.notify.plan import TRAITS, Say
from bot.ui.buttons import confirm_mine_view
from bot.ui.notices import RENDERERS, Message, Telling, ask_opponent_text
from bot.ui.pagination import EMBED_DESCRIPTION_LIMIT
from bot.ui.rounds import MENTIONS_PER_MESSAGE, MESSAGE_LIMIT

# Discord: at most 10 embeds in a message, 6,000 characters across them; some room is kept.
EMBEDS_PER_MESSAGE = 10
EMBED_CHARACTERS = 5900


@dataclass(frozen=True)
class Line:
    """One notice as a line among others. `confirm`: the round of a report waiting for the
    pinged opponent's 確認 / 異議 (the message then carries the round's buttons)."""

    text: str
    pings: tuple[int, ...] = ()
    confirm: int | None = None


def ask_opponent_line(telling: Telling) -> Line | None:
    found = ask_opponent_text(telling, compact=True)
    if found is None:
        return None
    text, opponent, number = found
    return Line(text, (opponent,), confirm=number)


def _as_line(say: Say) -> Callable[[Telling], Line | None]:
    """A notice whose own message is one text: that text is its line."""

    def line(telling: Telling) -> Line | None:
        said = RENDERERS[say](telling)
        if not said.messages:
            return None
        (message,) = said.messages
        assert message.content is not None
        assert not message.embeds
        assert message.view is None
        return Line(message.content, message.pings)

    return line


LINES: Mapping[Say, Callable[[Telling], Line | None]] = {
    say: ask_opponent_line if say is Say.ASK_OPPONENT else _as_line(say)
    for say, traits in TRAITS.items()
    if traits.gathers
}


@dataclass
class _Building:
    header: str = ""
    text: list[str] = field(default_factory=list)
    embeds: list[list[str]] = field(default_factory=list)
    pings: list[int] = field(default_factory=list)
    confirm: int | None = None
    carried: list[int] = field(default_factory=list)
    text_size: int = 0
    embed_size: int = 0

    def add(self, index: int, line: Line, header: str) -> bool:
        """Put the line in; False when it does not fit (the message is full)."""
        if line.confirm is not None and self.confirm not in (None, line.confirm):
            return False  # the buttons act on one round
        if line.pings or line.confirm is not None:  # in the text, under what to press
            header_size = len(header) + 1 if line.confirm is not None and not self.header else 0
            size = self.text_size + header_size + len(line.text) + 1
            if size > MESSAGE_LIMIT or len(self.pings) + len(line.pings) > MENTIONS_PER_MESSAGE:
                return False
            if header_size:
                self.header = header
            self.text.append(line.text)
            self.text_size = size
            self.pings += line.pings
        else:
            room = len(line.text) + 1
            if self.embed_size + room > EMBED_CHARACTERS:
                return False
            if not self.embeds or sum(map(len, self.embeds[-1])) + len(self.embeds[-1]) + room > (
                EMBED_DESCRIPTION_LIMIT
            ):
                if len(self.embeds) == EMBEDS_PER_MESSAGE:
                    return False
                self.embeds.append([])
            self.embeds[-1].append(line.text)
            self.embed_size += room
        if line.confirm is not None:
            self.confirm = line.confirm
        self.carried.append(index)
        return True

    def message(self, tournament_id: int, telling: Telling) -> Message:
        content = "\n".join([self.header, *self.text] if self.header else self.text)
        view = (
            confirm_mine_view(tournament_id, self.confirm, telling.labels)
            if self.confirm is not None
            else None
        )
        return Message(
            content or None,
            embeds=[discord.Embed(description="\n".join(lines)) for lines in self.embeds],
            view=view,
            pings=tuple(dict.fromkeys(self.pings)),
        )


def gathered(lines: Sequence[Line], telling: Telling) -> list[tuple[Message, list[int]]]:
    """The lines in as few messages as Discord's limits allow, in their order; each message
    with the indexes of the lines it carries. `telling` gives the language and the labels."""
    header = t("ui.report.notify_many", telling.lang)
    messages: list[_Building] = [_Building()]
    for index, line in enumerate(lines):
        if not messages[-1].add(index, line, header):
            messages.append(_Building())
            if not messages[-1].add(index, line, header):  # longer than any message: cut
                cut = Line(line.text[: MESSAGE_LIMIT - len(header) - 2] + "…", line.pings)
                messages[-1].add(index, cut, header)
    tournament_id = telling.tournament.id
    return [(building.message(tournament_id, telling), building.carried) for building in messages]
