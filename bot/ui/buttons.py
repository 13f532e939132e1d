"""Every button and form the bot shows, in one place: the custom id it carries and how it
looks. The custom id holds what the button acts on (`rp:12:3`: tournament 12, round 3), so a
button on an old message works after a restart: the cogs route each id format to its
handler (a `DynamicItem` per `CustomId`, made by `bot.ui.routing`; see `cogs/common.py`), and
nothing is kept in memory. Views built here are stateless (stopped): discord.py keeps no copy
of them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import discord

from bot.i18n import Lang, normalise_locale, t
from domain.engine.results import MAX_POINT_ZONE
from domain.guild import GuildConfig
from domain.handles import MAX_HANDLE
from domain.ids import MAX_ID
from domain.series.model import MAX_SERIES_NAME, Series
from domain.series.points import MAX_TABLE_CHARS
from domain.tournament.play import DISPUTE_CLAIMS, MAX_EXTENSION_MINUTES
from domain.tournament.rounds import Claim
from domain.tournament.steps import Step

Style = discord.ButtonStyle
# Any run of digits has the format, so that a press of an id past 64 bits is routed, and
# refused there as out of date (`parse`), rather than left unanswered.
NUMBER = r"\d+"


def carried_number(text: str) -> int | None:
    """The number an id carries (a custom id's field, a page button's listing): ASCII digits
    within 64 bits, else None: it names nothing that can exist."""
    if not (text.isascii() and text.isdigit()):
        return None
    number = int(text)
    return number if number <= MAX_ID else None  # 0 too: a listing's first page


@dataclass(frozen=True)
class CustomId:
    """A custom id format: a prefix, then named fields separated by colons."""

    prefix: str
    fields: tuple[tuple[str, str], ...]  # (name, pattern)

    @classmethod
    def of(cls, prefix: str, **fields: str) -> CustomId:
        return cls(prefix, tuple(fields.items()))

    @property
    def template(self) -> str:
        """The regular expression that matches these ids, one named group per field."""
        groups = "".join(f":(?P<{name}>{pattern})" for name, pattern in self.fields)
        return re.escape(self.prefix) + groups

    def __call__(self, **values: object) -> str:
        text = self.prefix + "".join(f":{values[name]}" for name, _ in self.fields)
        assert re.fullmatch(self.template, text), text
        return text

    def matches(self, custom_id: str) -> bool:
        """Whether `custom_id` has this format (its ids in range or not)."""
        return re.fullmatch(self.template, custom_id) is not None

    def parse(self, custom_id: str) -> dict[str, Any] | None:
        """The fields of `custom_id` (digits as ints), or None when it is not of this format
        or names an id out of the 64-bit range."""
        found = re.fullmatch(self.template, custom_id)
        if found is None:
            return None
        values: dict[str, Any] = {}
        for name, value in found.groupdict().items():
            if value.isdigit():
                number = carried_number(value)
                if number is None:
                    return None
                values[name] = number
            else:
                values[name] = value
        return values


def _choice(*values: str) -> str:
    return "|".join(re.escape(value) for value in values)


class Tool(StrEnum):
    """The panel's buttons beside the event's steps: what an organizer does to the event
    that is not a step of its play (domain.tournament.steps)."""

    RESTRICTED = "restricted"  # its restricted list from a TOML file (before the start)
    IMPORT = "import"  # its entries from a CSV (during registration)
    PUBLISH = "publish"  # its decklists made public (after the start, once)
    # every table still playing given the same extra minutes (全体延長, R-MATCH-7): while
    # the round's clock runs and a table plays
    EXTEND_ROUND = "extend_round"
    SERIES = "series"  # which series the event is in
    ROOMS = "rooms"  # match rooms on or off (/tournament rooms)
    NEW_PAGE = "new_page"  # a new address for its live page (the old one leaked)


# -- the ids ------------------------------------------------------------------------------

REGISTER = CustomId.of("en:reg", tournament=NUMBER)
CHECK_IN = CustomId.of("en:chk", tournament=NUMBER)
SUBMIT_DECK = CustomId.of("en:deck", tournament=NUMBER)
PASTE_BOX = CustomId.of("en", kind=_choice("box", "cbox"), tournament=NUMBER)
PAGE = CustomId.of("pg", kind="[a-z_]+", arg="[^:]*", page=NUMBER, direction="[pn]")
START = CustomId.of("ts", choice=_choice("go", "no"), tournament=NUMBER)
REPORT = CustomId.of("rp", tournament=NUMBER, round=NUMBER)
CLAIM = CustomId.of(
    "rc", tournament=NUMBER, round=NUMBER, claim=_choice(*(claim.value for claim in Claim))
)
TIME_FORM = CustomId.of("rt", tournament=NUMBER, round=NUMBER)
CONFIRM = CustomId.of("cf", tournament=NUMBER, round=NUMBER, table=NUMBER)
DISPUTE = CustomId.of("ds", tournament=NUMBER, round=NUMBER, table=NUMBER)
# 確認 / 異議 under several tables' reports in one message: each acts on the presser's table.
CONFIRM_MINE = CustomId.of("cy", tournament=NUMBER, round=NUMBER)
DISPUTE_MINE = CustomId.of("dy", tournament=NUMBER, round=NUMBER)
CALL_JUDGE = CustomId.of("jq", tournament=NUMBER)
CALL_FORM = CustomId.of("jw", tournament=NUMBER)
DROP = CustomId.of("dp", tournament=NUMBER)
DROP_CONFIRM = CustomId.of("dc", tournament=NUMBER)
CONFIRM_PENDING = CustomId.of("pc", pending=NUMBER)
CANCEL_PENDING = CustomId.of("px", pending=NUMBER)
CLAIM_CALL = CustomId.of("jc", tournament=NUMBER, call=NUMBER)
RESOLVE_CALL = CustomId.of("jr", tournament=NUMBER, call=NUMBER, minutes=r"\d{1,2}|x")
MINUTES_FORM = CustomId.of("jm", tournament=NUMBER, call=NUMBER)
PANEL_STEP = CustomId.of("pn", step=_choice(*(step.value for step in Step)), tournament=NUMBER)
DISPUTE_FORM = CustomId.of("df", tournament=NUMBER, round=NUMBER, table=NUMBER)
DECIDE_WIN = CustomId.of("jv", tournament=NUMBER, round=NUMBER, table=NUMBER, player=NUMBER)
DECIDE_DOUBLE_LOSS = CustomId.of("jl", tournament=NUMBER, round=NUMBER, table=NUMBER)
DECIDE_TIME = CustomId.of("jt", tournament=NUMBER, round=NUMBER, table=NUMBER)
DECIDE_TIME_FORM = CustomId.of("jf", tournament=NUMBER, round=NUMBER, table=NUMBER)
# A player's handle (the registration reply's button, and its form) and a series' points.
HANDLE_BUTTON = CustomId.of("hb", tournament=NUMBER)
HANDLE_FORM = CustomId.of("hf", tournament=NUMBER)
POINTS_FORM = CustomId.of("sp", series=NUMBER)
# The organizer's ways in without a command: the panel's tools (シリーズ, 参加者の取り込み),
# the series menu they open (two selects whose options carry the series, the new-series
# button and its form), a series' ポイント表 button and the import's file form.
PANEL_TOOL = CustomId.of("pt", tool=_choice(*(tool.value for tool in Tool)), tournament=NUMBER)
SERIES_ADD = CustomId.of("sa", tournament=NUMBER)
SERIES_REMOVE = CustomId.of("sr", tournament=NUMBER)
SERIES_NEW = CustomId.of("sn", tournament=NUMBER)
SERIES_FORM = CustomId.of("sc", tournament=NUMBER)
POINTS_BUTTON = CustomId.of("sb", series=NUMBER)
IMPORT_FORM = CustomId.of("ic", tournament=NUMBER)
RESTRICTED_FORM = CustomId.of("rl", tournament=NUMBER)
# The panel's 全体延長 form: the minutes for every table of the current round still playing.
ROUND_EXTEND_FORM = CustomId.of("re", tournament=NUMBER)
PUBLISH = CustomId.of("pb", choice=_choice("go", "no"), tournament=NUMBER)
# Where the match rooms would not fit: rooms for tables 1 to `tables` only, or (0) none.
ROOMS_FIT = CustomId.of("rf", tournament=NUMBER, tables=NUMBER)


# -- their labels -------------------------------------------------------------------------


@dataclass(frozen=True)
class Labels:
    """The language of a message's buttons, decided once for the message.

    A reply to one person: that person's language (`Labels(lang)`). A post in the server:
    the server's posting language, and on a server that asked for it in /setup (members who
    read Japanese and members who read English) the other language after it:
    「結果報告 / Report result」 (`server_labels`).
    """

    lang: Lang
    bilingual: bool = False

    def __call__(self, key: str, /, **params: object) -> str:
        label = t(key, self.lang, **params)
        if not self.bilingual:
            return label
        other = t(key, "en" if self.lang == "ja" else "ja", **params)
        return label if other == label else f"{label} / {other}"


def server_labels(config: GuildConfig, default: Lang) -> Labels:
    """The labels of the server's posts: its posting language (/setup's, else the bot's
    default) and its bilingual-buttons choice."""
    return Labels(normalise_locale(config.locale or default), config.bilingual_buttons)


# -- building them ------------------------------------------------------------------------


def button(
    custom_id: str,
    label: str,
    style: Style = Style.secondary,
    *,
    disabled: bool = False,
    row: int | None = None,
) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=label, style=style, custom_id=custom_id, disabled=disabled, row=row
    )


class _Stateless(discord.ui.View):
    """A view that is only ever sent as components: finished from the start, so discord.py
    never keeps it or waits on it, wherever it was built (a view made off the event loop
    has no loop to be "stopped" on: bot/worker.py)."""

    def is_finished(self) -> bool:
        return True


def stateless_view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view of routed items: sent as components, never kept in memory (the routes in the
    cogs answer its presses, after any restart)."""
    view = _Stateless(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


def registration_view(tournament_id: int, labels: Labels, *, checkin: bool) -> discord.ui.View:
    """参加登録 and デッキ提出, and チェックイン while its window is open."""
    shown = [
        (REGISTER, labels("ui.entry.register_button"), Style.primary),
        (CHECK_IN, labels("ui.entry.checkin_button"), Style.success),
        (SUBMIT_DECK, labels("ui.entry.deck_button"), Style.secondary),
    ]
    return stateless_view(
        *(
            button(custom(tournament=tournament_id), label, style)
            for custom, label, style in shown
            if custom is not CHECK_IN or checkin
        )
    )


def deck_view(tournament_id: int, labels: Labels) -> discord.ui.View:
    return stateless_view(
        button(SUBMIT_DECK(tournament=tournament_id), labels("ui.entry.deck_button"), Style.primary)
    )


def late_entry_view(tournament_id: int, labels: Labels) -> discord.ui.View:
    """The running event's post: 途中参加 while late entry is open (R-FMT-8)."""
    return stateless_view(
        button(REGISTER(tournament=tournament_id), labels("ui.entry.late_button"), Style.primary)
    )


def start_view(tournament_id: int, labels: Labels) -> discord.ui.View:
    return stateless_view(
        button(
            START(choice="go", tournament=tournament_id),
            labels("ui.start_preview.start_button"),
            Style.danger,
        ),
        button(START(choice="no", tournament=tournament_id), labels("ui.cancel_button")),
    )


def publish_view(tournament_id: int, labels: Labels) -> discord.ui.View:
    """The panel's 公開, asked first: public lists cannot be made private again."""
    return stateless_view(
        button(
            PUBLISH(choice="go", tournament=tournament_id),
            labels("ui.deck.publish_button"),
            Style.danger,
        ),
        button(PUBLISH(choice="no", tournament=tournament_id), labels("ui.cancel_button")),
    )


def rooms_fit_view(tournament_id: int, fits: int, labels: Labels) -> discord.ui.View:
    """The organizer's choice where the rooms would not fit: fewer rooms (for the tables
    that fit, when any does) or none."""
    choices = []
    if fits:
        choices.append(
            button(
                ROOMS_FIT(tournament=tournament_id, tables=fits),
                labels("rooms.fewer", tables=fits),
                Style.primary,
            )
        )
    choices.append(button(ROOMS_FIT(tournament=tournament_id, tables=0), labels("rooms.none")))
    return stateless_view(*choices)


def report_view(
    tournament_id: int, number: int, labels: Labels, *, drop: bool = True
) -> discord.ui.View:
    """The pairings post's buttons: every step of a player's round without a command. No
    ドロップ in the top cut: a player out of it has nothing to drop from."""
    items = [
        button(
            REPORT(tournament=tournament_id, round=number),
            labels("ui.rounds.report_button"),
            Style.primary,
        ),
        button(CALL_JUDGE(tournament=tournament_id), labels("ui.rounds.call_button")),
    ]
    if drop:
        items.append(button(DROP(tournament=tournament_id), labels("ui.rounds.drop_button")))
    return stateless_view(*items)


def claim_view(tournament_id: int, number: int, labels: Labels) -> discord.ui.View:
    """勝ち / 負け / 投了 / 時間切れ on the player's private report form."""
    return stateless_view(
        *(
            button(
                CLAIM(tournament=tournament_id, round=number, claim=claim.value),
                labels(f"ui.report.{claim.value}"),
                Style.success if claim is Claim.WIN else Style.secondary,
            )
            for claim in Claim
        )
    )


def confirm_view(tournament_id: int, number: int, table: int, labels: Labels) -> discord.ui.View:
    """確認 / 異議 under a report: only the reporter's opponent may press them (the service
    decides)."""
    ids = {"tournament": tournament_id, "round": number, "table": table}
    return stateless_view(
        button(CONFIRM(**ids), labels("ui.report.confirm_button"), Style.success),
        button(DISPUTE(**ids), labels("ui.report.dispute_button"), Style.danger),
    )


def confirm_mine_view(tournament_id: int, number: int, labels: Labels) -> discord.ui.View:
    """確認 / 異議 under several tables' reports: each acts on the presser's own table of
    the round (the service finds it, and refuses anyone without a report to answer)."""
    ids = {"tournament": tournament_id, "round": number}
    return stateless_view(
        button(CONFIRM_MINE(**ids), labels("ui.report.confirm_button"), Style.success),
        button(DISPUTE_MINE(**ids), labels("ui.report.dispute_button"), Style.danger),
    )


def decide_view(
    tournament_id: int,
    number: int,
    table: int,
    players: tuple[tuple[int, str], tuple[int, str]],
    labels: Labels,
) -> discord.ui.View:
    """The judges' decision on a dispute's notice, in one press: [A の勝ち] [B の勝ち]
    [両者敗北] [時間切れ判定…]; `players` are the table's (user id, name), in table order.
    Each applies what /result set applies (the service refuses anyone but the staff)."""
    ids = {"tournament": tournament_id, "round": number, "table": table}
    wins = [
        button(
            DECIDE_WIN(player=user, **ids),
            labels("ui.decide.win", player=_short(name)),
            Style.primary,
        )
        for user, name in players
    ]
    return stateless_view(
        *wins,
        button(DECIDE_DOUBLE_LOSS(**ids), labels("ui.decide.double_loss"), Style.danger),
        button(DECIDE_TIME(**ids), labels("ui.decide.time")),
    )


def _short(name: str, limit: int = 24) -> str:
    """A name that leaves room in a label (80 characters, both languages on a mixed server;
    45 in a form)."""
    return name if len(name) <= limit else name[: limit - 1] + "…"


def drop_view(tournament_id: int, labels: Labels) -> discord.ui.View:
    return stateless_view(
        button(
            DROP_CONFIRM(tournament=tournament_id), labels("ui.drop.confirm_button"), Style.danger
        )
    )


def pending_view(pending_id: int, confirm_key: str, labels: Labels) -> discord.ui.View:
    """Give the penalty / take back the operation that waits in the database (`confirm_key`
    names the button: 与える, 取り消す), or やめる."""
    return stateless_view(
        button(CONFIRM_PENDING(pending=pending_id), labels(confirm_key), Style.danger),
        button(CANCEL_PENDING(pending=pending_id), labels("ui.cancel_button")),
    )


def claim_call_view(tournament_id: int, call_id: int, labels: Labels) -> discord.ui.View:
    return stateless_view(
        button(
            CLAIM_CALL(tournament=tournament_id, call=call_id),
            labels("ui.judge.claim_button"),
            Style.primary,
        )
    )


def resolve_call_view(
    tournament_id: int, call_id: int, suggested: int, labels: Labels, *, at_a_table: bool
) -> discord.ui.View:
    """Resolve a call: without an extension, with the minutes waited (R-MATCH-7), or other."""
    ids = {"tournament": tournament_id, "call": call_id}
    items = [button(RESOLVE_CALL(minutes=0, **ids), labels("ui.judge.resolve_none"), Style.success)]
    if at_a_table:
        items += [
            button(
                RESOLVE_CALL(minutes=suggested, **ids),
                labels("ui.judge.resolve_extend", minutes=suggested),
                Style.success,
            ),
            button(RESOLVE_CALL(minutes="x", **ids), labels("ui.judge.resolve_other")),
        ]
    return stateless_view(*items)


def time_modal(tournament_id: int, number: int, lang: Lang) -> discord.ui.Modal:
    """R-MATCH-2: both point-zone counts; routed by its custom id (bot/ui/stateless.py)."""
    modal = discord.ui.Modal(
        title=t("ui.report.time_title", lang),
        custom_id=TIME_FORM(tournament=tournament_id, round=number),
    )
    for field, key in (("mine", "ui.report.my_points"), ("theirs", "ui.report.opponent_points")):
        label = t(key, lang, max=MAX_POINT_ZONE)
        modal.add_item(
            discord.ui.TextInput(label=label, custom_id=field, max_length=2, min_length=1)
        )
    return modal


def dispute_form(
    tournament_id: int, number: int, table: int, round_name: str, lang: Lang
) -> discord.ui.Modal:
    """異議: what the player claims instead of the report (勝ち / 負け / 時間切れ), both
    point-zone counts for a time-out (R-MATCH-2), and a note for the judges. Routed by its
    custom id (bot/ui/stateless.py); `round_name` is the round as people name it."""
    modal = discord.ui.Modal(
        title=t("ui.dispute.title", lang, round_name=round_name, table=table),
        custom_id=DISPUTE_FORM(tournament=tournament_id, round=number, table=table),
    )
    claims = discord.ui.Select[Any](
        custom_id="claim",
        options=[
            discord.SelectOption(
                label=t(f"ui.report.{claim.value}", lang),
                value=claim.value,
                description=t(f"ui.dispute.claim_{claim.value}", lang),
            )
            for claim in DISPUTE_CLAIMS
        ],
    )
    modal.add_item(discord.ui.Label(text=t("ui.dispute.claim_label", lang), component=claims))
    for field, key in (("mine", "ui.report.my_points"), ("theirs", "ui.report.opponent_points")):
        count = discord.ui.TextInput[Any](custom_id=field, required=False, max_length=2)
        modal.add_item(
            discord.ui.Label(
                text=t(key, lang, max=MAX_POINT_ZONE),
                description=t("ui.dispute.points_hint", lang),
                component=count,
            )
        )
    note = discord.ui.TextInput[Any](
        custom_id="reason", style=discord.TextStyle.paragraph, required=False, max_length=500
    )
    modal.add_item(discord.ui.Label(text=t("ui.dispute.reason_label", lang), component=note))
    return modal


def decide_time_form(
    tournament_id: int,
    number: int,
    table: int,
    players: tuple[tuple[int, str], tuple[int, str]],
    round_name: str,
    lang: Lang,
) -> discord.ui.Modal:
    """時間切れ判定…: both point-zone counts, named by player in table order (R-MATCH-2:
    fewer cards wins by judgement, the same count is a draw)."""
    modal = discord.ui.Modal(
        title=t("ui.decide.time_title", lang, round_name=round_name, table=table),
        custom_id=DECIDE_TIME_FORM(tournament=tournament_id, round=number, table=table),
    )
    for field, (_, name) in zip(("first", "second"), players, strict=True):
        count = discord.ui.TextInput[Any](custom_id=field, max_length=2, min_length=1)
        modal.add_item(
            discord.ui.Label(
                text=t("ui.decide.points_of", lang, player=_short(name)),
                description=t("ui.decide.points_hint", lang, max=MAX_POINT_ZONE),
                component=count,
            )
        )
    return modal


def minutes_modal(tournament_id: int, call_id: int, lang: Lang) -> discord.ui.Modal:
    modal = discord.ui.Modal(
        title=t("ui.judge.minutes_title", lang),
        custom_id=MINUTES_FORM(tournament=tournament_id, call=call_id),
    )
    modal.add_item(
        discord.ui.TextInput(
            label=t("ui.judge.minutes_label", lang, max=MAX_EXTENSION_MINUTES),
            custom_id="minutes",
            max_length=2,
        )
    )
    return modal


EXTEND_MINUTES_FIELD = "minutes"


def round_extend_form(tournament_id: int, round_name: str, lang: Lang) -> discord.ui.Modal:
    """全体延長: the minutes every table of the round (`round_name`) still playing gets
    (R-MATCH-7; what /round extend's option takes)."""
    modal = discord.ui.Modal(
        title=t("ui.rounds.extend_form_title", lang, round_name=round_name),
        custom_id=ROUND_EXTEND_FORM(tournament=tournament_id),
    )
    minutes = discord.ui.TextInput[Any](custom_id=EXTEND_MINUTES_FIELD, min_length=1, max_length=2)
    modal.add_item(
        discord.ui.Label(
            text=t("ui.rounds.extend_minutes_label", lang, max=MAX_EXTENSION_MINUTES),
            description=t("ui.rounds.extend_minutes_hint", lang, max=MAX_EXTENSION_MINUTES),
            component=minutes,
        )
    )
    return modal


def call_form(tournament_id: int, lang: Lang) -> discord.ui.Modal:
    """The ジャッジを呼ぶ button's form: what happened (optional)."""
    modal = discord.ui.Modal(
        title=t("ui.judge.call_title", lang), custom_id=CALL_FORM(tournament=tournament_id)
    )
    modal.add_item(
        discord.ui.TextInput(
            label=t("ui.judge.reason_label", lang),
            custom_id="reason",
            style=discord.TextStyle.paragraph,
            required=False,
            max_length=500,
        )
    )
    return modal


HANDLE_FIELD = "handle"
POINTS_FIELD = "points"


def handle_view(tournament_id: int, labels: Labels) -> discord.ui.View:
    """ハンドルネームを設定, under the answer to a registration."""
    return stateless_view(
        button(HANDLE_BUTTON(tournament=tournament_id), labels("ui.handle.button"))
    )


def handle_form(tournament_id: int, current: str | None, lang: Lang) -> discord.ui.Modal:
    """The handle to show in the server's events (blank: the Discord name again)."""
    modal = discord.ui.Modal(
        title=t("ui.handle.form_title", lang), custom_id=HANDLE_FORM(tournament=tournament_id)
    )
    modal.add_item(
        discord.ui.TextInput(
            label=t("ui.handle.form_label", lang),
            custom_id=HANDLE_FIELD,
            required=False,
            max_length=MAX_HANDLE,
            default=current,
        )
    )
    return modal


def points_form(series_id: int, current: str, lang: Lang) -> discord.ui.Modal:
    """A series' points table as text, one placing a line (`parse_points_table`)."""
    modal = discord.ui.Modal(
        title=t("ui.series.points_form_title", lang), custom_id=POINTS_FORM(series=series_id)
    )
    modal.add_item(
        discord.ui.TextInput(
            label=t("ui.series.points_form_label", lang),
            custom_id=POINTS_FIELD,
            style=discord.TextStyle.paragraph,
            default=current,
            max_length=MAX_TABLE_CHARS,
        )
    )
    return modal


# -- the organizer's series and entries, without a command ----------------------------------

SERIES_NAME_FIELD = "name"
IMPORT_FILE_FIELD = "file"
RESTRICTED_FILE_FIELD = "file"
MAX_OPTIONS = 25  # Discord's most options in a select
# Two selects take two rows of five; the new-series button and these fill the other three.
MAX_POINTS_BUTTONS = 14


def series_select(
    custom_id: str, placeholder: str, choices: Sequence[Series], labels: Labels
) -> discord.ui.Select[Any]:
    """A series to choose, by id (the option's value), at most the newest 25."""
    return discord.ui.Select(
        custom_id=custom_id,
        placeholder=placeholder,
        options=[
            discord.SelectOption(
                label=series.name[:100],
                value=str(series.id),
                description=labels("ui.series.option_events", count=len(series.event_ids)),
            )
            for series in choices[:MAX_OPTIONS]
        ],
    )


def series_menu_view(
    tournament_id: int, joined: Sequence[Series], others: Sequence[Series], labels: Labels
) -> discord.ui.View:
    """The panel's シリーズ: add the tournament to a series it is not in, take it out of one
    it is in, make a new series for it, and each of its series' ポイント表."""
    items: list[discord.ui.Item[Any]] = []
    if others:
        placeholder = labels("ui.series.add_placeholder")
        items.append(
            series_select(SERIES_ADD(tournament=tournament_id), placeholder, others, labels)
        )
    if joined:
        placeholder = labels("ui.series.remove_placeholder")
        items.append(
            series_select(SERIES_REMOVE(tournament=tournament_id), placeholder, joined, labels)
        )
    items.append(
        button(SERIES_NEW(tournament=tournament_id), labels("ui.series.new_button"), Style.primary)
    )
    items += [
        button(
            POINTS_BUTTON(series=series.id),
            labels("ui.series.points_of", series=_short(series.name)),
        )
        for series in joined[:MAX_POINTS_BUTTONS]
    ]
    return stateless_view(*items)


def points_button(series_id: int, labels: Labels) -> discord.ui.Button[Any]:
    """ポイント表, under a series' standings: opens its form (organizers only: the
    service refuses anyone else before the form opens)."""
    return button(POINTS_BUTTON(series=series_id), labels("ui.series.points_button"))


def series_form(tournament_id: int, tournament_name: str, lang: Lang) -> discord.ui.Modal:
    """新しいシリーズ: its name; the tournament whose panel it came from joins it."""
    modal = discord.ui.Modal(
        title=t("ui.series.new_form_title", lang), custom_id=SERIES_FORM(tournament=tournament_id)
    )
    name = discord.ui.TextInput[Any](
        custom_id=SERIES_NAME_FIELD, min_length=1, max_length=MAX_SERIES_NAME
    )
    modal.add_item(
        discord.ui.Label(
            text=t("ui.series.new_form_label", lang),
            description=t("ui.series.new_form_hint", lang, tournament=_short(tournament_name, 40)),
            component=name,
        )
    )
    return modal


def import_form(tournament_id: int, lang: Lang) -> discord.ui.Modal:
    """参加者の取り込み: the CSV of entries, uploaded in the form (what /tournament import's
    file option takes)."""
    modal = discord.ui.Modal(
        title=t("ui.import.form_title", lang), custom_id=IMPORT_FORM(tournament=tournament_id)
    )
    upload = discord.ui.FileUpload[Any](
        custom_id=IMPORT_FILE_FIELD, min_values=1, max_values=1, required=True
    )
    modal.add_item(
        discord.ui.Label(
            text=t("ui.import.file_label", lang),
            description=t("ui.import.file_hint", lang),
            component=upload,
        )
    )
    return modal


def restricted_form(tournament_id: int, lang: Lang) -> discord.ui.Modal:
    """制限カードリスト: the TOML file, uploaded in the form (what /tournament settings'
    restricted_list option takes)."""
    modal = discord.ui.Modal(
        title=t("ui.restricted.form_title", lang),
        custom_id=RESTRICTED_FORM(tournament=tournament_id),
    )
    upload = discord.ui.FileUpload[Any](
        custom_id=RESTRICTED_FILE_FIELD, min_values=1, max_values=1, required=True
    )
    modal.add_item(
        discord.ui.Label(
            text=t("ui.restricted.file_label", lang),
            description=t("ui.restricted.file_hint", lang),
            component=upload,
        )
    )
    return modal
