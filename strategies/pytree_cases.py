"""The drawn examples of `tests/test_pytrees.py`: a program whose inputs are packed into
drawn trees (`pytrees.argument_trees`) and whose outputs into another.

Programs use the SUT's operations, no constructs.  Each strategy takes the
SUT's `Vocabulary` first.
"""

from __future__ import annotations

from typing import NamedTuple

from hypothesis import strategies as st

from strategies.cases import argnums, draw_batch, draw_out_axes
from strategies.language.inputs import directions
from strategies.language.vocabulary import Vocabulary
from strategies.program import ProgramCase, programs
from strategies.pytrees import argument_trees, build, order, relabel, trees
from strategies.wrappers import argnums_tuple, named


class PackedCase(NamedTuple):
    case: ProgramCase
    arguments: tuple  # one tree of input labels per positional argument of g
    output: object  # the tree of output labels g returns


@st.composite
def packed_cases(draw, vocabulary: Vocabulary, **options) -> PackedCase:
    case = draw(programs(ops=vocabulary.operations, **options), label="program")
    arguments = draw(argument_trees(len(case.args)), label="argument trees")
    output = draw(trees(range(len(case.program.outputs))), label="output tree")
    return PackedCase(case, arguments, output)


class TransformedPackedCase(NamedTuple):
    """A packed case, one transformation of it, and what that transformation takes:
    the inputs by name (x.., then tangents t.. or cotangents u..), the loss weights
    w.. (grad), argnums over g's packed arguments, and the same over f's flat inputs."""

    packed: PackedCase
    transform: str
    inputs: dict
    constants: dict | None
    argnums: int | tuple[int, ...] | None
    flat_argnums: tuple[int, ...] | None


@st.composite
def transformed_packed_cases(draw, vocabulary: Vocabulary,
                             transforms: tuple[str, ...]) -> TransformedPackedCase:
    """A packed case under one of `transforms` (those the SUT supports)."""
    packed = draw(packed_cases(vocabulary), label="packed")
    transform = draw(st.sampled_from(transforms), label="transformation")
    case, program = packed.case, packed.case.program
    inputs = named("x", case.args)
    constants, nums, flat_argnums = None, None, None
    if transform == "jvp":
        tangents = draw(directions([x.shape for x in case.args]), label="tangents")
        inputs |= named("t", tangents)
    if transform == "vjp":
        cotangents = draw(directions([y.shape for y in program.outputs]), label="cotangents")
        inputs |= named("u", cotangents)
    if transform == "grad":
        weights = draw(directions([y.shape for y in program.outputs]), label="weights")
        constants = named("w", weights)
        nums = draw(argnums(len(packed.arguments)), label="argnums over g's args")
        flat_argnums = tuple(i for k in argnums_tuple(nums) for i in order(packed.arguments[k]))
    return TransformedPackedCase(packed, transform, inputs, constants, nums, flat_argnums)


class VmapPackedCase(NamedTuple):
    """A packed case valid at every batch element, per-leaf axes, in_axes as prefix
    trees (source), out_axes, and the inputs batched along their axes."""

    packed: PackedCase
    axes: tuple
    in_axes: str
    out_axes: int
    batched: tuple


@st.composite
def vmap_packed_cases(draw, vocabulary: Vocabulary) -> VmapPackedCase:
    size = draw(st.integers(2, 3), label="batch size")
    packed = draw(packed_cases(vocabulary, variants=size), label="packed program")
    case = packed.case
    axes, batched = draw_batch(draw, case)
    entries = []
    for k, tree in enumerate(packed.arguments):
        leaf_axes = {axes[i] for i in order(tree)}
        whole = len(leaf_axes) == 1 and draw(st.booleans(), label=f"one axis for a{k}")
        entries.append(repr(leaf_axes.pop()) if whole
                       else build(relabel(tree, lambda i: axes[i]), repr))
    in_axes = f"({entries[0]},)" if len(entries) == 1 else f"({', '.join(entries)})"
    return VmapPackedCase(packed, axes, in_axes, draw_out_axes(draw, case), batched)
