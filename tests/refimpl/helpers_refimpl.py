"""Shared checks: run one program through refimpl and JAX under each transformation."""
import jax
import jax.numpy as jjnp
import numpy as np

import refimpl

RTOL, ATOL = 1e-9, 1e-9  # float64 on both sides; differences are rounding only


class Impl:
    """A SUT as the programs below see it: `np_` and `lax` namespaces plus transforms."""

    def __init__(self, mod, np_, lax):
        self.mod, np_, self.lax = mod, np_, lax
        self.np = np_


REF = Impl(refimpl, refimpl.numpy, refimpl.lax)
JAX = Impl(jax, jjnp, jax.lax)


def assert_close(actual, expected, what=""):
    __tracebackhide__ = True
    la, ta = jax.tree_util.tree_flatten(actual)
    le, te = jax.tree_util.tree_flatten(expected)
    assert len(la) == len(le), f"{what}: got {len(la)} leaves, but should be {len(le)}"
    for a, e in zip(la, le):
        a, e = np.asarray(a), np.asarray(e)
        assert a.shape == e.shape, f"{what}: shape {a.shape}, but should be {e.shape}"
        np.testing.assert_allclose(a, e, rtol=RTOL, atol=ATOL, err_msg=what)


def rng_args(shapes, seed=0, positive=False):
    rng = np.random.default_rng(seed)
    out = []
    for s in shapes:
        x = rng.uniform(0.5, 2.0, s) if positive else rng.normal(size=s)
        out.append(np.asarray(x, np.float64))
    return out


def scalarize(f, out_weights=None):
    """A scalar function of the program: a weighted sum of all outputs."""
    def g(impl, *args):
        outs = jax.tree_util.tree_leaves(f(impl)(*args))
        total = 0.0
        for i, o in enumerate(outs):
            w = np.cos(np.arange(int(np.prod(np.shape(o)))) + i).reshape(np.shape(o))
            total = total + impl.np.sum(o * w)
        return total
    return g


def _inner(a, b):
    la, lb = jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b)
    return sum(float(np.sum(np.asarray(x) * np.asarray(y))) for x, y in zip(la, lb))


def _loop(f, batched):
    """vmap's meaning: apply `f` to each example, stack the results."""
    outs = [f(*[b[i] for b in batched]) for i in range(len(batched[0]))]
    return jax.tree_util.tree_map(lambda *xs: np.stack([np.asarray(x) for x in xs]), *outs)


def check_transforms(build, args):
    """`build(impl)` returns the program.  JAX (one compiled call) gives the value,
    the JVP and the gradient; refimpl's vjp, jit and vmap are then tied to those by
    identities (inner products, jit == eval, vmap == loop), keeping the test fast."""
    __tracebackhide__ = True
    f_ref, f_jax = build(REF), build(JAX)
    argnums = tuple(range(len(args)))
    s = scalarize(build)
    s_ref, s_jax = (lambda *a: s(REF, *a)), (lambda *a: s(JAX, *a))
    tangents = rng_args([np.shape(a) for a in args], seed=7)
    expected = jax.jit(lambda a, t: (f_jax(*a), jax.jvp(f_jax, a, t),
                                     jax.grad(s_jax, argnums)(*a)))(tuple(args), tuple(tangents))
    value, jvp_expected, grad_expected = expected
    assert_close(f_ref(*args), value, "eval")
    assert_close(refimpl.jit(f_ref)(*args), value, "jit")
    out, tangent_out = refimpl.jvp(f_ref, args, tangents)
    assert_close((out, tangent_out), jvp_expected, "jvp")
    assert_close(refimpl.grad(s_ref, argnums)(*args), grad_expected, "grad")
    assert_close(refimpl.jit(refimpl.grad(s_ref, argnums))(*args), grad_expected, "jit(grad)")
    ct = jax.tree_util.tree_map(lambda o: np.cos(np.arange(np.size(o))).reshape(np.shape(o)),
                                value)
    _, vjp_fun = refimpl.vjp(f_ref, *args)
    lhs, rhs = _inner(ct, tangent_out), _inner(vjp_fun(ct), tangents)
    assert np.isclose(lhs, rhs, rtol=1e-9, atol=1e-9), f"<u, Jv> = {lhs} but <J^T u, v> = {rhs}"
    batched = [np.stack([a, a * 0.5 + 0.25, a * 1.5]) for a in map(np.asarray, args)]
    assert_close(refimpl.vmap(f_ref)(*batched), _loop(f_ref, batched), "vmap")
    assert_close(refimpl.vmap(refimpl.grad(s_ref))(*batched), _loop(refimpl.grad(s_ref), batched),
                 "vmap(grad)")
