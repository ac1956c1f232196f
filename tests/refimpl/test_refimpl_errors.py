"""Errors raised at trace time name the user's file and line, and say what went wrong."""
import numpy as np
import pytest

import refimpl as R

jnp, lax = R.numpy, R.lax
HERE = __file__


def _names_line(exc_info, snippet):
    msg = str(exc_info.value)
    assert f"{HERE}:" in msg, msg
    assert snippet in msg, msg


@pytest.mark.parametrize("transform", ["eval", "jit", "jvp", "grad", "vmap"])
def test_shape_mismatch_names_op_shapes_and_line(transform):
    def f(x):
        return jnp.sum(jnp.add(x, jnp.ones(4)))  # the offending line
    run = {"eval": f, "jit": R.jit(f), "grad": R.grad(f), "vmap": R.vmap(f),
           "jvp": lambda x: R.jvp(f, (x,), (x,))}[transform]
    x = np.ones((2, 3)) if transform == "vmap" else np.ones(3)
    with pytest.raises(TypeError) as info:
        run(x)
    _names_line(info, "the offending line")
    assert "add" in str(info.value) and "3" in str(info.value) and "4" in str(info.value)


def test_matmul_mismatch_names_both_shapes():
    with pytest.raises(R.ShapeError) as info:
        R.jit(lambda a, b: jnp.matmul(a, b))(np.ones((2, 3)), np.ones((4, 5)))
    assert "(2, 3)" in str(info.value) and "(4, 5)" in str(info.value)
    assert "matmul" in str(info.value)


@pytest.mark.parametrize("transform", [R.jit, R.grad, R.vmap])
def test_wrong_number_of_arguments(transform):
    def f(x, y):
        return jnp.sum(x * y)
    with pytest.raises(TypeError) as info:
        transform(f)(np.ones(3))  # called with one argument
    _names_line(info, "called with one argument")


def test_jvp_primals_tangents_mismatch():
    with pytest.raises(TypeError) as info:
        R.jvp(lambda x, y: x * y, (1.0, 2.0), (1.0,))  # mismatched tangents
    _names_line(info, "mismatched tangents")


def test_grad_of_non_scalar_output():
    with pytest.raises(TypeError) as info:
        R.grad(lambda x: jnp.sin(x))(np.ones(3))  # non-scalar output
    _names_line(info, "non-scalar output")
    assert "scalar" in str(info.value) and "f64[3]" in str(info.value)


def test_leaked_tracer_used_later():
    leaked = []

    def f(x):
        leaked.append(x)
        return x * 2.0

    R.jvp(f, (1.0,), (1.0,))
    with pytest.raises(R.UnexpectedTracerError) as info:
        leaked[0] * 3.0  # use of the leaked tracer
    _names_line(info, "use of the leaked tracer")
    R.jit(f)(np.ones(2))
    with pytest.raises(R.UnexpectedTracerError):
        R.grad(lambda x: jnp.sum(leaked[-1] * x))(np.ones(2))


def test_python_branch_under_jit_names_line():
    def f(x):
        if jnp.sum(x) > 0:  # branch on a traced value
            return x
        return -x
    with pytest.raises(R.ConcretizationError) as info:
        R.jit(f)(np.ones(3))
    _names_line(info, "branch on a traced value")
    assert "jit" in str(info.value)


def test_python_branch_on_batched_value_under_vmap():
    def f(x):
        if x > 0:  # branch on a batched value
            return x
        return -x
    with pytest.raises(R.ConcretizationError) as info:
        R.vmap(f)(np.ones(3))
    _names_line(info, "branch on a batched value")
    assert "vmap" in str(info.value)


def test_python_branch_on_unbatched_value_under_vmap_works():
    def f(x, flag):
        return x * 2.0 if flag > 0 else x
    assert np.allclose(R.vmap(f, in_axes=(0, None))(np.ones(3), 1.0), 2.0)


def test_python_control_flow_on_values_under_jvp_and_grad():
    def f(x):
        if x.sum() > 0:
            return jnp.sum(x * x)
        return float(jnp.sum(x)) * jnp.sum(x)
    x = np.array([1.0, 2.0])
    assert np.allclose(R.grad(f)(x), 2 * x)
    assert np.allclose(R.grad(f)(-x), [-3.0, -3.0])
    assert np.isclose(R.jvp(f, (x,), (np.ones(2),))[1], 6.0)
    assert np.allclose(R.vjp(f, x)[1](1.0)[0], 2 * x)
    assert bool(R.jvp(lambda x: x, (x,), (x,))[0].sum() > 0)


def test_reverse_mode_through_while_loop_is_a_clear_error():
    def f(x):
        return lax.while_loop(lambda c: c < 10.0, lambda c: c * 2.0, x)  # the while loop
    assert np.isclose(R.jvp(f, (1.0,), (1.0,))[1], 16.0)
    with pytest.raises(TypeError) as info:
        R.grad(f)(1.0)
    _names_line(info, "the while loop")
    assert "while_loop" in str(info.value)


def test_cond_branches_must_agree():
    with pytest.raises(TypeError) as info:
        lax.cond(True, lambda x: x, lambda x: jnp.sum(x), np.ones(3))  # disagreeing branches
    _names_line(info, "disagreeing branches")
