"""refimpl: the reference implementation of jaxcheck, a compact mini-JAX.

The SUT surface (see SUT_API.md): `jvp`, `vjp`, `grad`, `vmap`, `jit`,
`make_jaxpr`, and the `numpy` and `lax` namespaces.  Read in this order:
`core` (primitives, interpreters, bind), `primitives`, `ir`, `staging`,
`jvp`, `linearize` + `transpose` (reverse mode), `vmap`, `jit`, `control`.
"""
from . import lax, numpy
from .core import ConcretizationError, ShapeError, UnexpectedTracerError
from .ir import IRTypeError, jaxpr_cost
from .jit import jit
from .jvp import jvp
from .staging import make_jaxpr
from .transpose import grad, vjp
from .vmap import vmap

__version__ = "0.1.0"
# Reverse mode through while_loop is a clear error, as in JAX: its trip count
# is unknown while tracing, so no tape of iterations can be planned.
__sut_unsupported__ = frozenset({"while_loop_reverse"})
__all__ = ["jvp", "vjp", "grad", "vmap", "jit", "make_jaxpr", "numpy", "lax",
           "ConcretizationError", "ShapeError", "UnexpectedTracerError", "IRTypeError",
           "jaxpr_cost"]

