"""The MLX shim's own choices, where a mistake of the shim would read as MLX's.

Skipped without MLX (`tox -e mlx` and `tox -e conformance` install it; the
suite's environment does not, as it carries no SUT library).
"""

import numpy as np
import pytest

pytest.importorskip("mlx.core", reason="MLX is not installed: pip install 'mlx[cpu]==0.32.4'")

import mlx.core as mx  # noqa: E402

import suts.mlx as sut  # noqa: E402

pytestmark = pytest.mark.meta


def test_cond_selects_where_mlx_refuses_to_read_a_predicate_from_an_inner_transformation():
    """Under vmap, a predicate computed by an inner jvp is refused with a RuntimeError
    ("eval an array without a primitive"), not the usual ValueError; cond must select
    with where for both, or the failure is the shim's."""
    def f(x):
        v = sut.jvp(lambda a: sut.numpy.add(a, x), (x,), (x,))[1]
        return sut.lax.cond(sut.numpy.sum(v) > 1.0, lambda a: a, sut.numpy.negative, x)

    per_example = sut.vmap(sut.grad(lambda x: sut.numpy.sum(f(x))))(np.array([0.0, 2.0]))
    np.testing.assert_array_equal(np.asarray(per_example), [-1.0, 1.0])


def test_cond_raises_what_is_not_a_refused_read():
    """A predicate of two elements cannot be read either, but that is the caller's
    error: cond must raise it, not select between the branches element by element."""
    x = sut.numpy.add(np.array([-1.0, 1.0]), 0.0)
    with pytest.raises(ValueError, match="length-1"):
        sut.lax.cond(sut.numpy.greater(x, 0.0), lambda a: a, sut.numpy.negative, x)


def _program(x, y):
    """Two outputs of different shapes, one a dict, each depending on both inputs."""
    return sut.numpy.tanh(x)[:2] * y, {"a": sut.numpy.sum(x * x) * y}


def _jacobian_by_hand(x, y):
    """The Jacobian blocks of `_program` at (x, y), by hand: d out / d x, d out / d y per
    output, each of shape out.shape + input.shape."""
    slope = 1.0 - np.tanh(x[:2]) ** 2
    first_x = np.zeros((2, 2, 3))
    first_y = np.zeros((2, 2, 2, 2))
    second_x = np.einsum("ij,k->ijk", y, 2 * x)
    second_y = np.zeros((2, 2, 2, 2))
    for i in range(2):
        for j in range(2):
            first_x[i, j, j] = slope[j] * y[i, j]
            first_y[i, j, i, j] = np.tanh(x[j])
            second_y[i, j, i, j] = np.sum(x * x)
    return (first_x, first_y), (second_x, second_y)


@pytest.mark.parametrize("name", ["jacfwd", "jacrev"])
def test_derived_jacobians_nest_and_shape_as_jax_does(name):
    """The shim builds jacfwd and jacrev from mx.vmap and mx.jvp / mx.vjp: the result's
    nesting (the output's structure outside, a tuple over a tuple argnums inside) and
    its axes (out.shape + x.shape) are the shim's, so a mistake there must show here,
    not as MLX's."""
    x, y = np.array([0.5, -1.0, 2.0]), np.array([[1.0, 2.0], [3.0, -4.0]])
    (first_x, first_y), (second_x, second_y) = _jacobian_by_hand(x, y)
    transform = getattr(sut, name)
    first, second = transform(_program, argnums=(0, 1))(x, y)
    for got, want in ((first[0], first_x), (first[1], first_y), (second["a"][0], second_x),
                      (second["a"][1], second_y)):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, atol=1e-12)
    only_y = transform(_program, argnums=1)(x, y)
    np.testing.assert_allclose(np.asarray(only_y[1]["a"]), second_y, rtol=1e-12)


def test_hessian_is_jacfwd_of_jacrev_with_both_input_axes_last():
    """hessian of sum(x**3 * y) by x: diag(6 x y), of shape x.shape + x.shape."""
    x, y = np.array([[0.5, -1.0], [2.0, 1.5]]), np.array([[1.0, 2.0], [3.0, -4.0]])
    got = np.asarray(sut.hessian(lambda x, y: sut.numpy.sum(x ** 3 * y))(x, y))
    want = np.diag((6 * x * y).ravel()).reshape(2, 2, 2, 2)
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_linearize_pushes_each_tangent_at_the_primal():
    out, f_jvp = sut.linearize(lambda x: sut.numpy.sin(x) * x, np.array([0.5, 1.0]))
    x = np.array([0.5, 1.0])
    np.testing.assert_allclose(np.asarray(out), np.sin(x) * x)
    for t in (np.array([1.0, 0.0]), np.array([2.0, -1.0])):
        np.testing.assert_allclose(np.asarray(f_jvp(t)), (np.cos(x) * x + np.sin(x)) * t,
                                   rtol=1e-6)


def test_gather_by_argmax_carries_no_derivative_through_its_indices():
    """MLX refuses to differentiate take_along_axis by indices that depend on the input;
    the shim stops their gradient, so the derivative is the gathered element's."""
    def f(x):
        index = sut.numpy.argmax(x * x, axis=1, keepdims=True)
        return sut.numpy.sum(sut.numpy.take_along_axis(x, index, axis=1))

    x = np.array([[0.5, -2.0, 1.0], [3.0, 0.25, -1.0]])
    np.testing.assert_array_equal(np.asarray(sut.grad(f)(x)), [[0, 1, 0], [1, 0, 0]])


# Each operation the shim declares for a missing derivative rule (docs/findings/mlx.md,
# M17), with MLX's own call that raises: a declaration must stay true, so a
# release of MLX that adds the rule fails here, and the declaration goes.
_RULELESS = {
    "inv": lambda a: mx.linalg.inv(a),
    "solve": lambda a: mx.linalg.solve(a, a[:, 0]),
    "cholesky": lambda a: mx.linalg.cholesky(a @ a.T),
    "convolve": lambda a: mx.convolve(a[0], a[1]),
    "cumprod": lambda a: mx.cumprod(a),
}


@pytest.mark.parametrize("name", sorted(_RULELESS))
def test_operations_declared_for_a_missing_rule_still_lack_it(name):
    assert name in sut.__sut_unsupported__
    a = mx.array([[2.0, 1.0], [0.5, 3.0]], dtype=mx.float64)
    with pytest.raises((ValueError, RuntimeError), match="not implemented|Not implemented"):
        mx.eval(mx.jvp(_RULELESS[name], [a], [mx.ones_like(a)]))


def test_conventions_declared_are_mlx_s():
    """clip passes no tangent at a bound, abs has slope 0 at 0, max's forward mode takes
    one tied element's tangent where its reverse mode shares: each declared, each
    still so."""
    conventions = {"clip_convention", "abs_at_zero", "reduction_tie_convention"}
    assert conventions <= sut.__sut_unsupported__
    one = mx.array(1.0, dtype=mx.float64)
    assert mx.jvp(lambda x: mx.clip(x, 1.0, 2.0), [one], [one])[1][0].item() == 0.0
    assert mx.jvp(mx.abs, [one - one], [one])[1][0].item() == 0.0
    tied = mx.array([1.0, 1.0], dtype=mx.float64)
    forward = mx.jvp(mx.max, [tied], [mx.array([1.0, 3.0], dtype=mx.float64)])[1][0].item()
    assert forward != 2.0  # JAX's: the mean of the tied tangents
    np.testing.assert_array_equal(np.asarray(mx.grad(mx.max)(tied)), [0.5, 0.5])


def test_custom_vjp_forward_mode_over_reverse_differentiates_fwd():
    """JAX differentiates a custom_vjp's `fwd` under forward mode over reverse mode;
    MLX, given only a vjp, would differentiate the function's body, which here stops
    the gradient (as generated programs' custom functions do), and give 0."""
    @sut.custom_vjp
    def f(a):
        return sut.lax.stop_gradient(a) * 2.0

    f.defvjp(lambda a: (a * 2.0, ()), lambda residuals, cotangent: (cotangent * 2.0,))

    def value_and_pullback(x, u):
        out, pullback = sut.vjp(f, x)
        return out, pullback(u)[0]

    x, u, t = np.array([0.5, 1.0]), np.array([1.0, 3.0]), np.array([1.0, -1.0])
    (_, _), (out_tangent, cotangent_tangent) = sut.jvp(value_and_pullback, (x, u), (t, t))
    np.testing.assert_array_equal(np.asarray(out_tangent), 2.0 * t)
    np.testing.assert_array_equal(np.asarray(cotangent_tangent), 2.0 * t)
