"""Each operation at every operand-rank combination it allows, and each construct, alone,
under every mode.

Programs drawn from the whole language reach the common operand-rank
combinations often and some never (docs/coverage.md): a bug confined to one
(matmul's transpose for a vector times a matrix, the sum over the broadcast
dims of a scalar added to a matrix) survives them.  This property
enumerates instead (`strategies/cell_cases.py`): each example runs every
cell of its operation, a one-equation program per operand-rank combination
and per regime (where a parameter chooses the formula or a position: each of
`convolve`'s modes, an axis counted from the back, an offset above the
diagonal, an update written past the start), and one at each special point
of its rule (a zero in a product, a tie at the chosen element of an order
statistic: `cell_cases.SPECIALS`), in plain evaluation, jvp, reverse mode (vjp),
vmap, jit and second order (jvp of grad: rules right to first order and
wrong to second), each judged as the mode's own property judges a whole
program.  A failure is then one
equation, named by its operation (the test's parameter), its ranks and its
mode.

Constructs get the same treatment for the same reason: a loop appears in
one drawn program in seven, and its rule shows wrong only under the mode
that uses it, on a body where it matters.  The second property draws, per
example, one program that is a single construct (its blocks drawn from the
whole language; a scan's step opens with its carry meeting its row) and
runs it in every mode; one that wraps a function (a custom rule, a
checkpoint, a jitted closure) also as one gradient function called at two
input sets, which must keep nothing of the first call.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracles import finite_diff
from oracles.batching import check_vmap
from oracles.derivatives import check_grad_again, check_jvp, check_vjp
from oracles.experiment import case_experiment
from oracles.reference import from_reference
from oracles.reproducer import Expectation
from oracles.tolerance import STACK_MEANING
from oracles.values import check_jit, check_value
from oracles.verify import verify
from strategies import wrappers
from strategies.cases import (
    draw_batch,
    draw_out_axes,
    input_shapes_of,
    inputs_of,
    output_shapes_of,
    program_cases,
)
from strategies.cell_cases import builds, cell_cases, special_cases, specials
from strategies.language.inputs import directions
from strategies.language.opspec import OPS
from strategies.language.table import FEATURES, LANGUAGE
from strategies.language.transformations import REVERSE

# Each example runs up to 25 cells in 6 modes where another property runs one program
# in one mode, so it gets a twentieth of the profile's examples: 3 in `ci` (every cell
# reached 3 times in each mode, the coverage report's bar, where the 3 draw 3 inputs: a
# scalar has at most 14 values and may repeat), 100 in `thorough`.
EXAMPLES = max(3, settings().max_examples // 20)


# Each mode's check takes `steady`, which makes a direction along the inputs keep a
# special point (`cell_cases.Special`: equal over a tie), or None.


def _along(case, data, steady, label):
    """Directions along the inputs, kept on the case's special point by `steady`."""
    drawn = data.draw(directions(input_shapes_of(case), ramp=True), label=label)
    return drawn if steady is None else steady(drawn)


def _value(sut, reference, case, data, steady=None):
    check_value(sut, reference, case)


def _jvp(sut, reference, case, data, steady=None):
    check_jvp(sut, reference, case, _along(case, data, steady, "tangents"))


def _vjp(sut, reference, case, data, steady=None):
    cotangents = data.draw(directions(output_shapes_of(case), ramp=True),
                           label="cotangents")
    check_vjp(sut, reference, case, cotangents, _along(case, data, steady, "directions"))


def _vmap(sut, reference, case, data, steady=None):
    in_axes, batched = draw_batch(data.draw, case, last_first=True)
    check_vmap(sut, case, in_axes, draw_out_axes(data.draw, case, last_first=True), batched)


def _jit(sut, reference, case, data, steady=None):
    check_jit(sut, case)


def _hessian(sut, reference, case, data, steady=None):
    weights = data.draw(directions(output_shapes_of(case), ramp=True), label="loss weights")
    p, q = (_along(case, data, steady, name) for name in "pq")
    p_h_q, _ = wrappers.hessian_sides(case.program)
    exp = case_experiment(case, p_h_q, "<p, H q>, H q = jvp(grad(loss), x, q)[1]",
                          inputs=inputs_of(case, p=p, q=q), constants=wrappers.named("w", weights))
    estimate = finite_diff.mixed(
        case.program, lambda eps: [x + eps["p"] * a + eps["q"] * b
                                   for x, a, b in zip(case.args, p, q)],
        lambda eps: weights, ("p", "q"))
    origin = "the second mixed central difference of loss along p and q (Richardson)"
    verify(sut, exp, Expectation((estimate.value,), origin, STACK_MEANING,
                                 error=(estimate.error,)), *from_reference(reference, exp))


# The constructs that wrap a function in an object of the SUT's (a custom rule's, a
# checkpoint's, a jitted closure's), which may keep something of its first call.
WRAPPING = ("jit_closure", "custom_jvp", "custom_vjp", "checkpoint")


def _grad_again(sut, reference, case, data, steady=None):
    """A program that holds a construct of `WRAPPING`: one gradient function of it at two
    input sets, each against its own (others skip it, drawing nothing, so the examples of
    the rest stay as they were).  The sets are the vmap mode's first two batch
    elements, not drawn apart (`programs(apart=True)`): drawn apart, every construct's
    programs change, and with them the examples at which the kill matrix's construct
    rows catch their shims (tests/meta/test_broken_suts.py)."""
    if not any(eqn.op in WRAPPING for eqn in case.program.eqns):
        return
    weights = data.draw(directions(output_shapes_of(case), ramp=True), label="loss weights")
    check_grad_again(sut, reference, case, weights)


# A construct's example is one program in 6 modes (and, for a construct that wraps a
# function, one gradient function called twice), where another property runs one in
# one mode: a sixth of the profile's examples, 10 in `ci`, 333 in `thorough`.  `scan`
# and `inner_vmap` need an input of rank 1 or more: 78 and 82 of 100 examples have one
# (the rest are programs of no equation).
CONSTRUCT_EXAMPLES = max(10, settings().max_examples // 6)
CONSTRUCTS = [name for name, spec in LANGUAGE.items() if spec.construct]


# Each mode: the SUT features it needs (the transformations it applies: in reverse
# mode where one of them is, `REVERSE`), and its check of one case; `again` checks only
# a construct that wraps a function.  (The properties' bodies name `MODES` alone: a
# body's text seeds its derandomized examples, and the kill matrix's rows were
# measured at those.)
MODES = {"value": ((), _value), "jvp": (("jvp",), _jvp), "vjp": (("vjp",), _vjp),
         "vmap": (("vmap",), _vmap), "jit": (("jit",), _jit),
         "hessian": (("jvp", "grad"), _hessian), "again": (("grad",), _grad_again)}
# The mode that differentiates in forward mode alone, which a construct that is
# `reverse_only` (a custom_vjp function) refuses by design; the Hessian's forward
# mode runs over reverse mode, which it allows.
FORWARD_ALONE = "jvp"


@settings(max_examples=EXAMPLES)
@pytest.mark.parametrize("op", list(OPS))
@given(data=st.data())
def test_each_operand_rank_combination_under_every_mode(sut, reference, vocabulary, op, data):
    """Each operation alone, at every operand-rank combination, in every mode up to second order."""
    if op not in vocabulary.operations:
        pytest.skip(sut.lacking(sorted(FEATURES[op] & sut.unsupported)))
    checks = [check for features, check in MODES.values()
              if all(map(sut.supports, features))
              and (REVERSE.isdisjoint(features) or op in vocabulary.reverse_ops)]
    for ranks, regime in builds(op):
        size = data.draw(st.integers(2, 3), label="batch size")
        case = data.draw(cell_cases(op, ranks, variants=size, regime=regime),
                         label=" ".join(map(str, (op, ranks, regime or ""))))
        for check in checks:
            check(sut, reference, case, data)
    for special in specials(op):
        size = data.draw(st.integers(2, 3), label="batch size")
        case = data.draw(special_cases(op, special, variants=size), label=f"{op} at {special.name}")
        for check in checks:
            check(sut, reference, case, data, steady=special.steady)


@settings(max_examples=CONSTRUCT_EXAMPLES)
@pytest.mark.parametrize("construct", CONSTRUCTS)
@given(data=st.data())
def test_each_construct_under_every_mode(sut, reference, vocabulary, construct, data):
    """Each construct alone (loop, cond, closure, inner transformation, custom rule), every mode."""
    if construct not in vocabulary.ops:
        pytest.skip(sut.lacking(sorted(FEATURES[construct] & sut.unsupported)))
    reverse = construct in vocabulary.reverse_ops
    grad_only = LANGUAGE[construct].reverse_only
    checks = [check for mode, (features, check) in MODES.items()
              if all(map(sut.supports, features)) and (reverse or REVERSE.isdisjoint(features))
              and not (grad_only and mode == FORWARD_ALONE)]
    size = data.draw(st.integers(2, 3), label="batch size")
    case = data.draw(program_cases(vocabulary, reverse=reverse, first=construct, max_eqns=1,
                                   variants=size, grad_only=grad_only), label=construct)
    for check in checks:
        check(sut, reference, case, data)
