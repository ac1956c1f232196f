"""The drawn examples of `tests/test_identities.py`: a program and what each identity
between the SUT's own transformations needs.

Each strategy takes the SUT's `Vocabulary` first (see `strategies/cases.py`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from hypothesis import strategies as st

from strategies.cases import (
    ProgramCase,
    argnums,
    draw_batch,
    input_shapes_of,
    output_shapes_of,
    program_cases,
    vmap_cases,
)
from strategies.language.inputs import GRID, directions
from strategies.language.operands import choose
from strategies.language.shapes import batch_axes
from strategies.language.transformations import REVERSE
from strategies.language.vocabulary import Vocabulary
from strategies.wrappers import argnums_tuple, named


class AdjointCase(NamedTuple):
    case: ProgramCase
    tangents: tuple[np.ndarray, ...]
    cotangents: tuple[np.ndarray, ...]


@st.composite
def adjoint_cases(draw, vocabulary: Vocabulary) -> AdjointCase:
    """Both sides of `<u, J t> == <J^T u, t>`."""
    case = draw(program_cases(vocabulary, reverse=True))
    tangents = draw(directions(input_shapes_of(case)), label="tangents")
    return AdjointCase(case, tangents, draw(directions(output_shapes_of(case)),
                                            label="cotangents"))


def scalars() -> st.SearchStrategy[float]:
    """A sign and a magnitude in (0, 1]; shrinks towards 1.0.

    Simple draws make t and s alike (all ones), and a t + b s with a, b > 0
    then points where t does: a tangent rule that is only positively
    homogeneous (a `maximum` comparing tangents) would pass.  The sign, drawn
    on its own, makes negative combinations as common as positive ones.
    Magnitudes are on the grid of the inputs, `1 - k / GRID`.
    """
    magnitudes = st.integers(0, GRID - 1).map(lambda k: 1 - k / GRID)
    return st.tuples(st.booleans(), magnitudes).map(lambda sm: -sm[1] if sm[0] else sm[1])


class LinearityCase(NamedTuple):
    """Tangents t, s and scalars a, b for `jvp(f, x, a t + b s)`."""

    case: ProgramCase
    t: tuple[np.ndarray, ...]
    s: tuple[np.ndarray, ...]
    a: np.ndarray
    b: np.ndarray


@st.composite
def linearity_cases(draw, vocabulary: Vocabulary) -> LinearityCase:
    case = draw(program_cases(vocabulary))
    t = draw(directions(input_shapes_of(case)), label="t")
    s = draw(directions(input_shapes_of(case)), label="s")
    a, b = (np.array(draw(scalars(), label=name)) for name in ("a", "b"))
    return LinearityCase(case, t, s, a, b)


class HessianCase(NamedTuple):
    """Loss weights and directions p, q for `<p, H q> == <q, H p>`."""

    case: ProgramCase
    weights: tuple[np.ndarray, ...]
    p: tuple[np.ndarray, ...]
    q: tuple[np.ndarray, ...]


@st.composite
def hessian_cases(draw, vocabulary: Vocabulary) -> HessianCase:
    case = draw(program_cases(vocabulary, reverse=True))
    weights = draw(directions(output_shapes_of(case)), label="loss weights")
    p = draw(directions(input_shapes_of(case)), label="p")
    return HessianCase(case, weights, p, draw(directions(input_shapes_of(case)), label="q"))


class VmapGradCase(NamedTuple):
    """vmap of grad: out_axes is valid for every differentiated input (grad's outputs)."""

    case: ProgramCase
    argnums: int | tuple[int, ...]
    weights: tuple[np.ndarray, ...]
    in_axes: int | tuple
    out_axes: int
    batched: tuple[np.ndarray, ...]


@st.composite
def vmap_grad_cases(draw, vocabulary: Vocabulary) -> VmapGradCase:
    size = draw(st.integers(2, 3), label="batch size")
    case = draw(program_cases(vocabulary, variants=size, reverse=True))
    nums = draw(argnums(len(case.args)), label="argnums")
    weights = draw(directions(output_shapes_of(case)), label="loss weights")
    axes, batched = draw_batch(draw, case)
    in_axes = axes[0] if len(set(axes)) == 1 and draw(st.booleans(), label="one int") else axes
    out_rank = min(case.args[i].ndim for i in argnums_tuple(nums))
    out_axes = choose(draw, batch_axes(out_rank), label="out_axes")
    return VmapGradCase(case, nums, weights, in_axes, out_axes, batched)


class GradVjpCase(NamedTuple):
    """grad of loss against its vjp from 1.0."""

    case: ProgramCase
    argnums: int | tuple[int, ...]
    weights: tuple[np.ndarray, ...]


@st.composite
def grad_vjp_cases(draw, vocabulary: Vocabulary) -> GradVjpCase:
    case = draw(program_cases(vocabulary, reverse=True))
    nums = draw(argnums(len(case.args)), label="argnums")
    return GradVjpCase(case, nums, draw(directions(output_shapes_of(case)), label="loss weights"))


class CommuteCase(NamedTuple):
    """A program and what one transformation needs: its inputs by name (x.. the
    program's, batched for vmap; t.. tangents, u.. cotangents), its constants by
    name (w.. loss weights) and its options (in_axes, out_axes, argnums)."""

    case: ProgramCase
    inputs: dict[str, np.ndarray]
    constants: dict[str, np.ndarray]
    options: dict


@st.composite
def commute_cases(draw, vocabulary: Vocabulary, transform: str) -> CommuteCase:
    if transform == "vmap":
        case, in_axes, out_axes, batched = draw(vmap_cases(vocabulary))
        return CommuteCase(case, named("x", batched), {},
                           {"in_axes": in_axes, "out_axes": out_axes})
    case = draw(program_cases(vocabulary, reverse=transform in REVERSE))
    inputs = named("x", case.args)
    if transform == "jvp":
        return CommuteCase(case, inputs | named("t", draw(directions(input_shapes_of(case)))),
                           {}, {})
    if transform == "vjp":
        return CommuteCase(case, inputs | named("u", draw(directions(output_shapes_of(case)))),
                           {}, {})
    nums = draw(argnums(len(case.args)), label="argnums")
    weights = draw(directions(output_shapes_of(case)), label="loss weights")
    return CommuteCase(case, inputs, named("w", weights), {"argnums": nums})
