"""A picture of an elimination bracket (PNG, drawn with Pillow), posted with each round.

The caller describes the bracket with plain dataclasses and gets PNG bytes back:

    picture = BracketPicture(
        title="冬の大会 決勝トーナメント",
        rounds=[
            [BracketSlot((SlotPlayer("平沢 唯", 1), SlotPlayer("中野 梓", 4)), winner=0), ...],
            [BracketSlot((SlotPlayer("平沢 唯", 1), None)), ...],   # later rounds: partly known
        ],
        lang="ja",
    )
    png = render_bracket(picture)

Round 0 is the first elimination round; its slot count is a power of two (1, 2, 4, 8, 16
slots for 2 … 32 players). Later rounds may be left out or partly unknown: a missing
round is drawn empty. A `None` player in round 0 is a bye's empty side; in a later round it
is "to be decided", or nobody when the match feeding it ended in a double loss.

Text is set in Noto Sans CJK JP, which the `noto-cjk-sans-jp-regular` package ships, so
Japanese names render on any machine that installed the bot; what it lacks (emoji, Arabic,
Thai, …) in the Noto fonts of `manimgx-fonts` (see `bot/ui/picture_text.py`). The fonts
are located when a picture is drawn, never at import; a missing Japanese font raises
`FontMissing`. Invisible format characters (zero-width, bidi controls) are left out of
names, and so is a character no installed font has: a name with nothing left to draw
shows the player's seed (「#3」), never "?" or an empty box.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

import discord
from PIL import Image, ImageDraw

from bot.i18n import Lang, t
from bot.ui.picture_text import Run, draw_runs, fit_runs, font, layout, line_width


@dataclass(frozen=True)
class SlotPlayer:
    name: str
    seed: int | None = None


@dataclass(frozen=True)
class BracketSlot:
    """One match of the bracket.

    `winner` is the index (0 or 1) of the player who advanced, None while undecided.
    `score` is a short note shown under the match ("2-1", "判定勝ち").
    `double_loss` marks a match both players lost: nobody advances.
    """

    players: tuple[SlotPlayer | None, SlotPlayer | None] = (None, None)
    winner: int | None = None
    score: str | None = None
    double_loss: bool = False


@dataclass(frozen=True)
class BracketPicture:
    title: str
    rounds: Sequence[Sequence[BracketSlot]]
    lang: Lang = "ja"
    subtitle: str = ""


# Layout, in pixels.
MARGIN = 36
COLUMN_GAP = 56
ROW_H = 38
BOX_H = 2 * ROW_H
MATCH_GAP = 22  # between first-round matches
SEED_W = 34
RADIUS = 8
TITLE_SIZE = 34
SUBTITLE_SIZE = 19
HEADER_SIZE = 17
NAME_SIZE = 21
SEED_SIZE = 15
NOTE_SIZE = 15
MIN_WIDTH = 1000

# Colours: a dark card that sits well in Discord's dark theme and reads in the light one.
BACKGROUND = (30, 31, 38)
BOX = (43, 45, 54)
BOX_BORDER = (61, 64, 76)
DIVIDER = (54, 57, 68)
TEXT = (230, 232, 238)
TEXT_DIM = (128, 133, 148)
TEXT_FAINT = (92, 96, 110)
ACCENT = (240, 178, 50)
WINNER_ROW = (66, 56, 30)
LINE = (78, 82, 96)
SEED_BG = (58, 61, 73)
SEED_TEXT = (190, 195, 206)
CHAMPION_BG = (58, 49, 24)


def _line(text: str, size: int, limit: float) -> tuple[Run, ...]:
    """`text` laid out in the fonts that draw it, cut to `limit` pixels."""
    return fit_runs(layout(text), size, limit)


def _name(player: SlotPlayer, size: int, limit: float, lang: Lang) -> tuple[Run, ...]:
    """The player's name as drawn; their seed (「#3」) when no installed font draws any of it,
    so that two such players never look the same."""
    runs = layout(player.name)
    if not runs:
        fallback = t("bracket.unnamed", lang) if player.seed is None else f"#{player.seed}"
        runs = layout(fallback)
    return fit_runs(runs, size, limit)


def _normalised(picture: BracketPicture) -> tuple[tuple[BracketSlot, ...], ...]:
    if not picture.rounds or not picture.rounds[0]:
        raise ValueError("a bracket needs at least one match in its first round")
    first = len(picture.rounds[0])
    if first & (first - 1):
        raise ValueError(f"the first round has {first} matches; a bracket needs a power of two")
    total = first.bit_length()  # 1 match → 1 round, 8 matches → 4 rounds
    if len(picture.rounds) > total:
        raise ValueError(f"{len(picture.rounds)} rounds given; {first} matches make {total}")
    rounds: list[tuple[BracketSlot, ...]] = []
    for index in range(total):
        expected = first >> index
        given = tuple(picture.rounds[index]) if index < len(picture.rounds) else ()
        if given and len(given) != expected:
            raise ValueError(f"round {index} has {len(given)} matches; expected {expected}")
        slots = given or tuple(BracketSlot() for _ in range(expected))
        for slot in slots:
            if slot.winner is not None and (
                slot.winner not in (0, 1) or slot.players[slot.winner] is None or slot.double_loss
            ):
                raise ValueError(f"round {index}: winner {slot.winner!r} is not a player there")
        rounds.append(slots)
    return tuple(rounds)


def round_label(index: int, total: int, lang: Lang) -> str:
    """第 1 回戦 … 準々決勝, 準決勝, 決勝: the last three rounds by name."""
    from_end = total - 1 - index
    names = ("bracket.final", "bracket.semifinal", "bracket.quarterfinal")
    if from_end < len(names):
        return t(names[from_end], lang)
    return t("bracket.round", lang, round=index + 1)


@dataclass(frozen=True)
class _Geometry:
    width: int
    height: int
    box_w: int
    top: int  # y of the first match box

    def column_x(self, column: int) -> int:
        return MARGIN + column * (self.box_w + COLUMN_GAP)


def _geometry(picture: BracketPicture, total_rounds: int, first_matches: int) -> _Geometry:
    columns = total_rounds + 1  # the champion's column after the final
    box_w = 250 if columns >= 5 else 290 if columns == 4 else 320
    width = max(MIN_WIDTH, 2 * MARGIN + columns * box_w + (columns - 1) * COLUMN_GAP)
    # Small brackets spread out to the minimum width rather than leaving an empty band.
    box_w = (width - 2 * MARGIN - (columns - 1) * COLUMN_GAP) // columns
    top = MARGIN + TITLE_SIZE + 14 + (SUBTITLE_SIZE + 10 if picture.subtitle else 0)
    top += 18 + HEADER_SIZE + 18
    bracket_h = first_matches * BOX_H + (first_matches - 1) * MATCH_GAP
    return _Geometry(width, top + bracket_h + MARGIN, box_w, top)


def _centres(first_matches: int, total_rounds: int, top: int) -> list[list[float]]:
    """The vertical centre of every match box, round by round: a match sits midway between
    the two matches that feed it."""
    first = [top + i * (BOX_H + MATCH_GAP) + BOX_H / 2 for i in range(first_matches)]
    centres = [first]
    for _ in range(1, total_rounds):
        before = centres[-1]
        centres.append([(before[2 * i] + before[2 * i + 1]) / 2 for i in range(len(before) // 2)])
    return centres


def _sends_nobody(rounds: Sequence[Sequence[BracketSlot]], index: int, slot: int) -> bool:
    """Whether no player can come out of this match: a double loss, or no one entered it."""
    match = rounds[index][slot]
    if match.double_loss:
        return True
    if match.players != (None, None):
        return False
    return index == 0 or all(_sends_nobody(rounds, index - 1, 2 * slot + side) for side in (0, 1))


def _empty_label(
    rounds: Sequence[Sequence[BracketSlot]], index: int, slot: int, side: int, lang: Lang
) -> str:
    if index == 0 or _sends_nobody(rounds, index - 1, 2 * slot + side):
        return "—"  # a bye's empty side, or a match that nobody won
    return t("bracket.to_be_decided", lang)


def _note(slot: BracketSlot, index: int, lang: Lang) -> str:
    if slot.score:
        return slot.score
    if slot.double_loss:
        return t("bracket.double_loss", lang)
    if index == 0 and sum(player is not None for player in slot.players) == 1:
        return t("bracket.bye", lang)
    return ""


def _draw_row(
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    width: int,
    player: SlotPlayer | None,
    empty_label: str,
    side: int,
    state: str,  # "won", "lost", "open"
    note: str,
    lang: Lang,
) -> None:
    if state == "won":
        top_row = side == 0
        draw.rounded_rectangle(
            (x + 1, y + 1, x + width - 2, y + ROW_H - 1),
            radius=RADIUS - 1,
            fill=WINNER_ROW,
            corners=(top_row, top_row, not top_row, not top_row),
        )
        draw.rounded_rectangle((x + 3, y + 8, x + 6, y + ROW_H - 8), radius=2, fill=ACCENT)
    seed_x = x + 10
    text_y = y + ROW_H / 2
    if player is not None and player.seed is not None:
        badge = (seed_x, y + 9, seed_x + SEED_W - 8, y + ROW_H - 9)
        draw.rounded_rectangle(badge, radius=4, fill=ACCENT if state == "won" else SEED_BG)
        draw.text(
            ((badge[0] + badge[2]) / 2, text_y),
            str(player.seed),
            font=font(SEED_SIZE),
            fill=BACKGROUND if state == "won" else SEED_TEXT,
            anchor="mm",
        )
    name_x = seed_x + SEED_W
    right = x + width - 12
    note_runs = _line(note, NOTE_SIZE, (right - name_x) / 2)
    if note_runs:
        # The note (「判定勝ち」, 「不戦勝」) takes at most half the row; the name gets the rest.
        fill = ACCENT if state == "won" else TEXT_DIM
        draw_runs(draw, (right, text_y), note_runs, NOTE_SIZE, anchor="rm", fill=fill)
        right -= round(line_width(note_runs, NOTE_SIZE)) + 10
    if player is None:
        face = font(NAME_SIZE)
        draw.text((name_x, text_y), empty_label, font=face, fill=TEXT_FAINT, anchor="lm")
        return
    name = _name(player, NAME_SIZE, right - name_x, lang)
    colour = {"won": (255, 255, 255), "lost": TEXT_DIM, "open": TEXT}[state]
    draw_runs(draw, (name_x, text_y), name, NAME_SIZE, anchor="lm", fill=colour)


def _connector(
    draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float], lit: bool
) -> None:
    (x1, y1), (x2, y2) = start, end
    middle = (x1 + x2) / 2
    colour, width = (ACCENT, 3) if lit else (LINE, 2)
    draw.line(
        [(x1, y1), (middle, y1), (middle, y2), (x2, y2)], fill=colour, width=width, joint="curve"
    )


def render_bracket(picture: BracketPicture) -> bytes:
    """The bracket as a PNG image (about 1000–1500 px wide, tens of kilobytes)."""
    rounds = _normalised(picture)
    total = len(rounds)
    geometry = _geometry(picture, total, len(rounds[0]))
    lang = picture.lang
    image = Image.new("RGB", (geometry.width, geometry.height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    content_w = geometry.width - 2 * MARGIN

    y = MARGIN
    title = _line(picture.title, TITLE_SIZE, content_w)
    draw_runs(draw, (MARGIN, y), title, TITLE_SIZE, fill=TEXT, stroke_width=1)
    y += TITLE_SIZE + 14
    if picture.subtitle:
        subtitle = _line(picture.subtitle, SUBTITLE_SIZE, content_w)
        draw_runs(draw, (MARGIN, y), subtitle, SUBTITLE_SIZE, fill=TEXT_DIM)
        y += SUBTITLE_SIZE + 10
    draw.line((MARGIN, y + 4, geometry.width - MARGIN, y + 4), fill=DIVIDER, width=2)
    header_y = y + 18
    for column in range(total + 1):
        label = t("bracket.champion", lang) if column == total else round_label(column, total, lang)
        draw.text(
            (geometry.column_x(column), header_y),
            label,
            font=font(HEADER_SIZE),
            fill=ACCENT if column == total else TEXT_DIM,
        )

    centres = _centres(len(rounds[0]), total, geometry.top)
    # Lines first, so that boxes sit on top of them.
    for index, slots in enumerate(rounds):
        x_right = geometry.column_x(index) + geometry.box_w
        for number, slot in enumerate(slots):
            centre = centres[index][number]
            start_y = centre if slot.winner is None else centre - ROW_H / 2 + slot.winner * ROW_H
            if index + 1 < total:
                side = number % 2
                end_y = centres[index + 1][number // 2] - ROW_H / 2 + side * ROW_H
            else:
                end_y = centre
            end_x = geometry.column_x(index + 1)
            _connector(draw, (x_right, start_y), (end_x, end_y), slot.winner is not None)

    for index, slots in enumerate(rounds):
        x = geometry.column_x(index)
        for number, slot in enumerate(slots):
            box_top = round(centres[index][number] - BOX_H / 2)
            box = (x, box_top, x + geometry.box_w, box_top + BOX_H)
            draw.rounded_rectangle(box, radius=RADIUS, fill=BOX, outline=BOX_BORDER, width=1)
            note = _note(slot, index, lang)
            # The note goes on the winner's row; without a winner, on the second row.
            note_side = 1 if slot.winner is None else slot.winner
            for side in (0, 1):
                if slot.double_loss:
                    state = "lost"
                elif slot.winner is None:
                    state = "open"
                else:
                    state = "won" if slot.winner == side else "lost"
                _draw_row(
                    draw,
                    x,
                    box_top + side * ROW_H,
                    geometry.box_w,
                    slot.players[side],
                    _empty_label(rounds, index, number, side, lang),
                    side,
                    state,
                    note if side == note_side else "",
                    lang,
                )
            draw.line(
                (x + 8, box_top + ROW_H, x + geometry.box_w - 8, box_top + ROW_H),
                fill=DIVIDER,
                width=1,
            )
            # Redraw the outline so the highlighted row keeps the rounded border.
            draw.rounded_rectangle(box, radius=RADIUS, outline=BOX_BORDER, width=1)

    nobody = _sends_nobody(rounds, total - 1, 0)
    _draw_champion(draw, geometry, centres[-1][0], rounds[-1][0], total, lang, nobody)

    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def bracket_file(picture: BracketPicture, filename: str = "bracket.png") -> discord.File:
    """The picture as an attachment, ready for `send(file=...)`."""
    return discord.File(io.BytesIO(render_bracket(picture)), filename=filename)


def _draw_champion(
    draw: ImageDraw.ImageDraw,
    geometry: _Geometry,
    centre: float,
    final: BracketSlot,
    total: int,
    lang: Lang,
    nobody: bool,
) -> None:
    x = geometry.column_x(total)
    height = ROW_H + 14
    box = (x, round(centre - height / 2), x + geometry.box_w, round(centre + height / 2))
    champion = final.players[final.winner] if final.winner is not None else None
    face = font(NAME_SIZE + 2)
    if champion is None:
        draw.rounded_rectangle(box, radius=RADIUS, fill=BOX, outline=BOX_BORDER, width=1)
        label = "—" if nobody else t("bracket.to_be_decided", lang)
        draw.text((x + 16, centre), label, font=face, fill=TEXT_FAINT, anchor="lm")
        return
    draw.rounded_rectangle(box, radius=RADIUS, fill=CHAMPION_BG, outline=ACCENT, width=3)
    name = _name(champion, NAME_SIZE + 2, geometry.box_w - 32, lang)
    draw_runs(draw, (x + 16, centre), name, NAME_SIZE + 2, anchor="lm", fill=ACCENT, stroke_width=1)
