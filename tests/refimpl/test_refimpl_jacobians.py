"""linearize, jacfwd, jacrev and hessian against JAX's, nested in the others."""
import jax
import numpy as np
import pytest
from helpers_refimpl import JAX, REF, assert_close, rng_args

import refimpl as R


def two_outputs(impl):
    n = impl.np
    return lambda x, y: (n.sin(x) * y, n.sum(n.exp(x), axis=0) * y[0])


def while_program(impl):
    n, lax = impl.np, impl.lax
    return lambda x: lax.while_loop(lambda c: c[0] < 3.0,
                                    lambda c: (c[0] + 1.0, c[1] * n.sin(c[1])), (0.0, x))[1]


@pytest.mark.parametrize("name", ["jacfwd", "jacrev", "hessian"])
@pytest.mark.parametrize("argnums", [0, 1, (0, 1), (1,)])
def test_jacobians_nest_and_agree_with_jax(name, argnums):
    x, y = rng_args([(2, 3), (3,)])
    expected = getattr(jax, name)(two_outputs(JAX), argnums)(x, y)
    for wrap in (lambda f: f, R.jit):
        assert_close(wrap(getattr(R, name)(two_outputs(REF), argnums))(x, y), expected,
                     f"{name} argnums={argnums}")


def test_jacobians_inside_other_transformations_agree_with_jax():
    x, = rng_args([(2, 3)])
    y = x[0]
    cube = lambda impl: lambda v: impl.np.sin(v) * v * v[0]  # noqa: E731
    assert_close(R.jvp(R.jacrev(cube(REF)), (y,), (y,)),
                 jax.jvp(jax.jacrev(cube(JAX)), (y,), (y,)), "jvp(jacrev)")
    assert_close(R.vmap(R.jacfwd(cube(REF)))(x), jax.vmap(jax.jacfwd(cube(JAX)))(x),
                 "vmap(jacfwd)")
    assert_close(R.grad(lambda v: R.numpy.sum(R.hessian(cube(REF))(v)))(y),
                 jax.grad(lambda v: jax.numpy.sum(jax.hessian(cube(JAX))(v)))(y), "grad(hessian)")


def test_linearize_evaluates_the_tangent_program_it_staged():
    x, y, t, s = rng_args([(2, 3), (3,), (2, 3), (3,)])
    out, f_jvp = R.linearize(two_outputs(REF), x, y)
    expected_out, expected_tangent = jax.jvp(two_outputs(JAX), (x, y), (t, s))
    assert_close(out, expected_out, "linearize's value")
    assert_close(f_jvp(t, s), expected_tangent, "f_jvp")
    assert_close(f_jvp(2.0 * t, 2.0 * s), jax.tree_util.tree_map(lambda a: 2.0 * a,
                                                                 expected_tangent), "f_jvp again")
    with pytest.raises(R.ShapeError):
        f_jvp(t)


def test_linearize_and_jacfwd_through_while_loop_while_reverse_mode_refuses_it():
    y, fj = jax.linearize(while_program(JAX), 1.0)
    out, f_jvp = R.linearize(while_program(REF), 1.0)
    assert_close((out, f_jvp(2.0)), (y, fj(2.0)), "linearize through while_loop")
    assert_close(R.jacfwd(while_program(REF))(1.0), jax.jacfwd(while_program(JAX))(1.0), "jacfwd")
    assert_close(R.vmap(lambda v: R.linearize(while_program(REF), v)[1](1.0))(np.array([1.0, 0.5])),
                 jax.vmap(lambda v: jax.linearize(while_program(JAX), v)[1](1.0))(
                     np.array([1.0, 0.5])), "vmap(linearize)")
    for reverse in (R.grad, R.jacrev):
        with pytest.raises(TypeError, match="while_loop"):
            reverse(while_program(REF))(1.0)
    # In a branch, the loop is split with the branch and refused when transposed, as JAX does.
    in_cond = lambda v: R.lax.cond(v > 0.0, while_program(REF), lambda u: u, v)  # noqa: E731
    assert np.isclose(R.linearize(in_cond, 1.0)[1](1.0), fj(1.0))
    with pytest.raises(TypeError, match="while_loop"):
        R.grad(in_cond)(1.0)
