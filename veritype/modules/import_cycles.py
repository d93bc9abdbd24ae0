"""Import cycles: the strongly connected components of a graph of modules.

Both the parallel runner (engine/workers.py: a cycle is checked in one
worker) and the cache (cache/closures.py: a cycle's entries are valid or
invalid together) group modules this way. Tarjan's algorithm, iterative, so
that a chain of thousands of modules does not exhaust the stack.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable


def strongly_connected(nodes: Iterable[str], successors: Callable[[str], list[str]]) -> list[list[str]]:
    """The components of the graph reachable from `nodes`, each a list of its
    members. A component comes after every component it has an edge to (the
    order Tarjan's algorithm finds them in), so a caller deciding something
    per component can rely on the answers of those it depends on."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[str, int]] = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            succ = successors(node)
            if i < len(succ):
                work.append((node, i + 1))
                nxt = succ[i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                members: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                components.append(members)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return components
