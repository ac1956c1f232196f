"""Transformation: jit.  Stage abstractly, compile the IR to NumPy source, cache.

`jit(f)(*args)` stages `f` on the *types* of its arguments (so Python control
flow on traced values is an error naming the line), caches the program by
argument structure, types and static argument values, and binds the
higher-order primitive `jit` with the program as a param.  jit is lazy: under
another transformation the `jit` equation is transformed like any other (its
rules below transform the program), and compilation happens only when the
primitive is finally evaluated, by `compiler.compiled` (one line of NumPy
per equation, cached on the program).
Functions that capture tracers of an enclosing transformation are closure
converted (the captured values become explicit operands) and not cached.
Tests: tests/refimpl/test_refimpl_transforms.py (caching, laziness, closures).
"""
import functools

import numpy as np

from . import core, ops
from .compiler import compiled
from .core import ShapedArray, aval_of, bind, check_call, primitive, using
from .dims import (
    Dim,
    DimVar,
    InconclusiveDimensionError,
    SymbolicScope,
    bind_sizes,
    dims_of,
    instantiate,
    solve,
    symbolic_shape,
)
from .ir import jaxpr_cost
from .jvp import jvp_jaxpr, jvp_rules
from .linearize import merge, partial_eval_jaxpr, partial_eval_rules
from .pytree import (
    argnums_tuple,
    broadcast_prefix,
    dynamic_positions,
    partial_args,
    tree_flatten,
    tree_unflatten,
)
from .staging import dim_tracer, stage_tree_fun
from .transpose import is_linear, transpose_jaxpr, transpose_rules
from .vmap import size_inputs, vmap_jaxpr, vmap_rules

jit_p = primitive("jit", multiple_results=True)


def jit(fun, static_argnums=(), abstracted_axes=None):
    """Compile `fun`; it is traced once per distinct argument type (see `_cache_size`).

    `abstracted_axes` (JAX's name) marks dimensions dynamic: a pytree prefix of
    the dynamic arguments whose leaves are `symbolic_shape` specs, e.g.
    `("n, _",)`, `_` keeping that axis's size.  Such axes are dimension
    variables of one scope per jitted function, so `f` is staged once per
    rank and dtype and runs at every size (each >= 1, as in `export`)."""
    static = argnums_tuple(static_argnums)
    cache, stats, scope = {}, {"traces": 0}, SymbolicScope()

    @functools.wraps(fun)
    def jitted(*args):
        check_call(fun, args)
        dynamic = dynamic_positions(args, static)
        flat, tree = tree_flatten(tuple(args[i] for i in dynamic))
        statics = tuple((i, a) for i, a in enumerate(args) if i not in dynamic)
        avals = list(map(aval_of, flat))
        if abstracted_axes is not None:
            specs = broadcast_prefix(abstracted_axes, tree, "abstracted_axes")
            avals = [_abstract(a, spec, scope) for a, spec in zip(avals, specs)]
        key = (tree, tuple(avals), statics)
        hit = cache.get(key)
        if hit is None:
            jaxpr, captured, out_tree = stage_tree_fun(partial_args(fun, args, dynamic), tree,
                                                       key[1], "jit")
            hit = jaxpr, out_tree, captured
            stats["traces"] += 1
            if all(isinstance(c, DimVar) for c in captured):
                cache[key] = hit
        jaxpr, out_tree, captured = hit
        outs = bind(jit_p, *dim_operands(captured, avals, flat), *flat, jaxpr=jaxpr,
                    name=getattr(fun, "__name__", "fun"))
        return tree_unflatten(out_tree, outs)

    jitted._cache_size = lambda: len(cache)
    jitted._trace_count = lambda: stats["traces"]
    return jitted


def _abstract(aval, spec, scope):
    if spec is None:
        return aval
    names = [s.strip() for s in spec.split(",")] if spec.strip() else []
    if len(names) != aval.ndim:
        raise ValueError(f"jit: abstracted_axes spec {spec!r} does not fit an argument of type "
                         f"{aval}: give one name or _ per axis")
    keep = [d if n in ("_", str(d)) else None for n, d in zip(names, aval.shape)]
    shape = [k if k is not None else symbolic_shape(n, scope)[0] for n, k in zip(names, keep)]
    return ShapedArray(shape, aval.dtype)


def dim_operands(captured, avals, flat):
    """The values for a staged program's captured inputs: a top-level dimension
    variable's is its size, solved from the arguments (`export` shares this)."""
    if not any(isinstance(c, DimVar) for c in captured):
        return captured
    actual = list(map(aval_of, flat))
    env = solve(avals, actual) if dims_of(actual) else bind_sizes(avals, actual)
    return [c if not isinstance(c, DimVar) else _dim_value(env[c]) for c in captured]


def _dim_value(d):
    """A dimension as an operand: its size, or the value of its variable in context."""
    if isinstance(d, Dim):
        if d.var is None:
            raise InconclusiveDimensionError(f"jit: cannot pass the dimension {d} to a staged "
                                             f"program; give its arguments plain dimensions")
        return dim_tracer(core.current, d.var)
    return np.int64(d)


# ----------------------------------------------------------------------------- call rules

# The rules of a primitive that calls a program (`jaxpr`, `name` in its params):
# each takes the primitive first, so `checkpoint` (custom.py) shares them.

def call_jvp(prim, primals, tangents, *, jaxpr, name):
    nz = tuple(t is not None for t in tangents)
    new, out_nz = jvp_jaxpr(jaxpr, nz, (False,) * len(jaxpr.outvars))
    outs = bind(prim, *primals, *[t for t in tangents if t is not None], jaxpr=new,
                name=f"jvp({name})")
    n = len(jaxpr.outvars)
    return outs[:n], merge(out_nz, [None] * n, outs[n:])


def call_vmap(prim, size, vals, dims, *, jaxpr, name):
    jaxpr, extra = size_inputs(jaxpr, size)
    vals, dims = extra + list(vals), [None] * len(extra) + list(dims)
    vals = [v if d is None else ops.moveaxis(v, d, 0) for v, d in zip(vals, dims)]
    new, out_b = vmap_jaxpr(jaxpr, size, tuple(d is not None for d in dims),
                            (False,) * len(jaxpr.outvars))
    outs = bind(prim, *vals, jaxpr=new, name=f"vmap({name})")
    return outs, [0 if b else None for b in out_b]


def call_transpose(prim, cts, *args, jaxpr, name):
    linear, nonzero = tuple(map(is_linear, args)), tuple(c is not None for c in cts)
    outs = bind(prim, *[a for a in args if not is_linear(a)], *[c for c in cts if c is not None],
                jaxpr=transpose_jaxpr(jaxpr, linear, nonzero), name=f"transpose({name})")
    return merge(linear, [None] * len(args), outs)


def define_call(prim):
    """Give `prim` the meaning and rules of a call of its program."""
    prim.shape_rule = lambda *avals, jaxpr, name: instantiate(jaxpr, avals, prim.name)
    prim.impl = lambda *args, jaxpr, name: compiled(jaxpr)(*args)
    prim.cost = lambda eqn: jaxpr_cost(eqn.params["jaxpr"])
    jvp_rules[prim] = functools.partial(call_jvp, prim)
    vmap_rules[prim] = functools.partial(call_vmap, prim)
    transpose_rules[prim] = functools.partial(call_transpose, prim)


define_call(jit_p)


def _jit_partial_eval(lin, args, *, jaxpr, name):
    unknowns = tuple(map(lin.owns, args))
    known, unknown, num_res, out_uk = partial_eval_jaxpr(jaxpr, unknowns,
                                                         (False,) * len(jaxpr.outvars))
    with using(lin.prev):
        outs = bind(jit_p, *[a for a, u in zip(args, unknowns) if not u], jaxpr=known, name=name)
    known_outs, res = outs[:len(outs) - num_res], outs[len(outs) - num_res:]
    atoms = [lin.atom(x) for x in res] + [lin.atom(a) for a, u in zip(args, unknowns) if u]
    unknown_outs = lin.emit(jit_p, atoms, dict(jaxpr=unknown, name=name))
    return merge(out_uk, known_outs, unknown_outs)


partial_eval_rules[jit_p] = _jit_partial_eval
