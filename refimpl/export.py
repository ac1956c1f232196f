"""Shape-polymorphic staging, as `jax.export`: stage once with symbolic
dimensions, call at every size.

    n, = symbolic_shape("n")
    exp = export(jit(f))(ShapeDtypeStruct((n, 3), np.float64))
    exp.in_avals, exp.out_avals   # (f64[n,3],) (f64[n],)
    exp.call(x)                   # any x of shape (k, 3), k >= 1

The spec is a `ShapeDtypeStruct` whose shape holds dimension variables
(`dims.symbolic_shape`), not `make_jaxpr(f, abstracted_axes=...)`: JAX's
dynamic-shape mode stayed experimental, and `jax.export` is its stable form
of the idea, so this surface is the one real JAX meets natively (the
jaxcheck contract names it, docs/sut-api.md).  `call` solves each
variable's size from the arguments' shapes, refuses a size that breaks a
dimension (or is 0: variables are >= 1, as in JAX) with a ValueError, and
binds one `jit` equation, so `jvp`, `grad` and `vmap` of it work as of any
jitted function.  Tests: tests/refimpl/test_refimpl_dynamic_shapes.py.
"""
from .core import aval_of, bind
from .dims import DimVar, SymbolicScope, bind_sizes, dims_of, symbolic_shape
from .jit import dim_operands, jit_p
from .pytree import tree_flatten, tree_unflatten
from .staging import stage_tree_fun

__all__ = ["export", "symbolic_shape", "SymbolicScope", "Exported"]


class Exported:
    """A program staged for every size: its types (`in_avals`, `out_avals`, with
    dimension variables), its typed program `jaxpr`, and `call`."""

    def __init__(self, jaxpr, captured, in_avals, in_tree, out_tree, name):
        self.jaxpr, self._captured, self.fun_name = jaxpr, captured, name
        self.in_avals, self.in_tree, self.out_tree = tuple(in_avals), in_tree, out_tree
        self.out_avals = tuple(jaxpr.out_avals)

    def call(self, *args):
        flat, tree = tree_flatten(args)
        if tree != self.in_tree:
            raise ValueError(f"{self.fun_name}: called with arguments of another structure than "
                             f"it was exported for ({len(self.in_avals)} arrays)")
        actual = [aval_of(x) for x in flat]
        if not dims_of(actual):  # concrete arguments: each must fit its spec
            bind_sizes(list(self.in_avals), actual)
        operands = dim_operands(self._captured, list(self.in_avals), flat)
        outs = bind(jit_p, *operands, *flat, jaxpr=self.jaxpr, name=self.fun_name)
        return tree_unflatten(self.out_tree, outs)

    def __str__(self):
        return str(self.jaxpr)


def export(fun):
    """`export(f)(*specs)`: `f` staged once on the types of `specs` (arrays or
    `ShapeDtypeStruct`s, whose dimension variables share a scope)."""
    def exporter(*specs):
        flat, tree = tree_flatten(specs)
        avals = [aval_of(s) for s in flat]
        jaxpr, captured, out_tree = stage_tree_fun(fun, tree, avals, "export")
        if not all(isinstance(c, DimVar) for c in captured):
            raise TypeError("export: the function captures values of an enclosing "
                            "transformation; export a function of its arguments only")
        return Exported(jaxpr, captured, avals, tree, out_tree, getattr(fun, "__name__", "fun"))
    return exporter
