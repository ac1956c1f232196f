"""The drawn examples of `tests/test_identities.py`: a program and what each identity
between the SUT's own transformations needs.

Each strategy takes the SUT's `Vocabulary` first (see `strategies/cases.py`).
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from strategies.cases import (
    argnums,
    draw_batch,
    input_shapes_of,
    output_shapes_of,
    program_cases,
    vmap_cases,
)
from strategies.inputs import GRID, directions
from strategies.operands import choose
from strategies.shapes import batch_axes
from strategies.vocabulary import Vocabulary
from strategies.wrappers import argnums_tuple, named


@st.composite
def adjoint_cases(draw, vocabulary: Vocabulary):
    """(case, tangents, cotangents): both sides of `<u, J t> == <J^T u, t>`."""
    case = draw(program_cases(vocabulary, reverse=True))
    tangents = draw(directions(input_shapes_of(case)), label="tangents")
    return case, tangents, draw(directions(output_shapes_of(case)), label="cotangents")


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


@st.composite
def linearity_cases(draw, vocabulary: Vocabulary):
    """(case, t, s, a, b): tangents t, s and scalars a, b for `jvp(f, x, a t + b s)`."""
    case = draw(program_cases(vocabulary))
    t = draw(directions(input_shapes_of(case)), label="t")
    s = draw(directions(input_shapes_of(case)), label="s")
    a, b = (np.array(draw(scalars(), label=name)) for name in ("a", "b"))
    return case, t, s, a, b


@st.composite
def hessian_cases(draw, vocabulary: Vocabulary):
    """(case, loss weights, p, q): directions for `<p, H q> == <q, H p>`."""
    case = draw(program_cases(vocabulary, reverse=True))
    weights = draw(directions(output_shapes_of(case)), label="loss weights")
    p = draw(directions(input_shapes_of(case)), label="p")
    return case, weights, p, draw(directions(input_shapes_of(case)), label="q")


@st.composite
def vmap_grad_cases(draw, vocabulary: Vocabulary):
    """(case, argnums, loss weights, in_axes, out_axes, batched inputs) for vmap of grad;
    out_axes is valid for every differentiated input (grad's outputs)."""
    size = draw(st.integers(2, 3), label="batch size")
    case = draw(program_cases(vocabulary, variants=size, reverse=True))
    nums = draw(argnums(len(case.args)), label="argnums")
    weights = draw(directions(output_shapes_of(case)), label="loss weights")
    axes, batched = draw_batch(draw, case)
    in_axes = axes[0] if len(set(axes)) == 1 and draw(st.booleans(), label="one int") else axes
    out_rank = min(case.args[i].ndim for i in argnums_tuple(nums))
    out_axes = choose(draw, batch_axes(out_rank), label="out_axes")
    return case, nums, weights, in_axes, out_axes, batched


@st.composite
def grad_vjp_cases(draw, vocabulary: Vocabulary):
    """(case, argnums, loss weights): grad of loss against its vjp from 1.0."""
    case = draw(program_cases(vocabulary, reverse=True))
    nums = draw(argnums(len(case.args)), label="argnums")
    return case, nums, draw(directions(output_shapes_of(case)), label="loss weights")


@st.composite
def commute_cases(draw, vocabulary: Vocabulary, transform: str):
    """A program and what `transform` needs: (case, inputs, constants, options)."""
    if transform == "vmap":
        case, in_axes, out_axes, batched = draw(vmap_cases(vocabulary))
        return case, named("x", batched), {}, {"in_axes": in_axes, "out_axes": out_axes}
    case = draw(program_cases(vocabulary, reverse=transform in ("grad", "vjp")))
    inputs = named("x", case.args)
    if transform == "jvp":
        return case, inputs | named("t", draw(directions(input_shapes_of(case)))), {}, {}
    if transform == "vjp":
        return case, inputs | named("u", draw(directions(output_shapes_of(case)))), {}, {}
    nums = draw(argnums(len(case.args)), label="argnums")
    weights = draw(directions(output_shapes_of(case)), label="loss weights")
    return case, inputs, named("w", weights), {"argnums": nums}
