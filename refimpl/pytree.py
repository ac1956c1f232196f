"""Pytrees: tuples, lists, dicts (sorted by key) and None, with arrays at the leaves.

A treedef is a hashable nested tuple, so it can be part of jit's cache key.
`broadcast_prefix` expands a prefix tree (vmap's in_axes/out_axes) to one
entry per leaf; `None` in a prefix is a leaf ("not mapped"), as in JAX.
Interpreters work on flat lists of values, so every transformation turns the
user's function of pytrees into a flat one with `flatten_fun`, and picks the
arguments it transforms with `argnums_tuple` and `partial_args`.
"""
LEAF = "*"


def tree_flatten(tree):
    leaves = []
    return leaves, _flatten(tree, leaves)


def _flatten(x, leaves):
    if isinstance(x, (tuple, list)):
        return (type(x), None, tuple(_flatten(c, leaves) for c in x))
    if isinstance(x, dict):
        keys = tuple(sorted(x))
        return (dict, keys, tuple(_flatten(x[k], leaves) for k in keys))
    if x is None:
        return (None, None, ())
    leaves.append(x)
    return LEAF


def tree_unflatten(treedef, leaves):
    it = iter(leaves)
    out = _build(treedef, it)
    assert next(it, it) is it, "too many leaves"
    return out


def _build(td, it):
    if td == LEAF:
        return next(it)
    typ, keys, children = td
    kids = [_build(c, it) for c in children]
    if typ is None:
        return None
    if typ is dict:
        return dict(zip(keys, kids))
    return typ(*kids) if hasattr(typ, "_fields") else typ(kids)


def num_leaves(td):
    return 1 if td == LEAF else sum(num_leaves(c) for c in td[2])


def broadcast_prefix(prefix, treedef, what="in_axes"):
    """One entry of `prefix` per leaf of `treedef` (a prefix leaf covers a subtree)."""
    out = []
    _broadcast(prefix, treedef, out, what)
    return out


def _broadcast(p, td, out, what):
    if not isinstance(p, (tuple, list, dict)):
        out.extend([p] * num_leaves(td))
        return
    typ, keys, children = (None, None, ()) if td == LEAF else td
    if isinstance(p, dict):
        same = typ is dict and tuple(sorted(p)) == keys
        p = [p[k] for k in keys] if same else p
    else:
        same = typ in (tuple, list) or hasattr(typ, "_fields")
    if not same or len(p) != len(children):
        raise ValueError(f"{what} {p!r} does not match the structure of the values "
                         f"({len(children)} children)")
    for c, sub in zip(p, children):
        _broadcast(c, sub, out, what)


# ----------------------------------------------------------------------------- functions

def flatten_fun(fun, in_tree):
    """`fun` as a function of flat leaves, and a thunk that returns its output tree.

    The output tree is known only once `fun` has run, hence the thunk (as in
    Autodidax); callers run the flat function once before calling it.
    """
    out_tree = []

    def flat_fun(*leaves):
        outs, tree = tree_flatten(fun(*tree_unflatten(in_tree, leaves)))
        out_tree.append(tree)
        return outs

    return flat_fun, lambda: out_tree[0]


def argnums_tuple(argnums):
    """`argnums` (grad) or `static_argnums` (jit, make_jaxpr) as a tuple: JAX takes an int too."""
    return (argnums,) if isinstance(argnums, int) else tuple(argnums)


def dynamic_positions(args, static_argnums):
    """The positions of `args` that are not static (a static index may be negative)."""
    static = {i % len(args) for i in static_argnums} if args else set()
    return [i for i in range(len(args)) if i not in static]


def partial_args(fun, args, free):
    """`fun` as a function of the arguments at positions `free` (in that order),
    the others fixed to their values in `args`."""
    def partial_fun(*values):
        full = list(args)
        for i, v in zip(free, values):
            full[i] = v
        return fun(*full)

    return partial_fun
