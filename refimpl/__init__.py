"""refimpl: the reference implementation of jaxcheck, a compact mini-JAX.

The SUT surface (see docs/sut-api.md): `jvp`, `vjp`, `grad`, `vmap`, `jit`,
`linearize`, `jacfwd`, `jacrev`, `hessian`, `custom_jvp`, `custom_vjp`,
`checkpoint`, `make_jaxpr`, and the `numpy`
and `lax` namespaces.  Each module imports only the ones above it in this
list, which is also the order to read them in:

- `core`: abstract values, `Primitive`, tracers, interpreters, `bind` (which
  hands every op to the current interpreter), and the errors users see.
- `dims`: symbolic dimensions (`f64[n,3]`), dimension variables (`n:i64[]`)
  and the shape-polymorphic spec (`symbolic_shape`), as in `jax.export`.
- `pytree`: flattening nested arguments and results; `flatten_fun` and the
  argnums helpers every transformation uses on the user's function.
- `primitives`: the first-order primitives, each with its shape rule, NumPy
  impl, compile template, cost, whether it needs a transpose rule, and
  whether it is elementwise (then `vmap` batches it by the shared rule, and
  a JVP rule of one line per operand is given here too).
- `ops`: one-line wrappers that bind each primitive, used by every rule.
- `numpy`: the user's NumPy namespace (promotion and broadcasting made
  explicit), and Python's operators on tracers.
- `ir`: the typed program (jaxpr): typecheck, simplify, evaluate, print.
- `staging`: trace a Python function to a closed program; `make_jaxpr`.
- `jvp`: forward mode, its interpreter and `jvp_rules` (registering the
  one-line rules that `primitives` gives with its elementwise primitives).
- `linearize`: partial evaluation, the first half of reverse mode.
- `transpose`: the backward pass and `transpose_rules`; `vjp` and `grad`.
- `vmap`: the batching interpreter and `vmap_rules`.
- `jacobians`: `linearize`, `jacfwd`, `jacrev` and `hessian`, built from
  `jvp`, `vjp` and `vmap` as JAX builds them.
- `compiler`: a program compiled to one Python function of NumPy calls.
- `jit`: the `jit` primitive, its cache and its rules (those of any call of a
  program).
- `custom`: `custom_jvp`, `custom_vjp`, `checkpoint` and `stop_gradient`.
- `export`: shape-polymorphic staging, `export(f)(ShapeDtypeStruct(...))`.
- `control`: `cond`, `scan`, `fori_loop`, `while_loop` and their rules.
- `lax`: the user's `lax` namespace, a facade over `ops` and `control`.
"""
from . import export, lax, numpy
from .core import ConcretizationError, ShapeDtypeStruct, ShapeError, UnexpectedTracerError
from .custom import checkpoint, custom_jvp, custom_vjp
from .dims import InconclusiveDimensionError
from .ir import IRTypeError, jaxpr_cost
from .jacobians import hessian, jacfwd, jacrev, linearize
from .jit import jit
from .jvp import jvp
from .staging import make_jaxpr
from .transpose import grad, vjp
from .vmap import vmap

__version__ = "0.1.0"
# Reverse mode through while_loop is a clear error, as in JAX: its trip count
# is unknown while tracing, so no tape of iterations can be planned.  At a tie
# of maximum or minimum, refimpl takes the second operand's tangent (one
# comparison and one select, jvp._extremum_jvp), not the contract's half of
# each (JAX's, which costs twice the comparisons), and says so: tie_convention;
# its clip, composed of the two, follows it at a bound: clip_convention.
__sut_unsupported__ = frozenset({"while_loop_reverse", "tie_convention", "clip_convention"})
__all__ = ["jvp", "vjp", "grad", "vmap", "jit", "linearize", "jacfwd", "jacrev", "hessian",
           "custom_jvp", "custom_vjp", "checkpoint", "make_jaxpr", "numpy", "lax", "export",
           "ShapeDtypeStruct", "InconclusiveDimensionError",
           "ConcretizationError", "ShapeError", "UnexpectedTracerError", "IRTypeError",
           "jaxpr_cost"]

