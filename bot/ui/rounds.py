"""Pairings posts, results in words, the round status, standings rows and the bracket
picture: presentation of a running event. No writes."""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.i18n import Lang, t
from bot.services.rounds import PostState, RoundExtended
from bot.ui.bracket import BracketPicture, BracketSlot, SlotPlayer
from bot.ui.messages import fit_message
from bot.ui.pagination import EMBED_DESCRIPTION_LIMIT, Page
from bot.ui.render import safe
from bot.ui.standings import (
    StandingRow,
    Status,
    entrants_layout,
    layout_page,
    standings_csv,
    standings_layout,
)
from domain.engine.explanation import Explanation
from domain.engine.placings import stage
from domain.engine.players import PlayerStatus
from domain.engine.results import MatchResult, ResultKind
from domain.engine.state import Phase
from domain.tournament.events import Dropped
from domain.tournament.model import Tournament
from domain.tournament.names import display_name, display_names
from domain.tournament.rooms import tables_without_room
from domain.tournament.rounds import Match, Round, RoundKind
from domain.tournament.views import StandingLine, Views, bracket_seeds, knockout_rounds

if TYPE_CHECKING:
    from bot.services.rounds import Paired, ReportOutcome

MESSAGE_LIMIT = 2000
# Discord pings at most 100 users named in allowed_mentions per message.
MENTIONS_PER_MESSAGE = 100


# Up to this many tables (1,024 players), the pairings post pings every player of the
# round, in messages of text (2,000 characters, 100 pings each). Beyond, the tables are
# packed into embeds (6,000 characters a message: far fewer messages, docs/BENCHMARKS.md,
# "Fewer messages") and nobody is pinged: thousands of pings are noise, and each player
# finds their table with /pairing, and hears their opponent's report.
PINGED_TABLES = 512
# What one channel takes at once (Discord: about 5 posts in 5 s): a round's post never needs
# more messages, so it is complete within seconds at any size.
POST_MESSAGES = 5
# Discord: at most 10 embeds in a message, 6,000 characters across them; some room is kept.
EMBEDS_PER_MESSAGE = 10
EMBED_CHARACTERS_PER_MESSAGE = 5900


@dataclass(frozen=True)
class Post:
    """One message of a long post: its text, the users it may ping, the tables it carries
    in embeds (the descriptions; a large round's post), and a file of every table (a round
    too large for the messages a channel takes at once)."""

    content: str
    pinged: tuple[int, ...]
    tables: tuple[str, ...] = ()
    listing: tuple[str, str] | None = None  # (file name, text)

    @property
    def allowed_mentions(self) -> discord.AllowedMentions:
        return discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(id=u) for u in self.pinged]
        )


def name_of(
    tournament: Tournament, user_id: int | str | None, names: Mapping[int, str] | None = None
) -> str:
    """A player's name as the bot shows it (`names`: every player's, `display_names`, when
    many are named: one name alone looks at every entry)."""
    if user_id is None:
        return "—"
    name = display_name(tournament, int(user_id)) if names is None else names.get(int(user_id))
    return safe(str(user_id) if name is None else name)


def mention(
    tournament: Tournament, user_id: int, lang: Lang, names: Mapping[int, str] | None = None
) -> str:
    """A player pinged, and named by their handle beside the mention when they chose one
    (every client shows a mention as the Discord name): 「<@1>（あずにゃん）」."""
    entry = tournament.players.get(user_id)
    if entry is None or not entry.by_handle:
        return f"<@{user_id}>"
    handle = name_of(tournament, user_id, names)
    return t("ui.rounds.with_handle", lang, mention=f"<@{user_id}>", handle=handle)


def plain_name(tournament: Tournament, user_id: int) -> str:
    """A player's name in a button's label or a form, where Discord shows text as it is
    (no markdown to escape)."""
    return display_name(tournament, user_id) or str(user_id)


def describe_result(
    tournament: Tournament,
    match: Match,
    result: MatchResult | None,
    lang: Lang,
    names: Mapping[int, str] | None = None,
) -> str:
    """A result in the regulation's words: 勝ち, 判定勝ち, 引き分け, 投了, 両者敗北, 遅刻…
    (`names`: see `name_of`)."""
    if result is None:
        return t("ui.result.none", lang)
    kind = result.kind
    if kind is ResultKind.BYE:
        return t("ui.result.bye", lang)
    if kind is ResultKind.DOUBLE_LOSS:
        return t("ui.result.double_loss", lang)
    counts = result.point_zone
    if kind is ResultKind.TIME_DRAW:
        text = (
            t("ui.result.time_draw", lang, first=counts[0], second=counts[1])
            if counts
            else t("ui.result.time_draw_unknown", lang)
        )
    else:
        winner = result.winner(match.ids)
        loser = next((p for p in match.ids if p != winner), None)
        who = {
            "winner": name_of(tournament, winner, names),
            "loser": name_of(tournament, loser, names),
        }
        if kind is ResultKind.JUDGEMENT:
            text = (
                t("ui.result.judgement", lang, first=counts[0], second=counts[1], **who)
                if counts
                else t("ui.result.judgement_unknown", lang, **who)
            )
        else:
            text = t(f"ui.result.{kind.value}", lang, **who)
    if match.advancing is not None and kind is ResultKind.TIME_DRAW:
        advancing = name_of(tournament, match.advancing, names)
        text += t("ui.result.advancing", lang, player=advancing)
    return text


def round_name(played: Round, lang: Lang) -> str:
    """「第 3 回戦」, or the top cut's stage as people name it: 準々決勝, 準決勝, 決勝."""
    if played.kind is RoundKind.SWISS:
        return t("ui.rounds.swiss_round", lang, round=played.number)
    seats = stage(max(len(played.matches) * 2, 2))
    return t(f"ui.stage.{seats.kind.value}", lang, players=seats.players)


def round_name_at(tournament: Tournament, number: int, lang: Lang) -> str:
    """`round_name` of the tournament's round `number` (「第 n 回戦」 if it is gone)."""
    played = tournament.round(number)
    if played is None:
        return t("ui.rounds.swiss_round", lang, round=number)
    return round_name(played, lang)


# A finished table's line (「✅ テーブル 3: まっちゃの勝ち」) is at most this long; each line
# is given the room of the longer of its two forms from the start, so that marking tables
# later never moves a table to another message of the post.
MARKED_LINE_LIMIT = 64
LONGEST_ID = 2**64 - 1  # a snowflake, as long as one can be: a room's mention keeps its space


def pairings_posts(
    tournament: Tournament,
    paired: Round,
    points: Mapping[int, int],
    lang: Lang,
    *,
    page_url: str | None = None,
    marked: bool = False,
    rooms: Mapping[int, int] | None = None,
) -> list[Post]:
    """The pairings as messages within Discord's limits (2000 characters, 100 pings each),
    every table in them: split, never cut. In the top cut, no Swiss points. `marked`: each
    finished table carries its result (the post brought up to date as results come in);
    the split is the same either way, so an edit never moves a table."""
    top_cut = paired.kind is RoundKind.ELIMINATION
    everyone = display_names(tournament)
    pinged = _pairing_lines(
        tournament,
        paired,
        points,
        lang,
        marked,
        lambda user: mention(tournament, user, lang, everyone),
        rooms or {},
    )
    if top_cut:
        title = t(
            "ui.rounds.top_cut_title",
            lang,
            tournament=safe(tournament.name),
            stage=round_name(paired, lang),
        )
    else:
        title = t(
            "ui.rounds.pairings_title", lang, tournament=safe(tournament.name), round=paired.number
        )
    footer = t("ui.rounds.how_to_report", lang)
    without = tables_without_room(tournament) if paired.number == tournament.current_round else ()
    if without:  # the organizer chose fewer rooms than tables: those beyond are told so
        beyond = t("rooms.beyond", lang, first=min(without), last=tournament.settings.room_limit)
        footer = beyond + "\n" + footer
    if page_url is not None:
        footer += "\n" + t("ui.rounds.live_page", lang, url=page_url)
    if len(paired.matches) <= PINGED_TABLES:
        posts = _pinged_posts(title, footer, pinged, lang)
        if len(posts) <= POST_MESSAGES:
            return posts
    texts = [(text, size) for text, _, size in pinged]
    packed = _packed_posts(title, footer, texts, lang)
    if len(packed) <= POST_MESSAGES:
        return packed
    named = _pairing_lines(
        tournament, paired, points, lang, marked, lambda user: everyone.get(user, str(user)), {}
    )
    return [_listed_post(paired, title, footer, [text for text, _, _ in named], lang)]


def _pairing_lines(
    tournament: Tournament,
    paired: Round,
    points: Mapping[int, int],
    lang: Lang,
    marked: bool,
    who: Callable[[int], str],
    rooms: Mapping[int, int],
) -> list[tuple[str, tuple[int, ...], int]]:
    """Each table's line, the players it may ping, and the room it takes in a message: the
    longest of its forms (unmarked, marked, with its match room once the room is made),
    so that marking a table or naming its room never moves a table to another message;
    `who` names a player (a mention in a post, a name in a file); `rooms`: each table's
    match room, named on its line."""
    top_cut = paired.kind is RoundKind.ELIMINATION
    everyone = display_names(tournament) if marked else None
    # A table that will have a room keeps space for its name from the start.
    with_rooms = tournament.settings.rooms and paired.number == tournament.current_round
    roomless = set(tables_without_room(tournament)) if with_rooms else set()
    room_space = len(" " + t("rooms.in_post", lang, room=f"<#{LONGEST_ID}>"))
    lines: list[tuple[str, tuple[int, ...], int]] = []
    for match in paired.matches:
        space = MARKED_LINE_LIMIT
        if len(match.players) == 2:
            first, second = match.players
            names = {"table": match.table, "first": who(first), "second": who(second)}
            if top_cut:
                text = t("ui.rounds.top_cut_line", lang, **names)
            else:
                text = t(
                    "ui.rounds.table_line",
                    lang,
                    first_points=points.get(first, 0),
                    second_points=points.get(second, 0),
                    **names,
                )
            space = max(len(text), MARKED_LINE_LIMIT)
            if with_rooms and match.table not in roomless:
                space += room_space
            if marked and paired.finished(match):
                text = marked_line(tournament, match, lang, everyone)
            if match.table in rooms:
                text += " " + t("rooms.in_post", lang, room=f"<#{rooms[match.table]}>")
        elif len(match.players) == 1:
            (player,) = match.players
            if top_cut:
                text = t("ui.rounds.top_cut_bye_line", lang, player=who(player))
            else:
                text = t(
                    "ui.rounds.bye_line", lang, player=who(player), points=points.get(player, 0)
                )
        else:
            text = t("ui.rounds.empty_line", lang, table=match.table)
        lines.append((text, match.players, max(len(text), space) + 1))
    return lines


def _pinged_posts(
    title: str, footer: str, lines: list[tuple[str, tuple[int, ...], int]], lang: Lang
) -> list[Post]:
    """The tables in messages of text, each player pinged (2,000 characters, 100 pings a
    message)."""
    # Room for the title with its "(part/parts)" and the footer on every message.
    budget = MESSAGE_LIMIT - len(title) - len(footer) - 40
    chunks: list[list[tuple[str, tuple[int, ...]]]] = [[]]
    size = pings = 0
    for text, players, room in lines:
        if chunks[-1] and (size + room > budget or pings + len(players) > MENTIONS_PER_MESSAGE):
            chunks.append([])
            size = pings = 0
        chunks[-1].append((text, players))
        size += room
        pings += len(players)
    posts = []
    for index, chunk in enumerate(chunks, start=1):
        part = _part(index, len(chunks), lang)
        body = "\n".join(text for text, _ in chunk)
        content = f"**{title}{part}**\n{body}\n{footer}"
        posts.append(Post(content, tuple(p for _, players in chunk for p in players)))
    return posts


def _listed_post(paired: Round, title: str, footer: str, lines: list[str], lang: Lang) -> Post:
    """A round too large for the messages a channel takes at once: one message, every
    table in an attached file (and on the live page); each player sees their own table at
    once with 結果報告 or /pairing, answers Discord does not rate-limit."""
    tables = sum(1 for match in paired.matches if len(match.players) == 2)
    content = f"**{title}**\n{t('ui.rounds.listed', lang, tables=tables)}\n{footer}"
    text = "\n".join(lines)
    return Post(
        content, (), listing=(f"pairings-round-{paired.number}.txt", f"{title}\n\n{text}\n")
    )


def _part(index: int, parts: int, lang: Lang) -> str:
    return t("ui.rounds.pairings_part", lang, part=index, parts=parts) if parts > 1 else ""


def _packed_posts(title: str, footer: str, lines: list[tuple[str, int]], lang: Lang) -> list[Post]:
    """A large round's pairings: the tables in embeds packed to Discord's limits (10 a
    message, 6,000 characters across them, 4,096 each), the title and how to report above
    them, no pings."""
    messages: list[list[list[str]]] = [[[]]]
    in_message = in_embed = 0
    for line, room in lines:
        embeds = messages[-1]
        if in_message + room > EMBED_CHARACTERS_PER_MESSAGE:
            messages.append([[]])
            embeds, in_message, in_embed = messages[-1], 0, 0
        elif in_embed + room > EMBED_DESCRIPTION_LIMIT:
            if len(embeds) == EMBEDS_PER_MESSAGE:
                messages.append([[]])
                in_message = 0
            else:
                embeds.append([])
            embeds, in_embed = messages[-1], 0
        embeds[-1].append(line)
        in_message += room
        in_embed += room
    return [
        Post(
            f"**{title}{_part(index, len(messages), lang)}**\n{footer}",
            (),
            tuple("\n".join(embed) for embed in embeds),
        )
        for index, embeds in enumerate(messages, start=1)
    ]


def marked_line(
    tournament: Tournament, match: Match, lang: Lang, names: Mapping[int, str] | None = None
) -> str:
    """A finished table on the pairings post: 「✅ テーブル 3: まっちゃの勝ち」, within
    `MARKED_LINE_LIMIT` (long names are shortened with 「…」; `names`: see `name_of`)."""
    text = t(
        "ui.rounds.status_done_line",
        lang,
        table=match.table,
        result=describe_result(tournament, match, match.result, lang, names),
    )
    return text if len(text) <= MARKED_LINE_LIMIT else text[: MARKED_LINE_LIMIT - 1] + "…"


def explanation_lines(
    tournament: Tournament, notes: Sequence[Explanation], lang: Lang
) -> list[str]:
    """The engine's explanation, players by name (for organizers)."""
    lines = []
    for note in notes:
        params = dict(note.params)
        for field in ("player", "opponent"):
            if field in params:
                params[field] = name_of(tournament, str(params[field]))
        lines.append(
            "・" + t(note.key, lang, **params)
            if lang == "ja"
            else "- " + t(note.key, lang, **params)
        )
    return lines


def status_embed(
    tournament: Tournament, current: Round, lang: Lang
) -> tuple[discord.Embed, discord.File | None]:
    """The round's time, how many tables still play, each of them, then the finished ones
    with their results; a list too long for an embed is shown in part, and attached whole."""
    lines = []
    if current.ends_at is None:
        lines.append(t("ui.rounds.status_not_started", lang))
    else:
        lines.append(t("ui.rounds.status_time_left", lang, end=int(current.ends_at.timestamp())))
    tables = [m for m in current.matches if len(m.players) == 2]
    playing = [m for m in tables if not current.finished(m)]
    lines.append(
        t("ui.rounds.status_count", lang, playing=len(playing), done=len(tables) - len(playing))
    )
    names = display_names(tournament) if tables else {}
    for match in playing:
        if match.disputed:
            state = t("ui.rounds.state_disputed", lang)
        elif match.reports:
            state = t("ui.rounds.state_waiting", lang)
        else:
            state = t("ui.rounds.state_playing", lang)
        ends = current.table_ends_at(match)
        if match.extension_minutes and ends is not None:
            state += "・" if lang == "ja" else ", "
            state += t(
                "ui.rounds.state_extended",
                lang,
                minutes=match.extension_minutes,
                end=int(ends.timestamp()),
            )
        first, second = match.players
        lines.append(
            t(
                "ui.rounds.status_line",
                lang,
                table=match.table,
                first=name_of(tournament, first, names),
                second=name_of(tournament, second, names),
                state=state,
            )
        )
    if not playing:
        lines.append(t("ui.rounds.status_all_done", lang))
    lines += [marked_line(tournament, m, lang, names) for m in tables if current.finished(m)]
    description = "\n".join(lines)
    file = None
    if len(description) > EMBED_DESCRIPTION_LIMIT:
        note = "\n" + t("ui.full_text_attached", lang)
        name = f"round-{current.number}-status.txt"
        file = discord.File(io.BytesIO(description.encode("utf-8")), filename=name)
        description = fit_message(description, EMBED_DESCRIPTION_LIMIT - len(note)) + note
    title = t(
        "ui.rounds.status_title",
        lang,
        tournament=safe(tournament.name),
        round_name=round_name(current, lang),
    )
    return discord.Embed(title=title, description=description), file


_STATUS: dict[PlayerStatus, Status] = {
    PlayerStatus.DROPPED: "dropped",
    PlayerStatus.DISQUALIFIED: "disqualified",
}


def standing_rows(lines: Sequence[StandingLine]) -> list[StandingRow]:
    return [
        StandingRow(
            rank=line.rank,
            name=line.name,
            points=line.points,
            opponents_points=line.opponents_points,
            status=line.status.value
            if line.status.value in ("dropped", "disqualified")
            else "active",  # type: ignore[arg-type]
            record=line.record,
            top_cut=line.top_cut.best if line.top_cut else None,
            explanation=line.explanation.value if line.explanation else None,
            seed=line.seed,
        )
        for line in lines
    ]


def bracket_picture(tournament: Tournament, lang: Lang) -> BracketPicture | None:
    """The top cut (or the whole elimination event) as a picture's input."""
    bracket = [r for r in tournament.rounds if r.kind is RoundKind.ELIMINATION]
    if not bracket:
        return None
    names = display_names(tournament)
    seeds = bracket_seeds(knockout_rounds(tournament)[0].matches)

    def slot_player(user_id: int | None) -> SlotPlayer | None:
        if user_id is None:
            return None
        return SlotPlayer(names.get(user_id, str(user_id)), seeds.get(user_id))

    rounds = []
    for played in bracket:
        slots = []
        for match, advancing in zip(played.matches, played.advancing(), strict=True):
            players = (*match.players, None, None)[:2]
            decided = played.finished(match) and len(match.players) == 2
            winner = players.index(advancing) if decided and advancing in players else None
            double = decided and match.result is not None and advancing is None
            score = None
            if decided and match.result is not None and match.result.kind is not ResultKind.WIN:
                score = describe_result(tournament, match, match.result, lang)
            slots.append(
                BracketSlot(
                    (slot_player(players[0]), slot_player(players[1])), winner, score, double
                )
            )
        rounds.append(slots)
    return BracketPicture(
        t(
            "ui.rounds.top_cut_title",
            lang,
            tournament=tournament.name,
            stage=round_name(bracket[-1], lang),
        ),
        rounds,
        lang,
    )


# The final standings post shows both lists whole while they fit in this many messages.
# Beyond (a large event: 4,096 players are 410 pages), it shows the top of the placings and
# of the order for prizes, and attaches both lists whole as CSV, as Melee and EventLink do:
# each player finds their own place with /standings.
FINAL_MESSAGES_IN_FULL = 3
FINAL_PAGES_SHOWN = 3  # of the placings, at least: the top 60, and the whole top cut


@dataclass(frozen=True)
class FinalPost:
    """The final standings post: its messages' embeds, and, when the lists are shown in
    part, the line that says so and the files that hold them whole."""

    messages: list[list[discord.Embed]]
    note: str | None = None
    files: tuple[tuple[str, bytes], ...] = ()


def final_standings_post(views: Views, lang: Lang) -> FinalPost:
    """The final standings (shared ranks) and the strict order for prizes (R-FMT-5), as
    pages of embeds packed into as few messages as Discord allows, so that nothing is cut;
    a large event's, in part with both lists attached."""
    tournament = views.tournament
    shared, strict = views.final
    listings = []
    for lines, title in (
        (shared, t("ui.finish.title", lang, tournament=safe(tournament.name))),
        (strict, t("ui.finish.strict_title", lang, seed=tournament.seed)),
    ):
        rows = standing_rows(lines)
        listings.append((rows, standings_layout(rows, lang), title))
    whole = [
        layout_page(layout, title, lang, page)[0]
        for _, layout, title in listings
        for page in range(max(len(layout.pages), 1))
    ]
    packed = pack_embeds(whole)
    if len(packed) <= FINAL_MESSAGES_IN_FULL:
        return FinalPost(packed)
    (placings, placings_layout, title), (prizes, prizes_layout, strict_title) = listings
    shown, covered = 0, 0
    while shown < len(placings_layout.pages) and (
        shown < FINAL_PAGES_SHOWN or covered < (tournament.top_cut or 0)
    ):
        covered += len(placings_layout.pages[shown])
        shown += 1
    top = [layout_page(placings_layout, title, lang, page)[0] for page in range(shown)]
    top.append(layout_page(prizes_layout, strict_title, lang, 0)[0])
    note = t("ui.finish.in_part", lang, players=len(placings))
    files = (
        (f"final-standings-{tournament.id}.csv", standings_csv(placings, lang)),
        (f"prize-order-{tournament.id}.csv", standings_csv(prizes, lang)),
    )
    return FinalPost(pack_embeds(top), note, files)


def pack_embeds(embeds: Sequence[discord.Embed]) -> list[list[discord.Embed]]:
    """Embeds in order, as few to a message as Discord allows: at most 10, and 6,000
    characters across them (titles, descriptions, footers)."""
    messages: list[list[discord.Embed]] = []
    size = 0
    for embed in embeds:
        if (
            not messages
            or len(messages[-1]) == EMBEDS_PER_MESSAGE
            or size + len(embed) > EMBED_CHARACTERS_PER_MESSAGE
        ):
            messages.append([])
            size = 0
        messages[-1].append(embed)
        size += len(embed)
    return messages


STANDINGS_PER_PAGE = 20


def _standings_key(lang: Lang) -> tuple[str, Lang]:
    return ("standings layout", lang)


def standings_page_ready(views: Views, lang: Lang) -> bool:
    """Whether this version's standings are laid out in `lang` already (a page is then a
    slice of them)."""
    return views.has(_standings_key(lang))


def standings_page_of(views: Views, lang: Lang, page: int) -> Page:
    """One page of the tournament's standings, as /standings and the posts show them: after
    the finish, the final placings (the top cut first). The table is laid out once per
    tournament version and language."""
    tournament = views.tournament
    name = safe(tournament.name)
    finished = tournament.phase is Phase.FINISHED
    no_round_yet = not finished and views.after_round == 0  # "after round 0" means nothing
    if finished:
        title = t("ui.finish.title", lang, tournament=name)
    elif no_round_yet:
        title = t("ui.standings.no_round_title", lang, tournament=name)
    else:
        title = t("ui.standings.title", lang, tournament=name, round=views.after_round)
    lay_out = entrants_layout if no_round_yet else standings_layout
    layout = views.memo(
        _standings_key(lang),
        lambda: lay_out(standing_rows(views.placings), lang, STANDINGS_PER_PAGE),
    )
    embed, count = layout_page(layout, title, lang, page)
    return Page(embed, min(max(page, 0), count - 1), count)


def my_match_text(
    tournament: Tournament,
    current: Round,
    match: Match,
    user_id: int,
    lang: Lang,
    points: Mapping[int, int],
    room: int | None = None,
) -> str:
    """/pairing: the player's table, opponent and the opponent's points (`points`: every
    player's, from the tournament's views), and the table's match room if it has one."""
    opponent = match.opponent_of(user_id)
    if opponent is None:
        return t("ui.rounds.mine_bye", lang, round_name=round_name(current, lang))
    shared = {
        "round_name": round_name(current, lang),
        "table": match.table,
        "opponent": mention(tournament, opponent, lang),
    }
    if current.finished(match):  # decided (a report confirmed, a judge, a penalty)
        result = describe_result(tournament, match, match.result, lang)
        return t("ui.rounds.mine_decided", lang, result=result, **shared)
    text = t("ui.rounds.mine", lang, points=points.get(opponent, 0), **shared)
    if room is not None:
        text += "\n" + t("rooms.in_call", lang, room=f"<#{room}>")
    elif current.number == tournament.current_round and match.table in tables_without_room(
        tournament
    ):
        text += "\n" + t("rooms.not_for_table", lang, tables=tournament.settings.room_limit)
    return text


def result_change_text(
    tournament: Tournament,
    number: int,
    match: Match,
    old: MatchResult | None,
    new: MatchResult,
    key: str,
    lang: Lang,
    **extra: object,
) -> str:
    """A judge's decision: the new result, and the one it replaced."""
    return t(
        key,
        lang,
        round=number,
        table=match.table,
        new=describe_result(tournament, match, new, lang),
        old=describe_result(tournament, match, old, lang),
        **extra,
    )


def claim_lines(
    tournament: Tournament,
    match: Match,
    claims: Sequence[tuple[int, MatchResult]],
    lang: Lang,
    *,
    disputer: int | None = None,
    reason: str = "",
) -> str:
    """Each player's report of a match, one line each (for the judges); on a dispute, the
    disputing player's claim as theirs, and their note."""
    lines = [
        t(
            "ui.report.dispute_line" if player == disputer else "ui.report.claim_line",
            lang,
            player=name_of(tournament, player),
            result=describe_result(tournament, match, result, lang),
        )
        for player, result in claims
    ]
    if disputer is not None and disputer not in [player for player, _ in claims]:
        # A dispute from before claims were asked for: the report alone, disputed.
        lines.append(t("ui.report.disputed_no_claim", lang, player=name_of(tournament, disputer)))
    if disputer is not None and reason.strip():
        name = name_of(tournament, disputer)
        lines.append(t("ui.report.reason_line", lang, player=name, reason=safe(reason.strip())))
    return "\n".join(lines)


def decided_notice(
    notice: str, tournament: Tournament, match: Match, result: MatchResult, judge: str, lang: Lang
) -> str:
    """A dispute's notice once a judge pressed a decision: what it said, then the decision
    and who made it (its buttons go)."""
    done = t(
        "ui.decide.done",
        lang,
        judge=safe(judge),
        result=describe_result(tournament, match, result, lang),
    )
    return fit_message(notice, MESSAGE_LIMIT - len(done) - 1) + "\n" + done


# What the organizer is told of a round's pairings post that is not out yet.
PAIRED_NOT_YET = {
    PostState.WAITING: "ui.rounds.paired_turn",
    PostState.FAILING: "ui.rounds.paired_waiting",
    PostState.NOT_POSTED: "ui.rounds.paired_nowhere",
}
POST_NOT_YET = {
    PostState.WAITING: "ui.panel.post_turn",
    PostState.FAILING: "ui.panel.post_waiting",
    PostState.NOT_POSTED: "ui.panel.post_nowhere",
}


def round_extended_reply(done: RoundExtended, lang: Lang) -> str:
    """What the judge reads after 全体延長 (/round extend, the panel's form): the round, how
    many tables, the minutes, and the end of a table not extended before."""
    return t(
        "ui.rounds.round_extended_reply",
        lang,
        round_name=round_name(done.round, lang),
        tables=len(done.event.tables),
        minutes=done.event.minutes,
        end=int(done.event.ends_at.timestamp()),
    )


def pairing_reply(paired: Paired, lang: Lang) -> str:
    """What the organizer reads after /round pair: the round and, for Swiss, the engine's
    explanation (pair-downs, the bye, …)."""
    matches = paired.round.matches
    tables = sum(1 for match in matches if len(match.players) == 2)
    byes = sum(1 for match in matches if len(match.players) == 1)
    key = "ui.rounds.paired_reply_byes" if byes else "ui.rounds.paired_reply"
    if paired.posted is not PostState.POSTED:  # said only once it is true
        key = PAIRED_NOT_YET[paired.posted]
    lines = [t(key, lang, round_name=round_name(paired.round, lang), tables=tables, byes=byes)]
    if paired.round.kind is RoundKind.SWISS:
        notes = explanation_lines(paired.tournament, paired.proposal.explanation, lang)
        lines.append(f"**{t('ui.rounds.explanation_title', lang)}**")
        lines += notes or [t("ui.rounds.no_explanation", lang)]
    if paired.rooms_waiting:
        lines.insert(1, t("rooms.waiting", lang, waiting=paired.rooms_waiting))
    return "\n".join(lines)


def report_reply(outcome: ReportOutcome, lang: Lang) -> str:
    """What a player reads after reporting, confirming or disputing."""
    tournament, match = outcome.tournament, outcome.match
    if outcome.repeated:
        own = [r.result for r in match.reports if r.player_id == outcome.reporter]
        result = describe_result(tournament, match, own[-1] if own else None, lang)
        if match.disputed:
            return t("ui.report.already_received_judged", lang, result=result)
        opponent = name_of(tournament, outcome.opponent)
        return t("ui.report.already_received", lang, result=result, opponent=opponent)
    if outcome.confirmed:
        result = describe_result(tournament, match, match.result, lang)
        return t("ui.report.confirmed", lang, result=result)
    if outcome.disputed:
        claimed = [r.result for r in match.reports if r.player_id == outcome.reporter]
        if not claimed:
            return t("ui.report.disputed", lang)
        result = describe_result(tournament, match, claimed[-1], lang)
        return t("ui.report.disputed_claim", lang, result=result)
    if outcome.disagrees:
        return t("ui.report.disagree", lang)
    pending = match.reports[-1].result if match.reports else None
    return t(
        "ui.report.filed",
        lang,
        result=describe_result(tournament, match, pending, lang),
        opponent=name_of(tournament, outcome.opponent),
    )


def drop_reply(tournament: Tournament, dropped: Dropped, actor_id: int, lang: Lang) -> str:
    """The answer to /drop and the ドロップ button: who dropped, and a match still to finish."""
    name = safe(tournament.name)
    if dropped.player_id == actor_id:
        text = t("ui.drop.self", lang, tournament=name)
    else:
        player = name_of(tournament, dropped.player_id)
        text = t("ui.drop.other", lang, tournament=name, player=player)
    if dropped.match_unfinished:
        text += "\n" + t("ui.drop.unfinished", lang, round=dropped.after_round)
    return text
