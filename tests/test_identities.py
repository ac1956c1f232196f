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
failure shows both sides as the SUT computes them.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles import finite_diff
from oracles.tolerance import EXACT, HESSIAN_SYMMETRY, IDENTITY, scaled
from oracles.verify import experiment, verify_agrees
from strategies import wrappers as stacks
from strategies.inputs import directions
from strategies.operands import choose
from strategies.stacks import axes_for
from strategies.wrappers import named
from tests.cases import argnums, input_shapes_of, output_shapes_of, program_cases, vmap_cases

# ----------------------------------------------------------------------------- helpers

def _holds(sut, case, left, right, title, origin, tolerance, *, inputs, constants=None):
    """`left` on the SUT equals `right` on the SUT, which the reproducer recomputes."""
    __tracebackhide__ = True
    lhs = experiment(case, left, title, inputs=inputs, constants=constants)
    verify_agrees(sut, lhs, right.call, f"{origin} on {sut.name}", tolerance)


def _chosen(nums) -> tuple[int, ...]:
    return nums if isinstance(nums, tuple) else (nums,)


# ----------------------------------------------------------------------------- adjoint

@st.composite
def adjoint_cases(draw):
    case = draw(program_cases(reverse=True))
    tangents = draw(directions(input_shapes_of(case)), label="tangents")
    return case, tangents, draw(directions(output_shapes_of(case)), label="cotangents")


@pytest.mark.needs("jvp", "vjp")
@given(drawn=adjoint_cases())
def test_jvp_and_vjp_are_adjoint(sut, drawn):
    case, tangents, cotangents = drawn
    inputs = named("x", case.args) | named("t", tangents) | named("u", cotangents)
    forward, backward = stacks.inner_product_sides(case.program)
    jt = finite_diff.directional(case.program, case.args, tangents).value
    magnitude = finite_diff.inner([np.abs(u) for u in cotangents], [np.abs(v) for v in jt])
    _holds(sut, case, forward, backward, "<u, jvp(f, x, t)>", "the SUT's own vjp: <J^T u, t>",
           scaled(IDENTITY, magnitude), inputs=inputs)


# ----------------------------------------------------------------------------- linearity

def scalars() -> st.SearchStrategy[float]:
    """A sign and a magnitude in (0, 1]; shrinks towards 1.0.

    Simple draws make t and s alike (all ones), and a t + b s with a, b > 0
    then points where t does: a tangent rule that is only positively
    homogeneous (a `maximum` comparing tangents) would pass.  The sign, drawn
    on its own, makes negative combinations as common as positive ones.
    """
    magnitudes = st.integers(0, 999).map(lambda k: 1 - k / 1000)
    return st.tuples(st.booleans(), magnitudes).map(lambda sm: -sm[1] if sm[0] else sm[1])


@st.composite
def linearity_cases(draw):
    case = draw(program_cases())
    t = draw(directions(input_shapes_of(case)), label="t")
    s = draw(directions(input_shapes_of(case)), label="s")
    a, b = (np.array(draw(scalars(), label=name)) for name in ("a", "b"))
    return case, t, s, a, b


@pytest.mark.needs("jvp")
@given(drawn=linearity_cases())
def test_jvp_is_linear_in_the_tangent(sut, drawn):
    case, t, s, a, b = drawn
    along_t = finite_diff.directional(case.program, case.args, t).value
    along_s = finite_diff.directional(case.program, case.args, s).value
    magnitude = max((float(np.max(abs(a) * np.abs(jt) + abs(b) * np.abs(js), initial=0.0))
                     for jt, js in zip(along_t, along_s)), default=0.0)
    combined, separately = stacks.jvp_linearity_sides(case.program)
    inputs = named("x", case.args) | named("t", t) | named("s", s)
    _holds(sut, case, combined, separately, "jvp(f, x, a t + b s)[1]",
           "a jvp(f, x, t)[1] + b jvp(f, x, s)[1]", scaled(IDENTITY, magnitude),
           inputs=inputs, constants={"a": a, "b": b})


# ----------------------------------------------------------------------------- Hessian

@st.composite
def hessian_cases(draw):
    case = draw(program_cases(reverse=True))
    weights = draw(directions(output_shapes_of(case)), label="loss weights")
    p = draw(directions(input_shapes_of(case)), label="p")
    return case, weights, p, draw(directions(input_shapes_of(case)), label="q")


@pytest.mark.needs("jvp", "grad")
@given(drawn=hessian_cases())
def test_hessian_of_loss_is_symmetric(sut, drawn):
    case, weights, p, q = drawn
    p_h_q, q_h_p = stacks.hessian_sides(case.program)
    _holds(sut, case, p_h_q, q_h_p, "<p, H q>, H q = jvp(grad(loss), x, q)[1]",
           "<q, H p>, H p = jvp(grad(loss), x, p)[1]", HESSIAN_SYMMETRY,
           inputs=named("x", case.args) | named("p", p) | named("q", q),
           constants=named("w", weights))


# ----------------------------------------------------------------------------- vmap of grad

@st.composite
def vmap_grad_cases(draw):
    size = draw(st.integers(2, 3), label="batch size")
    case = draw(program_cases(variants=size, reverse=True))
    nums = draw(argnums(len(case.args)), label="argnums")
    weights = draw(directions(output_shapes_of(case)), label="loss weights")
    axes = tuple(None if shared else choose(draw, axes_for(x.ndim), label=f"axis x{i}")
                 for i, (x, shared) in enumerate(zip(case.args, case.shared)))
    in_axes = axes[0] if len(set(axes)) == 1 and draw(st.booleans(), label="one int") else axes
    out_rank = min(case.args[i].ndim for i in _chosen(nums))
    out_axes = choose(draw, axes_for(out_rank), label="out_axes")
    batched = tuple(x if axis is None else np.stack([v[i] for v in case.variants], axis=axis)
                    for i, (x, axis) in enumerate(zip(case.args, axes)))
    return case, nums, weights, in_axes, out_axes, batched


@pytest.mark.needs("vmap", "grad")
@given(drawn=vmap_grad_cases())
def test_vmap_of_grad_is_grad_per_example(sut, drawn):
    case, nums, weights, in_axes, out_axes, batched = drawn
    batched_side, looped = stacks.vmap_grad_sides(case.program, nums, in_axes, out_axes,
                                                  len(case.variants))
    _holds(sut, case, batched_side, looped,
           f"vmap(grad(loss, argnums={nums!r}), in_axes={in_axes!r}, out_axes={out_axes!r})",
           f"grad(loss) on each of {len(case.variants)} examples, stacked on axis {out_axes}",
           EXACT, inputs=named("x", batched), constants=named("w", weights))


# ----------------------------------------------------------------------------- grad and vjp

@st.composite
def grad_vjp_cases(draw):
    case = draw(program_cases(reverse=True))
    nums = draw(argnums(len(case.args)), label="argnums")
    return case, nums, draw(directions(output_shapes_of(case)), label="loss weights")


@pytest.mark.needs("grad", "vjp")
@given(drawn=grad_vjp_cases())
def test_grad_is_vjp_of_unit_cotangent(sut, drawn):
    case, nums, weights = drawn
    by_grad, by_vjp = stacks.grad_vjp_sides(case.program, nums)
    _holds(sut, case, by_grad, by_vjp, f"grad(loss, argnums={nums!r})(x)",
           "vjp(loss, x) pulled back from 1.0", EXACT,
           inputs=named("x", case.args), constants=named("w", weights))


# ----------------------------------------------------------------------------- jit commutes

@st.composite
def commute_cases(draw, transform: str):
    """A program and what `transform` needs: (case, inputs, constants, options)."""
    if transform == "vmap":
        case, in_axes, out_axes, batched = draw(vmap_cases())
        return case, named("x", batched), {}, {"in_axes": in_axes, "out_axes": out_axes}
    case = draw(program_cases(reverse=transform in ("grad", "vjp")))
    inputs = named("x", case.args)
    if transform == "jvp":
        return case, inputs | named("t", draw(directions(input_shapes_of(case)))), {}, {}
    if transform == "vjp":
        return case, inputs | named("u", draw(directions(output_shapes_of(case)))), {}, {}
    nums = draw(argnums(len(case.args)), label="argnums")
    weights = draw(directions(output_shapes_of(case)), label="loss weights")
    return case, inputs, named("w", weights), {"argnums": nums}


TRANSFORMS = ("jvp", "grad", "vjp", "vmap")


@pytest.mark.parametrize("transform", [pytest.param(t, marks=pytest.mark.needs("jit", t))
                                       for t in TRANSFORMS])
@given(data=st.data())
def test_jit_commutes_with(sut, transform, data):
    case, inputs, constants, options = data.draw(commute_cases(transform), label=transform)
    outside, inside = stacks.jit_commute_sides(case.program, transform, **options)
    _holds(sut, case, outside, inside, f"jit({transform}(f))", f"{transform}(jit(f))", EXACT,
           inputs=inputs, constants=constants)
