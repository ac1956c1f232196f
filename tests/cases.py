"""The drawn examples the properties share: programs plus what each transformation needs.

Programs come from `strategies.program.programs` over `VOCABULARY`, the
operations and constructs the SUT supports, or `REVERSE_VOCABULARY`, those
it can also differentiate in reverse mode (conftest sets both from
`__sut_unsupported__` before any test runs; `st.deferred` reads them when
drawing).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from hypothesis import strategies as st

from strategies.inputs import directions
from strategies.language import LANGUAGE, REVERSE_FEATURES
from strategies.operands import choose, index
from strategies.program import ProgramCase, programs, vocabulary
from strategies.wrappers import named

VOCABULARY: tuple[str, ...] = tuple(LANGUAGE)
REVERSE_VOCABULARY: tuple[str, ...] = tuple(LANGUAGE)


def set_vocabularies(unsupported) -> None:
    """What to generate for an SUT that declares `unsupported` features."""
    global VOCABULARY, REVERSE_VOCABULARY
    VOCABULARY = vocabulary(unsupported)
    REVERSE_VOCABULARY = tuple(name for name in VOCABULARY
                               if not REVERSE_FEATURES.get(name, frozenset()) & set(unsupported))

# Operations that act elementwise (with broadcasting) and so accept inputs of
# any shape: a program over these can be called again on bigger inputs.
ELEMENTWISE = ("add", "subtract", "multiply", "divide", "negative", "sin", "cos", "tanh",
               "exp", "log", "sqrt", "integer_pow", "where", "maximum")


def program_cases(*, reverse=False, **options) -> st.SearchStrategy[ProgramCase]:
    """`programs(**options)` over the SUT's vocabulary (`reverse`: one it can also
    differentiate in reverse mode)."""
    return st.deferred(lambda: programs(ops=REVERSE_VOCABULARY if reverse else VOCABULARY,
                                        **options))


def inputs_of(case: ProgramCase, **more) -> dict:
    """The program's inputs x0.., then each of `more` (tangents t=, ..) under its prefix."""
    inputs = named("x", case.args)
    for prefix, arrays in more.items():
        inputs |= named(prefix, arrays)
    return inputs


def input_shapes_of(case: ProgramCase):
    return [x.shape for x in case.args]


def output_shapes_of(case: ProgramCase):
    return [out.shape for out in case.program.outputs]


class JvpCase(NamedTuple):
    case: ProgramCase
    tangents: tuple[np.ndarray, ...]


@st.composite
def jvp_cases(draw, **options) -> JvpCase:
    case = draw(program_cases(**options))
    return JvpCase(case, draw(directions(input_shapes_of(case)), label="tangents"))


class GradCase(NamedTuple):
    case: ProgramCase
    argnums: int | tuple[int, ...]
    weights: tuple[np.ndarray, ...]
    directions: tuple[np.ndarray, ...]


@st.composite
def argnums(draw, count: int):
    """An int, or a sorted tuple of distinct argument positions; shrinks towards 0.

    Every draw has fixed bounds (see `strategies.operands.index`).
    """
    if not draw(st.booleans(), label="argnums as a tuple"):
        return index(draw, count, label="argnum")
    chosen = tuple(i for i in range(count) if draw(st.booleans(), label=f"argnums has {i}"))
    return chosen or (index(draw, count, label="argnum"),)


@st.composite
def grad_cases(draw, *, reverse=True, **options) -> GradCase:
    case = draw(program_cases(reverse=reverse, **options))
    nums = draw(argnums(len(case.args)), label="argnums")
    chosen = nums if isinstance(nums, tuple) else (nums,)
    weights = draw(directions(output_shapes_of(case)), label="loss weights")
    along = draw(directions([case.args[i].shape for i in chosen]), label="directions")
    return GradCase(case, nums, weights, along)


class VjpCase(NamedTuple):
    case: ProgramCase
    cotangents: tuple[np.ndarray, ...]
    directions: tuple[np.ndarray, ...]


@st.composite
def vjp_cases(draw) -> VjpCase:
    case = draw(program_cases(reverse=True))
    cotangents = draw(directions(output_shapes_of(case)), label="cotangents")
    return VjpCase(case, cotangents, draw(directions(input_shapes_of(case)), label="directions"))


class VmapCase(NamedTuple):
    case: ProgramCase
    in_axes: int | tuple
    out_axes: int
    batched: tuple[np.ndarray | None, ...]


def valid_axes(rank: int) -> list[int]:
    """Batch-axis positions for an array of `rank` (before batching), simplest first."""
    return [a for a in (0, 1, -1, 2, -2, 3) if -(rank + 1) <= a <= rank]


def draw_batch(draw, case) -> tuple[tuple, tuple]:
    """Per input of `case` (drawn with one variant per batch element): its batch
    axis, None for an input every element shares, and the input batched along it."""
    axes = tuple(None if shared else choose(draw, valid_axes(x.ndim), label=f"axis x{i}")
                 for i, (x, shared) in enumerate(zip(case.args, case.shared)))
    batched = tuple(
        x if axis is None else np.stack([variant[i] for variant in case.variants], axis=axis)
        for i, (x, axis) in enumerate(zip(case.args, axes))
    )
    return axes, batched


def draw_out_axes(draw, case) -> int:
    """One out_axes valid for every output of `case`."""
    return choose(draw, valid_axes(min(len(v.shape) for v in case.program.outputs)),
                  label="out_axes")


@st.composite
def vmap_cases(draw) -> VmapCase:
    size = draw(st.integers(2, 3), label="batch size")
    case = draw(program_cases(variants=size))
    axes, batched = draw_batch(draw, case)
    uniform = len(set(axes)) == 1 and draw(st.booleans(), label="in_axes as one int")
    return VmapCase(case, axes[0] if uniform else axes, draw_out_axes(draw, case), batched)


class TwoShapeCase(NamedTuple):
    case: ProgramCase
    bigger: tuple[np.ndarray, ...]


@st.composite
def two_shape_cases(draw) -> TwoShapeCase:
    """An elementwise program on inputs of one shape, and the same values in a bigger shape.

    The bigger inputs stack each input with its own flip: the same values, so
    every domain margin still holds, in a new shape a jit cache must notice.
    """
    shape = draw(st.lists(st.integers(1, 4), max_size=2).map(tuple), label="shape")
    count = draw(st.integers(1, 3), label="inputs")
    ops = tuple(op for op in ELEMENTWISE if op in VOCABULARY)
    case = draw(programs(ops=ops, input_shapes=st.just((shape,) * count)))
    return TwoShapeCase(case, tuple(np.stack([x, np.flip(x)]) for x in case.args))
