"""Dynamic shapes: one program staged with dimension variables runs at every size.

refimpl's `export(f)(ShapeDtypeStruct((n, 3), ...))` (refimpl/export.py) and
`jit(f, abstracted_axes=...)` stage once; the program's types carry `n`, its
sub-programs take `n` as an implicit input, and every transformation of it
equals the same transformation of `f` staged at each concrete size.  Where a
program cannot be one for every size, staging says why.
"""
import pathlib

import jax
import numpy as np
import pytest
from helpers_refimpl import assert_close

import refimpl as R

jnp, lax = R.numpy, R.lax
S = R.ShapeDtypeStruct
f64 = np.float64


def _loop(x, y):
    a0 = x * 2.0
    carry = lax.fori_loop(0, 3, lambda i, a: jnp.sin(a) + a0, x)
    total, ys = lax.scan(lambda c, r: (c + jnp.sum(r * r), c * r), 0.0, y)
    return carry * total, lax.cond(total > 1.0, lambda a: a * 3.0, lambda a: -a, ys)


def _export(fun, *specs, names="n, m"):
    """`fun` exported for shapes like `("n", 3)`: names are variables of one scope."""
    dims = dict(zip(names.split(", "), R.export.symbolic_shape(names)))
    shapes = [tuple(dims[d] if isinstance(d, str) else d for d in s) for s in specs]
    return R.export.export(fun)(*[S(s, f64) for s in shapes])


def _args(*shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.uniform(0.1, 0.9, s) for s in shapes]


def test_types_carry_dimension_variables_and_the_ir_passes_them_to_sub_programs():
    exp = _export(_loop, ("n",), ("m", 2))
    assert [str(a) for a in exp.in_avals] == ["f64[n]", "f64[m,2]"]
    assert [str(a) for a in exp.out_avals] == ["f64[n]", "f64[m,2]"]
    text = str(exp)
    assert text.startswith("{ lambda ; n:i64[] m:i64[] a:f64[n] b:f64[m,2]. let")
    # The fori_loop body takes n as an implicit input, passed by the scan equation.
    body_binders = text.split("scan[", 1)[1].split(". let", 1)[0]
    assert " n:i64[] " in body_binders and "] d n 0:i64[] a" in text and "length=m" in text


@pytest.mark.parametrize("n, m", [(1, 1), (2, 3), (5, 1)])
def test_one_staging_equals_the_program_staged_at_each_size(n, m):
    calls = []
    exp = _export(lambda x, y: calls.append(1) or _loop(x, y), ("n",), ("m", 2))
    args = _args((n,), (m, 2))
    assert_close(exp.call(*args), R.jit(_loop)(*args), "symbolic vs concrete")
    assert_close(exp.call(*args), _loop(*args), "symbolic vs eager")
    assert len(calls) == 1


def test_jvp_grad_vmap_of_the_symbolic_program_equal_the_concrete_ones():
    exp = _export(_loop, ("n",), ("m", 2))
    loss = lambda f: lambda x, y: jnp.sum(f(x, y)[0]) + jnp.sum(f(x, y)[1] ** 2)  # noqa: E731
    for n, m in [(1, 2), (4, 3)]:
        args, tangents = _args((n,), (m, 2)), _args((n,), (m, 2), seed=1)
        assert_close(R.jvp(exp.call, args, tangents), R.jvp(_loop, args, tangents), "jvp")
        assert_close(R.grad(loss(exp.call), (0, 1))(*args), R.grad(loss(_loop), (0, 1))(*args),
                     "grad")
        batch = _args((2, n), (2, m, 2))
        assert_close(R.vmap(exp.call)(*batch), R.vmap(_loop)(*batch), "vmap")
    # Transformations staged symbolically too: the cotangent has the primal's type.
    g = _export(R.grad(loss(_loop), (0, 1)), ("n",), ("m", 2))
    assert [str(a) for a in g.out_avals] == ["f64[n]", "f64[m,2]"]
    args = _args((3,), (2, 2))
    assert_close(g.call(*args), R.grad(loss(_loop), (0, 1))(*args), "exported grad")


def test_dimension_arithmetic_matches_jax_export():
    def f(x, y):
        both = jnp.concatenate([x, y])
        return both, x.reshape(-1), jnp.matmul(x.T, x), jnp.zeros(x.shape) + 1.0
    ours = _export(f, ("n", 3), ("m", 3))
    n, m = jax.export.symbolic_shape("n, m")
    theirs = jax.export.export(jax.jit(lambda x, y: (
        jax.numpy.concatenate([x, y]), x.reshape(-1), x.T @ x, jax.numpy.zeros(x.shape) + 1.0)))(
        jax.ShapeDtypeStruct((n, 3), f64), jax.ShapeDtypeStruct((m, 3), f64))
    assert [str(a.shape) for a in ours.out_avals] == ["(m + n, 3)", "(3*n,)", "(3, 3)", "(n, 3)"]
    assert [a.shape[0] == 3 for a in theirs.out_avals] == [False, False, True, False]
    args = _args((2, 3), (4, 3))
    assert_close(ours.call(*args), theirs.call(*args), "refimpl vs jax.export")


def test_jit_with_abstracted_axes_stages_once_per_rank_and_dtype():
    calls = []

    def f(x, w):
        calls.append(1)
        return lax.fori_loop(0, 2, lambda i, a: jnp.tanh(jnp.matmul(a, w)), x)
    jf = R.jit(f, abstracted_axes=("b, k", "k, k"))
    for b, k in [(1, 1), (3, 2), (2, 4)]:
        args = _args((b, k), (k, k))
        assert_close(jf(*args), f(*args), f"size {(b, k)}")
    assert (len(calls), jf._trace_count()) == (4, 1)  # three eager runs, one staging
    with pytest.raises(ValueError, match="k"):
        jf(np.ones((2, 3)), np.ones((2, 2)))  # k is 3 in one argument, 2 in the other


def test_mixing_two_dimension_variables_is_refused_naming_both():
    with pytest.raises(R.ShapeError, match=r"\(n,\) and \(m,\).*m and n may differ"):
        _export(lambda x, y: x + y, ("n",), ("m",))
    with pytest.raises(R.ShapeError, match=r"\(n, 3\).*\(m,\)"):
        _export(lambda x, y: jnp.dot(x, y), ("n", 3), ("m",))
    with pytest.raises(TypeError, match="same types"):
        _export(lambda x, y: lax.cond(True, lambda: x, lambda: y), ("n",), ("m",))


@pytest.mark.parametrize("fun, what", [
    (lambda x: sum(x[i] for i in range(x.shape[0])), "concrete integer"),
    (lambda x: x * 2.0 if x.shape[0] > 3 else x, "inconclusive"),
    (lambda x: jnp.reshape(x, (-1, 2)), "divide"),
])
def test_a_construct_that_depends_on_the_size_is_a_clear_error(fun, what):
    with pytest.raises(R.InconclusiveDimensionError, match=what) as info:
        _export(fun, ("n",))
    assert __file__ in str(info.value)


def test_a_size_that_breaks_a_dimension_is_refused_at_call_time():
    exp = _export(lambda x, y: x * y, ("n",), ("n",))
    with pytest.raises(ValueError, match="assumed >= 1"):
        exp.call(np.ones(0), np.ones(0))
    with pytest.raises(ValueError, match="n = 3"):
        exp.call(np.ones(3), np.ones(4))
    assert_close(exp.call(np.ones(4), np.ones(4)), np.ones(4))


def test_a_loop_whose_trip_count_is_a_dimension():
    exp = _export(lambda x: lax.fori_loop(0, x.shape[0], lambda i, a: a * 2.0, x), ("n",))
    assert "length=n" in str(exp)
    for n in (1, 3):
        assert_close(exp.call(np.ones(n)), np.full(n, 2.0 ** n))
        assert_close(R.grad(lambda x: jnp.sum(exp.call(x)))(np.ones(n)), np.full(n, 2.0 ** n))


def test_while_loop_and_make_jaxpr_of_a_shape_dtype_struct():
    def w(x):
        return lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, jnp.sin(c[1])), (0, x))[1]
    n, = R.export.symbolic_shape("n")
    jaxpr = R.make_jaxpr(w)(S((n, 2), f64))
    assert str(jaxpr).startswith("{ lambda ; n:i64[] a:f64[n,2]. let")
    exp = R.export.export(w)(S((n, 2), f64))
    x, t = _args((3, 2), (3, 2))
    assert_close(R.jvp(exp.call, (x,), (t,)), R.jvp(w, (x,), (t,)))


def test_vmap_over_a_symbolic_axis_passes_the_batch_size_to_sub_programs():
    def f(x):
        def one(a):
            looped = lax.fori_loop(0, 2, lambda i, c: c * 2.0 + a, a)
            kept = lax.while_loop(lambda c: c[0] < 2, lambda c: (c[0] + 1, c[1] * a), (0, a))[1]
            return lax.cond(jnp.sum(a) > 0, lambda b: b * 2.0, lambda b: -b, looped + kept)
        return R.vmap(R.jit(one))(x)
    exp = _export(f, ("n", 3))
    body = str(exp).split("scan[", 1)[1].split(". let", 1)[0]
    assert "n:i64[]" in body and "f64[n,3]" in body  # the batched loop body takes n
    for n in (1, 4):
        (x,) = _args((n, 3))
        assert_close(exp.call(x), f(x), f"n = {n}")
    g = _export(R.grad(lambda x: jnp.sum(R.vmap(lambda a: lax.fori_loop(
        0, 2, lambda i, c: jnp.sin(c) * a, a))(x))), ("n", 3))
    (x,) = _args((3, 3))
    assert_close(g.call(x), R.grad(lambda x: jnp.sum(R.vmap(lambda a: lax.fori_loop(
        0, 2, lambda i, c: jnp.sin(c) * a, a))(x)))(x), "grad")


def test_a_branch_that_captures_nothing_still_binds_the_dimension_of_its_inputs():
    def f(x):  # only the true branch captures x: f64[n]; the false one takes it unused
        return lax.cond(jnp.sum(x) > 1.0, lambda a: jnp.dot(x, x), lambda a: a, jnp.sum(x))
    exp = _export(f, ("n",))
    for n in (1, 3):
        assert_close(exp.call(np.ones(n)), f(np.ones(n)), f"n = {n}")


def test_the_walkthrough_shows_the_program_refimpl_prints():
    """docs/refimpl-dynamic-shapes.md quotes this program's IR; it must stay true."""
    def circuit(a0):
        def loop(i, a):
            return a + a0
        a2 = lax.fori_loop(0, 10, loop, a0)
        return a0 + a2
    doc = (pathlib.Path(__file__).parents[2] / "docs" / "refimpl-dynamic-shapes.md").read_text()
    assert f"```\n{_export(circuit, ('n',))}\n```" in doc


def test_a_loop_of_no_steps_sizes_its_stacked_outputs_from_its_dimension_inputs():
    def f(x):  # under grad, the loop saves x * x per step: none here, of type f64[0,n]
        return lax.fori_loop(0, 0, lambda i, c: x * x, x)
    g = _export(R.grad(lambda x: jnp.sum(f(x))), ("n",))
    assert_close(g.call(np.ones(3)), np.ones(3))


def test_vmap_of_grad_through_a_per_example_branch_keeps_dimensions_unbatched():
    def f(x):  # under vmap the predicate is per example; cond's residual n stays one size
        def inner(a):
            return jnp.sum(lax.cond(jnp.sum(x) > 1.0, lambda b: b * x, lambda b: x + a, a))
        return R.grad(inner)(x)
    exp = _export(R.vmap(f), (2, "n"))
    x = np.stack(_args((3,), (3,)))
    x[1] *= 4.0  # one example takes each branch
    assert_close(exp.call(x), R.vmap(f)(x))
