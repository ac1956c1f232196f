"""Broken SUT: reverse mode that walks the expression tree without memoising shared nodes.

`grad` stages `fun` with `jax.make_jaxpr`, evaluates it equation by equation
keeping each equation's pullback, and then pushes the cotangent back along
every path from the output to the inputs, recursing into a variable once per
use instead of once after all its uses have been summed (micrograd without
the topological sort).  The sum over paths is the gradient, so every value is
right; but `z = a * (z + z)` repeated n times has 2**n paths, so the work of
`grad` doubles with each link.  `tests/meta/test_cost_catches.py` shows the
complexity properties catch it and the value properties pass it.

Family: cost.  Smallest input: `sharing`.
"""

from functools import partial
from itertools import accumulate

import jax
import jax.numpy as jnp
from jax.extend.core import Literal

from tests.broken import Witness
from tests.broken.over_jax import *  # noqa: F403 (JAX's API, but for what this module defines)
from tests.broken.over_jax import numpy_with

FAMILY = "cost"
WITNESS = Witness("sharing", shows="cost")

numpy = numpy_with()
make_jaxpr = jax.make_jaxpr


def _bind(eqn, values, positions, *varying):
    values = list(values)
    for position, value in zip(positions, varying):
        values[position] = value
    out = eqn.primitive.bind(*values, **eqn.primitive.get_bind_params(eqn.params))
    return list(out) if eqn.primitive.multiple_results else [out]


def _differentiable(atom) -> bool:
    return not isinstance(atom, Literal) and jnp.issubdtype(atom.aval.dtype, jnp.floating)


class _Tape:
    """The forward evaluation: each variable's value, and the pullback of its equation."""

    def __init__(self, closed, args):
        jaxpr = closed.jaxpr
        self.env = dict(zip(jaxpr.constvars, closed.consts)) | dict(zip(jaxpr.invars, args))
        self.made_by = {}
        for eqn in jaxpr.eqns:
            self._record(eqn)

    def read(self, atom):
        return atom.val if isinstance(atom, Literal) else self.env[atom]

    def _record(self, eqn):
        values = [self.read(a) for a in eqn.invars]
        positions = [i for i, a in enumerate(eqn.invars) if _differentiable(a)]
        outs, pullback = jax.vjp(partial(_bind, eqn, values, positions),
                                 *(values[i] for i in positions))
        for j, var in enumerate(eqn.outvars):
            self.env[var] = outs[j]
            self.made_by[var] = (eqn, j, outs, positions, pullback)

    def back(self, var, cotangent, grads):
        """Push `cotangent` from `var` along every path to the inputs (no memo: the bug)."""
        if var in grads:
            grads[var] = grads[var] + cotangent
            return
        if var not in self.made_by:
            return  # a constant
        eqn, j, outs, positions, pullback = self.made_by[var]
        cts = [cotangent if k == j else jnp.zeros_like(o) for k, o in enumerate(outs)]
        for position, ct in zip(positions, pullback(cts)):
            self.back(eqn.invars[position], ct, grads)


def grad(fun, argnums=0):
    nums = argnums if isinstance(argnums, tuple) else (argnums,)

    def gradient(*args):
        leaves, tree = jax.tree.flatten(args)
        try:
            closed = jax.make_jaxpr(lambda *xs: fun(*jax.tree.unflatten(tree, xs)))(*leaves)
        except jax.errors.ConcretizationTypeError:
            # A Python branch on a value cannot be staged: JAX's own grad differentiates
            # it, so the shim's one bug stays the tape's missing memo.
            return jax.grad(fun, argnums)(*args)
        if len(closed.out_avals) != 1 or closed.out_avals[0].shape != ():
            raise TypeError(f"grad requires one scalar output, got {closed.out_avals}")
        tape = _Tape(closed, leaves)
        invars = closed.jaxpr.invars
        # Each argument's leaves, as positions among all leaves.
        counts = [len(jax.tree.leaves(a)) for a in args]
        ends = list(accumulate(counts))
        spans = {i: range(ends[i] - counts[i], ends[i]) for i in nums}
        grads = {invars[k]: jnp.zeros_like(jnp.asarray(leaves[k], jnp.float64))
                 for i in nums for k in spans[i]}
        out = closed.jaxpr.outvars[0]
        if not isinstance(out, Literal):
            tape.back(out, jnp.ones_like(tape.read(out)), grads)
        result = tuple(jax.tree.unflatten(jax.tree.structure(args[i]),
                                          [grads[invars[k]] for k in spans[i]]) for i in nums)
        return result if isinstance(argnums, tuple) else result[0]

    return gradient
