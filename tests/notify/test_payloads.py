"""Each kind of notice declares its traits and the type of its payload in one place
(`TRAITS`); a notice with another type of payload is refused when the plan writes it; and
every payload reads back from the outbox's JSON as it was written, including what an older
version of the bot left there."""

from __future__ import annotations

import dataclasses
import json
import typing
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.notify.payloads import (
    AskOpponent,
    BeforeRound,
    Decision,
    Dispute,
    Nothing,
    NoticeDropped,
    OfRound,
    OfTable,
    Payload,
    RoomsRefused,
    Unreadable,
    payload_types,
)
from bot.notify.plan import TRAITS, Notice, Place, Say, Traits, stored_payload
from domain.engine.results import MatchResult
from tests.notify.test_renderers import EVERYTHING


def test_every_kind_of_notice_has_its_traits_and_the_type_of_its_payload() -> None:
    assert set(TRAITS) == set(Say)
    kinds = set(payload_types())
    assert all(traits.payload in kinds for traits in TRAITS.values())
    # A kind cannot be declared without saying what it carries.
    with pytest.raises(TypeError, match="payload"):
        Traits()  # type: ignore[call-arg]


def test_every_kind_of_payload_is_carried_by_some_kind_of_notice() -> None:
    assert set(payload_types()) == {traits.payload for traits in TRAITS.values()}


def test_the_plan_refuses_a_payload_its_kind_does_not_declare() -> None:
    with pytest.raises(TypeError, match="ask_opponent notice carries AskOpponent, not OfTable"):
        Notice(Say.ASK_OPPONENT, (Place.ROUND_THREAD,), OfTable(1, 2))
    # Exactly the declared type: a payload that carries more is still another kind's.
    with pytest.raises(TypeError, match="result_confirmed"):
        Notice(Say.RESULT_CONFIRMED, (Place.ROUND_THREAD,), AskOpponent(1, 2, 3))
    # Nothing given is `Nothing`, which a kind that needs its round does not take.
    with pytest.raises(TypeError, match="pairings notice carries OfRound, not Nothing"):
        Notice(Say.PAIRINGS, (Place.PAIRINGS,))
    assert Notice(Say.PAIRINGS, (Place.PAIRINGS,), OfRound(1)).data.about_round == 1


def test_every_notice_the_story_plans_carries_its_declared_type_and_reads_back() -> None:
    """Every kind, as the plan writes it in a whole event: the JSON the outbox stores reads
    back to the same payload."""
    assert {notice.say for notice, _ in EVERYTHING} == set(Say)
    for notice, _ in EVERYTHING:
        assert type(notice.data) is TRAITS[notice.say].payload
        stored = json.loads(json.dumps(notice.data.to_json(), ensure_ascii=False))
        assert stored_payload(notice.say, stored) == notice.data, notice


def _strategy(hint: Any) -> st.SearchStrategy[Any]:
    if typing.get_origin(hint) is dict:  # an earlier operation's logged payload
        return st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=5))
    return st.from_type(hint)


@st.composite
def payloads(draw: st.DrawFn) -> Payload:
    """Any payload, every field drawn (those with a default too)."""
    kind = draw(st.sampled_from(sorted(payload_types(), key=lambda kind: kind.__name__)))
    hints = typing.get_type_hints(kind)
    values = {field.name: draw(_strategy(hints[field.name])) for field in dataclasses.fields(kind)}
    return kind(**values)


@given(payloads())
def test_any_payload_reads_back_from_its_json(payload: Payload) -> None:
    stored = json.loads(json.dumps(payload.to_json(), ensure_ascii=False))
    assert type(payload).from_json(stored) == payload


def test_a_notice_written_before_an_upgrade_still_reads() -> None:
    """Rows in the outbox's older shapes: a field it lacks is read as its default, a key
    the payload does not know is ignored."""
    win = {"kind": "win", "player": "101", "point_zone": None}
    disagree = {"round": 1, "table": 2, "claims": [[101, win], [102, win]], "old_key": 1}
    assert stored_payload(Say.DISPUTE, disagree) == Dispute(
        1, 2, ((101, MatchResult.win("101")), (102, MatchResult.win("101")))
    )
    refused = {"round_of": 2, "reason": "server_full", "missing": []}  # before `waiting`
    assert stored_payload(Say.ROOMS_REFUSED, refused) == RoomsRefused(2, "server_full", (), 0)
    assert stored_payload(Say.ROOMS, {}) == BeforeRound()
    assert stored_payload(Say.PANEL, {"origin": 55}) == Nothing(origin=55)
    nowhere = {"kind": "standings", "nowhere": "standings", "error": ""}
    assert stored_payload(Say.NOTICE_DROPPED, nowhere) == NoticeDropped(
        "standings", "", nowhere="standings"
    )
    decided = {"round": 1, "table": 1, "new": None, "judge": "J", "revoked": 3}
    assert stored_payload(Say.RESULT_DECIDED, decided) == Decision(1, 1, None, "J", revoked=3)


def test_a_notice_whose_data_does_not_read_fails_alone() -> None:
    """A required field missing, or of the wrong type: the notice's own renderer fails (it
    is given up), the outbox still reads."""
    for say, data in [
        (Say.ASK_OPPONENT, {"round": 1, "table": 2}),
        (Say.PAIRINGS, {"round": "1"}),
        (Say.STANDINGS, []),
    ]:
        read = stored_payload(say, data)
        assert isinstance(read, Unreadable), read
        with pytest.raises(TypeError):
            read.as_(OfRound)


def test_the_json_keeps_the_keys_the_outbox_always_had() -> None:
    """A field at its default is left out, as the plan always wrote it (a dispute without a
    disputer, the rooms for no round in particular, no command's channel)."""
    assert Dispute(1, 2, ()).to_json() == {"round": 1, "table": 2, "claims": []}
    assert BeforeRound().to_json() == {}
    # A field added later is written even at the value an older notice's absence means.
    assert RoomsRefused(1, "refused", (), 0).to_json()["waiting"] == 0
    assert OfRound(3, origin=9).to_json() == {"round": 3, "origin": 9}
    assert Decision(1, 2, None, "J", penalty=4).to_json() == {
        "round": 1,
        "table": 2,
        "new": None,
        "judge": "J",
        "penalty": 4,
    }
