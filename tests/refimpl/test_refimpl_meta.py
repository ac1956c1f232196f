"""Rule-table completeness and gradient cost of refimpl itself (its size:
test_refimpl_size.py)."""

import numpy as np
import pytest

import refimpl as R
from refimpl.core import PRIMITIVES, Primitive, ShapedArray, bind
from refimpl.ir import jaxpr_cost
from refimpl.jvp import jvp_rules
from refimpl.linearize import partial_eval_rules
from refimpl.primitives import NUMPY_FUNCTIONS
from refimpl.transpose import transpose_rules
from refimpl.vmap import vmap_rules
from strategies.language.opspec import OPS

jnp, lax = R.numpy, R.lax
HIGHER_ORDER = {"jit", "cond", "scan", "while"}


@pytest.mark.parametrize("prim", PRIMITIVES, ids=str)
def test_every_primitive_has_every_applicable_rule(prim):
    assert prim.impl and prim.shape_rule and prim.cost, prim
    assert prim in jvp_rules, f"no jvp rule for {prim}"
    assert prim in vmap_rules, f"no vmap rule for {prim}"
    if prim.transposable:
        assert prim in transpose_rules, f"no transpose rule for {prim}"
    if prim.name in HIGHER_ORDER:
        assert prim in partial_eval_rules, f"no partial-eval rule for {prim}"


@pytest.mark.parametrize("op", list(OPS))
def test_every_operation_of_the_language_has_its_primitives_and_their_rules(op):
    """The language's row of `op` (strategies/language/opspec.py) names the primitives
    that implement it in refimpl: each must exist, with every rule it needs."""
    by_name = {prim.name: prim for prim in PRIMITIVES}
    for name in OPS[op].primitives:
        prim = by_name.get(name)
        assert prim is not None, f"{op}: refimpl has no primitive {name!r}"
        assert prim in jvp_rules and prim in vmap_rules, f"{op}: {name} lacks a jvp or vmap rule"
        assert not prim.transposable or prim in transpose_rules, f"{op}: {name} has no transpose"


def test_refimpl_has_the_primitives_jax_names():
    names = {p.name for p in PRIMITIVES}
    jax_names = {"add", "sub", "mul", "div", "neg", "sin", "cos", "tanh", "exp", "log", "sqrt",
                 "integer_pow", "reduce_sum", "transpose", "reshape", "broadcast_in_dim",
                 "dot_general", "select_n", "gt", "lt", "max", "concatenate", "cond", "scan",
                 "while", "jit"}
    assert jax_names <= names


def test_the_numpy_namespace_offers_only_numpys_functions_of_the_primitives():
    """Each primitive that gives the user's `numpy` namespace a function names one
    NumPy has: a primitive with params or other operands (integer_pow, select_n)
    would give a function that cannot be called as its name says."""
    assert [name for name in NUMPY_FUNCTIONS if not hasattr(np, name)] == []
    assert all(getattr(jnp, name).__name__ == name for name in NUMPY_FUNCTIONS)


def test_a_missing_rule_is_a_clear_error():
    fake = Primitive("fake")
    fake.impl, fake.shape_rule = (lambda x: x), (lambda x: x)
    with pytest.raises(NotImplementedError, match="no vmap rule for fake"):
        R.vmap(lambda x: bind(fake, x))(np.ones((2, 3)))
    with pytest.raises(NotImplementedError, match="no jvp rule for fake"):
        R.jvp(lambda x: bind(fake, x), (1.0,), (1.0,))


def sharing_chain(n):
    """`z = a * (z + z)` n times: exponentially many paths, linearly many equations."""
    def f(x, a):
        z = x
        for _ in range(n):
            z = a * (z + z)
        return jnp.sum(z)
    return f


def test_grad_is_linear_on_a_heavily_shared_chain():
    x, a = np.ones(3), np.full(3, 0.5)
    sizes = [len(R.make_jaxpr(R.grad(sharing_chain(n), (0, 1)))(x, a).eqns) for n in (20, 40)]
    # Doubling n doubles a linear gradient (measured 239 / 119 = 2.01), where
    # exponential growth would give 2**20: 2.2 leaves room for fixed overheads.
    assert sizes[1] / sizes[0] <= 2.2, sizes
    assert np.allclose(R.grad(sharing_chain(40))(x, a), 1.0)  # (2 * 0.5) ** 40


COST_PROGRAMS = {
    "sharing_chain": (sharing_chain(30), [np.ones(4), np.full(4, 0.5)]),
    "mlp": (lambda w, x: jnp.sum(jnp.tanh(jnp.matmul(x, w)) ** 2),
            [np.ones((4, 5)) / 4, np.ones((3, 4))]),
    "elementwise": (lambda x: jnp.sum(jnp.sin(x) * jnp.exp(x) / (x + 2.0)), [np.ones((4, 5))]),
    "jit_mlp": (R.jit(lambda w, x: jnp.sum(jnp.tanh(jnp.dot(x, w)) ** 2)),
                [np.ones((4, 5)) / 4, np.ones((3, 4))]),
    "scan": (lambda x: jnp.sum(lax.scan(lambda c, v: (jnp.sin(c) * v, c),
                                        x, jnp.stack([x, x, x]))[0]), [np.ones(5)]),
}


@pytest.mark.parametrize("name", list(COST_PROGRAMS))
def test_grad_costs_at_most_three_forward_passes(name):
    f, args = COST_PROGRAMS[name]
    forward = jaxpr_cost(R.make_jaxpr(f)(*args))
    backward = jaxpr_cost(R.make_jaxpr(R.grad(f))(*args))
    assert backward <= 3 * forward, f"C_grad = {backward / forward:.2f}"


def test_cost_counts_dot_general_multiply_adds_and_recurses():
    program = R.make_jaxpr(lambda a, b: jnp.matmul(a, b))(np.ones((2, 3)), np.ones((3, 4)))
    assert jaxpr_cost(program) == 2 * 4 * 3
    program = R.make_jaxpr(lambda x: lax.scan(lambda c, _: (c * 2.0, None), x, None,
                                              length=5)[0])(np.ones(3))
    assert jaxpr_cost(program) == 5 * (3 + 3)  # broadcast of 2.0 and mul, five times


def test_shaped_array_prints_like_jax():
    assert str(ShapedArray((2, 3), np.float64)) == "f64[2,3]"
    assert str(ShapedArray((), np.bool_)) == "bool[]"
