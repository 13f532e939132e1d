"""The order one tournament's notices go out in: as written, except that what concerns an
earlier round waits behind a newly paired round's post (issue 21: at 2,048 tables round
11's last results and marks held up round 12's pairings by half a second)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.delivery.loop import new_round_first
from bot.notify.plan import Place, Say
from bot.store.outbox import Outgoing


def notice(id_: int, say: Say, round_: int) -> Outgoing:
    return Outgoing(id_, 1, 7, say, (Place.PAIRINGS,), None, {"round": round_}, "ja", 0)


def test_round_elevens_results_and_marks_go_after_round_twelves_post() -> None:
    result = notice(1, Say.RESULT_CONFIRMED, 11)
    marks = notice(2, Say.PAIRINGS_REFRESH, 11)
    standings = notice(3, Say.STANDINGS, 11)
    post = notice(4, Say.PAIRINGS, 12)
    clock = notice(5, Say.CLOCK_STARTED, 12)
    ordered = new_round_first([result, marks, standings, post, clock])
    assert [n.id for n in ordered] == [4, 5, 1, 2, 3]


def test_without_a_new_round_the_notices_keep_their_order() -> None:
    notices = [notice(1, Say.PAIRINGS_REFRESH, 11), notice(2, Say.STANDINGS, 11)]
    assert new_round_first(notices) == notices
    # A notice of no round (the panel) keeps its place before the new post.
    panel = Outgoing(3, 1, 7, Say.PANEL_REFRESH, (Place.PANEL,), None, {}, "ja", 0)
    assert new_round_first([panel, notice(4, Say.PAIRINGS, 12)])[0] == panel
    # The new round's own marks stay behind its post, where they were written.
    same_round = [notice(3, Say.PAIRINGS, 12), notice(4, Say.PAIRINGS_REFRESH, 12)]
    assert new_round_first(same_round) == same_round


SAYS = st.sampled_from(
    [Say.PAIRINGS, Say.PAIRINGS_REFRESH, Say.STANDINGS, Say.RESULT_CONFIRMED, Say.CLOCK_STARTED]
)


@given(st.lists(st.tuples(SAYS, st.integers(1, 4)), max_size=12))
def test_only_earlier_rounds_notices_move_and_nothing_is_lost(rows: list[tuple[Say, int]]) -> None:
    notices = [notice(i, say, number) for i, (say, number) in enumerate(rows)]
    ordered = new_round_first(notices)
    assert sorted(n.id for n in ordered) == [n.id for n in notices]
    posted = [n.data["round"] for n in notices if n.say is Say.PAIRINGS]
    newest = max(posted, default=None)

    def moves(n: Outgoing) -> bool:
        return newest is not None and n.say is not Say.PAIRINGS and n.data["round"] < newest

    staying = [n for n in ordered if not moves(n)]
    assert staying == [n for n in notices if not moves(n)]  # in the order written
    assert ordered[len(staying) :] == [n for n in notices if moves(n)]
