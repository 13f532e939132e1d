"""Discord-like PNG cards of what the bot sent, for the organizer's guide
(docs/render_guide.py takes the messages from the fake Discord and calls `render_card`).

A card is a channel as a Japanese member sees it in Discord's dark theme: the channel's
name, then each message with its author, its text (the markdown the bot uses: bold, code,
code blocks, mentions, command links, timestamps), its embeds, buttons and attachments;
or a form (modal) the bot opened, with what the member typed in it. Mentions, command
links and timestamps are drawn as Discord shows them to a Japanese member: names instead
of ids, the commands' Japanese names, times in Japan time.

Text is laid out with the fonts of the bracket picture (`bot.ui.picture_text`: Noto Sans
CJK JP and its fallbacks). The font has one weight, so bold is the text drawn twice a
little apart; code blocks and the terminal are drawn on a grid of half-width cells (a
full-width character takes two), which is how the bot aligns its tables.
"""

from __future__ import annotations

import io
import re
import unicodedata
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from bot.ui.picture_text import Run, draw_runs, fit_runs, font, layout, line_width

JSON = dict[str, Any]
JST = timezone(timedelta(hours=9))

WIDTH = 760  # about Discord's message column on a laptop; drawn at Discord's own sizes

# Discord's dark theme.
BACKGROUND = (49, 51, 56)
HEADER_LINE = (38, 40, 44)
EMBED_BACKGROUND = (43, 45, 49)
EMBED_BAR = (30, 31, 34)
CODE_BACKGROUND = (43, 45, 49)
CODE_BORDER = (30, 31, 34)
TEXT = (219, 222, 225)
STRONG = (242, 243, 245)
MUTED = (148, 155, 164)
LINK = (0, 168, 252)
MENTION_TEXT = (201, 205, 251)
MENTION_BACKGROUND = (60, 66, 112)
TIME_BACKGROUND = (65, 67, 74)
INPUT_BACKGROUND = (30, 31, 34)
BAR_BACKGROUND = (56, 58, 64)
BUTTON_COLOURS = {
    1: (88, 101, 242),  # primary
    2: (78, 80, 88),  # secondary
    3: (36, 128, 70),  # success
    4: (218, 55, 60),  # danger
    5: (78, 80, 88),  # link
}
AVATAR_COLOURS = (
    (88, 101, 242),
    (117, 126, 138),
    (59, 165, 93),
    (250, 166, 26),
    (237, 66, 69),
    (235, 69, 158),
)

# Characters a Japanese line never starts with (禁則): they stay on the line before.
NO_LINE_START = set(
    "、。，．,.）)」』】〕］]｝}〉》！!？?：:；;…ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮ々・"
)


@dataclass
class Item:
    """One thing on a card: a message as the fake received it, or a form (modal) the bot
    opened with what the member typed in it. `user_id`: who acted (an ephemeral answer is
    seen by them alone); `command`: the slash command they used ("name sub:id"), shown
    over the answer as Discord does; `files`: the bytes of the message's attachments."""

    message: JSON | None = None
    modal: JSON | None = None
    typed: dict[str, str] = field(default_factory=dict)
    user_id: int | None = None
    command: str | None = None
    files: dict[str, bytes] = field(default_factory=dict)


@dataclass
class Card:
    """One picture: a channel (a thread: "parent › thread", a DM: `dm`), what is seen in
    it, and when (relative times, 「40 分後」, are counted from `taken_at`)."""

    channel: str
    items: list[Item]
    taken_at: datetime
    dm: bool = False
    terminal: list[str] | None = None  # a terminal window's lines instead of a channel
    # The server's channel list as one member sees it, above the messages: (kind, name,
    # what they may do there), kind "category" or "voice".
    channels: list[tuple[str, str, str]] | None = None


@dataclass
class Directory:
    """What Discord shows for the ids in a message: member names, role and channel names,
    and the commands' Japanese names ("report result" → "報告 結果")."""

    users: dict[int, str]
    roles: dict[int, str]
    channels: dict[int, str]
    commands: dict[str, str]

    @classmethod
    def of(cls, tree: Sequence[JSON], **names: dict[int, str]) -> Directory:
        """From the synced command tree (its `name_localizations`) and the server's names."""
        commands: dict[str, str] = {}

        def walk(command: JSON, english: list[str], japanese: list[str]) -> None:
            english = [*english, command["name"]]
            japanese = [
                *japanese,
                str((command.get("name_localizations") or {}).get("ja", command["name"])),
            ]
            commands[" ".join(english)] = " ".join(japanese)
            for option in command.get("options") or []:
                if option.get("type") in (1, 2):
                    walk(option, english, japanese)

        for command in tree:
            walk(command, [], [])
        return cls(names["users"], names["roles"], names["channels"], commands)


# -- text --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Style:
    size: int = 16
    colour: tuple[int, int, int] = TEXT
    bold: bool = False
    code: bool = False
    pill: tuple[int, int, int] | None = None  # the background of a mention or timestamp


@dataclass(frozen=True)
class Piece:
    """The smallest thing a line is broken between: a word, one CJK character, a space,
    or a whole mention."""

    text: str
    style: Style

    @property
    def width(self) -> float:
        return _width(self.text, self.style)


@cache
def _runs(text: str) -> tuple[Run, ...]:
    return layout(text)


def _spaces(text: str, size: int) -> tuple[float, float]:
    """The widths of the spaces before and after `text` (the layout leaves them out)."""
    space = font(size).getlength(" ")
    stripped = text.strip(" ")
    if not stripped:
        return space * len(text), 0.0
    return space * (len(text) - len(text.lstrip(" "))), space * (len(text) - len(text.rstrip(" ")))


@cache
def _width(text: str, style: Style) -> float:
    before, after = _spaces(text, style.size)
    width = before + after + line_width(_runs(text.strip(" ")), style.size)
    if style.bold:
        width += 0.6
    if style.pill is not None or style.code:
        width += 8
    return width


TOKEN = re.compile(
    r"(?P<escape>\\(?P<escaped>[^\w\s]))"
    r"|(?P<bold>\*\*)"
    r"|`(?P<code>[^`]+)`"
    r"|<@!?(?P<user>\d+)>"
    r"|<@&(?P<role>\d+)>"
    r"|<#(?P<channel>\d+)>"
    r"|</(?P<command>[^:<>]+):\d+>"
    r"|<t:(?P<time>-?\d+)(?::(?P<format>[tTdDfFR]))?>"
    r"|\[(?P<label>[^\]]+)\]\((?P<href>https?://[^)\s]+)\)"
    r"|<?(?P<url>https?://[^\s>]+)>?"
)
KINDS = ("escape", "bold", "code", "user", "role", "channel", "command", "time", "href", "url")
WORD = re.compile(r"[A-Za-z0-9_.,:;!?'\"()\-/@#%+=~&*]+|\s|.")


class Painter:
    """Draws a card's parts on an image tall enough for any card (cut at the end)."""

    def __init__(
        self,
        directory: Directory,
        now: datetime,
        *,
        width: int = WIDTH,
        height: int = 6000,
        background: tuple[int, int, int] = BACKGROUND,
    ) -> None:
        self.directory = directory
        self.now = now
        self.image = Image.new("RGB", (width, height), background)
        self.draw = ImageDraw.Draw(self.image)

    def part(self, width: int, background: tuple[int, int, int]) -> Painter:
        """A painter for a box (an embed, a form) drawn apart, then pasted in place."""
        return Painter(self.directory, self.now, width=width, height=3000, background=background)

    def paste(self, part: Painter, x: int, y: int, height: int, radius: int) -> None:
        box = part.image.crop((0, 0, part.image.width, height))
        mask = Image.new("L", box.size, 0)
        ImageDraw.Draw(mask).rounded_rectangle(
            (0, 0, box.width - 1, height - 1), radius=radius, fill=255
        )
        self.image.paste(box, (x, y), mask)

    # -- inline markdown ----------------------------------------------------------------

    def pieces(self, text: str, base: Style) -> list[Piece]:
        """`text` (one line of Discord markdown) as pieces in their styles."""
        found: list[Piece] = []
        bold = base.bold
        position = 0

        def plain(chunk: str) -> None:
            style = Style(base.size, base.colour, bold)
            found.extend(Piece(word, style) for word in WORD.findall(chunk))

        for token in TOKEN.finditer(text):
            plain(text[position : token.start()])
            position = token.end()
            kind = next(k for k in KINDS if token.group(k) is not None)
            if kind == "escape":
                plain(token.group("escaped"))
            elif kind == "bold":
                bold = not bold
            elif kind == "code":
                found.append(
                    Piece(token.group("code"), Style(base.size - 2, base.colour, code=True))
                )
            elif kind in ("user", "role", "channel", "command"):
                found.append(Piece(self.mention(kind, token.group(kind)), self.pill(base)))
            elif kind == "time":
                shown = self.timestamp(int(token.group("time")), token.group("format") or "f")
                found.append(
                    Piece(shown, Style(base.size, base.colour, bold, pill=TIME_BACKGROUND))
                )
            elif kind == "href":
                style = Style(base.size, LINK, bold)
                found.extend(Piece(w, style) for w in WORD.findall(token.group("label")))
            else:
                found.extend(
                    Piece(w, Style(base.size, LINK, bold)) for w in WORD.findall(token.group("url"))
                )
        plain(text[position:])
        return found

    @staticmethod
    def pill(base: Style) -> Style:
        return Style(base.size, MENTION_TEXT, bold=False, pill=MENTION_BACKGROUND)

    def mention(self, kind: str, value: str) -> str:
        names = self.directory
        if kind == "user":
            return "@" + names.users.get(int(value), "不明なユーザー")
        if kind == "role":
            return "@" + names.roles.get(int(value), "不明なロール")
        if kind == "channel":
            return "#" + names.channels.get(int(value), "不明なチャンネル")
        return "/" + names.commands.get(value, value)

    def timestamp(self, seconds: int, style: str) -> str:
        """A `<t:…>` as Discord shows it to a member in Japan (ja, Asia/Tokyo)."""
        moment = datetime.fromtimestamp(seconds, JST)
        clock = f"{moment.hour}:{moment:%M}"
        day = f"{moment.year}年{moment.month}月{moment.day}日"
        if style == "t":
            return clock
        if style == "T":
            return f"{clock}:{moment:%S}"
        if style == "d":
            return f"{moment:%Y/%m/%d}"
        if style == "D":
            return day
        if style == "F":
            return f"{day}{'月火水木金土日'[moment.weekday()]}曜日 {clock}"
        if style == "R":
            return relative(moment - self.now)
        return f"{day} {clock}"

    # -- lines --------------------------------------------------------------------------

    def lines(self, pieces: Sequence[Piece], width: float) -> list[list[Piece]]:
        """`pieces` broken into lines of at most `width` px (a line starts with no space
        and no closing punctuation)."""
        lines: list[list[Piece]] = [[]]
        used = 0.0
        for piece in pieces:
            line = lines[-1]
            if not line and piece.text == " ":
                continue
            fits = used + piece.width <= width
            if line and not fits and piece.text not in NO_LINE_START:
                while line and line[-1].text == " ":
                    line.pop()
                lines.append([])
                used = 0.0
                if piece.text == " ":
                    continue
            lines[-1].append(piece)
            used += piece.width
        return lines

    def paragraph(self, text: str, x: int, y: int, width: float, base: Style) -> int:
        """Draw wrapped markdown text (several lines, quotes, headings, code blocks); the
        y below it."""
        for block, is_code in code_blocks(text):
            if is_code:
                y = self.code_block(block, x, y, width, base.size - 2)
                continue
            for raw in block.split("\n"):
                style, line, indent = base, raw, 0
                if raw.startswith("-# "):
                    style, line = Style(max(base.size - 4, 11), MUTED), raw[3:]
                elif m := re.match(r"(#{1,3}) ", raw):
                    size = {1: base.size + 8, 2: base.size + 4, 3: base.size + 2}[len(m.group(1))]
                    style, line = Style(size, STRONG, bold=True), raw[m.end() :]
                elif raw.startswith("> "):
                    line, indent = raw[2:], 12
                elif raw.startswith(("- ", "* ")):
                    line, indent = "• " + raw[2:], 0
                top = y
                y = self.wrapped(self.pieces(line, style), x + indent, y, width - indent, style)
                if indent:
                    self.draw.rectangle((x, top, x + 3, y - 2), fill=(78, 80, 88))
        return y

    def wrapped(self, pieces: Sequence[Piece], x: int, y: int, width: float, base: Style) -> int:
        height = line_height(base.size)
        if not pieces:
            return y + height
        for line in self.lines(pieces, width):
            self.line(line, x, y, height)
            y += height
        return y

    def line(self, pieces: Sequence[Piece], x: float, y: int, height: int) -> None:
        for piece in pieces:
            style = piece.style
            width = piece.width
            middle = y + height / 2
            if style.pill is not None or style.code:
                fill = style.pill or CODE_BACKGROUND
                half = line_height(style.size) / 2 - 1
                self.draw.rounded_rectangle(
                    (x, middle - half, x + width, middle + half), radius=3, fill=fill
                )
                self.text(piece.text, x + 4, middle, style)
            elif piece.text != " ":
                self.text(piece.text, x, middle, style)
            x += width

    def text(self, text: str, x: float, middle: float, style: Style) -> None:
        """One piece of text in one style, centred on `middle` (bold: drawn twice, a little
        apart; the font has one weight)."""
        x += _spaces(text, style.size)[0]
        runs = _runs(text.strip(" "))
        for offset in (0.0, 0.6) if style.bold else (0.0,):
            draw_runs(
                self.draw, (x + offset, middle), runs, style.size, anchor="lm", fill=style.colour
            )

    def code_block(self, text: str, x: int, y: int, width: float, size: int) -> int:
        """A code block: each character in one or two half-width cells, as the bot
        counts them when it aligns a table."""
        rows = text.strip("\n").split("\n")
        box_height = len(rows) * line_height(size) + 16
        self.draw.rounded_rectangle(
            (x, y + 4, x + width, y + 4 + box_height),
            radius=4,
            fill=CODE_BACKGROUND,
            outline=CODE_BORDER,
        )
        self.grid(rows, x + 8, y + 12, size, TEXT)
        return y + box_height + 8

    def grid(
        self, rows: Sequence[str], x: float, y: int, size: int, colour: tuple[int, int, int]
    ) -> int:
        """Monospaced rows: each character centred in its one or two half-width cells."""
        cell = font(size).getlength("0")
        height = line_height(size)
        style = Style(size, colour)
        for row in rows:
            column = 0
            for char in row:
                cells = _cells(char)
                if char != " ":
                    glyph = line_width(_runs(char), size) if _runs(char) else 0
                    self.text(
                        char, x + column * cell + (cells * cell - glyph) / 2, y + height / 2, style
                    )
                column += cells
            y += height
        return y

    # -- a message ----------------------------------------------------------------------

    def avatar(self, name: str, user_id: int, x: int, y: int, size: int = 40) -> None:
        colour = AVATAR_COLOURS[zlib.crc32(str(user_id).encode()) % len(AVATAR_COLOURS)]
        self.draw.ellipse((x, y, x + size, y + size), fill=colour)
        initial = name[:1] or "?"
        self.text(
            initial,
            x + (size - _width(initial, Style(size // 2))) / 2,
            y + size / 2,
            Style(size // 2, STRONG),
        )

    def invocation(self, item: Item, x: int, y: int) -> int:
        """「運営のさとうが /大会 作成 を使用しました」 over a command's answer."""
        name = self.directory.users.get(item.user_id or 0, "")
        command = self.directory.commands.get((item.command or "").split(":")[0], "")
        small = Style(13, MUTED)
        self.draw.line((x - 30, y + 12, x - 30, y + 8), fill=MUTED, width=2)
        self.draw.line((x - 30, y + 8, x - 8, y + 8), fill=MUTED, width=2)
        self.avatar(name, item.user_id or 0, x - 4, y + 1, 16)
        pieces = [
            Piece(name, Style(13, STRONG)),
            Piece(" が ", small),
            Piece("/" + command, Style(13, LINK)),
            Piece(" を使用しました", small),
        ]
        self.line(pieces, x + 18, y, 18)
        return y + 22

    def message(self, item: Item, y: int, grouped: bool) -> int:
        message = item.message
        assert message is not None
        left, x = 16, 72
        width = WIDTH - x - 24
        ephemeral = bool(message.get("flags", 0) & 64)
        if item.command:
            y = self.invocation(item, x, y)
        if not grouped:
            author = message["author"]
            name = author.get("global_name") or author["username"]
            self.avatar(name, int(author["id"]), left, y + 2)
            header = [Piece(name, Style(16, STRONG, bold=True))]
            if author.get("bot"):
                header.append(Piece(" ", Style(16)))
                header.append(Piece("アプリ", Style(10, STRONG, pill=BUTTON_COLOURS[1])))
            header.append(Piece("  ", Style(12, MUTED)))
            sent = datetime.fromisoformat(message["timestamp"]).astimezone(JST)
            header.append(Piece(f"今日 {sent.hour}:{sent:%M}", Style(12, MUTED)))
            self.line(header, x, y, 22)
            y += 22
        content = message.get("content") or ""
        if content:
            y = self.paragraph(content, x, y, width, Style(16))
        for attachment in message.get("attachments") or []:
            y = self.attachment(attachment, item.files.get(str(attachment["id"])), x, y + 4)
        for embed in message.get("embeds") or []:
            y = self.embed(embed, x, y + 4, min(width, 540))
        if message.get("components"):
            y = self.components(message["components"], x, y + 6, width)
        if ephemeral:
            y = self.wrapped(
                [
                    Piece("👁 あなただけに表示されています ・ ", Style(12, MUTED)),
                    Piece("メッセージを削除する", Style(12, LINK)),
                ],
                x,
                y + 2,
                width,
                Style(12),
            )
        return y

    def embed(self, embed: JSON, x: int, y: int, width: int) -> int:
        """An embed: its body drawn apart (its height is known once drawn), with the bar in
        its colour on the left."""
        body = self.part(width, EMBED_BACKGROUND)
        height = body._embed_body(embed, 16, 10, width - 32) + 12
        colour = embed.get("color")
        bar = (
            EMBED_BAR
            if colour is None
            else ((colour >> 16) & 255, (colour >> 8) & 255, colour & 255)
        )
        body.draw.rectangle((0, 0, 3, height), fill=bar)
        self.paste(body, x, y, height, radius=4)
        return y + height

    def _embed_body(self, embed: JSON, x: int, y: int, width: int) -> int:
        if embed.get("author"):
            y = self.wrapped(
                self.pieces(embed["author"]["name"], Style(14, STRONG, bold=True)),
                x,
                y,
                width,
                Style(14),
            )
        if embed.get("title"):
            y = self.wrapped(
                self.pieces(embed["title"], Style(16, STRONG, bold=True)), x, y, width, Style(16)
            )
            y += 2
        if embed.get("description"):
            y = self.paragraph(embed["description"], x, y, width, Style(14))
        fields = embed.get("fields") or []
        for row in field_rows(fields):
            column_width = width / 3 if len(row) > 1 or row[0].get("inline") else width
            bottom = y
            for index, embed_field in enumerate(row):
                column_x = int(x + index * column_width)
                below = self.wrapped(
                    self.pieces(embed_field["name"], Style(14, STRONG, bold=True)),
                    column_x,
                    y + 6,
                    column_width - 8,
                    Style(14),
                )
                below = self.paragraph(
                    embed_field["value"], column_x, below, column_width - 8, Style(14)
                )
                bottom = max(bottom, below)
            y = bottom
        footer = (embed.get("footer") or {}).get("text")
        stamp = embed.get("timestamp")
        if footer or stamp:
            text = footer or ""
            if stamp:
                moment = datetime.fromisoformat(stamp).astimezone(JST)
                text += (" ・ " if text else "") + f"今日 {moment.hour}:{moment:%M}"
            y = self.wrapped(self.pieces(text, Style(12, MUTED)), x, y + 8, width, Style(12))
        return y

    def components(self, rows: Sequence[JSON], x: int, y: int, width: int) -> int:
        for row in rows:
            kind = row.get("type")
            if kind == 1:
                y = self.action_row(row.get("components") or [], x, y, width)
            elif kind == 10:
                y = self.paragraph(row.get("content") or "", x, y, width, Style(16))
            elif kind in (17, 9):
                y = self.components(row.get("components") or [], x, y, width)
            elif kind == 14:
                self.draw.line((x, y + 6, x + width, y + 6), fill=(78, 80, 88))
                y += 12
            else:
                raise ValueError(f"no drawing for the component type {kind}")
        return y

    def action_row(self, components: Sequence[JSON], x: int, y: int, width: int) -> int:
        height, size = 32, 14
        cursor: float = x
        for component in components:
            if component.get("type") != 2:  # a select menu: a box with its placeholder
                self.draw.rounded_rectangle(
                    (x, y, x + min(width, 400), y + 40), radius=4, fill=INPUT_BACKGROUND
                )
                self.text(component.get("placeholder") or "", x + 12, y + 20, Style(size, MUTED))
                return y + 48
            label = component.get("label") or ""
            emoji = (component.get("emoji") or {}).get("name")
            shown = f"{emoji} {label}".strip() if emoji else label
            style = Style(size, STRONG)
            button_width = _width(shown, style) + 32
            if cursor + button_width > x + width:
                cursor, y = x, y + height + 8
            colour = BUTTON_COLOURS.get(int(component.get("style") or 2), BUTTON_COLOURS[2])
            text_colour = STRONG
            if component.get("disabled"):
                colour, text_colour = blend(colour, BACKGROUND, 0.5), blend(STRONG, BACKGROUND, 0.5)
            self.draw.rounded_rectangle(
                (cursor, y, cursor + button_width, y + height), radius=8, fill=colour
            )
            self.text(shown, cursor + 16, y + height / 2, Style(size, text_colour))
            cursor += button_width + 8
        return y + height + 8

    def attachment(self, attachment: JSON, data: bytes | None, x: int, y: int) -> int:
        name = attachment.get("filename") or ""
        if data is not None and name.lower().endswith((".png", ".jpg", ".jpeg", ".gif", ".webp")):
            picture = Image.open(io.BytesIO(data)).convert("RGB")
            scale = min(1.0, 520 / picture.width, 420 / picture.height)
            shown = picture.resize(
                (int(picture.width * scale), int(picture.height * scale)),
                Image.Resampling.LANCZOS,
            )
            self.image.paste(shown, (x, y))
            return y + shown.height + 6
        self.draw.rounded_rectangle(
            (x, y, x + 420, y + 64), radius=8, fill=EMBED_BACKGROUND, outline=EMBED_BAR
        )
        self.draw.rounded_rectangle(
            (x + 14, y + 14, x + 44, y + 50), radius=3, outline=MUTED, width=2
        )
        self.text(name, x + 56, y + 24, Style(15, LINK))
        size = attachment.get("size")
        if size is not None:
            self.text(human_size(int(size)), x + 56, y + 44, Style(12, MUTED))
        return y + 72

    # -- the card -----------------------------------------------------------------------

    def header(self, card: Card) -> int:
        if card.terminal is not None:
            self.image.paste((12, 12, 12), (0, 0, WIDTH, self.image.height))
            self.draw.rectangle((0, 0, WIDTH, 36), fill=(32, 32, 32))
            self.text(card.channel, 16, 18, Style(13, STRONG))
            for index, mark in enumerate("—□×"):  # the window's buttons, as on Windows
                self.text(mark, WIDTH - 110 + index * 36, 18, Style(13, MUTED))
            return 48
        mark = "@" if card.dm else "#"
        parts = card.channel.split(" › ")
        pieces = [
            Piece(mark + " ", Style(20, MUTED)),
            Piece(parts[0], Style(16, STRONG, bold=True)),
        ]
        for part in parts[1:]:
            pieces += [Piece("  ›  ", Style(16, MUTED)), Piece(part, Style(16, STRONG, bold=True))]
        self.line(pieces, 16, 12, 24)
        self.draw.line((0, 47, WIDTH, 47), fill=HEADER_LINE, width=2)
        return 64

    def input_bar(self, card: Card, y: int) -> int:
        self.draw.rounded_rectangle((16, y, WIDTH - 16, y + 44), radius=8, fill=BAR_BACKGROUND)
        where = card.channel.split(" › ")[-1]
        prompt = f"@{where} へメッセージを送信" if card.dm else f"#{where} へメッセージを送信"
        self.text(prompt, 60, y + 22, Style(15, MUTED))
        self.text("+", 28, y + 22, Style(20, MUTED))
        return y + 60

    def modal(self, item: Item, bottom: int) -> int:
        """A form the bot opened, filled in, over the whole dimmed window (its top part
        down to `bottom`, made taller when the form needs it); the window's new bottom."""
        modal = item.modal
        assert modal is not None
        width = 480
        form = self.part(width, BACKGROUND)
        title = form.pieces(modal.get("title") or "", Style(20, STRONG, bold=True))
        top = form.wrapped(title, 16, 16, width - 64, Style(20)) + 10
        form.text("×", width - 34, 30, Style(20, MUTED))
        for text, description, component in form_fields(modal):
            required = component.get("required", True)
            star = [Piece(" *", Style(14, (242, 63, 67)))] if required else []
            label = [Piece(text, Style(13, STRONG, bold=True)), *star]
            top = form.wrapped(label, 16, top, width - 32, Style(13))
            if description:
                top = form.wrapped(
                    form.pieces(description, Style(12, MUTED)), 16, top + 4, width - 32, Style(12)
                )
            typed = item.typed.get(component["custom_id"], "")
            if component.get("type") == 4:
                top = form.text_input(component, typed, top, width)
            elif component.get("type") == 19:  # a file upload: the file chosen, by its name
                box = {"placeholder": "ファイルをドラッグ＆ドロップするか、クリックして選択"}
                top = form.text_input(box, typed, top, width)
            else:  # a select: the option chosen (else its placeholder), with its arrow
                options = component.get("options") or []
                chosen = next((o["label"] for o in options if o.get("value") == typed), "")
                box = {"placeholder": component.get("placeholder") or ""}
                top = form.text_input(box, chosen, top, width)
                form.text("⌄", width - 36, top - 34, Style(16, MUTED))
        form.draw.rectangle((0, top + 4, width, top + 68), fill=EMBED_BACKGROUND)
        form.text("キャンセル", width - 200, top + 36, Style(14, STRONG))
        form.draw.rounded_rectangle(
            (width - 112, top + 18, width - 16, top + 54), radius=4, fill=BUTTON_COLOURS[1]
        )
        form.text("送信", width - 78, top + 36, Style(14, STRONG))
        height = top + 68
        bottom = max(bottom, height + 96)
        behind = self.image.crop((0, 0, WIDTH, bottom))
        self.image.paste(Image.blend(behind, Image.new("RGB", behind.size), 0.7), (0, 0))
        self.paste(form, (WIDTH - width) // 2, (bottom - height) // 2, height, radius=8)
        return bottom

    def text_input(self, component: JSON, typed: str, top: int, width: int) -> int:
        """A form's text box with what was typed (or its placeholder), the lines cut to
        the box; a long text shows its first lines. The y below it."""
        rows = (typed or component.get("placeholder") or "").split("\n")
        style = Style(15, TEXT if typed else MUTED)
        paragraph = component.get("style") == 2
        limit = 8 if paragraph else 1
        if len(rows) > limit:
            rows = [*rows[: limit - 1], "…"]
        height = max(40, len(rows) * 20 + 20) if paragraph else 40
        self.draw.rounded_rectangle(
            (16, top + 4, width - 16, top + 4 + height), radius=4, fill=INPUT_BACKGROUND
        )
        row_y = top + 24
        for row in rows:
            runs = fit_runs(_runs(row), style.size, width - 52)
            draw_runs(self.draw, (26, row_y), runs, style.size, anchor="lm", fill=style.colour)
            row_y += 20
        return top + height + 16

    def channel_list(self, rows: Sequence[tuple[str, str, str]], y: int) -> int:
        """Channels as Discord's list shows them: a category's name in small capitals, each
        voice channel with its speaker, greyed where the member may only listen."""
        self.draw.rounded_rectangle((16, y, WIDTH - 16, y + 18 + 34 * len(rows)), 8, EMBED_BAR)
        y += 10
        for kind, name, note in rows:
            middle = y + 17
            if kind == "category":
                self.text("⌄ " + name, 28, middle, Style(13, MUTED, bold=True))
            else:
                speaks = not note.startswith("観戦")
                colour = STRONG if speaks else MUTED
                self._speaker(40, middle, colour, muted=not speaks)
                self.text(name, 66, middle, Style(16, colour, bold=speaks))
                self.text(note, 300, middle, Style(14, TEXT if speaks else MUTED))
            y += 34
        return y + 16

    def _speaker(self, x: int, middle: float, colour: tuple[int, int, int], *, muted: bool) -> None:
        """A voice channel's speaker (drawn: the font has no emoji); struck through for a
        member who may not speak there."""
        top, bottom = middle - 5, middle + 5
        self.draw.rectangle((x, top + 2, x + 5, bottom - 2), fill=colour)
        self.draw.polygon(
            [(x + 5, top + 2), (x + 12, top - 3), (x + 12, bottom + 3), (x + 5, bottom - 2)],
            fill=colour,
        )
        if muted:
            self.draw.line((x - 2, bottom + 4, x + 16, top - 4), fill=(237, 66, 69), width=2)
        else:
            self.draw.arc((x + 9, top - 3, x + 19, bottom + 3), -60, 60, fill=colour, width=2)

    def terminal(self, lines: Sequence[str], y: int) -> int:
        """A terminal window with `lines`, wrapped at its width as a terminal wraps them."""
        size = 13
        cell = font(size).getlength("0")
        columns = int((WIDTH - 48) / cell)
        rows = [row for line in lines for row in wrap_cells(line, columns)]
        return self.grid(rows, 24, y, size, TEXT)


def render_card(card: Card, directory: Directory) -> bytes:
    """The card as PNG bytes."""
    painter = Painter(directory, card.taken_at)
    y = painter.header(card)
    if card.terminal is not None:
        return png(painter.image, painter.terminal(card.terminal, y) + 16)
    if card.channels is not None:
        y = painter.channel_list(card.channels, y + 8)
    previous: JSON | None = None
    forms = [item for item in card.items if item.modal is not None]
    assert forms in ([], card.items[-1:]), "a form covers the window: it comes last"
    for item in card.items:
        message = item.message
        if message is None:
            continue
        grouped = (
            previous is not None
            and not item.command
            and previous["author"]["id"] == message["author"]["id"]
            and not (message.get("flags", 0) | previous.get("flags", 0)) & 64
        )
        y = painter.message(item, y if grouped else y + 8, grouped) + 6
        previous = message
    y = painter.input_bar(card, y + 10)
    for form in forms:
        y = painter.modal(form, y)
    return png(painter.image, y)


def png(image: Image.Image, height: int) -> bytes:
    """The top `height` px of `image`, in 64 colours: text on flat colours loses nothing
    visible, and the file is a third of the size."""
    picture = image.crop((0, 0, image.width, height))
    out = io.BytesIO()
    picture.quantize(colors=64, method=Image.Quantize.FASTOCTREE).save(out, format="PNG")
    return out.getvalue()


# -- helpers -----------------------------------------------------------------------------


def _cells(char: str) -> int:
    """Half-width cells a character takes in a code block or a terminal."""
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def wrap_cells(line: str, columns: int) -> list[str]:
    """`line` cut into rows of at most `columns` half-width cells, as a terminal wraps it."""
    rows = [""]
    used = 0
    for char in line:
        if used + _cells(char) > columns:
            rows.append("")
            used = 0
        rows[-1] += char
        used += _cells(char)
    return rows


def line_height(size: int) -> int:
    return round(size * 1.375)


def code_blocks(text: str) -> Iterator[tuple[str, bool]]:
    """The text between ``` fences (True) and around them (False)."""
    for index, part in enumerate(re.split(r"```[a-z]*\n?", text)):
        if index % 2 or part.strip("\n"):
            yield (part.strip("\n") if not index % 2 else part.rstrip("\n")), bool(index % 2)


def field_rows(fields: Sequence[JSON]) -> list[list[JSON]]:
    """Discord's embed fields: inline ones side by side, three to a row."""
    rows: list[list[JSON]] = []
    for embed_field in fields:
        if embed_field.get("inline") and rows and rows[-1][-1].get("inline") and len(rows[-1]) < 3:
            rows[-1].append(embed_field)
        else:
            rows.append([embed_field])
    return rows


def relative(delta: timedelta) -> str:
    """「40 分後」「3 分前」, as Discord writes a relative time in Japanese."""
    seconds = round(delta.total_seconds())
    direction = "後" if seconds >= 0 else "前"
    seconds = abs(seconds)
    units = (("日", 86400), ("時間", 3600), ("分", 60), ("秒", 1))
    name, length = next((u for u in units if seconds >= u[1]), units[-1])
    return f"{round(seconds / length)} {name}{direction}"


def blend(
    colour: tuple[int, int, int], under: tuple[int, int, int], alpha: float
) -> tuple[int, int, int]:
    """`colour` at `alpha` over `under` (a disabled button is half transparent)."""
    red, green, blue = (
        round(a * alpha + b * (1 - alpha)) for a, b in zip(colour, under, strict=True)
    )
    return red, green, blue


def human_size(size: int) -> str:
    return f"{size / 1024:.2f} KB" if size >= 1024 else f"{size} bytes"


def form_fields(modal: JSON) -> list[tuple[str, str, JSON]]:
    """A form's fields in order: (label, description, its text box or select), whether the
    box carries its own label (in an action row) or sits in a label component."""
    fields: list[tuple[str, str, JSON]] = []
    for row in modal.get("components") or []:
        if isinstance(row.get("component"), dict):  # a label around its box
            fields.append((row.get("label") or "", row.get("description") or "", row["component"]))
        for component in row.get("components") or []:
            fields.append((component.get("label") or "", "", component))
    return fields


def text_inputs(modal: JSON) -> list[JSON]:
    """The text boxes of a form, in order (in action rows or in labels)."""
    found: list[JSON] = []

    def walk(components: Sequence[JSON]) -> None:
        for component in components:
            if component.get("type") == 4:
                found.append(component)
            walk(component.get("components") or [])
            if isinstance(component.get("component"), dict):
                walk([component["component"]])

    walk(modal.get("components") or [])
    return found
