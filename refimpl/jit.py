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

from . import ops
from .compiler import compiled
from .core import ShapeError, aval_of, bind, check_call, primitive, using
from .ir import jaxpr_cost
from .jvp import jvp_jaxpr, jvp_rules
from .linearize import merge, partial_eval_jaxpr, partial_eval_rules
from .pytree import argnums_tuple, dynamic_positions, partial_args, tree_flatten, tree_unflatten
from .staging import stage_tree_fun
from .transpose import is_linear, transpose_jaxpr, transpose_rules
from .vmap import vmap_jaxpr, vmap_rules

jit_p = primitive("jit", multiple_results=True)


def jit(fun, static_argnums=()):
    """Compile `fun`; it is traced once per distinct argument type (see `_cache_size`)."""
    static = argnums_tuple(static_argnums)
    cache, stats = {}, {"traces": 0}

    @functools.wraps(fun)
    def jitted(*args):
        check_call(fun, args)
        dynamic = dynamic_positions(args, static)
        flat, tree = tree_flatten(tuple(args[i] for i in dynamic))
        statics = tuple((i, a) for i, a in enumerate(args) if i not in dynamic)
        key = (tree, tuple(map(aval_of, flat)), statics)
        hit = cache.get(key)
        if hit is None:
            jaxpr, captured, out_tree = stage_tree_fun(partial_args(fun, args, dynamic), tree,
                                                       key[1], "jit")
            hit = jaxpr, out_tree
            stats["traces"] += 1
            if not captured:
                cache[key] = hit
        else:
            captured = []
        jaxpr, out_tree = hit
        outs = bind(jit_p, *captured, *flat, jaxpr=jaxpr, name=getattr(fun, "__name__", "fun"))
        return tree_unflatten(out_tree, outs)

    jitted._cache_size = lambda: len(cache)
    jitted._trace_count = lambda: stats["traces"]
    return jitted


# ----------------------------------------------------------------------------- jit_p rules


def _jit_shape(*avals, jaxpr, name):
    if list(avals) != jaxpr.in_avals:
        raise ShapeError(f"jit: operands {list(avals)} do not match the program's inputs "
                         f"{jaxpr.in_avals}")
    return jaxpr.out_avals


jit_p.shape_rule = _jit_shape
jit_p.impl = lambda *args, jaxpr, name: compiled(jaxpr)(*args)
jit_p.cost = lambda eqn: jaxpr_cost(eqn.params["jaxpr"])


def _jit_jvp(primals, tangents, *, jaxpr, name):
    nz = tuple(t is not None for t in tangents)
    new, out_nz = jvp_jaxpr(jaxpr, nz, (False,) * len(jaxpr.outvars))
    outs = bind(jit_p, *primals, *[t for t in tangents if t is not None], jaxpr=new,
                name=f"jvp({name})")
    n = len(jaxpr.outvars)
    return outs[:n], merge(out_nz, [None] * n, outs[n:])


jvp_rules[jit_p] = _jit_jvp


def _jit_vmap(size, vals, dims, *, jaxpr, name):
    vals = [v if d is None else ops.moveaxis(v, d, 0) for v, d in zip(vals, dims)]
    new, out_b = vmap_jaxpr(jaxpr, size, tuple(d is not None for d in dims),
                            (False,) * len(jaxpr.outvars))
    outs = bind(jit_p, *vals, jaxpr=new, name=f"vmap({name})")
    return outs, [0 if b else None for b in out_b]


vmap_rules[jit_p] = _jit_vmap


def _jit_transpose(cts, *args, jaxpr, name):
    linear, nonzero = tuple(map(is_linear, args)), tuple(c is not None for c in cts)
    outs = bind(jit_p, *[a for a in args if not is_linear(a)], *[c for c in cts if c is not None],
                jaxpr=transpose_jaxpr(jaxpr, linear, nonzero), name=f"transpose({name})")
    return merge(linear, [None] * len(args), outs)


transpose_rules[jit_p] = _jit_transpose


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
