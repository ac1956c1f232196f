"""refimpl: the reference implementation of jaxcheck, a compact mini-JAX.

The SUT surface (see SUT_API.md): `jvp`, `vjp`, `grad`, `vmap`, `jit`,
`make_jaxpr`, and the `numpy` and `lax` namespaces.  Read in this order:
`core` (primitives, interpreters, bind), `primitives`, `ir`, `staging`,
`jvp`, `linearize` + `transpose` (reverse mode), `vmap`, `jit`, `control`.
"""
from . import lax, numpy
from .core import ConcretizationError, ShapeError, UnexpectedTracerError, aval_of
from .ir import IRTypeError, Jaxpr, jaxpr_cost
from .jit import jit
from .jvp import jvp
from .pytree import tree_flatten, tree_unflatten
from .staging import stage
from .transpose import grad, vjp
from .vmap import vmap

__version__ = "0.1.0"
# Reverse mode through while_loop is a clear error, as in JAX: its trip count
# is unknown while tracing, so no tape of iterations can be planned.
__sut_unsupported__ = frozenset({"while_loop_reverse"})
__all__ = ["jvp", "vjp", "grad", "vmap", "jit", "make_jaxpr", "numpy", "lax",
           "ConcretizationError", "ShapeError", "UnexpectedTracerError", "IRTypeError",
           "jaxpr_cost"]


def make_jaxpr(fun, static_argnums=()):
    """`make_jaxpr(f)(*args)`: the typed program `f` stages to on `args`' types."""
    static = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)

    def traced(*args):
        nums = {i % len(args) for i in static} if args else set()
        flat, tree = tree_flatten(tuple(a for i, a in enumerate(args) if i not in nums))

        def flat_fun(*xs):
            it = iter(tree_unflatten(tree, xs))
            full = [args[i] if i in nums else next(it) for i in range(len(args))]
            return tree_flatten(fun(*full))[0]

        jaxpr, captured = stage(flat_fun, [aval_of(x) for x in flat], "make_jaxpr")
        k = len(captured)
        return Jaxpr(jaxpr.invars[k:], jaxpr.eqns, jaxpr.outvars, jaxpr.invars[:k], captured)

    return traced
