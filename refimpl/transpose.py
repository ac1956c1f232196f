"""Transformation: reverse mode.  `vjp` and `grad` = linearize, then transpose.

`backward_pass` walks a linear program from the last equation to the first.
Each equation's output cotangent is handed to the primitive's transpose rule,
which returns one cotangent per linear operand (`None` for operands that are
known, or whose cotangent is zero).  The cotangent of a variable is
accumulated with one `add` per *use*, never per path, so the reverse pass is
linear in the size of the program also on heavily shared expressions such as
`z = a * (z + z)` repeated.  Equations whose operands are all known (there are
none in a program built by `linearize`, but there may be in a transposed
sub-program) are simply evaluated on the way forward.

`transpose_jaxpr` transposes a closed program (for `jit`, `cond`, `scan`
bodies).  Reverse mode through `while_loop` is refused, as in JAX: its trip
count is unknown, so the residuals of every iteration cannot be saved.
Tests: tests/refimpl/test_refimpl_ops.py, test_refimpl_meta.py (cost).
"""
import numpy as np

from . import ops
from . import primitives as P
from .core import ShapeError, aval_of, bind, check_call, user_location
from .ir import Literal, Var, memoized
from .linearize import linearize_flat
from .pytree import argnums_tuple, flatten_fun, partial_args, tree_flatten, tree_unflatten
from .staging import stage_closed

transpose_rules = {}


class UndefinedPrimal(Var):
    """Stands for a linear operand in a transpose rule: like a variable of the
    program, only its type is known."""

    __slots__ = ()


def is_linear(x):
    return isinstance(x, UndefinedPrimal)


def backward_pass(jaxpr, linear, args, cts_out):
    """Cotangents of the linear inputs of `jaxpr` (`None` where zero)."""
    env, lin = {}, set()
    for v, is_lin, a in zip(jaxpr.invars, linear, args):
        lin.add(id(v)) if is_lin else env.__setitem__(id(v), a)

    def read(v):
        return v.val if isinstance(v, Literal) else env[id(v)]

    lin_eqns = []
    for eqn in jaxpr.eqns:
        if any(isinstance(v, Var) and id(v) in lin for v in eqn.invars):
            lin_eqns.append(eqn)
            lin.update(map(id, eqn.outvars))
        else:
            outs = bind(eqn.primitive, *map(read, eqn.invars), **eqn.params)
            env.update(zip(map(id, eqn.outvars), outs if eqn.primitive.multiple_results
                           else [outs]))
    cts = {}

    def accumulate(v, ct):
        if ct is not None and isinstance(v, Var) and id(v) in lin:
            cts[id(v)] = ct if id(v) not in cts else ops.add(cts[id(v)], ct)

    for v, ct in zip(jaxpr.outvars, cts_out):
        accumulate(v, ct)
    for eqn in reversed(lin_eqns):
        ct = [cts.pop(id(v), None) for v in eqn.outvars]
        if all(c is None for c in ct):
            continue
        args = [UndefinedPrimal(v.aval) if isinstance(v, Var) and id(v) in lin else read(v)
                for v in eqn.invars]
        rule = transpose_rules.get(eqn.primitive)
        if rule is None:
            raise NotImplementedError(f"no transpose rule for {eqn.primitive.name}")
        cts_in = rule(ct if eqn.primitive.multiple_results else ct[0], *args, **eqn.params)
        for v, c in zip(eqn.invars, cts_in):
            accumulate(v, c)
    return [cts.pop(id(v), None) if is_lin else None for v, is_lin in zip(jaxpr.invars, linear)]


@memoized
def transpose_jaxpr(jaxpr, linear, ct_nonzero=None):
    """The program `(non-linear inputs, nonzero output cotangents) -> cotangents of
    the linear inputs`; outputs whose cotangent is known to be zero take no input."""
    ct_nonzero = ct_nonzero or (True,) * len(jaxpr.outvars)
    nonlin_avals = [a for a, is_lin in zip(jaxpr.in_avals, linear) if not is_lin]
    k = len(nonlin_avals)

    def fun(*args):
        it, cts = iter(args[:k]), iter(args[k:])
        ins = [None if is_lin else next(it) for is_lin in linear]
        cts = backward_pass(jaxpr, linear, ins, [next(cts) if nz else None for nz in ct_nonzero])
        return [ops.zeros(a) if c is None else c
                for c, a, is_lin in zip(cts, jaxpr.in_avals, linear) if is_lin]

    ct_avals = [a for a, nz in zip(jaxpr.out_avals, ct_nonzero) if nz]
    return stage_closed(fun, nonlin_avals + ct_avals)


# ----------------------------------------------------------------------------- vjp and grad

def vjp(fun, *primals):
    """`(fun(*primals), vjp_fun)`; `vjp_fun(ct)` returns one cotangent per primal."""
    check_call(fun, primals)
    flat, in_tree = tree_flatten(primals)
    flat_fun, out_tree = flatten_fun(fun, in_tree)
    outs, jaxpr, residuals = linearize_flat(flat_fun, flat)
    n_res = len(residuals)

    def vjp_fun(ct):
        cts, tree = tree_flatten(ct)
        if tree != out_tree() or any(aval_of(c).shape != aval_of(o).shape
                                      for c, o in zip(cts, outs)):
            raise ShapeError(f"vjp: the cotangent's structure or shapes do not match the output "
                             f"({[str(aval_of(o)) for o in outs]})")
        cts = [ops.convert_element_type(c, np.float64) if aval_of(c).dtype.kind != "f" else c
               for c in cts]
        linear = [False] * n_res + [True] * len(flat)
        cts_in = backward_pass(jaxpr, linear, residuals + [None] * len(flat), cts)[n_res:]
        cts_in = [ops.zeros(aval_of(p)) if c is None else c for c, p in zip(cts_in, flat)]
        return tree_unflatten(in_tree, cts_in)

    return tree_unflatten(out_tree(), outs), vjp_fun


def differentiated(argnums, args, what):
    """The positions `argnums` names (an int or a tuple), checked against the call's
    arguments: `what` (grad, jacfwd, ...) names the transformation in the error."""
    nums = argnums_tuple(argnums)
    if any(not -len(args) <= i < len(args) for i in nums):
        raise TypeError(f"{what}: argnums={argnums} but the function was called with "
                        f"{len(args)} argument(s)\n  at {user_location()}")
    return nums


def grad(fun, argnums=0):
    """The gradient of a scalar-valued `fun` with respect to the `argnums` arguments."""
    def grad_fun(*args):
        nums = differentiated(argnums, args, "grad")
        check_call(fun, args)
        out, vjp_fun = vjp(partial_args(fun, args, nums), *[args[i] for i in nums])
        if not hasattr(out, "shape") and not isinstance(out, float) or aval_of(out).shape != ():
            raise TypeError(f"grad requires a function with a scalar output, but it returned "
                            f"{_describe(out)}\n  at {user_location()}")
        cts = vjp_fun(np.ones((), aval_of(out).dtype))
        return cts[0] if isinstance(argnums, int) else tuple(cts)

    return grad_fun


def _describe(x):
    try:
        return f"a value of type {aval_of(x)}"
    except TypeError:
        return f"a {type(x).__name__}"


# ----------------------------------------------------------------------------- rules

transpose_rules[P.add_p] = lambda ct, x, y: [ct, ct]
transpose_rules[P.sub_p] = lambda ct, x, y: [ct, ops.neg(ct)]
transpose_rules[P.neg_p] = lambda ct, x: [ops.neg(ct)]


def _mul_transpose(ct, x, y):
    if is_linear(x) and is_linear(y):
        raise NotImplementedError("mul of two linear values is not linear")
    return [ops.mul(ct, y), None] if is_linear(x) else [None, ops.mul(x, ct)]


transpose_rules[P.mul_p] = _mul_transpose


def _div_transpose(ct, x, y):
    assert not is_linear(y), "div is linear only in its numerator"
    return [ops.div(ct, y), None]


transpose_rules[P.div_p] = _div_transpose


def _convert_transpose(ct, x, *, new_dtype):
    return [ops.convert_element_type(ct, x.aval.dtype)]


transpose_rules[P.convert_element_type_p] = _convert_transpose


def _reduce_sum_transpose(ct, x, *, axes):
    kept = [i for i in range(len(x.shape)) if i not in axes]
    return [ops.broadcast_in_dim(ct, x.shape, kept)]


transpose_rules[P.reduce_sum_p] = _reduce_sum_transpose


def _cumsum_transpose(ct, x, *, axis, reverse):
    """A running sum's adjoint is the running sum the other way."""
    return [ops.cumsum(ct, axis, not reverse)]


transpose_rules[P.cumsum_p] = _cumsum_transpose
# Reversing is its own transpose.
transpose_rules[P.rev_p] = lambda ct, x, *, dimensions: [ops.rev(ct, dimensions)]


# x = a^-1 b, linear in b: b's cotangent solves with a's transpose.
transpose_rules[P.solve_p] = lambda ct, a, b: [None, ops.solve(ops.matrix_transpose(a), ct)]

# A gather's transpose adds each element back where it came from, and the other way.
transpose_rules[P.take_along_axis_p] = lambda ct, x, indices, *, axis: [
    ops.scatter_add(ct, indices, axis, x.shape[axis]), None]
transpose_rules[P.scatter_add_p] = lambda ct, x, indices, *, axis, size: [
    ops.take_along_axis(ct, indices, axis), None]


def _broadcast_in_dim_transpose(ct, x, *, shape, broadcast_dimensions):
    dims = broadcast_dimensions
    summed = [i for i in range(len(shape)) if i not in dims]
    summed += [d for i, d in enumerate(dims) if x.shape[i] == 1 and shape[d] != 1]
    out = ops.reduce_sum(ct, sorted(summed)) if summed else ct
    return [ops.reshape(out, x.shape) if aval_of(out).shape != x.shape else out]


transpose_rules[P.broadcast_in_dim_p] = _broadcast_in_dim_transpose


def _transpose_transpose(ct, x, *, permutation):
    return [ops.transpose(ct, np.argsort(permutation).tolist())]


transpose_rules[P.transpose_p] = _transpose_transpose
transpose_rules[P.reshape_p] = lambda ct, x, *, new_sizes: [ops.reshape(ct, x.shape)]


def _concatenate_transpose(ct, *xs, dimension):
    outs, start = [], 0
    for x in xs:
        size = np.shape(x)[dimension]
        if is_linear(x):
            lo = [0] * len(x.shape)
            lo[dimension] = start
            hi = list(aval_of(ct).shape)
            hi[dimension] = start + size
            outs.append(ops.slice(ct, lo, hi))
        else:
            outs.append(None)
        start += size
    return outs


transpose_rules[P.concatenate_p] = _concatenate_transpose


def _slice_transpose(ct, x, *, start_indices, limit_indices):
    config = [(s, d - l, 0) for s, l, d in zip(start_indices, limit_indices, x.shape)]
    return [ops.pad(ct, np.zeros((), x.aval.dtype), config)]


transpose_rules[P.slice_p] = _slice_transpose


def _pad_transpose(ct, x, v, *, padding_config):
    lo = [p[0] for p in padding_config]
    hi = [d - p[1] for d, p in zip(aval_of(ct).shape, padding_config)]
    ct_v = ops.sub(ops.reduce_sum(ct, range(len(lo))),
                   ops.reduce_sum(ops.slice(ct, lo, hi), range(len(lo))))
    return [ops.slice(ct, lo, hi) if is_linear(x) else None, ct_v if is_linear(v) else None]


transpose_rules[P.pad_p] = _pad_transpose


def _select_n_transpose(ct, which, *cases):
    assert not is_linear(which)
    zeros = ops.zeros(aval_of(ct))
    return [None] + [ops.select_n(which, *[ct if j == i else zeros for j in range(len(cases))])
                     if is_linear(c) else None for i, c in enumerate(cases)]


transpose_rules[P.select_n_p] = _select_n_transpose


def ranges_like(*xs):
    """Consecutive ranges of positions, one as long as each of `xs`: where each
    group of axes (batch, the left's free, the right's free) sits in a
    dot_general's result."""
    start = 0
    for x in xs:
        yield tuple(range(start, start + len(x)))
        start += len(x)


def _dot_general_transpose_lhs(ct, x, y, *, dimension_numbers, swap_ans=False):
    """Cotangent of the left operand: contract the cotangent with the right one
    over the right's free dimensions, then permute into the left's layout."""
    (x_contract, y_contract), (x_batch, y_batch) = dimension_numbers
    x_ndim, y_ndim = np.ndim(x), np.ndim(y)
    x_kept = [i for i in range(x_ndim) if i not in x_contract + x_batch]
    y_kept = [i for i in range(y_ndim) if i not in y_contract + y_batch]
    if swap_ans:
        ans_batch, ans_y, _ = ranges_like(x_batch, y_kept, x_kept)
    else:
        ans_batch, _, ans_y = ranges_like(x_batch, x_kept, y_kept)
    dims = ((ans_y, tuple(y_kept)), (ans_batch, tuple(y_batch)))
    x_contract_by_y = [x_contract[i] for i in np.argsort(y_contract)]
    out_axes = np.argsort(list(x_batch) + x_kept + x_contract_by_y).tolist()
    return ops.transpose(ops.dot_general(ct, y, dims), out_axes)


def _dot_general_transpose(ct, x, y, *, dimension_numbers):
    (xc, yc), (xb, yb) = dimension_numbers
    if is_linear(x):
        return [_dot_general_transpose_lhs(ct, x, y, dimension_numbers=dimension_numbers), None]
    swapped = ((yc, xc), (yb, xb))
    ct_y = _dot_general_transpose_lhs(ct, y, x, dimension_numbers=swapped, swap_ans=True)
    return [None, ct_y]


transpose_rules[P.dot_general_p] = _dot_general_transpose
