"""The exact blossom matcher used by Swiss pairing, checked against networkx (R-FMT-3)."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine.matching import (
    max_weight_matching,
    min_cost_perfect_matching,
    min_cost_perfect_matching_with_prices,
)


@st.composite
def graphs(draw: st.DrawFn) -> tuple[int, list[tuple[int, int, int]]]:
    n = draw(st.integers(1, 14))
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True) if pairs else st.just([]))
    return n, [(u, v, draw(st.integers(0, 30))) for u, v in chosen]


def _weight(edges: list[tuple[int, int, int]], mate: list[int]) -> tuple[int, int]:
    weights = {(u, v): w for u, v, w in edges} | {(v, u): w for u, v, w in edges}
    pairs = [(v, mate[v]) for v in range(len(mate)) if mate[v] > v]
    return len(pairs), sum(weights[p] for p in pairs)


@given(graphs(), st.booleans())
@settings(max_examples=150, deadline=None)
def test_same_optimum_as_networkx(
    graph: tuple[int, list[tuple[int, int, int]]], card: bool
) -> None:
    # R-FMT-3 pairing relies on this solver being exact.
    n, edges = graph
    mate = max_weight_matching(n, edges, card)
    assert all(mate[mate[v]] == v for v in range(n) if mate[v] >= 0)
    reference = nx.Graph()
    reference.add_nodes_from(range(n))
    reference.add_weighted_edges_from(edges)
    expected = nx.max_weight_matching(reference, maxcardinality=card)
    size, weight = _weight(edges, mate)
    expected_weight = sum(reference.edges[u, v]["weight"] for u, v in expected)
    assert weight == expected_weight
    if card:
        assert size == len(expected)


def test_min_cost_perfect_matching() -> None:
    # A square: the two cheap sides win over the diagonals.
    edges = [(0, 1, 1), (2, 3, 1), (0, 2, 5), (1, 3, 5), (0, 3, 0), (1, 2, 9)]
    assert min_cost_perfect_matching(4, edges) == [1, 0, 3, 2]
    assert min_cost_perfect_matching(4, [(0, 1, 1), (0, 2, 1)]) is None
    assert min_cost_perfect_matching(3, [(0, 1, 1)]) is None
    assert min_cost_perfect_matching(0, []) == []


def _cost_of(edges: list[tuple[int, int, int]], mate: list[int]) -> int:
    costs = {(u, v): c for u, v, c in edges} | {(v, u): c for u, v, c in edges}
    return sum(costs[v, mate[v]] for v in range(len(mate)) if mate[v] > v)


def _networkx_min_cost(n: int, edges: list[tuple[int, int, int]]) -> int | None:
    reference = nx.Graph()
    reference.add_nodes_from(range(n))
    top = max((c for _, _, c in edges), default=0) + 1
    reference.add_weighted_edges_from((u, v, top - c) for u, v, c in edges)
    matching = nx.max_weight_matching(reference, maxcardinality=True)
    if 2 * len(matching) != n:
        return None
    costs = {frozenset((u, v)): c for u, v, c in edges}
    return sum(costs[frozenset(pair)] for pair in matching)


@st.composite
def priced_graphs(draw: st.DrawFn) -> tuple[int, list[int], list[tuple[int, int, int]], list[int]]:
    """An even vertex count, a class per vertex, every pair at its classes' cost (some
    pairs dearer, like rematches), and a guessed perfect matching to start from."""
    n = 2 * draw(st.integers(1, 7))
    kind = [draw(st.integers(0, 2)) for _ in range(n)]
    table = {(k, m): draw(st.integers(0, 6)) for k in range(3) for m in range(k, 3)}
    edges = []
    for u in range(n):
        for v in range(u + 1, n):
            cost = table[min(kind[u], kind[v]), max(kind[u], kind[v])]
            edges.append((u, v, cost + draw(st.sampled_from([0, 0, 0, 20]))))
    order = draw(st.permutations(range(n)))
    start = [-1] * n
    for a in range(0, n, 2):
        start[order[a]], start[order[a + 1]] = order[a + 1], order[a]
    return n, kind, edges, start


@given(priced_graphs())
@settings(max_examples=150, deadline=None)
def test_a_warm_start_keeps_the_optimum(graph: tuple) -> None:  # type: ignore[type-arg]
    # R-FMT-3 pairing warm-starts from the greedy pairing; the answer must stay exact.
    n, _, edges, start = graph
    mate = min_cost_perfect_matching(n, edges, start)
    assert mate is not None
    assert _cost_of(edges, mate) == _networkx_min_cost(n, edges)


@given(priced_graphs(), st.data())
@settings(max_examples=200, deadline=None)
def test_prices_prove_a_sparse_solve_optimal_or_name_what_is_missing(
    graph: tuple,  # type: ignore[type-arg]
    data: st.DataObject,
) -> None:
    # The pairing engine solves on a few pairs and trusts the prices for the rest.
    n, kind, edges, start = graph
    keep = data.draw(st.lists(st.booleans(), min_size=len(edges), max_size=len(edges)))
    offered = [edge for edge, kept in zip(edges, keep, strict=True) if kept]
    offered += [(u, v, c) for u, v, c in edges if start[u] == v]  # always a perfect matching
    solved = min_cost_perfect_matching_with_prices(n, offered, start)
    assert solved is not None
    mate, prices = solved
    in_graph = {(u, v) for u, v, _ in offered} | {(v, u) for u, v, _ in offered}
    full_cost = {(u, v): c for u, v, c in edges} | {(v, u): c for u, v, c in edges}
    class_cost = {
        (k, m): min(c for (u, v), c in full_cost.items() if {kind[u], kind[v]} == {k, m})
        for k in range(3)
        for m in range(k, 3)
        if any({kind[u], kind[v]} == {k, m} for (u, v) in full_cost)
    }

    def checked(u: int, v: int) -> bool:
        return (u, v) in in_graph or prices.cannot_improve(u, v, full_cost[u, v])

    missing = prices.improving_classes(
        kind, set(class_cost), lambda k, m: class_cost[k, m], checked
    )
    left_out_fit = all(
        prices.cannot_improve(u, v, c) for u, v, c in edges if (u, v) not in in_graph
    )
    if not missing:
        assert left_out_fit
        assert _cost_of(edges, mate) == _networkx_min_cost(n, edges)
    else:
        assert not left_out_fit
