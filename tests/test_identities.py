"""Identities that tie the SUT's own transformations together, on generated programs.

Each property computes one quantity two ways on the SUT and needs no other
oracle, so it holds an SUT to account even with no reference:

* jvp and vjp are adjoint: `<u, J t> == <J^T u, t>` (catches a transpose
  rule that disagrees with its JVP rule);
* the tangent map is linear: `jvp(f, x, a t + b s) == a jvp(f, x, t) + b jvp(f, x, s)`;
* the Hessian is symmetric: `<p, H q> == <q, H p>`, H by jvp of grad of `loss`;
* `vmap(grad(loss))` is grad of `loss` on each example, stacked;
* `grad(loss)` is the vjp of `loss` pulled back from the cotangent 1.0;
* jit commutes with every transformation: `jit(T(f)) == T(jit(f))`.

The second way is recomputed in the reproducer (`Expectation.source`), so a
failure shows both sides as the SUT computes them; where they differ, the
reference and an oracle of the same quantity (NumPy, finite differences)
say which side is wrong.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles.identities import (
    adjoint_magnitude,
    commute_judges,
    gradient_judge,
    linearity_magnitude,
    slope_judge,
    tangent_judge,
    verify_identity,
)
from oracles.tolerance import EXACT, HESSIAN_SYMMETRY, IDENTITY, scaled
from strategies import wrappers
from strategies.identity_cases import (
    adjoint_cases,
    commute_cases,
    grad_vjp_cases,
    hessian_cases,
    linearity_cases,
    vmap_grad_cases,
)
from strategies.language.transformations import TRANSFORMATIONS
from strategies.wrappers import named

# ----------------------------------------------------------------------------- adjoint

@pytest.mark.needs("jvp", "vjp")
@given(data=st.data())
def test_jvp_and_vjp_are_adjoint(sut, reference, vocabulary, data):
    """jvp and vjp are adjoint: <u, J t> equals <J^T u, t>."""
    drawn = data.draw(adjoint_cases(vocabulary), label="drawn")
    case, tangents, cotangents = drawn
    inputs = named("x", case.args) | named("t", tangents) | named("u", cotangents)
    forward, backward = wrappers.inner_product_sides(case.program)
    magnitude = adjoint_magnitude(case, tangents, cotangents)
    verify_identity(sut, case, forward, backward, "<u, jvp(f, x, t)>",
                    "the SUT's own vjp: <J^T u, t>", scaled(IDENTITY, magnitude), inputs=inputs,
                    reference=reference,
                    judges=[slope_judge(case.program, case.args, tangents, cotangents)])


# ----------------------------------------------------------------------------- linearity

@pytest.mark.needs("jvp")
@given(data=st.data())
def test_jvp_is_linear_in_the_tangent(sut, reference, vocabulary, data):
    """jvp is linear in the tangent: jvp along a t + b s is a jvp along t plus b jvp along s."""
    drawn = data.draw(linearity_cases(vocabulary), label="drawn")
    case, t, s, a, b = drawn
    magnitude = linearity_magnitude(case, t, s, a, b)
    combined, separately = wrappers.jvp_linearity_sides(case.program)
    inputs = named("x", case.args) | named("t", t) | named("s", s)
    mixed = [a * ti + b * si for ti, si in zip(t, s)]
    verify_identity(sut, case, combined, separately, "jvp(f, x, a t + b s)[1]",
                    "a jvp(f, x, t)[1] + b jvp(f, x, s)[1]", scaled(IDENTITY, magnitude),
                    inputs=inputs, constants={"a": a, "b": b}, reference=reference,
                    judges=[tangent_judge(case.program, case.args, mixed)])


# ----------------------------------------------------------------------------- Hessian

@pytest.mark.needs("jvp", "grad")
@given(data=st.data())
def test_hessian_of_loss_is_symmetric(sut, reference, vocabulary, data):
    """The Hessian of a loss, by jvp of grad, is symmetric: <p, H q> equals <q, H p>."""
    drawn = data.draw(hessian_cases(vocabulary), label="drawn")
    case, weights, p, q = drawn
    p_h_q, q_h_p = wrappers.hessian_sides(case.program)
    verify_identity(sut, case, p_h_q, q_h_p, "<p, H q>, H q = jvp(grad(loss), x, q)[1]",
                    "<q, H p>, H p = jvp(grad(loss), x, p)[1]", HESSIAN_SYMMETRY,
                    inputs=named("x", case.args) | named("p", p) | named("q", q),
                    constants=named("w", weights), reference=reference)


# ----------------------------------------------------------------------------- vmap of grad

@pytest.mark.needs("vmap", "grad")
@given(data=st.data())
def test_vmap_of_grad_is_grad_per_example(sut, reference, vocabulary, data):
    """vmap of grad equals grad on each example, stacked."""
    drawn = data.draw(vmap_grad_cases(vocabulary), label="drawn")
    case, nums, weights, in_axes, out_axes, batched = drawn
    batched_side, looped = wrappers.vmap_grad_sides(case.program, nums, in_axes, out_axes,
                                                  len(case.variants))
    verify_identity(
        sut, case, batched_side, looped,
        f"vmap(grad(loss, argnums={nums!r}), in_axes={in_axes!r}, out_axes={out_axes!r})",
        f"grad(loss) on each of {len(case.variants)} examples, stacked on axis {out_axes}",
        EXACT, inputs=named("x", batched), constants=named("w", weights), reference=reference)


# ----------------------------------------------------------------------------- grad and vjp

@pytest.mark.needs("grad", "vjp")
@given(data=st.data())
def test_grad_is_vjp_of_unit_cotangent(sut, reference, vocabulary, data):
    """grad of a loss equals its vjp pulled back from the cotangent 1.0."""
    drawn = data.draw(grad_vjp_cases(vocabulary), label="drawn")
    case, nums, weights = drawn
    by_grad, by_vjp = wrappers.grad_vjp_sides(case.program, nums)
    verify_identity(sut, case, by_grad, by_vjp, f"grad(loss, argnums={nums!r})(x)",
                    "vjp(loss, x) pulled back from 1.0", EXACT,
                    inputs=named("x", case.args), constants=named("w", weights),
                    reference=reference,
                    judges=[gradient_judge(case.program, case.args, weights, nums)])


# ----------------------------------------------------------------------------- jit commutes

# Every transformation but jit itself and the derived ones
# (strategies/language/transformations.py): `jit(jacfwd(f))` and `jacfwd(jit(f))` are
# stacks of tests/test_jacobians.py, each held to the same meaning.
TRANSFORMS = tuple(name for name, row in TRANSFORMATIONS.items()
                   if name != "jit" and not row.derived)


@pytest.mark.parametrize("transform", [pytest.param(t, marks=pytest.mark.needs("jit", t))
                                       for t in TRANSFORMS])
@given(data=st.data())
def test_jit_commutes_with(sut, reference, vocabulary, transform, data):
    """jit commutes with the transformation T: jit(T(f)) equals T(jit(f))."""
    case, inputs, constants, options = data.draw(commute_cases(vocabulary, transform),
                                                 label=transform)
    outside, inside = wrappers.jit_commute_sides(case.program, transform, **options)
    verify_identity(sut, case, outside, inside, f"jit({transform}(f))", f"{transform}(jit(f))",
                    EXACT, inputs=inputs, constants=constants, reference=reference,
                    judges=commute_judges(case, transform, inputs, constants, options))
