"""Every notice the plan makes can be said: an event played through the rules, planned, and
rendered in both languages, gives messages that name what happened. A renderer that reads a
field its plan row does not write fails here, not in a running bot."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from bot.notify.plan import Context, Notice, Say, plan, plan_clock, plan_reminder
from bot.ui.notices import RENDERERS, Message, Telling
from domain.engine.results import MatchResult
from domain.tournament import events as ev
from domain.tournament.clock import call_notices, clock_notices
from domain.tournament.model import Tournament
from domain.tournament.operations import (
    CallJudge,
    CancelTournament,
    ChangeSettings,
    ConfirmResult,
    Drop,
    ExtendTable,
    FinishTournament,
    GivePenalty,
    PublishDecks,
    Register,
    ReportResult,
    RevokePenalty,
    SetResult,
    SettingsChange,
    StartRound,
    StartTournament,
    Unregister,
)
from domain.tournament.penalties import Infraction, PenaltyType
from domain.tournament.play import propose_round
from domain.tournament.reminders import due_reminders
from domain.tournament.rounds import Claim
from tests.domain.tournament.support import (
    JUDGE,
    ORGANIZER,
    Clock,
    new_tournament,
    player,
    submit,
)


def text_of(messages: list[Message]) -> str:
    parts = []
    for message in messages:
        parts.append(message.content or "")
        for embed in message.embeds:
            parts += [embed.title or "", embed.description or ""]
            parts += [f"{f.name} {f.value}" for f in embed.fields]
    return "\n".join(parts)


def told(clock: Clock, before: Tournament | None, kind: str) -> list[Notice]:
    return plan(clock.events, Context(before, clock.tournament, kind, 1, "Staff Name"))


def whole_event() -> tuple[list[tuple[Notice, Tournament]], Clock]:
    """Every kind of notice, each with the tournament as it was right after it was planned."""
    clock = Clock(new_tournament(max_players=5))
    said: list[tuple[Notice, Tournament]] = []

    def step(operation: object, actor: object = ORGANIZER) -> None:
        before = clock.tournament
        clock.apply(operation, actor)  # type: ignore[arg-type]
        kind = operation.kind  # type: ignore[attr-defined]
        said.extend((notice, clock.tournament) for notice in told(clock, before, kind))

    said.extend(
        (n, clock.tournament)
        for n in plan(
            (ev.TournamentCreated(clock.tournament.id),),
            Context(None, clock.tournament, "create_tournament", 1, "Staff Name"),
        )
    )
    for number in range(1, 7):
        step(Register(player(number).user_id, f"Player {number}"), player(number))
        if number < 6:  # player 6 never submits a deck: the start removes them
            step(submit(player(number).user_id), player(number))
    step(Unregister(player(1).user_id), player(1))  # player 6 is promoted from the waitlist
    step(ChangeSettings(SettingsChange(noshow_minutes=5)))
    step(StartTournament(seed=3))
    step(PublishDecks())
    step(propose_round(clock.tournament, 4).operation())
    step(StartRound(1))
    first, second = clock.tournament.rounds[0].matches[0].players
    third, fourth = clock.tournament.rounds[0].matches[1].players
    step(ReportResult(first, 1, Claim.WIN), player(first - 100))
    step(ConfirmResult(second, 1, 1), player(second - 100))
    step(ReportResult(third, 1, Claim.WIN), player(third - 100))
    step(ReportResult(fourth, 1, Claim.WIN), player(fourth - 100))  # they disagree
    step(CallJudge(third, "we disagree"), player(third - 100))
    step(ExtendTable(1, 2, 5), JUDGE)
    step(SetResult(1, 2, MatchResult.win(str(third))), JUDGE)  # completes round 1
    step(GivePenalty(fourth, PenaltyType.WARNING, Infraction.STALLING, "slow"), JUDGE)
    step(RevokePenalty(1))
    step(Drop(fourth), player(fourth - 100))
    step(propose_round(clock.tournament, 5).operation())
    last = clock.tournament.rounds[-1]
    for match in last.matches:
        if len(match.players) == 2:
            step(SetResult(last.number, match.table, MatchResult.win(str(match.players[0]))), JUDGE)
    step(FinishTournament())
    undone = ev.Undone(9, "drop", fourth, {"player_id": fourth})
    said.extend(
        (n, clock.tournament)
        for n in plan((undone,), Context(clock.tournament, clock.tournament, "undo", 1, "Org"))
    )
    return said, clock


def clock_said() -> list[tuple[Notice, Tournament]]:
    clock = Clock(new_tournament())
    clock.apply(ChangeSettings(SettingsChange(decklist_required=False)))
    for number in range(1, 5):
        clock.apply(Register(player(number).user_id, f"P{number}"), player(number))
    clock.apply(StartTournament(seed=1))
    clock.apply(propose_round(clock.tournament, 2).operation())
    clock.apply(StartRound(1))
    first = clock.tournament.rounds[0].matches[0].players[0]
    clock.apply(ReportResult(first, 1, Claim.WIN), player(first - 100))
    clock.apply(CallJudge(first, "help"), player(first - 100))
    current = clock.tournament.rounds[0]
    notices = clock_notices(current, unconfirmed_after=timedelta(minutes=10))
    notices += call_notices(clock.tournament.calls)
    return [(plan_clock(n, clock.tournament, 10), clock.tournament) for n in notices]


def called_off_said() -> list[tuple[Notice, Tournament]]:
    """Issue 24 before an event: a start time (the calendar), the players' reminders, and
    the event called off (中止)."""
    clock = Clock(new_tournament())
    said: list[tuple[Notice, Tournament]] = []

    def step(operation: object, actor: object = ORGANIZER) -> None:
        before = clock.tournament
        clock.apply(operation, actor)  # type: ignore[arg-type]
        kind = operation.kind  # type: ignore[attr-defined]
        said.extend((notice, clock.tournament) for notice in told(clock, before, kind))

    for number in range(1, 4):
        step(Register(player(number).user_id, f"Player {number}"), player(number))
    start = clock.at + timedelta(hours=30)
    step(ChangeSettings(SettingsChange(starts_at=start, checkin_minutes=30)))
    due = due_reminders(clock.tournament, start - timedelta(hours=24))
    said.extend((plan_reminder(reminder), clock.tournament) for reminder in due)
    step(CancelTournament())
    return said


SAID, CLOCK = whole_event()
EVERYTHING = SAID + clock_said() + called_off_said()


def test_the_story_makes_every_kind_of_notice() -> None:
    assert {notice.say for notice, _ in EVERYTHING} == set(Say)


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("say", list(Say), ids=lambda say: say.value)
def test_each_notice_renders_in_both_languages(say: Say, lang: str) -> None:
    now = CLOCK.at + timedelta(hours=1)
    for notice, tournament in [(n, t) for n, t in EVERYTHING if n.say is say]:
        said = RENDERERS[say](Telling(tournament, notice.data, notice.user, lang, now))  # type: ignore[arg-type]
        if said.calendar is not None:  # the calendar's entry: its texts, not a message
            text = "\n".join((said.calendar.name, said.calendar.description))
            assert said.calendar.marker[0 if lang == "ja" else 1] in text
            assert "{" not in text, text
            continue
        assert said.messages, (say, notice)
        text = text_of(said.messages)
        assert text.strip() or any(m.files for m in said.messages), say
        assert "{" not in text.replace("{{", ""), text  # no template left unfilled


def test_a_notice_of_something_since_taken_back_says_nothing() -> None:
    (pairings, tournament) = next((n, t) for n, t in SAID if n.say is Say.PAIRINGS)
    unpaired = replace(tournament, rounds=())
    now = CLOCK.at
    assert RENDERERS[Say.PAIRINGS](Telling(unpaired, pairings.data, None, "ja", now)).messages == []
    ask, at = next((n, t) for n, t in SAID if n.say is Say.ASK_OPPONENT)
    # Once the match is confirmed, the opponent is not asked any more.
    assert (
        RENDERERS[Say.ASK_OPPONENT](
            Telling(CLOCK.tournament, ask.data, ask.user, "ja", now)
        ).messages
        == []
    )
    assert RENDERERS[Say.ASK_OPPONENT](Telling(at, ask.data, ask.user, "ja", now)).messages
