"""The drawn examples of `tests/test_python_control_flow.py`: a program with a Python
`if` and `for` (`python_control.control_programs`) and what each transformation needs.

The straight-line parts use the SUT's operations, no constructs: the control
flow under test is Python's own.  Each strategy takes the SUT's `Vocabulary` first.
"""

from __future__ import annotations

from hypothesis import strategies as st

from strategies.cases import (
    draw_batch,
    draw_grad_parts,
    draw_out_axes,
    full_direction,
    input_shapes_of,
    output_shapes_of,
)
from strategies.language.inputs import directions
from strategies.language.vocabulary import Vocabulary
from strategies.python_control import control_programs
from strategies.wrappers import Wrapper, names


def control_cases(vocabulary: Vocabulary, **options):
    """`control_programs(**options)` over the SUT's operations."""
    return control_programs(ops=vocabulary.operations, **options)


@st.composite
def jvp_control_cases(draw, vocabulary: Vocabulary):
    """(case, tangents)."""
    case = draw(control_cases(vocabulary), label="control program")
    return case, draw(directions(input_shapes_of(case)), label="tangents")


@st.composite
def grad_control_cases(draw, vocabulary: Vocabulary):
    """(case, argnums, loss weights, directions on the differentiated inputs, the same
    directions over all inputs, zero elsewhere)."""
    case = draw(control_cases(vocabulary), label="control program")
    nums, weights, along = draw_grad_parts(draw, case)
    return case, nums, weights, along, full_direction(case.args, nums, along)


@st.composite
def vjp_control_cases(draw, vocabulary: Vocabulary):
    """(case, cotangents, directions)."""
    case = draw(control_cases(vocabulary), label="control program")
    cotangents = draw(directions(output_shapes_of(case)), label="cotangents")
    return case, cotangents, draw(directions(input_shapes_of(case)), label="directions")


@st.composite
def vmap_control_cases(draw, vocabulary: Vocabulary):
    """A control program whose predicate reads only unbatched inputs (in_axes None)."""
    size = draw(st.integers(2, 3), label="batch size")
    case = draw(control_cases(vocabulary, variants=size), label="control program")
    axes, batched = draw_batch(draw, case)
    return case, axes, draw_out_axes(draw, case), batched


def at_both_thresholds(control, name: str, fun: str) -> Wrapper:
    """`name(x.., c0, c1)`: `g = fun`, then g at c0 (then branch) and at c1 (else branch)."""
    xs = names("x", len(control.inputs))
    params = ", ".join([*xs, "c0", "c1"])
    calls = [f"g({', '.join([*xs, c])})" for c in ("c0", "c1")]
    source = f"def {name}({params}):\n    g = {fun}\n    return {', '.join(calls)}\n"
    return Wrapper(source, f"{name}({params})")
