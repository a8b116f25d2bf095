"""Joint identification: which island lies in which cell, each island exactly once.

Cards are identified together rather than one by one: a cell whose best match is taken by a
better-fitting cell must take its second choice. The optimal one-to-one assignment of a
square cost matrix is the Hungarian algorithm (Kuhn-Munkres, with potentials, O(n^3)); we
write it with numpy because scipy is not a dependency, and n = 25 makes it cheap.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
F64 = NDArray[np.float64]
IntArray = NDArray[np.intp]


def solve(cost: NDArray[np.floating]) -> IntArray:
    """Column chosen for each row of a square ``cost`` matrix, minimising the total cost.

    >>> solve(np.array([[4.0, 1.0, 3.0], [2.0, 0.0, 5.0], [3.0, 2.0, 2.0]])).tolist()
    [1, 0, 2]
    """
    c = np.asarray(cost, dtype=np.float64)
    n, m = c.shape
    if n != m:
        raise ValueError(f"cost matrix must be square, got {n}x{m}")
    if not np.all(np.isfinite(c)):
        raise ValueError("cost matrix has non-finite entries")
    # Most photos: every card fits its own island best, strictly, and no two cards the same
    # one. No other assignment then costs as little, so it is the Hungarian's answer,
    # without its 25 rounds of numpy steps (0.7 ms a reading).
    best = c.argmin(axis=1)
    if n >= 2 and len(np.unique(best)) == n:
        two = np.partition(c, 1, axis=1)
        if bool((two[:, 0] < two[:, 1]).all()):
            out: IntArray = best
            return out
    return _hungarian(c)


def _hungarian(c: F64) -> IntArray:
    """:func:`solve` by the Hungarian algorithm (a square, finite float64 ``c``)."""
    n = len(c)
    # Potentials u (rows) and v (columns); p[j] = row matched to column j (1-based, 0 = none).
    u = np.zeros(n + 1)
    v = np.zeros(n + 1)
    p = np.zeros(n + 1, dtype=np.intp)
    way = np.zeros(n + 1, dtype=np.intp)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = np.full(n + 1, np.inf)
        used = np.zeros(n + 1, dtype=bool)
        while True:
            used[j0] = True
            i0 = p[j0]
            # Reduced costs of row i0 against every free column, updated in one vector step.
            cur = c[i0 - 1] - u[i0] - v[1:]
            free = ~used[1:]
            better = free & (cur < minv[1:])
            minv[1:][better] = cur[better]
            way[1:][better] = j0
            cand = np.where(free, minv[1:], np.inf)
            j1 = int(np.argmin(cand)) + 1
            delta = cand[j1 - 1]
            used_idx = np.nonzero(used)[0]
            u[p[used_idx]] += delta
            v[used_idx] -= delta
            minv[1:][free] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    rows = np.empty(n, dtype=np.intp)
    rows[p[1:] - 1] = np.arange(n)
    return rows


def swap_margins(cost: NDArray[np.floating], choice: IntArray) -> FloatArray:
    """For each row, the least extra cost of exchanging its column with another row's.

    A misread nearly always confuses two cards with each other, so the cheapest pairwise
    exchange measures how close the assignment came to a different answer for that cell.
    """
    c = np.asarray(cost, dtype=np.float64)
    own = c[np.arange(len(choice)), choice]
    # swapped[i, j] = cost of row i taking row j's column.
    swapped = c[:, choice]
    extra = swapped + swapped.T - own[:, None] - own[None, :]
    np.fill_diagonal(extra, np.inf)
    result: FloatArray = extra.min(axis=1)
    return result


def row_margins(cost: NDArray[np.floating], choice: IntArray) -> FloatArray:
    """For each row, how much worse its second-best column is than the one it was given."""
    c = np.asarray(cost, dtype=np.float64)
    own = c[np.arange(len(choice)), choice]
    masked = c.copy()
    masked[np.arange(len(choice)), choice] = np.inf
    result: FloatArray = masked.min(axis=1) - own
    return result


def alternatives(cost: F64, choice: NDArray[np.intp]) -> F64:
    """For each row, the least extra total cost of an assignment giving it another column.

    Exact: that assignment differs from the optimum by cycles of rows passing their columns
    on, and the cheapest cycle through a row's pair is a shortest path (Floyd-Warshall on
    25 nodes; no negative cycle exists because the assignment is optimal).
    """
    c = np.asarray(cost, np.float64)
    n = len(choice)
    owner = np.empty(n, np.intp)
    owner[choice] = np.arange(n)
    # move[a, b]: extra cost when the row holding column a takes column b instead.
    move = c[owner] - c[owner, np.arange(n)][:, None]
    dist = move.copy()
    np.fill_diagonal(dist, 0.0)
    for k in range(n):
        dist = np.minimum(dist, dist[:, k : k + 1] + dist[k : k + 1, :])
    step = move.copy()
    np.fill_diagonal(step, np.inf)
    cycle = (step + dist.T).min(axis=1)  # column a: leave it, come back to it
    out: F64 = np.maximum(cycle[choice], 0.0)
    return out
