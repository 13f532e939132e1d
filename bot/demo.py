"""A simulated event for someone evaluating the bot without a Discord token (`python -m bot
demo`), and for the live page's browser tests and benchmark.

32 players register with decklists, a Swiss of 5 rounds and a top 8 are played through the
real services on a temporary database: players report and their opponents confirm, one
table runs out of time and is decided on point zones (判定勝ち, R-MATCH-2), a judge extends
a table (R-MATCH-7) and gives a game loss (R-PEN), a player drops (R-FMT-7), and the lists
are published at the end. Each step waits `STEP_SECONDS / speed`, so a person can watch the
live page follow it.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass

from bot.services import Services
from bot.services.actors import Actor
from domain.engine.placings import stage
from domain.tournament.model import Tournament
from domain.tournament.rounds import Round

STEP_SECONDS = 3.0
GUILD = 1
# Discord-sized ids, so a test can tell at a glance that none reached the page.
FIRST_PLAYER_ID = 345_678_901_234_567_000
ORGANIZER_ROLE = 11
JUDGE_ROLE = 12
NAME = "プレメモ交流会（デモ）"
PLAYER_NAMES = (
    "あおい", "さくら", "黒猫", "ゆい", "Haruka", "みお", "りつ", "つむぎ",
    "あずさ", "Kyoko", "ちなつ", "あかり", "結衣", "京子", "ひだまり荘", "Nazuna",
    "ことは", "Rin", "なでしこ", "千夜", "シャロ", "ココア", "チノ", "リゼ",
    "まどか", "ほむら", "さやか", "Mami", "杏子", "なぎさ", "ひな", "Sora",
)  # fmt: skip
# The titles decks are built from (names as the regulation's title table writes them).
TITLES = (
    "けいおん！",
    "ひだまりスケッチ",
    "ゆるゆり",
    "魔法少女まどか☆マギカ",
    "化物語",
    "侵略！イカ娘",
    "とらドラ！",
    "ガールズ＆パンツァー",
)


def demo_deck(rng: random.Random) -> str:
    """A legal MIX list: one title, or two sharing the 60 cards."""
    first, second = rng.sample(TITLES, 2)
    split = rng.choice((60, 60, 40, 32))
    rows = ["count,title,number"]
    for title, cards in ((first, split), (second, 60 - split)):
        for index in range(cards // 4):
            rows.append(f"4,{title},01-{index + 1:03d}")
    return "\n".join(rows) + "\n"


@dataclass
class DemoEvent:
    services: Services
    speed: float = 1.0
    # Each step as it happens: the catalog key of its line (`cli.demo.…`) and its values.
    say: Callable[..., None] = lambda key, **params: None
    seed: int = 22
    players: int = 32

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.admin = Actor(1, GUILD, "運営", manages_guild=True)
        self.judge = Actor(2, GUILD, "ジャッジ", frozenset({JUDGE_ROLE}))
        self.entrants = [
            Actor(FIRST_PLAYER_ID + n, GUILD, PLAYER_NAMES[n % len(PLAYER_NAMES)])
            for n in range(self.players)
        ]
        self.by_id = {actor.user_id: actor for actor in self.entrants}
        self.tournament_id = 0

    async def pause(self, steps: float = 1.0) -> None:
        await asyncio.sleep(STEP_SECONDS * steps / self.speed)

    async def set_up(self) -> Tournament:
        """The server, the tournament with its page on, every player registered with a
        list, and the start. Returns the started tournament (its page's address is set)."""
        services = self.services
        await services.guilds.configure(
            self.admin, organizer_role_id=ORGANIZER_ROLE, judge_role_id=JUDGE_ROLE, locale="ja"
        )
        created = await services.tournaments.create(
            self.admin,
            name=NAME,
            format="swiss_top_cut",
            regulation="mix",
            rounds=5,
            top_cut=8,
        )
        self.tournament_id = created.tournament.id
        switch = await services.tournaments.set_page(self.admin, self.ref, True)
        for actor in self.entrants:
            await services.registration.register(actor, self.ref)
            submitted = await services.decks.submit(
                actor, self.ref, demo_deck(self.rng), "deck.csv"
            )
            assert submitted.stored, submitted.check.violations
        report = await services.lifecycle.start(self.admin, self.ref)
        assert switch.tournament.page_slug is not None
        return report.tournament

    @property
    def ref(self) -> str:
        return str(self.tournament_id)

    async def play(self) -> Tournament:
        """Every round to the end, then the lists published and the event finished."""
        services = self.services
        number = 0
        while True:
            paired = await services.rounds.pair(self.admin, self.ref)
            number = paired.round.number
            tables = len(paired.round.matches)
            # A top-cut round is named by its stage, as people name it: 準々決勝, 準決勝, 決勝.
            kind = "swiss"
            seats = 0
            if paired.round.kind.value == "elimination":
                reached = stage(max(tables * 2, 2))
                kind, seats = reached.kind.value, reached.players
            self.say(f"cli.demo.paired_{kind}", round=number, tables=tables, players=seats)
            await self.pause()
            _, current = await services.rounds.start_clock(self.admin, self.ref)
            self.say(f"cli.demo.started_{kind}", round=number, players=seats)
            await self.pause()
            await self.play_round(current)
            if paired.round.kind.value == "elimination" and len(paired.round.matches) == 1:
                break
        await services.decks.publish(self.admin, self.ref)
        self.say("cli.demo.published")
        await self.pause()
        final = await services.rounds.finish(self.admin, self.ref)
        self.say("cli.demo.finished")
        return final.tournament

    async def play_round(self, current: Round) -> None:
        services = self.services
        number = current.number
        tables = [m for m in current.matches if len(m.players) == 2]
        self.rng.shuffle(tables)
        if number == 2 and tables:  # a judge gives a table more time (R-MATCH-7)
            await services.rounds.extend(self.judge, self.ref, tables[-1].table, 5)
            self.say("cli.demo.extended", round=number, table=tables[-1].table)
        batch = max(1, len(tables) // 4)
        for start in range(0, len(tables), batch):
            for match in tables[start : start + batch]:
                await self.finish_table(number, match.table, match.players)
            await self.pause()
        if number == 3:  # a player leaves the event after round 3 (R-FMT-7)
            standings = await services.rounds.standings(GUILD, self.ref)
            leaving = standings.lines[-1].user_id
            await services.rounds.drop(self.by_id[leaving], self.ref)
            self.say("cli.demo.dropped", name=self.by_id[leaving].display_name)

    async def finish_table(self, number: int, table: int, players: tuple[int, ...]) -> None:
        services = self.services
        first, second = (self.by_id[p] for p in players)
        if number == 2 and table == 1:
            # Time ran out: both report the point zones, fewer cards wins (R-MATCH-2).
            await services.rounds.report(first, self.ref, "time", 2, 4)
            await services.rounds.report(second, self.ref, "time", 4, 2)
            self.say("cli.demo.time", round=number, table=table)
            return
        if number == 4 and table == 2:
            # A judge's game loss decides the table (R-PEN-3).
            preview = await services.judges.preview_penalty(
                self.judge, self.ref, second.user_id, "game_loss", "extra_cards", "demo"
            )
            await services.judges.confirm(self.judge, preview.pending_id)
            self.say("cli.demo.game_loss", round=number, table=table, name=second.display_name)
            return
        winner_first = self.rng.random() < 0.5
        claim = "win" if winner_first else "lose"
        await services.rounds.report(first, self.ref, claim)
        await services.rounds.confirm(second, self.tournament_id, number, table)
