"""Nesting, perturbation confusion, closures, pytrees, vmap axes, jit caching, printed IR."""
import jax
import jax.numpy as jjnp
import numpy as np
import pytest
from helpers_refimpl import JAX, REF, assert_close

import refimpl as R
from refimpl.compiler import compiled
from refimpl.ir import Eqn, Jaxpr, Var, typecheck
from refimpl.primitives import sin_p

jnp, lax = R.numpy, R.lax
X = np.array([0.1, 0.5, 0.9])


def test_perturbation_confusion_autodidax_example():
    def f(x):
        def g(y):
            return x
        return x * R.jvp(g, (0.0,), (1.0,))[1]
    assert R.jvp(f, (0.0,), (1.0,))[1] == 0.0


def test_jvp_of_jvp_of_closure_over_outer_variable():
    def f(x):
        return R.jvp(lambda y: x * y, (1.0,), (1.0,))[1]
    assert R.jvp(f, (2.0,), (1.0,)) == (2.0, 1.0)


def test_grad_of_grad_of_grad_against_jax():
    def h(n):
        return lambda x: n.sin(x) * x ** 3
    assert np.isclose(R.grad(R.grad(R.grad(h(jnp))))(0.7),
                      jax.grad(jax.grad(jax.grad(h(jjnp))))(0.7))


@pytest.mark.parametrize("stack", ["jit(grad(jit))", "vmap(grad)", "grad(vmap)", "jvp(grad)",
                                   "grad(jvp)", "vmap(vmap)", "jit(vmap(grad))", "vmap(jit)",
                                   "grad(grad(jit))", "vmap(jvp)"])
def test_nested_stacks_against_jax(stack):
    def f(n):
        return lambda x: n.sum(n.tanh(x) * n.sin(x) ** 2)

    def build(m, n):
        g = f(n)
        return {
            "jit(grad(jit))": lambda x: m.jit(m.grad(m.jit(g)))(x),
            "vmap(grad)": lambda x: m.vmap(m.grad(lambda v: n.sin(v) * v))(x),
            "grad(vmap)": lambda x: m.grad(lambda v: n.sum(m.vmap(lambda w: n.exp(w) * w)(v)))(x),
            "jvp(grad)": lambda x: m.jvp(m.grad(g), (x,), (n.cos(x),)),
            "grad(jvp)": lambda x: m.grad(lambda v: m.jvp(g, (v,), (v * v,))[1])(x),
            "vmap(vmap)": lambda x: m.vmap(m.vmap(lambda v: v * n.sum(x)))(
                n.reshape(x * x, (3, 1))),
            "jit(vmap(grad))": lambda x: m.jit(m.vmap(m.grad(lambda v: n.tanh(v) ** 2)))(x),
            "vmap(jit)": lambda x: m.vmap(m.jit(lambda v: v * n.sum(x)))(x),
            "grad(grad(jit))": lambda x: m.grad(m.grad(m.jit(lambda v: n.sin(v) * v ** 3)))(x[0]),
            "vmap(jvp)": lambda x: m.vmap(lambda v: m.jvp(lambda w: w * n.sin(w), (v,), (v,)))(x),
        }[stack]
    assert_close(build(R, jnp)(X), build(jax, jjnp)(X), stack)


def test_closure_capturing_outer_tracer_under_jit_is_an_explicit_input():
    def outer(x):
        z = x * 2.0
        return R.jit(lambda y: y + z * x)(x * 3.0)
    assert np.allclose(R.grad(lambda x: jnp.sum(outer(x)))(X), 3 + 4 * X)
    assert np.allclose(R.vmap(outer)(X), 3 * X + 2 * X * X)
    eqn = R.make_jaxpr(outer)(X).eqns[-1]
    assert str(eqn.primitive) == "jit" and len(eqn.invars) == 3  # z, x, then the argument
    assert len(eqn.params["jaxpr"].invars) == 3


def test_cond_and_scan_close_over_outer_values():
    def f(x):
        c = lax.cond(jnp.sum(x) > 0, lambda: x * x, lambda: -x)
        out, _ = lax.scan(lambda carry, _: (carry * x, None), c, None, length=3)
        return jnp.sum(out)
    assert np.allclose(R.grad(f)(X), 5 * X ** 4)
    assert np.allclose(R.jit(R.grad(f))(X), 5 * X ** 4)


def test_pytrees_through_every_transformation():
    def f(p):
        return {"out": (p["w"] * p["b"][0], [jnp.sum(p["w"])]), "none": None}
    p = {"w": X, "b": [np.ones(3) * 2.0, None]}
    t = {"w": np.ones(3), "b": [np.ones(3), None]}
    out = R.jit(f)(p)
    assert np.allclose(out["out"][0], 2 * X) and out["none"] is None
    _, tan = R.jvp(f, (p,), (t,))
    assert np.allclose(tan["out"][0], 2 + X)
    (g,) = R.vjp(f, p)[1]({"out": (np.ones(3), [1.0]), "none": None})
    assert np.allclose(g["w"], 3.0) and np.allclose(g["b"][0], X) and g["b"][1] is None
    g = R.grad(lambda p: jnp.sum(f(p)["out"][0]))(p)
    assert np.allclose(g["w"], 2.0)
    batched = R.vmap(f, in_axes=({"w": 0, "b": None},))({"w": np.stack([X, X]), "b": p["b"]})
    assert batched["out"][0].shape == (2, 3) and batched["out"][1][0].shape == (2,)


def test_grad_argnums_tuple_and_int():
    def f(x, y, z):
        return jnp.sum(x * y * z)
    gx = R.grad(f)(X, 2.0, 3.0)
    gxz = R.grad(f, argnums=(0, 2))(X, 2.0, 3.0)
    assert np.allclose(gx, 6.0) and isinstance(gxz, tuple) and np.isclose(gxz[1], np.sum(X) * 2)
    assert np.isclose(R.grad(f, argnums=-1)(X, 2.0, 3.0), np.sum(X) * 2)


@pytest.mark.parametrize("in_axes,out_axes,x_shape,y_shape", [
    (0, 0, (3, 4), (3, 4)), (1, 0, (3, 4), (3, 4)), (-1, 1, (3, 4), (3, 4)),
    ((0, None), -1, (3, 4), (5,)), ((None, 1), 0, (4,), (2, 3)), ([1, 0], 1, (4, 3), (3, 2))])
def test_vmap_axes_against_jax(in_axes, out_axes, x_shape, y_shape):
    x = np.arange(np.prod(x_shape)).reshape(x_shape) / 7
    y = np.arange(np.prod(y_shape)).reshape(y_shape) / 5

    def f(n):
        return lambda x, y: n.sin(x) * n.sum(y) + x
    in_axes_j = tuple(in_axes) if isinstance(in_axes, list) else in_axes
    assert_close(R.vmap(f(jnp), in_axes, out_axes)(x, y),
                 jax.vmap(f(jjnp), in_axes_j, out_axes)(x, y), str((in_axes, out_axes)))


def test_vmap_out_axes_per_output_and_none():
    f = R.vmap(lambda x, c: (x * 2.0, c), in_axes=(0, None), out_axes=(1, None))
    a, c = f(np.ones((3, 2)), 5.0)
    assert a.shape == (2, 3) and c == 5.0


def test_jit_traces_once_per_argument_type():
    count = []

    def f(x, n):
        count.append(1)
        return x * n
    g = R.jit(f, static_argnums=1)
    for _ in range(3):
        g(np.ones(3), 2)
    assert g._cache_size() == 1 and g._trace_count() == 1 and len(count) == 1
    g(np.ones(4), 2)
    g(np.ones(3), 3)
    g(np.ones(3), 2)
    assert g._cache_size() == 3 and len(count) == 3
    assert np.allclose(g(np.ones(3), 3), 3.0)


def test_jit_is_lazy_and_composes_by_transforming_its_program():
    g = R.jit(lambda x: jnp.sin(x) * x)
    program = R.make_jaxpr(R.grad(lambda x: jnp.sum(g(x))))(X)
    names = [str(e.primitive) for e in program.eqns]
    assert "jit" in names  # the primal call and the transposed linear call stay jitted
    assert np.allclose(R.grad(lambda x: jnp.sum(g(x)))(X), np.cos(X) * X + np.sin(X))


def test_jit_compiles_to_numpy_source():
    jaxpr = R.make_jaxpr(lambda x: jnp.sum(jnp.sin(x) * 2.0))(X)
    source = compiled(jaxpr).source
    assert "np.sin(" in source and "def compiled(" in source


def test_printed_ir_looks_like_jax():
    text = str(R.make_jaxpr(lambda a: jnp.sin(a))(np.ones(3)))
    assert text == "{ lambda ; a:f64[3]. let b:f64[3] = sin a in (b,) }"
    text = str(R.make_jaxpr(lambda a: jnp.sum(a, axis=0) + 1.0)(np.ones((2, 3))))
    assert "reduce_sum[axes=(0,)] a" in text and "broadcast_in_dim" in text
    text = str(R.make_jaxpr(lambda x: lax.fori_loop(0, 3, lambda i, y: y * 2.0, x))(1.0))
    assert "scan[" in text and "num_carry=2" in text and "length=3" in text


def test_ir_objects_expose_jax_like_fields():
    program = R.make_jaxpr(lambda x, y: (jnp.dot(x, y), x > 0))(np.ones((2, 3)), np.ones(3))
    eqn = program.eqns[0]
    assert eqn.primitive.name == "dot_general" and "dimension_numbers" in eqn.params
    assert eqn.outvars[0].aval.shape == (2,) and eqn.outvars[0].shape == (2,)
    assert program.outvars[1].aval.dtype == np.bool_
    assert program.jaxpr.eqns is program.eqns and len(program.invars) == 2


def test_typecheck_rejects_a_bad_program():
    a, b = Var(R.core.ShapedArray((3,), np.float64)), Var(R.core.ShapedArray((4,), np.float64))
    with pytest.raises(R.IRTypeError) as info:
        typecheck(Jaxpr([a], [Eqn(sin_p, [a], [b], {})], [b]))
    assert "f64[4]" in str(info.value) and "f64[3]" in str(info.value) and "sin" in str(info.value)


def test_mixed_numpy_and_tracer_operands():
    w = np.arange(3.0)
    assert np.allclose(R.grad(lambda x: jnp.sum(w * x + w / (x + 3.0) - w))(X),
                       w - w / (X + 3.0) ** 2)
    assert np.allclose(R.vmap(lambda x: w @ x)(np.eye(3)), w)


@pytest.mark.parametrize("dtypes", [(np.float32, np.float32), (np.float32, np.float64)])
def test_dtypes_follow_jax_through_every_transformation(dtypes):
    """float32 stays float32 (a Python scalar takes the array's dtype, constants a rule
    makes too), float32 with float64 is float64, a gradient has its primal's dtype."""
    def f(impl):
        n = impl.np
        def g(x, y):
            return n.sum(n.hypot(x, 2.0) * n.prod(x) + n.copysign(2.0, x) + y * x) * 0.5
        return g
    x, y = (np.array([0.5, -1.5], d) for d in dtypes)
    for name, transform in [("value", lambda m, g: g), ("jit", lambda m, g: m.jit(g)),
                            ("grad", lambda m, g: m.grad(g, argnums=(0, 1))),
                            ("vmap grad", lambda m, g: m.vmap(m.grad(g))),
                            ("jvp", lambda m, g: lambda u, v: m.jvp(g, (u, v), (u, v)))]:
        ref, jx = transform(R, f(REF))(x, y), transform(jax, f(JAX))(x, y)
        got = [np.asarray(a).dtype for a in jax.tree_util.tree_leaves(ref)]
        want = [np.asarray(a).dtype for a in jax.tree_util.tree_leaves(jx)]
        assert got == want, f"{name}: {got}, but JAX gives {want}"
