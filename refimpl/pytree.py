"""Pytrees: tuples, lists, dicts (sorted by key) and None, with arrays at the leaves.

A treedef is a hashable nested tuple, so it can be part of jit's cache key.
`broadcast_prefix` expands a prefix tree (vmap's in_axes/out_axes) to one
entry per leaf; `None` in a prefix is a leaf ("not mapped"), as in JAX.
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
