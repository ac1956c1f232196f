"""refimpl's custom_jvp, custom_vjp, checkpoint and stop_gradient, held to JAX's."""
import jax
import numpy as np
import pytest

import refimpl as R

X = np.array([0.3, -0.7, 1.1])
Y = np.array([1.5, 0.2, -0.4])
XS, YS = np.stack([X, Y]), np.stack([Y, X])


def ruled(sut, kind):
    """`body`, whose derivative only its rule gives (its arguments stop gradients),
    as a custom_jvp or a custom_vjp; or `body` under checkpoint."""
    jnp = sut.numpy

    def body(a0, a1):
        return jnp.sin(a0) * a1 + a0 ** 2

    def frozen(a0, a1):
        return body(sut.lax.stop_gradient(a0), sut.lax.stop_gradient(a1))

    if kind == "custom_jvp":
        fn = sut.custom_jvp(frozen)
        fn.defjvp(lambda primals, tangents: sut.jvp(body, primals, tangents))
    elif kind == "custom_vjp":
        fn = sut.custom_vjp(frozen)
        fn.defvjp(lambda a0, a1: (body(a0, a1), (a0, a1)),
                  lambda res, g: sut.vjp(body, *res)[1](g))
    else:
        fn = sut.checkpoint(body)
    return fn


def uses(sut, kind):
    """Each way of using the function: name -> thunk."""
    jnp, fn = sut.numpy, ruled(sut, kind)

    def loss(a, b):
        return jnp.sum(fn(a, b) * jnp.cos(a))

    def scanned(a, b):
        carry, _ = sut.lax.scan(lambda c, row: (c + fn(row, c), c * 2.0), b, jnp.stack([a, a]))
        return jnp.sum(carry)

    out = {
        "value": lambda: fn(X, Y),
        "grad": lambda: sut.grad(loss, argnums=(0, 1))(X, Y),
        "jit of grad": lambda: sut.jit(sut.grad(loss))(X, Y),
        "vmap of grad": lambda: sut.vmap(sut.grad(loss))(XS, YS),
        "grad of vmap": lambda: sut.grad(lambda a, b: jnp.sum(sut.vmap(loss)(a, b)))(XS, YS),
        "grad of jit of vmap": lambda: sut.grad(
            lambda a, b: jnp.sum(sut.jit(sut.vmap(fn))(a, b)))(XS, YS),
        "grad through scan": lambda: sut.grad(scanned)(X, Y),
        "hessian": lambda: sut.hessian(loss)(X, Y),
        "jvp of grad": lambda: sut.jvp(sut.grad(loss), (X, Y), (Y, X)),
    }
    if kind != "custom_vjp":  # forward mode reaches a custom_vjp rule only through reverse
        out["jvp"] = lambda: sut.jvp(loss, (X, Y), (Y, X))
        out["jvp of vmap"] = lambda: sut.jvp(sut.vmap(fn), (XS, YS), (YS, XS))
    return out


@pytest.mark.parametrize("kind", ["custom_jvp", "custom_vjp", "checkpoint"])
def test_custom_rules_and_checkpoint_agree_with_jax(kind):
    ours, theirs = uses(R, kind), uses(jax, kind)
    for name, thunk in ours.items():
        got, want = jax.tree_util.tree_leaves(thunk()), jax.tree_util.tree_leaves(theirs[name]())
        assert len(got) == len(want), name
        for g, w in zip(got, want):
            np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-12, atol=1e-12,
                                       err_msg=f"{kind}: {name}")


def test_the_rule_gives_the_derivative_not_the_function():
    """The function's own derivative is zero (its arguments stop gradients): a
    nonzero gradient can only come from the rule."""
    assert R.grad(lambda x: R.lax.stop_gradient(x) * x)(3.0) == 3.0
    fn = ruled(R, "custom_jvp")
    assert np.all(R.grad(lambda a: R.numpy.sum(fn(a, Y)))(X) != 0)


def test_forward_mode_through_a_custom_vjp_function_is_an_error():
    fn = ruled(R, "custom_vjp")
    with pytest.raises(TypeError, match="forward-mode.*custom_vjp function frozen"):
        R.jvp(fn, (X, Y), (Y, X))


def test_a_rule_that_misses_a_closed_over_value_is_an_error():
    def outer(y):
        f = R.custom_jvp(lambda x: x * y)
        f.defjvp(lambda p, t: (p[0] * y, t[0] * y))
        return f(2.0)
    with pytest.raises(TypeError, match="closes over"):
        R.grad(outer)(3.0)


def test_checkpoint_recomputes_in_the_backward_pass():
    """Reverse mode of a checkpointed `sin(sin(x))` saves only x: the backward
    pass is one program of x and the cotangent, which computes the inner sin
    again (its cosine is the outer sin's derivative)."""
    fn = R.checkpoint(lambda x: R.numpy.sin(R.numpy.sin(x)))
    (eqn,) = R.make_jaxpr(R.grad(fn))(1.0).eqns
    assert eqn.primitive.name == "checkpoint"
    backward = eqn.params["jaxpr"]
    assert len(backward.invars) == 2
    assert [e.primitive.name for e in backward.eqns][:2] == ["sin", "cos"]


def test_grad_of_vmap_of_a_custom_jvp_whose_rule_runs_a_cond_per_example():
    """The rule's cond, under vmap with a per-example predicate, gives each branch
    stop_gradient of its operands where another branch is taken, tangents among
    them; reverse mode transposes that to zero.  JAX raises there (J5), so the
    gradient is held to JAX's of the same function without the custom rule."""
    def body(sut):
        n = sut.numpy
        return lambda a: sut.lax.cond(n.sum(a) > 1.0, lambda b: b, lambda b: a + a, a)

    plain = body(R)
    ruled_body = R.custom_jvp(plain)
    ruled_body.defjvp(lambda primals, tangents: R.jvp(plain, primals, tangents))
    x = np.array([0.0, 2.0])
    got = R.grad(lambda x: R.numpy.sum(R.vmap(ruled_body)(x)))(x)
    expected = jax.grad(lambda x: jax.numpy.sum(jax.vmap(body(jax))(x)))(x)
    np.testing.assert_allclose(got, expected)
