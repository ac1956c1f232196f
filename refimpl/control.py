"""Control flow as higher-order primitives: `cond`, `scan` (and `fori_loop`,
which lowers to `scan` when its trip count is static, as in JAX), `while`.

The user's branch and body functions are staged to closed programs (values
they capture from enclosing transformations become explicit operands) and
carried in the params.  This module also registers each primitive's entry in
every rule table: JVP transforms the sub-programs (with a fixpoint over which
loop carries have nonzero tangents); vmap with a batched `cond` predicate runs
every branch and selects, and with a batched `while` predicate loops while any
example is still running, masking the updates of finished ones; reverse mode
splits a `cond`/`scan` into a known part (run now, saving residuals; for scan
one per iteration) and a linear part, whose transpose is a `cond` of
transposed branches or a `scan` run backwards.  Reverse mode through
`while_loop` is an error, as in JAX (the trip count is unknown, so per-iteration
residuals cannot be saved): use `fori_loop` with static bounds or `scan`.
`linearize` through it works, as in JAX: the tangent loop is staged whole.
Tests: tests/refimpl/test_refimpl_control.py.
"""
import numpy as np

from . import core, ops
from . import numpy as jnp
from .compiler import compiled
from .core import ShapedArray, ShapeError, Tracer, aval_of, bind, primitive, using
from .custom import stop_gradient
from .dims import Dim, DimVar, substitute
from .ir import Eqn, Jaxpr, Var, dce, dce_rules, eval_jaxpr, jaxpr_cost, typecheck
from .jvp import instantiate, jvp_jaxpr, jvp_rules
from .linearize import merge, partial_eval_jaxpr, partial_eval_rules, reorder_invars
from .pytree import tree_flatten, tree_unflatten
from .staging import capture_key, dim_tracer, stage_closed, stage_tree_fun
from .transpose import is_linear, transpose_jaxpr, transpose_rules
from .vmap import size_inputs, to_front, vmap_jaxpr, vmap_rules

cond_p = primitive("cond", multiple_results=True)
scan_p = primitive("scan", multiple_results=True)
# Reverse mode refuses while (see above): its transpose rule says so.
while_p = primitive("while", multiple_results=True)


def _type_error(msg):
    return TypeError(f"{msg}\n  at {core.user_location()}")


def _batching(size):
    """`vmap_jaxpr` at batch size `size`, called like `jvp_jaxpr` and `partial_eval_jaxpr`."""
    return lambda jaxpr, batched, instantiate: vmap_jaxpr(jaxpr, size, batched, instantiate)


def carry_fixpoint(step, carry):
    """The mask of loop carries that carry a tangent, a batch axis or an unknown.

    `step(carry)` transforms the loop body with `carry` marked on the way in and
    returns `(out, result)`, `out` marking the body's carry outputs.  An output
    carry is the next iteration's input, so it must be marked on the way in
    too; marks only grow, so one round per carry, plus one to confirm, reaches
    the fixpoint.  Returns `(carry, result)` of the last round.
    """
    carry = tuple(carry)
    for _ in range(len(carry) + 1):
        out, result = step(carry)
        if tuple(out) == carry:
            break
        carry = tuple(a or b for a, b in zip(carry, out))
    return carry, result


# ----------------------------------------------------------------------------- cond

def cond(pred, true_fun, false_fun, *operands):
    """`true_fun(*operands)` if `pred` else `false_fun(*operands)`, as one primitive."""
    flat, tree = tree_flatten(operands)
    avals = [aval_of(x) for x in flat]
    staged = [stage_tree_fun(f, tree, avals, "a lax.cond branch") for f in (false_fun, true_fun)]
    if staged[0][2] != staged[1][2] or staged[0][0].out_avals != staged[1][0].out_avals:
        raise _type_error(f"lax.cond: true_fun and false_fun must return the same types, got "
                          f"{staged[1][0].out_avals} and {staged[0][0].out_avals}")
    captured = list({capture_key(t): t for _, c, _ in staged for t in c}.values())
    branches = tuple(_with_captures(j, c, captured) for j, c, _ in staged)
    outs = bind(cond_p, _predicate(pred), *captured, *flat, branches=branches)
    return tree_unflatten(staged[0][2], outs)


def _with_captures(jaxpr, own, union):
    """Give a branch one input per captured value of *all* branches (unused ones fresh)."""
    mine = {capture_key(t): v for t, v in zip(own, jaxpr.invars)}
    dims = {capture_key(t): v for t, v in zip(own, jaxpr.invars) if isinstance(v, DimVar)}
    invars = [mine.get(capture_key(t)) or _unused(t, dims) for t in union] + \
        jaxpr.invars[len(own):]
    return typecheck(Jaxpr(invars, jaxpr.eqns, jaxpr.outvars))


def _unused(t, dims):
    """A branch's input for another branch's capture: a dimension variable is
    bound as itself (the branch's types may mention it), anything else fresh."""
    var = t if isinstance(t, DimVar) else getattr(t, "var", None)
    return var if isinstance(var, DimVar) and id(var) not in dims else Var(t.aval)


def _predicate(pred):
    aval = aval_of(pred)
    if aval.shape != ():
        raise ShapeError(f"lax.cond: the predicate must be a scalar, got {aval}")
    if aval.dtype == np.bool_:
        return pred
    return jnp.not_equal_zero(pred) if isinstance(pred, Tracer) else np.bool_(pred != 0)


def _cond_shape(pred, *operands, branches):
    if pred != ShapedArray((), np.bool_):
        raise ShapeError(f"cond: the predicate must be bool[], got {pred}")
    for b in branches:
        if b.in_avals != list(operands) or b.out_avals != branches[0].out_avals:
            raise ShapeError(f"cond: branch types {b.in_avals} -> {b.out_avals} do not fit "
                             f"operands {list(operands)}")
    return branches[0].out_avals


cond_p.shape_rule = _cond_shape
cond_p.impl = lambda pred, *operands, branches: compiled(branches[int(pred)])(*operands)
cond_p.cost = lambda eqn: max(map(jaxpr_cost, eqn.params["branches"]))


def _cond_dce(eqn, used):
    """The cond of its `used` outputs: each branch computes those alone (a checkpoint's
    forward then drops the residuals its linearization would need)."""
    def keep(outs):
        return [v for v, u in zip(outs, used) if u]

    branches = tuple(dce(Jaxpr(b.invars, b.eqns, keep(b.outvars))) for b in eqn.params["branches"])
    return Eqn(eqn.primitive, eqn.invars, keep(eqn.outvars), {**eqn.params, "branches": branches})


dce_rules[cond_p] = _cond_dce


def _branches_out_mask(transform, branches, in_mask):
    """The outputs that `transform` (jvp_jaxpr, vmap_jaxpr, partial_eval_jaxpr)
    marks in any branch: a cond's output is whichever branch ran."""
    n = len(branches[0].outvars)
    return tuple(map(any, zip(*[transform(b, in_mask, (False,) * n)[-1] for b in branches])))


def _cond_jvp(primals, tangents, *, branches):
    nz = tuple(t is not None for t in tangents[1:])
    n = len(branches[0].outvars)
    out_nz = _branches_out_mask(jvp_jaxpr, branches, nz)
    new = tuple(jvp_jaxpr(b, nz, out_nz)[0] for b in branches)
    outs = bind(cond_p, *primals, *[t for t in tangents[1:] if t is not None], branches=new)
    return outs[:n], merge(out_nz, [None] * n, outs[n:])


jvp_rules[cond_p] = _cond_jvp


def _cond_vmap(size, vals, dims, *, branches):
    (pred, *operands), (pdim, *odims) = vals, dims
    extra = size_inputs(branches[0], size)[1]
    branches = tuple(size_inputs(b, size)[0] for b in branches)
    operands, odims = extra + operands, [None] * len(extra) + odims
    operands = [o if d is None else ops.moveaxis(o, d, 0) for o, d in zip(operands, odims)]
    batched, n = tuple(d is not None for d in odims), len(branches[0].outvars)
    if pdim is not None:  # a predicate per example: compute every branch, then select
        pred = ops.moveaxis(pred, pdim, 0)
        spread = [o if d or not core.is_float(o) else ops.broadcast_in_dim(
            o, (size, *aval_of(o).shape), range(1, 1 + len(aval_of(o).shape)))
            for o, d in zip(operands, batched)]
        batched = tuple(d or core.is_float(o) for o, d in zip(operands, batched))
        outs = [eval_jaxpr(vmap_jaxpr(b, size, batched, (True,) * n)[0],
                           [_taken(pred, i, o) for o in spread]) for i, b in enumerate(branches)]
        # An output of a dimension's type is that size in every branch and example.
        sizes = [getattr(getattr(a, "dim", None), "var", None) for a in branches[0].out_avals]
        return [ops.select_n(ops.broadcast_in_dim(pred, np.shape(f), (0,)), f, t) if v is None
                else dim_tracer(core.current, v) for f, t, v in zip(*outs, sizes)], [
                    0 if v is None else None for v in sizes]
    out_b = _branches_out_mask(_batching(size), branches, batched)
    new = tuple(vmap_jaxpr(b, size, batched, out_b)[0] for b in branches)
    return bind(cond_p, pred, *operands, branches=new), [0 if b else None for b in out_b]


vmap_rules[cond_p] = _cond_vmap


def _taken(pred, i, x):
    """x in the examples that take branch i, stop_gradient(x) in the others, as in JAX:
    a branch not taken still runs, on another branch's residuals (zeros, which it may
    divide by), and its NaN derivative must not reach x's."""
    if not core.is_float(x):
        return x
    which = ops.broadcast_in_dim(pred, aval_of(x).shape, (0,))
    return ops.select_n(which, *[x if j == i else stop_gradient(x) for j in (0, 1)])


def _cond_transpose(cts, pred, *operands, branches):
    linear, nonzero = tuple(map(is_linear, operands)), tuple(c is not None for c in cts)
    new = tuple(transpose_jaxpr(b, linear, nonzero) for b in branches)
    outs = bind(cond_p, pred, *[o for o in operands if not is_linear(o)],
                *[c for c in cts if c is not None], branches=new)
    return [None] + merge(linear, [None] * len(operands), outs)


transpose_rules[cond_p] = _cond_transpose


def _cond_partial_eval(lin, args, *, branches):
    (pred, *operands), n = args, len(branches[0].outvars)
    if lin.owns(pred):
        raise _type_error("lax.cond: the predicate depends on a tangent value")
    uk = tuple(map(lin.owns, operands))
    out_uk = _branches_out_mask(partial_eval_jaxpr, branches, uk)
    splits = [partial_eval_jaxpr(b, uk, out_uk) for b in branches]
    res_avals = [k.out_avals[len(k.outvars) - r:] for k, _, r, _ in splits]
    known = tuple(_pad_residuals(k, res_avals, i) for i, (k, _, _, _) in enumerate(splits))
    unknown = tuple(_pick_residuals(u, res_avals, i) for i, (_, u, _, _) in enumerate(splits))
    with using(lin.prev):
        outs = bind(cond_p, pred, *[o for o, u in zip(operands, uk) if not u], branches=known)
    n_known = n - sum(out_uk)
    unknown_operands = [o for o, u in zip(operands, uk) if u]
    atoms = [lin.atom(x) for x in [pred] + outs[n_known:] + unknown_operands]
    return merge(out_uk, outs[:n_known], lin.emit(cond_p, atoms, dict(branches=unknown)))


partial_eval_rules[cond_p] = _cond_partial_eval


def _pad_residuals(known, res_avals, i):
    """Branch i's known part, returning zeros for the other branches' residuals."""
    r = len(res_avals[i])

    def fun(*args):
        outs = eval_jaxpr(known, args)
        res = [outs[len(outs) - r:] if j == i else [_filler(a) for a in avals]
               for j, avals in enumerate(res_avals)]
        return outs[:len(outs) - r] + [x for rs in res for x in rs]

    return stage_closed(fun, known.in_avals)


def _filler(aval):
    """A value for another branch's residual: zeros, but a dimension variable's size
    (a value of type `n:i64[]` is always the size `n`; the programs rely on it)."""
    var = getattr(getattr(aval, "dim", None), "var", None)
    return ops.zeros(aval) if var is None else dim_tracer(core.current, var)


def _pick_residuals(unknown, res_avals, i):
    """Branch i's unknown part, taking every branch's residuals and using its own."""
    start = sum(len(a) for a in res_avals[:i])
    total = sum(len(a) for a in res_avals)

    def fun(*args):
        mine = list(args[start:start + len(res_avals[i])])
        return eval_jaxpr(unknown, mine + list(args[total:]))

    all_res = [a for avals in res_avals for a in avals]
    return stage_closed(fun, all_res + unknown.in_avals[len(res_avals[i]):])


# ----------------------------------------------------------------------------- scan

def scan(f, init, xs=None, length=None, reverse=False):
    """Loop `carry, y = f(carry, x)` over the leading axis of `xs`; stack the ys."""
    init_flat, carry_tree = tree_flatten(init)
    xs_flat, _ = tree_flatten(xs)
    lengths = {np.shape(x)[0] if np.ndim(x) else None for x in xs_flat}
    if length is not None:
        lengths.add(length if isinstance(length, Dim) else int(length))
    if len(lengths) != 1 or None in lengths:
        raise _type_error(f"lax.scan: xs leading axes and length disagree or are missing: "
                          f"{sorted(lengths, key=str)}")
    length = lengths.pop()
    carry_avals = [aval_of(c) for c in init_flat]
    x_avals = [ShapedArray(aval_of(x).shape[1:], aval_of(x).dtype) for x in xs_flat]

    def body(carry, x):
        new_carry, y = f(carry, x)
        new_flat, new_tree = tree_flatten(new_carry)
        if new_tree != carry_tree or [aval_of(c) for c in new_flat] != carry_avals:
            raise _type_error(f"lax.scan: the body must return a carry of the same types as "
                              f"init: {carry_avals}, got {[aval_of(c) for c in new_flat]}")
        return new_carry, y

    jaxpr, captured, out_tree = stage_tree_fun(body, tree_flatten((init, xs))[1],
                                               carry_avals + x_avals, "a lax.scan body")
    outs = bind(scan_p, *captured, *init_flat, *xs_flat, jaxpr=jaxpr, length=length,
                num_consts=len(captured), num_carry=len(init_flat), reverse=bool(reverse))
    return tree_unflatten(out_tree, outs)


def fori_loop(lower, upper, body_fun, init_val):
    """`for i in range(lower, upper): val = body_fun(i, val)`; a scan when the bounds
    are Python integers (so reverse mode works), a while_loop otherwise."""
    if all(isinstance(b, (int, np.integer, Dim)) for b in (lower, upper)):  # n: scan n times
        def step(carry, _):
            i, x = carry
            return (i + 1, body_fun(i, x)), None
        (_, out), _ = scan(step, (np.int64(lower), init_val), None,
                           length=max(upper - lower, 0))
        return out
    _, _, out = while_loop(lambda c: c[0] < c[1], lambda c: (c[0] + 1, c[1], body_fun(c[0], c[2])),
                           (lower, upper, init_val))
    return out


def _scan_split(args, num_consts, num_carry):
    return args[:num_consts], args[num_consts:num_consts + num_carry], args[num_consts + num_carry:]


def _scan_shape(*avals, jaxpr, length, num_consts, num_carry, reverse):
    consts, carry, xs = _scan_split(list(avals), num_consts, num_carry)
    x_avals = [ShapedArray(a.shape[1:], a.dtype) for a in xs]
    ok = all(a.shape[:1] == (length,) for a in xs)
    if not ok or consts + carry + x_avals != jaxpr.in_avals or \
            jaxpr.out_avals[:num_carry] != carry:
        raise ShapeError(f"scan: operands {list(avals)} do not fit the body "
                         f"{jaxpr.in_avals} -> {jaxpr.out_avals} (length {length})")
    ys = [ShapedArray((length,) + a.shape, a.dtype) for a in jaxpr.out_avals[num_carry:]]
    return carry + ys


def _scan_impl(*args, jaxpr, length, num_consts, num_carry, reverse):
    consts, carry, xs = _scan_split(list(args), num_consts, num_carry)
    body, ys = compiled(jaxpr), []
    for i in (range(length - 1, -1, -1) if reverse else range(length)):
        outs = body(*consts, *carry, *[x[i] for x in xs])
        carry = outs[:num_carry]
        ys.append(outs[num_carry:])
    ys = ys[::-1] if reverse else ys
    sizes = {v: int(c) for v, c in zip(jaxpr.invars, consts) if isinstance(v, DimVar)}
    y_avals = substitute(jaxpr.out_avals[num_carry:], sizes)  # no step: sized by the consts
    return list(carry) + [np.stack(y) if length else np.zeros((0,) + a.shape, a.dtype)
                          for y, a in zip(zip(*ys) if ys else [()] * len(y_avals), y_avals)]


scan_p.shape_rule = _scan_shape
scan_p.impl = _scan_impl
scan_p.cost = lambda eqn: eqn.params["length"] * jaxpr_cost(eqn.params["jaxpr"])


def _grouped(nz, sizes):
    """Positions in `(primals, nonzero tangents)` listed group by group, each
    group's primals followed by its tangents (for loops' consts/carry/xs)."""
    slot, k = {}, len(nz)
    for i, z in enumerate(nz):
        if z:
            slot[i], k = k, k + 1
    order, start = [], 0
    for s in sizes:
        order += list(range(start, start + s)) + [slot[i] for i in range(start, start + s)
                                                  if nz[i]]
        start += s
    return order


def _regroup(jaxpr, in_nz, in_sizes, out_nz, out_sizes):
    order_in, order_out = _grouped(in_nz, in_sizes), _grouped(out_nz, out_sizes)
    return typecheck(Jaxpr([jaxpr.invars[i] for i in order_in], jaxpr.eqns,
                           [jaxpr.outvars[i] for i in order_out]))


def _scan_fixpoint(transform, jaxpr, in_mask, num_consts, num_carry):
    """`transform` (jvp_jaxpr, vmap_jaxpr, partial_eval_jaxpr) of a scan body at
    the carry fixpoint, its carry outputs marked where its carry inputs are.
    Returns `(in_mask, result)`, `in_mask` grown by the carries that had to join."""
    consts, carry, xs = _scan_split(tuple(in_mask), num_consts, num_carry)
    n_ys = len(jaxpr.outvars) - num_carry

    def step(carry):
        result = transform(jaxpr, consts + carry + xs, carry + (False,) * n_ys)
        return result[-1][:num_carry], result

    carry, result = carry_fixpoint(step, carry)
    return consts + carry + xs, result


def _scan_jvp(primals, tangents, *, jaxpr, length, num_consts, num_carry, reverse):
    in_nz, (new, out_nz) = _scan_fixpoint(jvp_jaxpr, jaxpr, [t is not None for t in tangents],
                                          num_consts, num_carry)
    carry_nz, n_ys = in_nz[num_consts:num_consts + num_carry], len(jaxpr.outvars) - num_carry
    tangents = [instantiate(t, p) if z else t for p, t, z in zip(primals, tangents, in_nz)]
    sizes = (num_consts, num_carry, len(primals) - num_consts - num_carry)
    body = _regroup(new, in_nz, sizes, out_nz, (num_carry, n_ys))
    groups = [_scan_split(x, num_consts, num_carry) for x in (primals, tangents)]
    args = [x for i in range(3) for x in list(groups[0][i]) + [t for t in groups[1][i]
                                                                if t is not None]]
    n_ct = sum(in_nz[:num_consts])
    outs = bind(scan_p, *args, jaxpr=body, length=length, num_consts=num_consts + n_ct,
                num_carry=num_carry + sum(carry_nz), reverse=reverse)
    k = num_carry + sum(carry_nz)
    carry, carry_t = outs[:num_carry], outs[num_carry:k]
    ys, ys_t = outs[k:k + n_ys], outs[k + n_ys:]
    return carry + ys, merge(carry_nz, [None] * num_carry, carry_t) + merge(
        out_nz[num_carry:], [None] * n_ys, ys_t)


jvp_rules[scan_p] = _scan_jvp


def _scan_vmap(size, vals, dims, *, jaxpr, length, num_consts, num_carry, reverse):
    jaxpr, extra = size_inputs(jaxpr, size)
    vals, dims, num_consts = extra + list(vals), [None] * len(extra) + list(dims), \
        num_consts + len(extra)
    in_b, (new, out_b) = _scan_fixpoint(_batching(size), jaxpr,
                                        [d is not None for d in dims], num_consts, num_carry)
    n_front = num_consts + num_carry
    vals = [(to_front(v, d, size) if i < n_front else ops.moveaxis(v, d, 1)) if z else v
            for i, (v, d, z) in enumerate(zip(vals, dims, in_b))]
    outs = bind(scan_p, *vals, jaxpr=new, length=length, num_consts=num_consts,
                num_carry=num_carry, reverse=reverse)
    return outs, [(0 if i < num_carry else 1) if z else None for i, z in enumerate(out_b)]


vmap_rules[scan_p] = _scan_vmap


def _scan_partial_eval(lin, args, *, jaxpr, length, num_consts, num_carry, reverse):
    in_uk, (known, unknown, n_res, out_uk) = _scan_fixpoint(
        partial_eval_jaxpr, jaxpr, list(map(lin.owns, args)), num_consts, num_carry)
    consts_uk, carry_uk, xs_uk = _scan_split(in_uk, num_consts, num_carry)
    n_uc, n_ucar, n_ux = sum(consts_uk), sum(carry_uk), sum(xs_uk)
    # A residual that is one of the known body's dimension inputs is the same at
    # every step: the unknown loop takes it as a const, not stacked per step.
    res_vars = known.outvars[len(known.outvars) - n_res:]
    dim_consts = {id(v): j for j, v in enumerate(known.invars[:num_consts - n_uc])
                  if isinstance(v, DimVar)}
    hoist = [r for r, v in enumerate(res_vars) if id(v) in dim_consts]
    stay = [r for r in range(n_res) if r not in hoist]
    known = Jaxpr(known.invars, known.eqns, known.outvars[:len(known.outvars) - n_res]
                  + [res_vars[r] for r in stay])
    k = n_res + n_uc + n_ucar
    unknown = reorder_invars(unknown, [*range(n_res, n_res + n_uc), *hoist,
                                       *range(n_res + n_uc, k), *stay, *range(k, k + n_ux)])
    with using(lin):
        args = [lin.to_unknown(a) if u else a for a, u in zip(args, in_uk)]
    known_args = [a for a, u in zip(args, in_uk) if not u]
    with using(lin.prev):
        outs = bind(scan_p, *known_args, jaxpr=known, length=length,
                    num_consts=num_consts - n_uc, num_carry=num_carry - n_ucar, reverse=reverse)
    res = outs[len(outs) - len(stay):]
    ua = [a for a, u in zip(args, in_uk) if u]
    hoisted = [known_args[dim_consts[id(res_vars[r])]] for r in hoist]
    atoms = [lin.atom(x) for x in ua[:n_uc] + hoisted + ua[n_uc:n_uc + n_ucar] + res
             + ua[n_uc + n_ucar:]]
    u_outs = lin.emit(scan_p, atoms, dict(jaxpr=unknown, length=length,
                                          num_consts=n_uc + len(hoist), num_carry=n_ucar,
                                          reverse=reverse))
    k_carry, k_ys = outs[:num_carry - n_ucar], outs[num_carry - n_ucar:len(outs) - len(stay)]
    return (merge(carry_uk, k_carry, u_outs[:n_ucar])
            + merge(out_uk[num_carry:], k_ys, u_outs[n_ucar:]))


partial_eval_rules[scan_p] = _scan_partial_eval


def _scan_transpose(cts, *args, jaxpr, length, num_consts, num_carry, reverse):
    consts, carry, xs = _scan_split(list(args), num_consts, num_carry)
    carry_lin = list(map(is_linear, carry))  # a known carry here is a zero: treat it as linear
    c_lin, x_lin = [is_linear(c) for c in consts], [is_linear(x) for x in xs]
    ys_nz = [c is not None for c in cts[num_carry:]]
    t_body = transpose_jaxpr(jaxpr, tuple(c_lin + [True] * num_carry + x_lin),
                             (True,) * num_carry + tuple(ys_nz))
    consts_nl = [c for c, lin in zip(consts, c_lin) if not lin]
    xs_nl = [x for x, lin in zip(xs, x_lin) if not lin]
    lin_c_avals = [c.aval for c in consts if is_linear(c)]
    carry_avals = jaxpr.in_avals[num_consts:num_consts + num_carry]
    y_avals = [a for a, nz in zip(jaxpr.out_avals[num_carry:], ys_nz) if nz]
    k1, k2, n_cl = len(consts_nl), len(xs_nl), len(lin_c_avals)

    def body(*a):
        acc, ct_carry = a[k1:k1 + n_cl], a[k1 + n_cl:k1 + n_cl + num_carry]
        rest = a[k1 + n_cl + num_carry:]
        outs = eval_jaxpr(t_body, list(a[:k1]) + list(rest[:k2]) + list(ct_carry) + list(rest[k2:]))
        return ([ops.add(x, y) for x, y in zip(acc, outs[:n_cl])] + outs[n_cl:])

    # The body's own types (a dimension variable among the xs keeps its identity).
    x_nl_avals = [a for a, lin in zip(jaxpr.in_avals[num_consts + num_carry:], x_lin) if not lin]
    body_j = stage_closed(body, [aval_of(c) for c in consts_nl] + lin_c_avals + carry_avals
                          + x_nl_avals + y_avals)
    ct_carry = [ops.zeros(a) if c is None else c for c, a in zip(cts[:num_carry], carry_avals)]
    ct_ys = [c for c in cts[num_carry:] if c is not None]
    outs = bind(scan_p, *consts_nl, *map(ops.zeros, lin_c_avals), *ct_carry, *xs_nl, *ct_ys,
                jaxpr=body_j, length=length, num_consts=k1, num_carry=n_cl + num_carry,
                reverse=not reverse)
    ct_consts, ct_init, ct_xs = outs[:n_cl], outs[n_cl:n_cl + num_carry], outs[n_cl + num_carry:]
    return (merge(c_lin, [None] * num_consts, ct_consts)
            + [c if lin else None for c, lin in zip(ct_init, carry_lin)]
            + merge(x_lin, [None] * len(xs), ct_xs))


transpose_rules[scan_p] = _scan_transpose

# ----------------------------------------------------------------------------- while


def while_loop(cond_fun, body_fun, init_val):
    """`while cond_fun(val): val = body_fun(val)`, as one primitive."""
    flat, tree = tree_flatten(init_val)
    avals, args_tree = [aval_of(x) for x in flat], tree_flatten((init_val,))[1]
    cond_j, cond_c, _ = stage_tree_fun(cond_fun, args_tree, avals, "a lax.while_loop cond_fun")
    if cond_j.out_avals != [ShapedArray((), np.bool_)]:
        raise _type_error(f"lax.while_loop: cond_fun must return a bool scalar, got "
                          f"{cond_j.out_avals}")
    body_j, body_c, out_tree = stage_tree_fun(body_fun, args_tree, avals,
                                          "a lax.while_loop body_fun")
    if out_tree != tree or body_j.out_avals != avals:
        raise _type_error(f"lax.while_loop: body_fun must return the types of init_val "
                          f"{avals}, got {body_j.out_avals}")
    outs = bind(while_p, *cond_c, *body_c, *flat, cond_jaxpr=cond_j, body_jaxpr=body_j,
                cond_nconsts=len(cond_c), body_nconsts=len(body_c))
    return tree_unflatten(tree, outs)


def _while_split(args, cond_nconsts, body_nconsts):
    return (args[:cond_nconsts], args[cond_nconsts:cond_nconsts + body_nconsts],
            args[cond_nconsts + body_nconsts:])


def _while_shape(*avals, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    cc, bc, carry = _while_split(list(avals), cond_nconsts, body_nconsts)
    if cc + carry != cond_jaxpr.in_avals or bc + carry != body_jaxpr.in_avals or \
            body_jaxpr.out_avals != carry or cond_jaxpr.out_avals != [ShapedArray((), np.bool_)]:
        raise ShapeError(f"while: operands {list(avals)} do not fit cond "
                         f"{cond_jaxpr.in_avals} and body {body_jaxpr.in_avals}")
    return carry


def _while_impl(*args, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    cc, bc, carry = _while_split(list(args), cond_nconsts, body_nconsts)
    cond_f, body_f = compiled(cond_jaxpr), compiled(body_jaxpr)
    while cond_f(*cc, *carry)[0]:
        carry = body_f(*bc, *carry)
    return carry


while_p.shape_rule = _while_shape
while_p.impl = _while_impl
while_p.cost = lambda eqn: jaxpr_cost(eqn.params["cond_jaxpr"]) + jaxpr_cost(
    eqn.params["body_jaxpr"])


def _ignore_extra(jaxpr, extra_avals):
    """`jaxpr` taking (and ignoring) extra trailing inputs."""
    n = len(jaxpr.invars)
    return stage_closed(lambda *a: eval_jaxpr(jaxpr, a[:n]), jaxpr.in_avals + extra_avals)


def _while_jvp(primals, tangents, *, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    cc, bc, carry = _while_split(list(primals), cond_nconsts, body_nconsts)
    _, bc_t, carry_t = _while_split(list(tangents), cond_nconsts, body_nconsts)
    bc_nz = tuple(t is not None for t in bc_t)

    def step(carry_nz):
        new, out_nz = jvp_jaxpr(body_jaxpr, bc_nz + carry_nz, carry_nz)
        return out_nz, (new, out_nz)

    carry_nz, (new, out_nz) = carry_fixpoint(step, [t is not None for t in carry_t])
    carry_t = [instantiate(t, p) if z else None for p, t, z in zip(carry, carry_t, carry_nz)]
    body = _regroup(new, bc_nz + carry_nz, (len(bc), len(carry)), out_nz, (len(carry),))
    cond = _ignore_extra(cond_jaxpr, [aval_of(t) for t in carry_t if t is not None])
    bc_t = [t for t in bc_t if t is not None]
    outs = bind(while_p, *cc, *bc, *bc_t, *carry, *[t for t in carry_t if t is not None],
                cond_jaxpr=cond, body_jaxpr=body, cond_nconsts=cond_nconsts,
                body_nconsts=len(bc) + len(bc_t))
    return outs[:len(carry)], merge(carry_nz, [None] * len(carry), outs[len(carry):])


jvp_rules[while_p] = _while_jvp


def _while_vmap(size, vals, dims, *, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    (cond_jaxpr, c_extra), (body_jaxpr, b_extra) = (size_inputs(j, size)
                                                    for j in (cond_jaxpr, body_jaxpr))
    (cc, bc, carry), (dc, db, dcarry) = (_while_split(list(x), cond_nconsts, body_nconsts)
                                         for x in (vals, dims))
    vals, dims = c_extra + cc + b_extra + bc + carry, [None] * len(c_extra) + dc + [None] * len(
        b_extra) + db + dcarry
    cond_nconsts, body_nconsts = cond_nconsts + len(c_extra), body_nconsts + len(b_extra)
    vals = [v if d is None else ops.moveaxis(v, d, 0) for v, d in zip(vals, dims)]
    cc, bc, carry = _while_split(vals, cond_nconsts, body_nconsts)
    cc_b, bc_b, carry_b = _while_split(tuple(d is not None for d in dims), cond_nconsts,
                                       body_nconsts)

    def step(carry_b):
        """A batched predicate batches every carry (examples finish at different times)."""
        _, (pred_b,) = vmap_jaxpr(cond_jaxpr, size, cc_b + carry_b, (False,))
        carry_b = (True,) * len(carry_b) if pred_b else carry_b
        body_v, out_b = vmap_jaxpr(body_jaxpr, size, bc_b + carry_b, carry_b)
        return out_b, (body_v, pred_b)

    carry_b, (body_v, pred_batched) = carry_fixpoint(step, carry_b)
    cond_v, _ = vmap_jaxpr(cond_jaxpr, size, cc_b + carry_b, (False,))
    carry = [to_front(c, None, size) if b and db is None else c
             for c, b, db in zip(carry, carry_b, _while_split(dims, cond_nconsts,
                                                              body_nconsts)[2])]
    if pred_batched:
        cond_v, body_v = _masked_loop(cond_v, body_v, len(cc), len(bc))
        bc = cc + bc
    outs = bind(while_p, *cc, *bc, *carry, cond_jaxpr=cond_v, body_jaxpr=body_v,
                cond_nconsts=len(cc), body_nconsts=len(bc))
    return outs, [0 if b else None for b in carry_b]


def _masked_loop(cond_v, body_v, n_cc, n_bc):
    """With a predicate per example: loop while any runs; finished examples keep
    their values (the body selects between old and new carries)."""
    def any_cond(*a):
        running = ops.convert_element_type(eval_jaxpr(cond_v, a)[0], np.float64)
        return [ops.gt(ops.reduce_sum(running, (0,)), np.float64(0.0))]

    def masked_body(*a):
        cc, bc, carry = a[:n_cc], a[n_cc:n_cc + n_bc], a[n_cc + n_bc:]
        pred = eval_jaxpr(cond_v, list(cc) + list(carry))[0]
        new = eval_jaxpr(body_v, list(bc) + list(carry))
        return [ops.select_n(ops.broadcast_in_dim(pred, np.shape(o), (0,)), o, n)
                for o, n in zip(carry, new)]

    return (stage_closed(any_cond, cond_v.in_avals),
            stage_closed(masked_body, cond_v.in_avals[:n_cc] + body_v.in_avals))


vmap_rules[while_p] = _while_vmap


REVERSE_WHILE = ("Reverse-mode differentiation does not work for lax.while_loop (its trip count "
                 "is unknown, so the values of each iteration cannot be saved). Use "
                 "lax.fori_loop with Python-int bounds, or lax.scan.")


def _while_partial_eval(lin, args, *, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    """Forward mode staged (`linearize`), as JAX does it: the known carries run now,
    on a loop of the body's known part; the unknown ones (the tangents) come from
    the whole loop staged into the linear program, recomputing the known ones.
    That program evaluates (linearize's `f_jvp`) but does not transpose, so
    reverse mode stays refused: here, naming the user's loop, when the linear
    program is for reverse mode, and by `_while_transpose` in a program split
    for a construct around the loop (where JAX refuses it too)."""
    if lin.reverse:
        raise _type_error(REVERSE_WHILE)
    cc_uk, bc_uk, carry_uk = _while_split([lin.owns(x) for x in args], cond_nconsts,
                                          body_nconsts)

    def step(carry):
        split = partial_eval_jaxpr(body_jaxpr, tuple(bc_uk) + carry, carry)
        return split[3], split

    carry_uk, (known_body, _, n_res, _) = carry_fixpoint(step, carry_uk)
    known_cond, _, _, cond_uk = partial_eval_jaxpr(cond_jaxpr, tuple(cc_uk) + carry_uk, (False,))
    if any(cc_uk) or cond_uk[0]:
        raise _type_error("lax.while_loop: the condition depends on a tangent value")
    cc, bc, carry = _while_split(list(args), cond_nconsts, body_nconsts)
    known_bc = [b for b, u in zip(bc, bc_uk) if not u]
    with using(lin.prev):
        known = bind(while_p, *cc, *known_bc, *[c for c, u in zip(carry, carry_uk) if not u],
                     cond_jaxpr=Jaxpr(known_cond.invars, known_cond.eqns, known_cond.outvars[:1]),
                     body_jaxpr=Jaxpr(known_body.invars, known_body.eqns,
                                      known_body.outvars[:len(known_body.outvars) - n_res]),
                     cond_nconsts=len(cc), body_nconsts=len(known_bc))
    whole = lin.emit(while_p, [lin.atom(x) for x in args],
                     dict(cond_jaxpr=cond_jaxpr, body_jaxpr=body_jaxpr,
                          cond_nconsts=cond_nconsts, body_nconsts=body_nconsts))
    return merge(carry_uk, known, [o for o, u in zip(whole, carry_uk) if u])


def _while_transpose(cts, *args, **params):
    raise _type_error(REVERSE_WHILE)


transpose_rules[while_p] = _while_transpose
partial_eval_rules[while_p] = _while_partial_eval
