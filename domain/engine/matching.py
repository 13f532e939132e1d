"""Exact minimum-cost perfect matching on small general graphs (Edmonds' blossom method).

This is a port of Joris van Rantwijk's maximum-weight matching (the primal-dual blossom
algorithm, the same one behind `networkx.max_weight_matching`), rewritten for integer
vertices 0..n-1 and integer weights. Non-trivial blossoms get ids n..2n-1, as in the
original array version, so every per-item table is a plain list. It runs in O(n³) and is
meant for the pairing engine's windows of a few dozen players, and for whole small fields.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

Edge = tuple[int, int]


def min_cost_perfect_matching(
    n: int, edges: Sequence[tuple[int, int, int]], start: Sequence[int] | None = None
) -> list[int] | None:
    """A perfect matching of least total cost, as `mate[v]`, or None if none exists.

    `edges` are `(u, v, cost)` with integer costs. Costs are turned into weights
    `top - cost` (all positive) and solved as a maximum-cardinality, maximum-weight
    matching: among matchings of the largest size, the heaviest is the cheapest.

    `start` (a guess, `start[v]` = partner or -1) warm-starts the solve: each vertex's
    dual begins at its heaviest edge, which keeps every edge's slack non-negative, and
    the guessed pairs on an edge that is then tight start matched. A good guess leaves
    a few free vertices, so a few stages instead of n/2. The answer is exact either way.
    """
    if start is None:
        if n % 2:
            return None
        if n == 0:
            return []
        top = max((cost for _, _, cost in edges), default=0) + 1
        mate = max_weight_matching(n, [(u, v, top - cost) for u, v, cost in edges], True)
        return mate if all(partner >= 0 for partner in mate) else None
    solved = min_cost_perfect_matching_with_prices(n, edges, start)
    return solved[0] if solved is not None else None


class Prices:
    """An optimality certificate for a min-cost perfect matching (LP duals, scaled).

    A pair (u, v) left out of the solved graph, at cost c, could not make the matching
    cheaper when `cannot_improve(u, v, c)`: its slack under these duals is non-negative,
    so the duals stay feasible with it added and the matching stays optimal.
    """

    def __init__(self, price: list[int], scale: int, parent: list[int], dual: dict[int, int]):
        self.price = price  # a vertex's price: the pair costs of its side, scaled
        self.scale = scale
        self._parent = parent
        self._dual = dual
        self._chains: dict[int, tuple[list[int], list[int]]] = {}

    def _chain(self, v: int) -> tuple[list[int], list[int]]:
        """The blossoms holding v, outermost first, and twice their duals summed so far."""
        chain = self._chains.get(v)
        if chain is None:
            blossoms = []
            b = self._parent[v]
            while b >= 0:
                blossoms.append(b)
                b = self._parent[b]
            blossoms.reverse()
            sums = [0]
            for b in blossoms:
                sums.append(sums[-1] + 2 * self._dual[b])
            chain = self._chains[v] = (blossoms, sums)
        return chain

    def cannot_improve(self, u: int, v: int, cost: int) -> bool:
        slack = self.scale * cost - self.price[u] - self.price[v]
        if slack >= 0:
            return True
        # Blossoms holding both ends add twice their dual to the slack. They are the
        # common start of the two chains (blossoms nest), found by bisection.
        chain_u, sums_u = self._chain(u)
        chain_v, _ = self._chain(v)
        low, high = 0, min(len(chain_u), len(chain_v))
        while low < high:
            middle = (low + high + 1) // 2
            if chain_u[middle - 1] == chain_v[middle - 1]:
                low = middle
            else:
                high = middle - 1
        return slack + sums_u[low] >= 0

    def improving_classes(
        self,
        kind: Sequence[int],
        candidates: set[tuple[int, int]],
        cost: Callable[[int, int], int],
        checked: Callable[[int, int], bool],
    ) -> set[tuple[int, int]]:
        """The class pairs (k, l), k <= l, of `candidates` holding a pair that could lower
        the matching's cost if it were offered.

        Vertex v is of class `kind[v]`; a pair of classes k and l costs at least
        `cost(k, l)`. `checked(u, v)` says a pair needs no look (in the solved graph, or
        dearer and cleared on its own). Pairs are looked at per blossom: two vertices under
        different children of blossom B share B and the blossoms around it, so their slack
        is `scale * cost + allowance(B) - price[u] - price[v]`. Dearest first with early
        stops, the work is about the pairs that do not fit, not about all pairs.
        """
        price = self.price
        children: dict[int, list[int]] = {-1: []}  # blossom (-1: the graph) -> children
        allowance: dict[int, int] = {-1: 0}
        under: dict[int, dict[int, list[int]]] = {}  # node -> class -> vertices under it
        for v in range(len(price)):
            chain, sums = self._chain(v)
            outer = -1
            for depth, b in enumerate(chain):
                if b not in allowance:
                    allowance[b] = sums[depth + 1]
                    children[b] = []
                    children[outer].append(b)
                under.setdefault(b, {}).setdefault(kind[v], []).append(v)
                outer = b
            children[outer].append(v)
            under[v] = {kind[v]: [v]}
        for classes in under.values():
            for members in classes.values():
                members.sort(key=lambda k: -price[k])
        found: set[tuple[int, int]] = set()
        for node, kids in children.items():
            # Per class, the two dearest children (by their dearest vertex of the class).
            best: dict[int, list[tuple[int, int]]] = {}
            for x in kids:
                for k, members in under[x].items():
                    pair = best.setdefault(k, [])
                    pair.append((price[members[0]], x))
                    pair.sort(reverse=True)
                    del pair[2:]
            present = sorted(best)
            extra = allowance[node]
            for a, k in enumerate(present):
                best_k = best[k]
                for m in present[a:]:
                    if (k, m) in found or (k, m) not in candidates:
                        continue
                    best_m = best[m]
                    limit = self.scale * cost(k, m) + extra
                    if best_k[0][0] + best_m[0][0] <= limit:
                        continue  # not even the two dearest could do better
                    top = max(
                        (pk + pm for pk, xk in best_k for pm, xm in best_m if xk != xm),
                        default=None,
                    )
                    if (
                        top is not None
                        and top > limit
                        and self._fits_badly(kids, under, k, m, limit, checked)
                    ):
                        found.add((k, m))
        return found

    def _fits_badly(
        self,
        kids: list[int],
        under: dict[int, dict[int, list[int]]],
        k: int,
        m: int,
        limit: int,
        checked: Callable[[int, int], bool],
    ) -> bool:
        price = self.price
        for first in kids:
            ups = under[first].get(k)
            if not ups:
                continue
            for second in kids:
                downs = under[second].get(m)
                if second == first or not downs:
                    continue
                top_down = price[downs[0]]
                for u in ups:
                    if price[u] + top_down <= limit:
                        break
                    for v in downs:
                        if price[u] + price[v] <= limit:
                            break
                        if not checked(u, v):
                            return True
        return False


def min_cost_perfect_matching_with_prices(
    n: int, edges: Sequence[tuple[int, int, int]], start: Sequence[int]
) -> tuple[list[int], Prices] | None:
    """The warm-started solve of `min_cost_perfect_matching`, with its certificate."""
    if n % 2:
        return None
    top = max((cost for _, _, cost in edges), default=0) + 1
    # Doubled weights keep every vertex dual even at the start, as the method needs.
    solver = _Blossom(n, [(u, v, 2 * (top - cost)) for u, v, cost in edges], True)
    solver.warm_start(start)
    mate = solver.solve()
    if any(partner < 0 for partner in mate):
        return None
    # slack = d_u + d_v - 4 * (top - c) = 4c - (2top - d_u) - (2top - d_v)
    price = [2 * top - dual for dual in solver.dualvar]
    return mate, Prices(price, 4, solver.parent, dict(solver.blossomdual))


def max_weight_matching(
    n: int, edges: Sequence[tuple[int, int, int]], max_cardinality: bool = False
) -> list[int]:
    """Maximum-weight matching of a graph on vertices 0..n-1: `mate[v]`, -1 when unmatched."""
    return _Blossom(n, edges, max_cardinality).solve()


class _Blossom:
    """State of one run of the primal-dual method (see the module docstring)."""

    def __init__(self, n: int, edges: Sequence[tuple[int, int, int]], maxcard: bool) -> None:
        self.n = n
        self.maxcard = maxcard
        self.adj: list[dict[int, int]] = [{} for _ in range(n)]
        for u, v, weight in edges:
            if u != v and weight > self.adj[u].get(v, weight - 1):
                self.adj[u][v] = weight
                self.adj[v][u] = weight
        maxweight = max((w for row in self.adj for w in row.values()), default=0)
        size = 2 * n
        self.mate = [-1] * n
        self.label = [0] * size
        self.labeledge: list[Edge | None] = [None] * size
        self.inblossom = list(range(n))
        self.parent = [-1] * size
        self.base = list(range(n)) + [-1] * n
        self.bestedge: list[Edge | None] = [None] * size
        self.dualvar = [max(maxweight, 0)] * n
        self.blossomdual: dict[int, int] = {}
        self.childs: list[list[int]] = [[] for _ in range(size)]
        self.bedges: list[list[Edge]] = [[] for _ in range(size)]
        self.mybestedges: list[list[Edge] | None] = [None] * size
        self.leafcache: list[list[int] | None] = [None] * size
        self.free = list(range(size - 1, n - 1, -1))
        self.allowedge: set[Edge] = set()
        self.queue: list[int] = []

    def warm_start(self, start: Sequence[int]) -> None:
        """Duals at each vertex's heaviest edge, and the tight pairs of `start` matched."""
        heaviest = [max(row.values(), default=0) for row in self.adj]
        self.dualvar = heaviest
        mate = self.mate
        for v, w in enumerate(start):
            if (
                v < w
                and mate[v] < 0
                and mate[w] < 0
                and heaviest[v] == heaviest[w] == self.adj[v].get(w)
            ):
                mate[v], mate[w] = w, v
        # Then free vertices with a tight edge between them.
        for v in range(self.n):
            if mate[v] < 0:
                for w, weight in self.adj[v].items():
                    if mate[w] < 0 and heaviest[v] == heaviest[w] == weight:
                        mate[v], mate[w] = w, v
                        break

    # -- helpers -------------------------------------------------------------------------

    def slack(self, v: int, w: int) -> int:
        return self.dualvar[v] + self.dualvar[w] - 2 * self.adj[v][w]

    def leaves(self, b: int) -> list[int]:
        """The vertices inside b (kept per blossom while it exists: blossoms only nest)."""
        if b < self.n:
            return [b]
        cached = self.leafcache[b]
        if cached is None:
            cached = [leaf for child in self.childs[b] for leaf in self.leaves(child)]
            self.leafcache[b] = cached
        return cached

    def _edge(self, item: int) -> Edge:
        edge = self.labeledge[item]
        assert edge is not None
        return edge

    def allow(self, v: int, w: int) -> None:
        self.allowedge.add((v, w))
        self.allowedge.add((w, v))

    # -- labels and blossoms --------------------------------------------------------------

    def assign_label(self, w: int, t: int, v: int) -> None:
        b = self.inblossom[w]
        self.label[w] = self.label[b] = t
        edge = (v, w) if v >= 0 else None
        self.labeledge[w] = self.labeledge[b] = edge
        self.bestedge[w] = self.bestedge[b] = None
        if t == 1:
            self.queue.extend(self.leaves(b))
        else:
            base = self.base[b]
            self.assign_label(self.mate[base], 1, base)

    def scan_blossom(self, v: int, w: int) -> int:
        """Trace back from v and w: the base of a new blossom, or -1 for an augmenting path."""
        path: list[int] = []
        base = -1
        while v >= 0:
            b = self.inblossom[v]
            if self.label[b] & 4:
                base = self.base[b]
                break
            path.append(b)
            self.label[b] = 5
            edge = self.labeledge[b]
            if edge is None:
                v = -1
            else:
                v = edge[0]
                b = self.inblossom[v]
                v = self._edge(b)[0]
            if w >= 0:
                v, w = w, v
        for b in path:
            self.label[b] = 1
        return base

    def add_blossom(self, base: int, v: int, w: int) -> None:
        inblossom, parent = self.inblossom, self.parent
        bb, bv, bw = inblossom[base], inblossom[v], inblossom[w]
        b = self.free.pop()
        self.base[b] = base
        parent[b] = -1
        parent[bb] = b
        path: list[int] = []
        edgs: list[Edge] = [(v, w)]
        while bv != bb:
            parent[bv] = b
            path.append(bv)
            edge = self._edge(bv)
            edgs.append(edge)
            bv = inblossom[edge[0]]
        path.append(bb)
        path.reverse()
        edgs.reverse()
        while bw != bb:
            parent[bw] = b
            path.append(bw)
            edge = self._edge(bw)
            edgs.append((edge[1], edge[0]))
            bw = inblossom[edge[0]]
        self.childs[b] = path
        self.bedges[b] = edgs
        self.label[b] = 1
        self.labeledge[b] = self.labeledge[bb]
        self.blossomdual[b] = 0
        for leaf in self.leaves(b):
            if self.label[inblossom[leaf]] == 2:
                self.queue.append(leaf)
            inblossom[leaf] = b
        self._collect_best_edges(b, path)

    def _collect_best_edges(self, b: int, path: list[int]) -> None:
        inblossom = self.inblossom
        bestedgeto: dict[int, Edge] = {}
        for bv in path:
            cached = self.mybestedges[bv] if bv >= self.n else None
            if cached is not None:
                nblist = cached
                self.mybestedges[bv] = None
            else:
                nblist = [(leaf, w) for leaf in self.leaves(bv) for w in self.adj[leaf]]
            for i, j in nblist:
                if inblossom[j] == b:
                    i, j = j, i
                bj = inblossom[j]
                if (
                    bj != b
                    and self.label[bj] == 1
                    and (bj not in bestedgeto or self.slack(i, j) < self.slack(*bestedgeto[bj]))
                ):
                    bestedgeto[bj] = (i, j)
            self.bestedge[bv] = None
        mine = list(bestedgeto.values())
        self.mybestedges[b] = mine
        best: Edge | None = None
        best_slack = 0
        for edge in mine:
            edge_slack = self.slack(*edge)
            if best is None or edge_slack < best_slack:
                best, best_slack = edge, edge_slack
        self.bestedge[b] = best

    def expand_blossom(self, b: int, endstage: bool) -> None:
        stack = [self._expand(b, endstage)]
        while stack:
            for child in stack[-1]:
                stack.append(self._expand(child, endstage))
                break
            else:
                stack.pop()

    def _expand(self, b: int, endstage: bool) -> Iterator[int]:
        n = self.n
        for s in self.childs[b]:
            self.parent[s] = -1
            if s >= n:
                if endstage and self.blossomdual[s] == 0:
                    yield s
                else:
                    for leaf in self.leaves(s):
                        self.inblossom[leaf] = s
            else:
                self.inblossom[s] = s
        if not endstage and self.label[b] == 2:
            self._relabel_expanded(b)
        self.label[b] = 0
        self.labeledge[b] = None
        self.bestedge[b] = None
        self.parent[b] = -1
        self.base[b] = -1
        del self.blossomdual[b]
        self.childs[b] = []
        self.bedges[b] = []
        self.mybestedges[b] = None
        self.leafcache[b] = None
        self.free.append(b)

    def _relabel_expanded(self, b: int) -> None:
        """Relabel the children of an expanded T-blossom along the even path to its base."""
        childs, bedges, label = self.childs[b], self.bedges[b], self.label
        entrychild = self.inblossom[self._edge(b)[1]]
        j = childs.index(entrychild)
        if j & 1:
            j -= len(childs)
            jstep = 1
        else:
            jstep = -1
        v, w = self._edge(b)
        while j != 0:
            if jstep == 1:
                p, q = bedges[j]
            else:
                q, p = bedges[j - 1]
            label[w] = 0
            label[q] = 0
            self.assign_label(w, 2, v)
            self.allow(p, q)
            j += jstep
            if jstep == 1:
                v, w = bedges[j]
            else:
                w, v = bedges[j - 1]
            self.allow(v, w)
            j += jstep
        bw = childs[j]
        label[w] = label[bw] = 2
        self.labeledge[w] = self.labeledge[bw] = (v, w)
        self.bestedge[bw] = None
        j += jstep
        while childs[j] != entrychild:
            bv = childs[j]
            if label[bv] == 1:
                j += jstep
                continue
            leaf = bv
            if bv >= self.n:
                for leaf in self.leaves(bv):
                    if label[leaf]:
                        break
            if label[leaf]:
                label[leaf] = 0
                label[self.mate[self.base[bv]]] = 0
                self.assign_label(leaf, 2, self._edge(leaf)[0])
            j += jstep

    def augment_blossom(self, b: int, v: int) -> None:
        stack = [self._augment(b, v)]
        while stack:
            for args in stack[-1]:
                stack.append(self._augment(*args))
                break
            else:
                stack.pop()

    def _augment(self, b: int, v: int) -> Iterator[tuple[int, int]]:
        n = self.n
        t = v
        while self.parent[t] != b:
            t = self.parent[t]
        if t >= n:
            yield (t, v)
        childs = self.childs[b]
        i = j = childs.index(t)
        if i & 1:
            j -= len(childs)
            jstep = 1
        else:
            jstep = -1
        while j != 0:
            j += jstep
            t = self.childs[b][j]
            if jstep == 1:
                w, x = self.bedges[b][j]
            else:
                x, w = self.bedges[b][j - 1]
            if t >= n:
                yield (t, w)
            j += jstep
            t = self.childs[b][j]
            if t >= n:
                yield (t, x)
            self.mate[w] = x
            self.mate[x] = w
        self.childs[b] = self.childs[b][i:] + self.childs[b][:i]
        self.bedges[b] = self.bedges[b][i:] + self.bedges[b][:i]
        self.base[b] = self.base[self.childs[b][0]]

    def augment_matching(self, v: int, w: int) -> None:
        for s, j in ((v, w), (w, v)):
            while True:
                bs = self.inblossom[s]
                if bs >= self.n:
                    self.augment_blossom(bs, s)
                self.mate[s] = j
                edge = self.labeledge[bs]
                if edge is None:
                    break
                t = edge[0]
                bt = self.inblossom[t]
                s, j = self._edge(bt)
                if bt >= self.n:
                    self.augment_blossom(bt, j)
                self.mate[j] = s

    # -- main loop ------------------------------------------------------------------------

    def solve(self) -> list[int]:
        for _ in range(self.n):
            if not self._stage():
                break
        return self.mate

    def _stage(self) -> bool:
        """One stage: grow alternating trees until an augmentation (True) or none (False)."""
        size = 2 * self.n
        self.label[:] = [0] * size
        self.labeledge[:] = [None] * size
        self.bestedge[:] = [None] * size
        for b in self.blossomdual:
            self.mybestedges[b] = None
        self.allowedge.clear()
        self.queue.clear()
        for v in range(self.n):
            if self.mate[v] < 0 and self.label[self.inblossom[v]] == 0:
                self.assign_label(v, 1, -1)
        augmented = False
        while True:
            augmented = self._scan_queue()
            if augmented or not self._dual_step():
                break
        if augmented:
            for b in list(self.blossomdual):
                if (
                    b in self.blossomdual
                    and self.parent[b] == -1
                    and self.label[b] == 1
                    and self.blossomdual[b] == 0
                ):
                    self.expand_blossom(b, True)
        return augmented

    def _scan_queue(self) -> bool:
        label, inblossom, bestedge = self.label, self.inblossom, self.bestedge
        while self.queue:
            v = self.queue.pop()
            for w in self.adj[v]:
                bv = inblossom[v]
                bw = inblossom[w]
                if bv == bw:
                    continue
                kslack = 0
                if (v, w) not in self.allowedge:
                    kslack = self.slack(v, w)
                    if kslack <= 0:
                        self.allow(v, w)
                if (v, w) in self.allowedge:
                    if label[bw] == 0:
                        self.assign_label(w, 2, v)
                    elif label[bw] == 1:
                        base = self.scan_blossom(v, w)
                        if base >= 0:
                            self.add_blossom(base, v, w)
                        else:
                            self.augment_matching(v, w)
                            return True
                    elif label[w] == 0:
                        label[w] = 2
                        self.labeledge[w] = (v, w)
                elif label[bw] == 1:
                    best = bestedge[bv]
                    if best is None or kslack < self.slack(*best):
                        bestedge[bv] = (v, w)
                elif label[w] == 0:
                    best = bestedge[w]
                    if best is None or kslack < self.slack(*best):
                        bestedge[w] = (v, w)
        return False

    def _dual_step(self) -> bool:
        """Change the duals by the largest safe delta; False when the stage is over."""
        n, label, inblossom, bestedge = self.n, self.label, self.inblossom, self.bestedge
        deltatype = -1
        delta = 0
        deltaedge: Edge | None = None
        deltablossom = -1
        if not self.maxcard:
            deltatype = 1
            delta = min(self.dualvar)
        for v in range(n):
            best = bestedge[v]
            if label[inblossom[v]] == 0 and best is not None:
                d = self.slack(*best)
                if deltatype == -1 or d < delta:
                    delta, deltatype, deltaedge = d, 2, best
        for b in [*range(n), *self.blossomdual]:
            best = bestedge[b]
            if self.parent[b] == -1 and label[b] == 1 and best is not None:
                d = self.slack(*best) // 2
                if deltatype == -1 or d < delta:
                    delta, deltatype, deltaedge = d, 3, best
        for b, dual in self.blossomdual.items():
            if self.parent[b] == -1 and label[b] == 2 and (deltatype == -1 or dual < delta):
                delta, deltatype, deltablossom = dual, 4, b
        if deltatype == -1:
            # No further improvement possible; max-cardinality optimum reached.
            deltatype = 1
            delta = max(0, min(self.dualvar))
        for v in range(n):
            top_label = label[inblossom[v]]
            if top_label == 1:
                self.dualvar[v] -= delta
            elif top_label == 2:
                self.dualvar[v] += delta
        for b in self.blossomdual:
            if self.parent[b] == -1:
                if label[b] == 1:
                    self.blossomdual[b] += delta
                elif label[b] == 2:
                    self.blossomdual[b] -= delta
        if deltatype == 1:
            return False
        if deltatype in (2, 3):
            assert deltaedge is not None
            v, w = deltaedge
            self.allow(v, w)
            self.queue.append(v)
        else:
            self.expand_blossom(deltablossom, False)
        return True
