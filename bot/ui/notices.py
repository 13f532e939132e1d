"""What each notice of the plan (bot/notify/plan.py) says: one renderer per `Say`.

A renderer reads the tournament as it is when the notice is sent, plus the notice's own
data (a snapshot where the tournament may have moved on), and returns the messages to post
(none: there is nothing left to say, e.g. a report already confirmed). Presentation only.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import discord

from bot.i18n import Lang, t
from bot.notify.payloads import (
    AskOpponent,
    CallReping,
    ClockReminder,
    Count,
    Decision,
    Dispute,
    EntryReminder,
    Extension,
    NoticeDropped,
    OfCall,
    OfPenalty,
    OfPlayer,
    OfRound,
    OfTable,
    OfTables,
    Payload,
    PenaltyGiven,
    PenaltyRevoked,
    PlaceRefused,
    PlayerInRound,
    Playing,
    Reasons,
    ResultSet,
    RoomsRefused,
    RoundExtension,
    TableInRound,
    Unconfirmed,
    Undo,
)
from bot.notify.plan import Say
from bot.ui.bracket import render_bracket
from bot.ui.buttons import (
    Labels,
    claim_call_view,
    confirm_view,
    decide_view,
    late_entry_view,
    registration_view,
    report_view,
    stateless_view,
)
from bot.ui.entry import registration_embed
from bot.ui.judges import (
    action_what,
    call_reping,
    call_text,
    penalty_log,
    penalty_notice,
    penalty_type,
)
from bot.ui.pagination import page_view
from bot.ui.panel import Backlog, panel, round_complete
from bot.ui.render import (
    announcement_created,
    format_name,
    regulation_name,
    rounds_text,
    safe,
)
from bot.ui.rounds import (
    Post,
    bracket_picture,
    claim_lines,
    describe_result,
    final_standings_post,
    mention,
    name_of,
    pairings_posts,
    plain_name,
    result_change_text,
    round_name,
    round_name_at,
    standings_page_of,
)
from domain.decks import read_stored_decklist
from domain.engine.players import PlayerStatus
from domain.engine.state import Phase
from domain.tournament.calendar import CalendarEntry, calendar_entry
from domain.tournament.log import Action
from domain.tournament.model import Tournament
from domain.tournament.penalties import Penalty
from domain.tournament.registration import late_entry_round
from domain.tournament.reminders import reminder_deadline
from domain.tournament.rounds import Match, Round, RoundKind
from domain.tournament.views import Views


@dataclass(frozen=True)
class Message:
    """One message to post (or, for an edit, the parts of the post to replace)."""

    content: str | None = None
    embeds: Sequence[discord.Embed] = ()
    files: Sequence[tuple[str, bytes]] = ()  # (filename, data): a file per send attempt
    view: discord.ui.View | None = None
    pings: tuple[int, ...] = ()  # the users it may ping, no one else

    def files_to_send(self) -> list[discord.File]:
        return [discord.File(io.BytesIO(data), filename=name) for name, data in self.files]


@dataclass(frozen=True)
class CalendarText:
    """The tournament's entry on the server's calendar: how it should be now (`entry`), and
    its texts. `location` is the live page while it is public, else None (the delivery then
    links the registration post, or says `fallback_location`)."""

    entry: CalendarEntry
    name: str
    description: str
    marker: tuple[str, ...]  # the description's last line in either language: finds it again
    location: str | None
    fallback_location: str


@dataclass(frozen=True)
class RoomsText:
    """The names of a tournament's match rooms and categories, in the server's language."""

    tournament: str
    lang: Lang

    def category(self, number: int) -> str:
        if number == 1:
            return t("rooms.category", self.lang, tournament=self.tournament)[:100]
        return t("rooms.category_more", self.lang, tournament=self.tournament, number=number)[:100]

    def room(self, table: int) -> str:
        return t("rooms.room", self.lang, table=table)


@dataclass(frozen=True)
class Said:
    """What a notice says: its messages, and the reports thread to open on the first; or the
    calendar entry to bring in step."""

    messages: list[Message] = field(default_factory=list)
    thread_name: str | None = None
    calendar: CalendarText | None = None
    rooms: RoomsText | None = None


@dataclass(frozen=True)
class Telling:
    """A notice as its renderer reads it."""

    tournament: Tournament
    data: Payload  # of the type the notice's kind declares
    user: int | None
    lang: Lang
    now: datetime
    page_base: str | None = None  # where the live pages are served (WEB_BASE_URL)

    @property
    def page_url(self) -> str | None:
        return self.tournament.page_url(self.page_base)

    bilingual_buttons: bool = False  # the server's /setup choice, for the buttons' labels
    # What is read about the tournament (standings, placings): the bot keeps one per
    # version, shared by every notice, command and page of that version.
    known: Views | None = None
    # The organizer's panel: what still waits to be told (read by the delivery).
    backlog: Backlog | None = None
    # Table → its match room (a voice channel) in the notice's round, where it has rooms.
    rooms: Mapping[int, int] = field(default_factory=dict)
    # Where the final standings were posted (the delivery finds it for the closed
    # registration post).
    final_standings: str | None = None

    def room_line(self, table: int | None, *, inline: bool = False) -> str:
        """「対戦部屋: #卓3」 on a line of its own (`inline`: after a space, for a table's
        line among others), for a table with a room; else nothing. Every notice to or
        about one table names its room: one tap takes a player or a judge there."""
        room = self.rooms.get(table) if table is not None else None
        if room is None:
            return ""
        return (" " if inline else "\n") + room_mention(room, self.lang)

    @property
    def views(self) -> Views:
        return self.known if self.known is not None else Views(self.tournament)

    @property
    def labels(self) -> Labels:
        """The buttons' labels: the post's language, and the other after it when asked."""
        return Labels(self.lang, self.bilingual_buttons)


Renderer = Callable[[Telling], Said]


def _said(*messages: Message) -> Said:
    return Said(list(messages))


def _round_match(tournament: Tournament, data: OfTable) -> tuple[Round, Match] | None:
    played = tournament.round(data.round)
    match = played.match_at(data.table) if played else None
    if played is None or match is None:
        return None
    return played, match


def _penalty(tournament: Tournament, penalty_id: int) -> Penalty | None:
    found = [p for p in tournament.penalties if p.id == penalty_id]
    return found[0] if found else None


def with_link(embed: discord.Embed, url: str | None, lang: Lang) -> None:
    """The live page's link on a post, while the page is public."""
    if url is not None:
        embed.url = url
        embed.add_field(name=t("ui.live_page", lang), value=url, inline=False)


# -- registration and the start -----------------------------------------------------------


def registration_post(telling: Telling) -> Said:
    """R-FMT-6: the format, regulation and time limit, announced before the event, with the
    buttons that are all a player needs to take part."""
    if telling.tournament.phase is Phase.CANCELLED:
        return _said(cancelled_post(telling.tournament, telling.lang))
    return _said(_open_registration_post(telling))


def cancelled_post(tournament: Tournament, lang: Lang) -> Message:
    """The registration post of an event called off: it says so, and has no buttons."""
    return Message(
        content=t("ui.cancel.post", lang, name=safe(tournament.name)),
        embeds=[registration_embed(tournament, lang)],
        view=stateless_view(),
    )


def _open_registration_post(telling: Telling) -> Message:
    tournament, lang = telling.tournament, telling.lang
    checkin = tournament.checkin_open(telling.now)
    return Message(
        content=announcement_created(tournament, lang, checkin=checkin),
        embeds=[registration_embed(tournament, lang)],
        view=registration_view(tournament.id, telling.labels, checkin=checkin),
    )


def registration_refresh(telling: Telling) -> Said:
    """The registration post's text, embed and buttons, as they should be now (an edit):
    while entries are open, as posted; once the event runs, 「開催中・受付終了」 with only
    途中参加 while late entry is open; after the finish, 「終了」 and the final standings."""
    tournament, lang = telling.tournament, telling.lang
    if tournament.phase is Phase.CANCELLED:
        return _said(cancelled_post(tournament, lang))
    if tournament.phase is Phase.REGISTRATION:
        return _said(_open_registration_post(telling))
    name = safe(tournament.name)
    embed = registration_embed(tournament, lang)
    if tournament.phase is Phase.FINISHED:
        embed.title = t("ui.entry.title_finished", lang, name=name)
        link = telling.final_standings
        text = t("ui.entry.finished", lang, name=name)
        if link:
            text += "\n" + t("ui.entry.final_standings_at", lang, url=link)
        elif telling.page_url:
            text += "\n" + t("ui.entry.final_standings_at", lang, url=telling.page_url)
        return _said(Message(content=text, embeds=[embed], view=stateless_view()))
    late_until = tournament.late_registration_rounds
    if late_entry_round(tournament) is not None:  # R-FMT-8: entries for the next rounds
        embed.title = t("ui.entry.title_late", lang, name=name)
        text = t("ui.entry.running_late", lang, name=name, round=late_until)
        view = late_entry_view(tournament.id, telling.labels)
    else:
        embed.title = t("ui.entry.title_closed", lang, name=name)
        text = t("ui.entry.running", lang, name=name)
        view = stateless_view()
    return _said(Message(content=text, embeds=[embed], view=view))


def promoted(telling: Telling) -> Said:
    entry = telling.tournament.players.get(telling.data.as_(OfPlayer).player)
    if entry is None:
        return _said()
    return _said(Message(t("ui.register.promoted", telling.lang, name=safe(entry.display_name))))


def started(telling: Telling) -> Said:
    tournament, lang = telling.tournament, telling.lang
    text = t(
        "ui.announce.started",
        lang,
        name=safe(tournament.name),
        players=telling.data.as_(Playing).players,
        rounds=rounds_text(tournament, lang),
    )
    return _said(Message(text))


def dropped_at_start(telling: Telling) -> Said:
    """A player the start removed: why, what would have kept them in, and whether they can
    still join as a late entrant."""
    tournament, lang = telling.tournament, telling.lang
    reasons = list(telling.data.as_(Reasons).reasons) or ["no_deck"]
    lines = [
        t(
            "ui.start.dropped_notice",
            lang,
            tournament=safe(tournament.name),
            reasons=t("ui.start.reason_separator", lang).join(
                t(f"ui.start.reason_{r}", lang) for r in reasons
            ),
        )
    ]
    lines += [t(f"ui.start.advice_{r}", lang) for r in reasons]
    if late_entry_round(tournament) is not None:
        lines.append(t("ui.start.late_entry", lang, round=tournament.late_registration_rounds))
    return _said(Message("\n".join(lines)))


def decks_published(telling: Telling) -> Said:
    tournament, lang = telling.tournament, telling.lang
    lists = "\n\n".join(
        f"## {tournament.players[deck.user_id].display_name} ({deck.fingerprint})\n"
        f"{read_stored_decklist(deck.canonical).canonical_text()}"
        for deck in sorted(tournament.decks.values(), key=lambda deck: deck.user_id)
    )
    count = telling.data.as_(Count).count
    text = t("ui.announce.published", lang, name=safe(tournament.name), count=count)
    filename = f"decklists-{tournament.id}.txt"
    return _said(Message(text, files=[(filename, lists.encode("utf-8"))]))


# -- rounds -------------------------------------------------------------------------------


def room_mention(room: int, lang: Lang) -> str:
    return t("rooms.in_post", lang, room=f"<#{room}>")


def pairings(telling: Telling) -> Said:
    """The round's pairings in as many messages as Discord's limits need, each with the
    players' buttons; the bracket picture for a top-cut round; the reports thread."""
    tournament, lang = telling.tournament, telling.lang
    played = tournament.round(telling.data.as_(OfRound).round)
    if played is None:  # taken back (/round repair) before it was posted
        return _said()
    points = telling.views.points_before(played.number)
    top_cut = played.kind is RoundKind.ELIMINATION
    view = report_view(tournament.id, played.number, telling.labels, drop=not top_cut)
    messages = [
        Message(
            part.content,
            embeds=_tables(part),
            view=view,
            pings=part.pinged,
            files=[(part.listing[0], part.listing[1].encode("utf-8"))] if part.listing else (),
        )
        for part in pairings_posts(
            tournament, played, points, lang, page_url=telling.page_url, rooms=telling.rooms
        )
    ]
    picture = bracket_picture(tournament, lang) if top_cut else None
    if picture is not None:
        messages.append(Message(files=[("bracket.png", render_bracket(picture))]))
    thread_name = t("ui.rounds.thread_name", lang, round_name=round_name(played, lang))
    return Said(messages, thread_name=thread_name)


def pairings_refresh(telling: Telling) -> Said:
    """The round's pairings post, each finished table marked with its result (edits)."""
    tournament, lang = telling.tournament, telling.lang
    played = tournament.round(telling.data.as_(OfRound).round)
    if played is None:
        return _said()
    points = telling.views.points_before(played.number)
    top_cut = played.kind is RoundKind.ELIMINATION
    view = report_view(tournament.id, played.number, telling.labels, drop=not top_cut)
    parts = pairings_posts(
        tournament,
        played,
        points,
        lang,
        page_url=telling.page_url,
        marked=True,
        rooms=telling.rooms,
    )
    return Said([Message(part.content, embeds=_tables(part), view=view) for part in parts])


def _tables(part: Post) -> list[discord.Embed]:
    """A large round's tables, as the embeds of their message."""
    return [discord.Embed(description=tables) for tables in part.tables]


def clock_started(telling: Telling) -> Said:
    tournament = telling.tournament
    played = tournament.round(telling.data.as_(OfRound).round)
    if played is None or played.ends_at is None:
        return _said()
    text = t(
        "ui.rounds.clock_started",
        telling.lang,
        round_name=round_name(played, telling.lang),
        minutes=tournament.time_limit_minutes,
        end=int(played.ends_at.timestamp()),
    )
    return _said(Message(text))


def ask_opponent(telling: Telling) -> Said:
    """The opponent is asked to confirm a report, with 確認 / 異議; once the match is final
    (confirmed, or both reported) there is nothing left to ask."""
    found = ask_opponent_text(telling)
    if found is None:
        return _said()
    text, opponent, number = found
    table = telling.data.as_(AskOpponent).table
    view = confirm_view(telling.tournament.id, number, table, telling.labels)
    return _said(Message(text, view=view, pings=(opponent,)))


def ask_opponent_text(telling: Telling, *, compact: bool = False) -> tuple[str, int, int] | None:
    """The confirm request's text, the opponent it pings and the round; None once there is
    nothing left to ask. `compact`: a line among other tables' (bot.ui.gathered), whose
    message says once what to press."""
    tournament, data, lang = telling.tournament, telling.data.as_(AskOpponent), telling.lang
    found = _round_match(tournament, data)
    opponent = telling.user
    if found is None or opponent is None:
        return None
    played, match = found
    reporter = data.reporter
    pending = [r for r in match.reports if r.player_id == reporter]
    if played.finished(match) or not pending or match.disputed:
        return None
    text = t(
        "ui.report.notify_line" if compact else "ui.report.notify",
        lang,
        opponent=mention(tournament, opponent, lang),
        reporter=name_of(tournament, reporter),
        round_name=round_name(played, lang),
        table=match.table,
        result=describe_result(tournament, match, pending[-1].result, lang),
    )
    text += telling.room_line(match.table, inline=compact)
    return text, opponent, played.number


def result_confirmed(telling: Telling) -> Said:
    found = _round_match(telling.tournament, telling.data.as_(OfTable))
    if found is None or found[1].result is None:
        return _said()
    played, match = found
    result = describe_result(telling.tournament, match, match.result, telling.lang)
    text = t(
        "ui.report.notice_confirmed",
        telling.lang,
        round_name=round_name(played, telling.lang),
        table=match.table,
        result=result,
    )
    return _said(Message(text + telling.room_line(match.table)))


def dispute(telling: Telling) -> Said:
    """The judges see both claims, with a button for each decision while the table waits
    for one: [A の勝ち] [B の勝ち] [両者敗北] [時間切れ判定…]."""
    tournament, data = telling.tournament, telling.data.as_(Dispute)
    found = _round_match(tournament, data)
    if found is None or len(found[1].players) != 2:
        return _said()
    played, match = found
    text = _table_for_judges("ui.report.judge_dispute", telling, data, played, match)
    if played.finished(match):
        return _said(Message(text))
    first, second = match.players
    players = ((first, plain_name(tournament, first)), (second, plain_name(tournament, second)))
    view = decide_view(tournament.id, played.number, match.table, players, telling.labels)
    return _said(Message(text, view=view))


def _table_for_judges(
    key: str,
    telling: Telling,
    data: Dispute | Unconfirmed,
    played: Round,
    match: Match,
    **extra: Any,
) -> str:
    """A table the judges must look at: its players, and what each reported (on a dispute,
    what the disputing player claims, and their note)."""
    tournament, lang = telling.tournament, telling.lang
    first, second = match.players
    disputed = data if isinstance(data, Dispute) else None
    claims = claim_lines(
        tournament,
        match,
        list(data.claims),
        lang,
        disputer=disputed.disputer if disputed else None,
        reason=disputed.reason if disputed else "",
    )
    text = t(
        key,
        lang,
        round_name=round_name(played, lang),
        table=match.table,
        first=name_of(tournament, first),
        second=name_of(tournament, second),
        claims=claims,
        **extra,
    )
    return text + telling.room_line(match.table)


def result_set(telling: Telling) -> Said:
    tournament, data = telling.tournament, telling.data.as_(ResultSet)
    found = _round_match(tournament, data)
    if found is None:
        return _said()
    played, match = found
    text = result_change_text(
        tournament,
        played.number,
        match,
        data.old,
        data.new,
        "ui.result.set_log",
        telling.lang,
        judge=safe(data.judge),
    )
    return _said(Message(text))


def standings(telling: Telling) -> Said:
    """The standings after the round the notice names, with page buttons."""
    tournament, lang = telling.tournament, telling.lang
    number = telling.data.as_(OfRound).round
    # Told late (Discord was away, the next round is paired): as they were after the round.
    views = (
        telling.views if number == tournament.current_round else Views(tournament.through(number))
    )
    page = standings_page_of(views, lang, 0)
    with_link(page.embed, telling.page_url, lang)
    view = page_view("standings", f"{tournament.id}.{lang}", page)
    return _said(Message(embeds=[page.embed], view=view))


def dropped(telling: Telling) -> Said:
    data = telling.data.as_(PlayerInRound)
    text = t(
        "ui.drop.log",
        telling.lang,
        player=name_of(telling.tournament, data.player),
        round=data.round,
    )
    return _said(Message(text))


def table_extended(telling: Telling) -> Said:
    """「⏱ テーブル 1 は 4 分延長されました（終了 6:32）」, to the table's players."""
    data = telling.data.as_(Extension)
    found = _round_match(telling.tournament, data)
    if found is None:
        return _said()
    text = t(
        "ui.judge.extended_post",
        telling.lang,
        players=_mentions(telling.tournament, found[1], telling.lang),
        table=data.table,
        added=data.added,
        end=data.ends,
    )
    text += telling.room_line(found[1].table)
    return _said(Message(text, pings=found[1].players))


def round_extended(telling: Telling) -> Said:
    """「⏱ 第 2 回戦の対戦時間を 5 分延長しました（対戦中の 12 テーブルすべて）」, where the
    round is read; each table hears its own new end besides (`table_extended`)."""
    data = telling.data.as_(RoundExtension)
    if telling.tournament.round(data.round) is None:  # taken back since
        return _said()
    text = t(
        "ui.rounds.round_extended",
        telling.lang,
        round_name=round_name_at(telling.tournament, data.round, telling.lang),
        minutes=data.minutes,
        tables=data.tables,
        end=data.ends,
    )
    return _said(Message(text))


def _mentions(tournament: Tournament, match: Match, lang: Lang) -> str:
    return " ".join(mention(tournament, player, lang) for player in match.players)


def result_decided(telling: Telling) -> Said:
    """A table's players hear that a judge decided their match, and who: a ruling or a
    no-show, a penalty (R-PEN-3) or its revocation."""
    tournament, data, lang = telling.tournament, telling.data.as_(Decision), telling.lang
    found = _round_match(tournament, data)
    if found is None or data.new is None:
        return _said()
    played, match = found
    result = describe_result(tournament, match, data.new, lang)
    shared = {
        "players": _mentions(tournament, match, lang),
        "round_name": round_name(played, lang),
        "table": match.table,
        "result": result,
        "judge": safe(data.judge),
    }
    penalty_id = data.penalty or data.revoked
    penalty = _penalty(tournament, penalty_id) if penalty_id else None
    if penalty is not None:
        given = data.penalty is not None
        key = "ui.result.decided_by_penalty" if given else "ui.result.penalty_lifted"
        text = t(
            key,
            lang,
            player=name_of(tournament, penalty.player_id),
            type=penalty_type(penalty.type, lang),
            **shared,
        )
    else:
        text = t("ui.result.decided", lang, **shared)
    return _said(Message(text + telling.room_line(match.table), pings=match.players))


def final(telling: Telling) -> Said:
    post = final_standings_post(telling.views, telling.lang)
    with_link(post.messages[0][0], telling.page_url, telling.lang)
    first, *rest = post.messages
    return _said(
        Message(post.note, embeds=first, files=post.files),
        *(Message(embeds=embeds) for embeds in rest),
    )


# -- judges -------------------------------------------------------------------------------


def penalty_to_player(telling: Telling) -> Said:
    penalty = _penalty(telling.tournament, telling.data.as_(OfPenalty).penalty)
    if penalty is None:
        return _said()
    return _said(Message(penalty_notice(telling.tournament, penalty, telling.lang)))


def penalty_given(telling: Telling) -> Said:
    data = telling.data.as_(PenaltyGiven)
    penalty = _penalty(telling.tournament, data.penalty)
    if penalty is None:
        return _said()
    judge = data.judge
    return _said(Message(penalty_log(telling.tournament, penalty, judge, telling.lang)))


def penalty_revoked(telling: Telling) -> Said:
    tournament, lang, data = telling.tournament, telling.lang, telling.data.as_(PenaltyRevoked)
    penalty = _penalty(tournament, data.penalty)
    if penalty is None:
        return _said()
    text = t(
        "ui.penalty.revoked_log",
        lang,
        organizer=safe(data.organizer),
        id=penalty.id,
        player=name_of(tournament, penalty.player_id),
        type=penalty_type(penalty.type, lang),
    )
    return _said(Message(text))


def judge_call(telling: Telling) -> Said:
    tournament = telling.tournament
    found = [c for c in tournament.calls if c.id == telling.data.as_(OfCall).call]
    if not found:
        return _said()
    call = found[0]
    text = call_text(tournament, call, telling.lang) + telling.room_line(call.table)
    return _said(Message(text, view=claim_call_view(tournament.id, call.id, telling.labels)))


def undone(telling: Telling) -> Said:
    data = telling.data.as_(Undo)
    action = Action(
        id=data.action,
        guild_id=telling.tournament.guild_id,
        tournament_id=telling.tournament.id,
        actor_id=data.actor,
        actor_role=None,
        kind=data.kind,
        payload=dict(data.payload),
        created_at="",
    )
    text = t(
        "ui.undo.log",
        telling.lang,
        organizer=safe(data.organizer),
        id=action.id,
        what=action_what(telling.tournament, action, telling.lang),
    )
    return _said(Message(text))


# -- the round clock ----------------------------------------------------------------------


def reminder(telling: Telling) -> Said:
    """N minutes left: for the round, or for tables given extra time, with their own end."""
    data = telling.data.as_(ClockReminder)
    played = telling.tournament.round(data.round)
    if played is None or played.ends_at is None:
        return _said()
    tables = list(data.tables)
    first = played.match_at(tables[0]) if tables else None
    ends = played.table_ends_at(first) if first else played.ends_at
    assert ends is not None
    shared = {
        "round_name": round_name(played, telling.lang),
        "minutes": data.minutes,
        "end": int(ends.timestamp()),
    }
    room = telling.room_line(data.about_table)
    if ends == played.ends_at:
        return _said(Message(t("ui.rounds.reminder", telling.lang, **shared) + room))
    text = t(
        "ui.rounds.reminder_tables", telling.lang, tables=", ".join(map(str, tables)), **shared
    )
    return _said(Message(text + room))


def time_up(telling: Telling) -> Said:
    data = telling.data.as_(OfTables)
    tables = [str(table) for table in data.tables]
    number = round_name_at(telling.tournament, data.round, telling.lang)
    text = t("ui.rounds.time_up", telling.lang, round_name=number, tables=tables)
    return _said(Message(text + telling.room_line(data.about_table)))


def unconfirmed(telling: Telling) -> Said:
    data = telling.data.as_(Unconfirmed)
    played = telling.tournament.round(data.round)
    (table,) = data.tables
    match = played.match_at(table) if played else None
    if played is None or match is None or len(match.players) != 2 or played.finished(match):
        return _said()
    key = "ui.report.judge_unconfirmed"
    text = _table_for_judges(key, telling, data, played, match, minutes=data.minutes)
    return _said(Message(text))


def reping(telling: Telling) -> Said:
    """A call nobody claimed in three minutes: the judges are pinged once more."""
    tournament = telling.tournament
    found = [c for c in tournament.calls if c.id == telling.data.as_(CallReping).call]
    if not found or not found[0].open or found[0].claimed_by is not None:
        return _said()
    text = call_reping(found[0], telling.now, telling.lang) + telling.room_line(found[0].table)
    return _said(Message(text))


# -- before the event: cancelling, reminders, the calendar -----------------------------------


def cancelled(telling: Telling) -> Said:
    tournament = telling.tournament
    if tournament.phase is not Phase.CANCELLED:
        return _said()
    return _said(Message(t("ui.cancel.announce", telling.lang, name=safe(tournament.name))))


def cancelled_to_player(telling: Telling) -> Said:
    tournament = telling.tournament
    if tournament.phase is not Phase.CANCELLED:
        return _said()
    return _said(Message(t("ui.cancel.to_player", telling.lang, name=safe(tournament.name))))


def entry_reminder(telling: Telling) -> Said:
    """A registered player's reminder (by DM): when check-in closes, which is the start.
    Nothing when that time has moved since it was planned (the new time brings its own), the
    event started or was called off, or the player is no longer in it."""
    tournament, lang, data = telling.tournament, telling.lang, telling.data.as_(EntryReminder)
    deadline = reminder_deadline(tournament)
    entry = tournament.players.get(telling.user or 0)
    if (
        deadline is None
        or int(deadline.timestamp()) != data.deadline
        or entry is None
        or entry.status is not PlayerStatus.REGISTERED
    ):
        return _said()
    opens = tournament.settings.checkin_opens
    key = "ui.reminder.checkin" if opens is not None else "ui.reminder.start"
    text = t(
        key,
        lang,
        name=safe(tournament.name),
        hours=data.hours,
        deadline=int(deadline.timestamp()),
        opens=int(opens.timestamp()) if opens is not None else 0,
    )
    if tournament.decklist_required and entry.user_id not in tournament.decks:
        text += "\n" + t("ui.register.deck_reminder", lang)
    return _said(Message(text))


def calendar(telling: Telling) -> Said:
    """The tournament's entry on the server's calendar (a Discord scheduled event), as it
    should be now; the delivery changes only what differs."""
    tournament, lang = telling.tournament, telling.lang
    footers = tuple(t("ui.entry.footer", other, id=tournament.id) for other in ("ja", "en"))
    description = t(
        "ui.calendar.description",
        lang,
        format=format_name(tournament.format.value, lang),
        regulation=regulation_name(tournament.regulation, lang),
        time_limit=tournament.time_limit_minutes,
        footer=t("ui.entry.footer", lang, id=tournament.id),
    )
    text = CalendarText(
        entry=calendar_entry(tournament),
        name=tournament.name,
        description=description,
        marker=footers,
        location=telling.page_url,
        fallback_location=t("ui.calendar.location", lang),
    )
    return Said(calendar=text)


def rooms(telling: Telling) -> Said:
    """The tournament's match rooms, as they should be now; the delivery changes only what
    differs (names in the server's language)."""
    return Said(rooms=RoomsText(telling.tournament.name, telling.lang))


# -- the staff -----------------------------------------------------------------------------


def organizer_panel(telling: Telling) -> Said:
    embed, view = panel(telling.tournament, telling.now, telling.lang, telling.backlog)
    with_link(embed, telling.page_url, telling.lang)
    return _said(Message(embeds=[embed], view=view))


def round_completed(telling: Telling) -> Said:
    text, view = round_complete(telling.tournament, telling.data.as_(OfRound).round, telling.lang)
    return _said(Message(text, view=view))


# -- Discord itself -------------------------------------------------------------------------


def place_refused(telling: Telling) -> Said:
    """A channel refuses the bot: which, what it lacks (by the names Discord shows), the fix,
    and where players' notices go meanwhile."""
    data, lang = telling.data.as_(PlaceRefused), telling.lang
    place = t(f"ui.delivery.place.{data.place}", lang)
    if data.reason == "unknown_channel":
        # A round's thread is not chosen in /setup: it goes with its round.
        key = "refused_thread" if data.place == "round_thread" else "refused_unknown"
        text = t(f"ui.delivery.{key}", lang, place=place, channel_id=data.channel)
    else:
        names = [t(f"ui.delivery.permission.{name}", lang) for name in data.missing]
        permissions = (
            t("ui.delivery.permission_separator", lang).join(names)
            if names
            else t("ui.delivery.permissions_unknown", lang)
        )
        text = t(
            "ui.delivery.refused_permissions",
            lang,
            channel=f"<#{data.channel}>",
            place=place,
            permissions=permissions,
        )
    return _said(Message(text))


def rooms_refused(telling: Telling) -> Said:
    """Discord refused the match rooms: why, the tables left without one, the fix."""
    data, lang = telling.data.as_(RoomsRefused), telling.lang
    names = [t(f"rooms.permission.{name}", lang) for name in data.missing]
    permissions = (
        t("ui.delivery.permission_separator", lang).join(names)
        if names
        else t("rooms.permissions_unknown", lang)
    )
    waiting = data.waiting
    left = t("rooms.refused_waiting", lang, waiting=waiting) if waiting else ""
    text = t(f"rooms.refused_{data.reason}", lang, permissions=permissions, waiting=left)
    return _said(Message(text))


def notice_dropped(telling: Telling) -> Said:
    """A notice given up (Discord failed it too long), or one with no place that works."""
    data = telling.data.as_(NoticeDropped)
    kind = data.kind
    known = {"pairings", "standings", "final_standings"}
    label = t(f"ui.delivery.kind.{kind if kind in known else 'other'}", telling.lang)
    nowhere = data.nowhere
    if nowhere:
        place = t(f"ui.delivery.place.{nowhere}", telling.lang)
        return _said(Message(t("ui.delivery.nowhere", telling.lang, kind=label, place=place)))
    text = t("ui.delivery.dropped", telling.lang, kind=label, error=safe(data.error))
    return _said(Message(text))


def refusals_warning(telling: Telling) -> Said:
    count = telling.data.as_(Count).count
    return _said(Message(t("ui.delivery.refusals", telling.lang, count=count)))


def table_by_dm(telling: Telling) -> Said:
    """A player's table by DM: the round's pairings post could go nowhere players read."""
    tournament, lang = telling.tournament, telling.lang
    played = tournament.round(telling.data.as_(TableInRound).of_round)
    match = played.match_of(telling.user) if played and telling.user is not None else None
    if played is None or match is None or played.finished(match):
        return _said()
    opponent = match.opponent_of(telling.user) if telling.user is not None else None
    table = (
        t("ui.delivery.table_line", lang, table=match.table, opponent=name_of(tournament, opponent))
        if opponent is not None
        else t("ui.delivery.bye_line", lang)
    )
    text = t(
        "ui.delivery.table_by_dm",
        lang,
        tournament=safe(tournament.name),
        round_name=round_name(played, lang),
        table=table,
    )
    return _said(Message(text + telling.room_line(match.table)))


RENDERERS: Mapping[Say, Renderer] = {
    Say.REGISTRATION_POST: registration_post,
    Say.REGISTRATION_REFRESH: registration_refresh,
    Say.PANEL: organizer_panel,
    Say.PANEL_REFRESH: organizer_panel,
    Say.ROUND_COMPLETE: round_completed,
    Say.PROMOTED: promoted,
    Say.STARTED: started,
    Say.DECKS_PUBLISHED: decks_published,
    Say.PAIRINGS: pairings,
    Say.PAIRINGS_REFRESH: pairings_refresh,
    Say.DROPPED_AT_START: dropped_at_start,
    Say.CLOCK_STARTED: clock_started,
    Say.ASK_OPPONENT: ask_opponent,
    Say.RESULT_CONFIRMED: result_confirmed,
    Say.DISPUTE: dispute,
    Say.RESULT_SET: result_set,
    Say.RESULT_DECIDED: result_decided,
    Say.STANDINGS: standings,
    Say.DROPPED: dropped,
    Say.TABLE_EXTENDED: table_extended,
    Say.ROUND_EXTENDED: round_extended,
    Say.FINAL_STANDINGS: final,
    Say.PENALTY_TO_PLAYER: penalty_to_player,
    Say.PENALTY_GIVEN: penalty_given,
    Say.PENALTY_REVOKED: penalty_revoked,
    Say.JUDGE_CALL: judge_call,
    Say.UNDONE: undone,
    Say.REMINDER: reminder,
    Say.TIME_UP: time_up,
    Say.UNCONFIRMED: unconfirmed,
    Say.CALL_REPING: reping,
    Say.CALENDAR: calendar,
    Say.ROOMS: rooms,
    Say.ROOMS_REFUSED: rooms_refused,
    Say.CANCELLED: cancelled,
    Say.CANCELLED_TO_PLAYER: cancelled_to_player,
    Say.ENTRY_REMINDER: entry_reminder,
    Say.PLACE_REFUSED: place_refused,
    Say.NOTICE_DROPPED: notice_dropped,
    Say.REFUSALS_WARNING: refusals_warning,
    Say.TABLE_BY_DM: table_by_dm,
}
