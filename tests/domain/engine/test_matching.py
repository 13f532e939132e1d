"""The exact blossom matcher used by Swiss pairing, checked against networkx (R-FMT-3)."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine.matching import max_weight_matching, min_cost_perfect_matching


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
