"""Pytrees around generated programs: tuples, lists and dicts, nested one level.

A tree here is a *shape* of containers with labels at the leaves: an `int`
(which input or output sits there) or a `Node` (a tuple, list or dict of
subtrees; a dict's keys are kept in the order they are written, which need
not be sorted).  Three functions give it meaning:

* `build(tree, name)`: the Python expression that builds it, `name(label)`
  at each leaf: `{"b": x0, "a": (x1,)}`;
* `reads(tree, root)`: for each label, the expression that reads it back
  from the value `root`: `{0: 'a0["b"]', 1: 'a0["a"][0]'}`;
* `order(tree)`: the labels in the order JAX flattens the tree (a dict's
  entries by sorted key): `[1, 0]` for the tree above.

`trees(labels)` draws one; `tests/test_pytrees.py` packs a program's inputs
into drawn trees and its outputs into another, and holds every
transformation of the packed program to the unpacked one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

KINDS = ("tuple", "list", "dict")
KEYS = ("a", "b", "c")


class Node(NamedTuple):
    kind: str  # "tuple", "list" or "dict"
    children: tuple
    keys: tuple[str, ...] = ()  # a dict's keys, as written (children in the same order)


def build(tree, name: Callable[[int], str]) -> str:
    """The expression that builds `tree`, with `name(label)` at each leaf."""
    if not isinstance(tree, Node):
        return name(tree)
    items = [build(child, name) for child in tree.children]
    if tree.kind == "dict":
        return "{" + ", ".join(f"{key!r}: {item}" for key, item in zip(tree.keys, items)) + "}"
    if tree.kind == "list":
        return "[" + ", ".join(items) + "]"
    return f"({items[0]},)" if len(items) == 1 else "(" + ", ".join(items) + ")"


def reads(tree, root: str) -> dict[int, str]:
    """For each label, the expression that reads its leaf from the value `root`."""
    if not isinstance(tree, Node):
        return {tree: root}
    found = {}
    for i, child in enumerate(tree.children):
        index = repr(tree.keys[i]) if tree.kind == "dict" else str(i)
        found |= reads(child, f"{root}[{index}]")
    return found


def order(tree) -> list[int]:
    """The labels in JAX's flattening order: depth first, a dict's entries by sorted key."""
    if not isinstance(tree, Node):
        return [tree]
    children = tree.children
    if tree.kind == "dict":
        children = [child for _, child in sorted(zip(tree.keys, children))]
    return [label for child in children for label in order(child)]


def relabel(tree, label: Callable[[int], object]):
    """`tree` with `label(old)` at each leaf (per-leaf values, e.g. vmap axes)."""
    if not isinstance(tree, Node):
        return label(tree)
    return tree._replace(children=tuple(relabel(c, label) for c in tree.children))


@st.composite
def trees(draw, labels, *, depth: int = 2):
    """A tree over `labels` (kept in order at the leaves), containers `depth` deep at most.

    * several labels always make a container; one makes a bare leaf or a
      container of one (depth permitting);
    * a dict's keys are the first of "a", "b", "c", written in drawn order.

    Examples shrink towards bare leaves and flat tuples, keys in sorted order.
    """
    labels = list(labels)
    if not labels or depth < 0 or (depth == 0 and len(labels) > 1):
        raise InvalidArgument(f"labels={labels!r} cannot fill a tree of depth={depth}")
    if len(labels) == 1 and (depth == 0 or not draw(st.booleans(), label="container")):
        return labels[0]
    kind = draw(st.sampled_from(KINDS), label="container kind")
    children, rest = [], labels
    while rest:
        take = draw(st.integers(1, len(rest)), label="leaves in child") if depth > 1 else 1
        children.append(draw(trees(rest[:take], depth=depth - 1), label="child"))
        rest = rest[take:]
    keys = ()
    if kind == "dict":
        keys = tuple(draw(st.permutations(KEYS[: len(children)]), label="keys as written"))
    return Node(kind, tuple(children), keys)


@st.composite
def argument_trees(draw, count: int, *, depth: int = 2) -> tuple:
    """`count` inputs (labels 0..count-1, in order) packed into one tree per positional
    argument.  Examples shrink towards one bare argument per input."""
    if count < 1:
        raise InvalidArgument(f"count={count} must be at least 1")
    packed, rest = [], list(range(count))
    while rest:
        take = draw(st.integers(1, len(rest)), label="inputs in argument")
        packed.append(draw(trees(rest[:take], depth=depth), label="argument"))
        rest = rest[take:]
    return tuple(packed)
