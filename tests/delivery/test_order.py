"""Which waiting notices may go now (bot/delivery/order.py): one table's notices in their
order, a round's pairings post before the rest of its round, the final standings before
what follows them, and a place's line kept — everything else side by side."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from bot.delivery.order import Order, first_place, free_to_go, is_staff_line
from bot.notify.payloads import Nothing, OfRound, OfTable, OfTables, Payload
from bot.notify.plan import TRAITS, Place, Say
from bot.store.outbox import Outgoing


def notice(
    id_: int,
    say: Say,
    places: tuple[Place, ...] = (Place.ROUND_THREAD,),
    tournament: int = 7,
    user: int | None = None,
    *,
    round: int | None = None,
    table: int | None = None,
    tables: tuple[int, ...] | None = None,
) -> Outgoing:
    """A waiting notice: the order reads only the round and the tables it is about."""
    data: Payload = Nothing()
    if round is not None:
        data = OfRound(round)
        if table is not None:
            data = OfTable(round, table)
        elif tables is not None:
            data = OfTables(round, tables)
    return Outgoing(id_, 1, tournament, say, places, user, data, "ja", 0)


def ids(notices: list[Outgoing]) -> list[int]:
    return [n.id for n in notices]


def test_a_tables_notices_go_in_order_and_other_tables_beside_them() -> None:
    ask = notice(1, Say.ASK_OPPONENT, round=3, table=5)
    confirmed = notice(2, Say.RESULT_CONFIRMED, (Place.PAIRINGS,), round=3, table=5)
    elsewhere = notice(3, Say.RESULT_CONFIRMED, round=3, table=6)
    assert ids(free_to_go([ask, confirmed, elsewhere])) == [1, 3]
    # Once the request is on its way, its table's result elsewhere still waits for it.
    assert ids(free_to_go([ask, confirmed, elsewhere], sending=[1, 3])) == []
    assert ids(free_to_go([confirmed, elsewhere], sending=[3])) == [2]


def test_the_staffs_log_of_a_table_does_not_wait_behind_the_players_thread() -> None:
    ask = notice(1, Say.ASK_OPPONENT, round=3, table=5)
    decided = notice(2, Say.RESULT_DECIDED, round=3, table=5)
    logged = notice(3, Say.RESULT_SET, (Place.LOG,), round=3, table=5)
    assert ids(free_to_go([ask, decided, logged])) == [1, 3]


def test_a_tables_notices_for_one_place_go_to_its_line_together() -> None:
    """The place's lane keeps their order (and may gather them into one message): a round's
    rush of reports is told in few messages, not one a table at a time."""
    ask = notice(1, Say.ASK_OPPONENT, round=3, table=5)
    confirmed = notice(2, Say.RESULT_CONFIRMED, round=3, table=5)
    assert ids(free_to_go([ask, confirmed])) == [1, 2]
    # A staff decision goes ahead in its lane: it waits for the table's earlier notices.
    decided = notice(3, Say.RESULT_DECIDED, round=3, table=5)
    assert ids(free_to_go([ask, confirmed, decided], sending=[1, 2])) == []


def test_a_dispute_goes_before_the_judges_decision_of_its_table() -> None:
    dispute = notice(1, Say.DISPUTE, (Place.JUDGES,), round=2, table=1)
    decided = notice(2, Say.RESULT_DECIDED, (Place.ROUND_THREAD, Place.PLAYER), round=2, table=1)
    log = notice(3, Say.RESULT_SET, (Place.LOG,), round=2, table=1)
    assert ids(free_to_go([dispute, decided, log])) == [1]


def test_a_rounds_post_goes_before_everything_else_of_its_round() -> None:
    post = notice(1, Say.PAIRINGS, (Place.PAIRINGS, Place.ORIGIN), round=4)
    clock = notice(2, Say.CLOCK_STARTED, (Place.ROUND_CHANNEL, Place.PAIRINGS), round=4)
    reminder = notice(3, Say.REMINDER, (Place.ROUND_CHANNEL,), round=4, tables=())
    earlier = notice(4, Say.RESULT_CONFIRMED, round=3, table=2)
    assert ids(free_to_go([post, clock, reminder, earlier], sending=[1])) == [4]
    # Once it is posted, the clock and the reminder go, in their channel's line (a lane).
    assert ids(free_to_go([clock, reminder, earlier])) == [2, 3, 4]


def test_the_final_standings_go_before_what_follows_them() -> None:
    final = notice(1, Say.FINAL_STANDINGS, (Place.STANDINGS,))
    refresh = notice(2, Say.REGISTRATION_REFRESH, (Place.REGISTRATION_POST,))
    other = notice(3, Say.PANEL_REFRESH, (Place.PANEL,), tournament=8)
    assert ids(free_to_go([final, refresh, other], sending=[1])) == [3]


def test_a_held_notice_keeps_its_place_in_line() -> None:
    """Round 2's result for #pairings waits for round 2's post; round 1's standings for
    #pairings, written after it, wait behind it in that channel's line."""
    post = notice(1, Say.PAIRINGS, (Place.PAIRINGS,), round=2)
    held = notice(2, Say.RESULT_CONFIRMED, (Place.PAIRINGS,), round=2, table=1)
    behind = notice(3, Say.STANDINGS, (Place.PAIRINGS,), round=1)
    elsewhere = notice(4, Say.STANDINGS, (Place.STANDINGS,), round=1)
    assert ids(free_to_go([post, held, behind, elsewhere], sending=[1])) == [4]
    # Posted: both go, one behind the other in the channel's lane.
    assert ids(free_to_go([held, behind, elsewhere], sending=[4])) == [2, 3]


KINDS = st.sampled_from(
    [
        Say.PAIRINGS,
        Say.ASK_OPPONENT,
        Say.RESULT_CONFIRMED,
        Say.RESULT_DECIDED,
        Say.DISPUTE,
        Say.REMINDER,
        Say.STANDINGS,
        Say.FINAL_STANDINGS,
        Say.PANEL_REFRESH,
        Say.RESULT_SET,
    ]
)
PLACES = st.sampled_from(
    [(Place.ROUND_THREAD,), (Place.PAIRINGS,), (Place.LOG,), (Place.PLAYER,), (Place.PANEL,)]
)
NOTICES = st.lists(
    st.tuples(
        KINDS,
        PLACES,
        st.integers(1, 2),  # tournament
        st.integers(1, 3),  # round
        st.one_of(st.none(), st.integers(1, 3)),  # table
        st.integers(1, 3),  # user
    ),
    max_size=25,
)


def build(rows: list[tuple[Say, tuple[Place, ...], int, int, int | None, int]]) -> list[Outgoing]:
    made = []
    for index, (say, places, tournament, number, table, user) in enumerate(rows, start=1):
        made.append(notice(index, say, places, tournament, user, round=number, table=table))
    return made


@given(NOTICES, st.data())
def test_kept_as_notices_come_and_go_it_agrees_with_the_rule(
    rows: list[Any], data: st.DataObject
) -> None:
    """The incremental `Order` frees exactly what `free_to_go` would, however notices come
    and are done: a notice is let go once, never while something it must follow waits."""
    order = Order()
    waiting = build(rows)
    let_go: list[int] = []
    for item in waiting:
        if order.add(item):
            let_go.append(item.id)
    on_the_way = set(let_go)
    assert ids(free_to_go(waiting)) == sorted(on_the_way)
    while order.known:
        finished = data.draw(st.sampled_from(sorted(on_the_way))) if on_the_way else None
        assert finished is not None, "something waits with nothing on its way"
        on_the_way.discard(finished)
        freed = order.done(finished)
        remaining = list(order.known.values())
        expected = [n.id for n in free_to_go(remaining, on_the_way)]
        assert sorted(on_the_way | {n.id for n in freed}) == sorted(on_the_way | set(expected))
        assert not ({n.id for n in freed} & set(let_go))  # never let go twice
        let_go += [n.id for n in freed]
        on_the_way |= {n.id for n in freed}


@given(NOTICES)
def test_nothing_overtakes_an_earlier_notice_of_its_table_or_what_leads_it(rows: list[Any]) -> None:
    waiting = build(rows)
    free = {n.id for n in free_to_go(waiting)}
    for later in waiting:
        if later.id not in free:
            continue
        for earlier in waiting:
            if earlier.id >= later.id or earlier.tournament_id != later.tournament_id:
                continue
            same_table = earlier.data.about_table is not None and (
                earlier.data.about_round,
                earlier.data.about_table,
            ) == (later.data.about_round, later.data.about_table)
            # In one line (a lane, which keeps their order), unless the later one goes ahead.
            same_table = same_table and (
                TRAITS[later.say].urgent or first_place(earlier) != first_place(later)
            )
            # The staff's places wait for nothing of the players'.
            same_table = same_table and (
                TRAITS[later.say].urgent
                or not is_staff_line(first_place(later))
                or is_staff_line(first_place(earlier))
            )
            lead = TRAITS[earlier.say].lead.value
            led = lead == "tournament" or (
                lead == "round" and earlier.data.about_round == later.data.about_round
            )
            assert not same_table, (earlier, later)
            assert not led, (earlier, later)
