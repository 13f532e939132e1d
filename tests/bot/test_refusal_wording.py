"""Refusals that name a player say the player's name (escaped, as names are shown), and a
refusal says how to do what was meant: R-MATCH-2's impossible point-zone count, and /undrop
on a disqualified player (R-PEN-4)."""

from __future__ import annotations

import pytest

from bot.i18n import Lang, set_command_ids
from bot.ui.messages import render_error
from bot.ui.render import safe
from domain.errors import DomainError
from domain.tournament.operations import (
    ChangeSettings,
    GivePenalty,
    Register,
    ReportResult,
    SettingsChange,
    StartTournament,
    Undrop,
)
from domain.tournament.penalties import Infraction, PenaltyType
from domain.tournament.play import propose_round
from domain.tournament.rounds import Claim
from tests.domain.tournament.support import JUDGE, Clock, new_tournament, player

ODD_NAME = "*Yui*_@everyone"


@pytest.fixture(autouse=True)
def no_synced_ids() -> object:
    set_command_ids({})
    yield
    set_command_ids({})


def paired() -> Clock:
    clock = Clock(new_tournament())
    clock.apply(ChangeSettings(SettingsChange(decklist_required=False)))
    for number in range(1, 5):
        name = ODD_NAME if number == 1 else f"P{number}"
        clock.apply(Register(100 + number, name), player(number))
    clock.apply(StartTournament(seed=2026))
    clock.apply(propose_round(clock.tournament, 1).operation())
    return clock


def refusal(clock: Clock, operation: object, actor: object) -> DomainError:
    with pytest.raises(DomainError) as refused:
        clock.apply(operation) if actor is None else clock.apply(operation, actor)  # type: ignore[arg-type]
    return refused.value


@pytest.mark.parametrize(
    ("lang", "words"),
    [("ja", ("ポイント置き場の枚数 7", "0〜6")), ("en", ("Point-zone count 7", "0 to 6"))],
)
def test_an_impossible_point_zone_count_names_the_player(
    lang: Lang, words: tuple[str, ...]
) -> None:
    clock = paired()
    match = next(m for m in clock.tournament.rounds[0].matches if 101 in m.players)
    opponent = next(p for p in match.players if p != 101)
    reporter = player(opponent - 100)
    error = refusal(clock, ReportResult(opponent, 1, Claim.TIME, 2, 7), reporter)
    text = render_error(error, lang)
    assert all(word in text for word in words), text
    assert safe(ODD_NAME) in text  # the name, escaped: no markdown, no ping
    assert "@everyone" not in text
    assert "101" not in text  # not the Discord id


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("ja", ("P2", "失格", "罰則 #1", "/罰則 取り消し")),
        ("en", ("P2", "disqualified", "penalty #1", "/penalty revoke")),
    ],
)
def test_undrop_of_a_disqualified_player_points_to_revoking_the_penalty(
    lang: Lang, words: tuple[str, ...]
) -> None:
    clock = paired()
    clock.apply(GivePenalty(102, PenaltyType.DISQUALIFICATION, Infraction.OTHER, "暴言"), JUDGE)
    text = render_error(refusal(clock, Undrop(102), None), lang)
    assert all(word in text for word in words), text
    assert "ドロップしているプレイヤーではありません" not in text
    assert "has not dropped" not in text
