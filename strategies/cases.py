"""The drawn examples the transformation properties share: a program plus what each
transformation needs (tangents, argnums and weights, cotangents, batch axes).

Every strategy takes the SUT's `Vocabulary` (`strategies/language/vocabulary.py`)
first: programs use `vocabulary.ops`, or `vocabulary.reverse_ops` where the
property differentiates in reverse mode.  Properties draw them in their body
(`data.draw(jvp_cases(vocabulary))`) from conftest.py's `vocabulary` fixture.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from hypothesis import strategies as st

from strategies.language.inputs import directions
from strategies.language.operands import choose, index
from strategies.language.shapes import batch_axes
from strategies.language.vocabulary import Vocabulary
from strategies.program import ProgramCase, programs
from strategies.wrappers import argnums_tuple, named


def program_cases(vocabulary: Vocabulary, *, reverse=False,
                  **options) -> st.SearchStrategy[ProgramCase]:
    """`programs(**options)` over the SUT's vocabulary (`reverse`: the part it can also
    differentiate in reverse mode)."""
    return programs(ops=vocabulary.reverse_ops if reverse else vocabulary.ops, **options)


def inputs_of(case: ProgramCase, **more) -> dict:
    """The program's inputs x0.., then each of `more` (tangents t=, ..) under its prefix."""
    inputs = named("x", case.args)
    for prefix, arrays in more.items():
        inputs |= named(prefix, arrays)
    return inputs


def full_direction(args, argnums, along) -> list[np.ndarray]:
    """A direction over all inputs: `along` on the differentiated ones, zero elsewhere."""
    full = [np.zeros_like(x) for x in args]
    for position, v in zip(argnums_tuple(argnums), along):
        full[position] = v
    return full


def input_shapes_of(case: ProgramCase):
    return [x.shape for x in case.args]


def output_shapes_of(case: ProgramCase):
    return [out.shape for out in case.program.outputs]


class JvpCase(NamedTuple):
    case: ProgramCase
    tangents: tuple[np.ndarray, ...]


@st.composite
def jvp_cases(draw, vocabulary: Vocabulary, **options) -> JvpCase:
    case = draw(program_cases(vocabulary, **options))
    return JvpCase(case, draw(directions(input_shapes_of(case)), label="tangents"))


class GradCase(NamedTuple):
    case: ProgramCase
    argnums: int | tuple[int, ...]
    weights: tuple[np.ndarray, ...]
    directions: tuple[np.ndarray, ...]


# `stacks._draw_argnums` draws the same choices inline, under labels naming
# its layer; it stays separate because merging the two changes what
# Hypothesis generates (see its docstring).
@st.composite
def argnums(draw, count: int):
    """An int, or a sorted tuple of distinct argument positions; shrinks towards 0.

    Every draw has fixed bounds (see `strategies.language.operands.index`).
    """
    if not draw(st.booleans(), label="argnums as a tuple"):
        return index(draw, count, label="argnum")
    chosen = tuple(i for i in range(count) if draw(st.booleans(), label=f"argnums has {i}"))
    return chosen or (index(draw, count, label="argnum"),)


def draw_grad_parts(draw, case) -> tuple:
    """What grad of `case`'s loss needs: (argnums, loss weights, a direction on each
    differentiated input)."""
    nums = draw(argnums(len(case.args)), label="argnums")
    weights = draw(directions(output_shapes_of(case)), label="loss weights")
    along = draw(directions([case.args[i].shape for i in argnums_tuple(nums)]),
                 label="directions")
    return nums, weights, along


@st.composite
def grad_cases(draw, vocabulary: Vocabulary, *, reverse=True, **options) -> GradCase:
    case = draw(program_cases(vocabulary, reverse=reverse, **options))
    return GradCase(case, *draw_grad_parts(draw, case))


class VjpCase(NamedTuple):
    case: ProgramCase
    cotangents: tuple[np.ndarray, ...]
    directions: tuple[np.ndarray, ...]


@st.composite
def vjp_cases(draw, vocabulary: Vocabulary, **options) -> VjpCase:
    case = draw(program_cases(vocabulary, reverse=True, **options))
    cotangents = draw(directions(output_shapes_of(case)), label="cotangents")
    return VjpCase(case, cotangents, draw(directions(input_shapes_of(case)), label="directions"))


class VmapCase(NamedTuple):
    case: ProgramCase
    in_axes: int | tuple
    out_axes: int
    batched: tuple[np.ndarray | None, ...]


def draw_batch(draw, case, *, last_first: bool = False) -> tuple[tuple, tuple]:
    """Per input of `case` (drawn with one variant per batch element): its batch
    axis, None for an input every element shares, and the input batched along it.
    `last_first`: the simplest draw batches along the last axis (`batch_axes`)."""
    axes = tuple(None if shared else choose(draw, batch_axes(x.ndim, last_first=last_first),
                                            label=f"axis x{i}")
                 for i, (x, shared) in enumerate(zip(case.args, case.shared)))
    return axes, batch_inputs(case, axes)


def batch_inputs(case, axes) -> tuple:
    """Each input of `case` with its variants stacked along its axis (as is where None)."""
    return tuple(
        x if axis is None else np.stack([variant[i] for variant in case.variants], axis=axis)
        for i, (x, axis) in enumerate(zip(case.args, axes))
    )


def per_input_axes(in_axes, count: int) -> tuple:
    """`in_axes` as one entry per input of `count` (it may be one int for all)."""
    return in_axes if isinstance(in_axes, tuple) else (in_axes,) * count


def draw_out_axes(draw, case, *, last_first: bool = False) -> int:
    """One out_axes valid for every output of `case` (`last_first` as `draw_batch`)."""
    rank = min(len(v.shape) for v in case.program.outputs)
    return choose(draw, batch_axes(rank, last_first=last_first), label="out_axes")


@st.composite
def vmap_cases(draw, vocabulary: Vocabulary) -> VmapCase:
    size = draw(st.integers(2, 3), label="batch size")
    case = draw(program_cases(vocabulary, variants=size))
    axes, batched = draw_batch(draw, case)
    uniform = len(set(axes)) == 1 and draw(st.booleans(), label="in_axes as one int")
    return VmapCase(case, axes[0] if uniform else axes, draw_out_axes(draw, case), batched)


class TwoShapeCase(NamedTuple):
    case: ProgramCase
    bigger: tuple[np.ndarray, ...]


@st.composite
def two_shape_cases(draw, vocabulary: Vocabulary) -> TwoShapeCase:
    """An elementwise program on inputs of one shape, and the same values in a bigger shape.

    The bigger inputs stack each input with its own flip: the same values, so
    every domain margin still holds, in a new shape a jit cache must notice.
    """
    shape = draw(st.lists(st.integers(1, 4), max_size=2).map(tuple), label="shape")
    count = draw(st.integers(1, 3), label="inputs")
    case = draw(programs(ops=vocabulary.elementwise, input_shapes=st.just((shape,) * count)))
    return TwoShapeCase(case, stacked_with_flips(case.args))


def stacked_with_flips(args) -> tuple[np.ndarray, ...]:
    return tuple(np.stack([x, np.flip(x)]) for x in args)
