"""A player's record across a server's events: placings, wins and losses by
round (Swiss and top cut apart), titles from published lists only, penalties apart."""

from __future__ import annotations

from datetime import date

from domain.engine.results import MatchResult, Outcome
from domain.series.records import Tally, player_penalties, player_record
from domain.tournament.apply import apply
from domain.tournament.operations import GivePenalty, PublishDecks, RevokePenalty
from domain.tournament.penalties import Infraction, PenaltyType
from domain.tournament.rounds import Match, Round, RoundKind
from tests.domain.series.support import TOP_CUT, ids, lower_id_wins, play_event
from tests.domain.tournament.support import JUDGE, ORGANIZER, T0, Clock, new_tournament


def test_a_record_counts_swiss_and_top_cut_apart() -> None:
    cup = play_event(ids(10), tournament_id=4, name="冬の大会", format=TOP_CUT, top_cut=8)
    record = player_record(101, [cup])
    (line,) = record.events
    assert (line.tournament_id, line.name, line.players) == (4, "冬の大会", 10)
    assert line.placing.finish == 1
    assert line.placing.top_cut == 1
    swiss_rounds = len(cup.swiss_rounds)
    assert line.swiss == Tally(wins=swiss_rounds)
    assert line.top_cut == Tally(wins=3)  # quarter-final, semi-final, final
    assert [r.kind for r in line.rounds].count(RoundKind.ELIMINATION) == 3
    assert record.event_wins == 1
    assert record.best_finish == 1
    assert str(record.swiss) == f"{swiss_rounds}-0-0"


def test_draws_judgement_results_and_byes_are_counted_as_the_regulation_says() -> None:
    def decide(played: Round, match: Match) -> MatchResult:
        a = min(match.players)
        if played.number == 1:
            return MatchResult.from_point_zone(match.ids, (3, 3))  # a time-out draw
        if played.number == 2:
            return MatchResult.judgement(str(a))  # 判定勝ち
        return MatchResult.concession(str(a))  # the lower id concedes

    cup = play_event(ids(5), decide=decide)  # 5 players: someone has a bye each round
    for user in ids(5):
        line = player_record(user, [cup]).events[0]
        outcomes = [r.outcome for r in line.rounds]
        assert line.swiss.draws == outcomes.count(Outcome.DRAW)
        assert line.swiss.byes == outcomes.count(Outcome.BYE)
        assert line.swiss.wins == outcomes.count(Outcome.WIN) + outcomes.count(
            Outcome.JUDGEMENT_WIN
        )
        assert line.swiss.matches + line.swiss.byes == len(cup.rounds)
        byes = [r for r in line.rounds if r.outcome is Outcome.BYE]
        assert all(r.opponent_id is None for r in byes)
    totals = sum((player_record(u, [cup]).swiss for u in ids(5)), Tally())
    assert totals.wins == totals.losses  # every win is someone's loss
    assert totals.byes == len(cup.rounds)


def test_events_are_in_date_order_and_only_finished_ones_with_a_placing_count() -> None:
    later = play_event(ids(4), tournament_id=2, event_date=date(2026, 12, 8))
    earlier = play_event(ids(4)[1:], tournament_id=1, event_date=date(2026, 12, 1))
    running = new_tournament(name="Open")
    record = player_record(102, [later, running, earlier])
    assert [line.tournament_id for line in record.events] == [1, 2]
    assert player_record(101, [earlier]).events == ()
    assert record.events_played == 2


def test_titles_show_only_once_the_lists_are_published() -> None:
    cup = play_event(ids(4), decks=True)
    assert player_record(101, [cup]).events[0].titles == ()
    published, _ = apply(cup, PublishDecks(), T0, ORGANIZER)
    record = player_record(101, [published])
    assert record.events[0].titles == ("けいおん！",)
    assert record.titles == (("けいおん！", 1),)


def test_penalties_are_a_separate_accessor_for_staff() -> None:
    def warn_after_round_one(clock: Clock, number: int) -> None:
        if number == 1:
            warning = GivePenalty(102, PenaltyType.WARNING, Infraction.STALLING, "slow play")
            clock.apply(warning, JUDGE)

    cup = play_event(ids(4), between_rounds=warn_after_round_one)
    (given,) = player_penalties(102, [cup])
    assert given.penalty.type is PenaltyType.WARNING
    assert given.tournament_id == cup.id
    assert player_penalties(101, [cup]) == ()
    # The record itself carries no penalty: it is what players see.
    assert not hasattr(player_record(102, [cup]), "penalties")
    revoked, _ = apply(cup, RevokePenalty(given.penalty.id), T0, ORGANIZER)
    assert player_penalties(102, [revoked])[0].penalty.revoked


def test_the_same_player_in_two_events_sums_up() -> None:
    first = play_event(ids(4), tournament_id=1)
    second = play_event(ids(4), tournament_id=2, decide=lower_id_wins)
    record = player_record(104, [first, second])
    assert record.swiss == record.events[0].swiss + record.events[1].swiss
    assert record.swiss.wins == 0


def test_a_lists_titles_come_most_cards_first() -> None:
    from domain.decks import parse_decklist
    from tests.conftest import REPO_ROOT

    mix_two = parse_decklist(
        (REPO_ROOT / "data/examples/mix-two.txt").read_text(), filename="x.txt"
    )
    cards = {
        t: sum(e.count for e in mix_two.all_entries if e.key.title == t) for t in mix_two.titles
    }
    assert len(mix_two.titles) == 2
    assert list(cards.values()) == sorted(cards.values(), reverse=True)
    assert sum(cards.values()) == mix_two.total + mix_two.ex_total
