"""Transformation: vectorizing map (vmap).

A `BatchTracer` holds a value with one extra axis, at `bdim` (or `None`: not
batched, the same for every example).  Each rule maps the primitive on batched
operands to the primitive on the whole batch, usually by moving batch axes to
the front and adjusting the params (`axes + 1`, a new leading batch dimension
for `dot_general`).  Unbatched operands meeting batched ones are broadcast
explicitly.  Python control flow on a batched value has no single answer, so
it raises an error naming the line; on an unbatched value it works.

`vmap_jaxpr` batches a closed program (for jit, cond and loop bodies).
Tests: tests/refimpl/test_refimpl_ops.py, test_refimpl_transforms.py (axes).
"""
from functools import partial

import numpy as np

from . import core, ops
from . import primitives as P
from .core import (
    PRIMITIVES,
    ConcretizationError,
    PairInterpreter,
    ShapedArray,
    Tracer,
    aval_of,
    bind,
)
from .dims import dims_of
from .ir import Jaxpr, eval_jaxpr, memoized
from .pytree import broadcast_prefix, flatten_fun, tree_flatten, tree_unflatten
from .staging import dim_tracer, stage_closed

vmap_rules = {}


class BatchTracer(Tracer):
    __slots__ = ("val", "bdim")

    def __init__(self, interp, val, bdim):
        self.interp, self.val, self.bdim = interp, val, bdim

    @property
    def aval(self):
        a = aval_of(self.val)
        return ShapedArray(a.shape[:self.bdim] + a.shape[self.bdim + 1:], a.dtype)

    def concrete(self):
        raise ConcretizationError(
            f"A value of type {self.aval} that is batched by vmap was used where Python needs "
            f"one concrete value (an `if`, bool(), float(), ...); it has a different value per "
            f"example. Use numpy.where or lax.cond, which vmap can batch.")

    def parts(self):
        return self.val, self.bdim


class BatchInterpreter(PairInterpreter):
    tracer, rules, kind = BatchTracer, vmap_rules, "vmap"

    def __init__(self, prev, axis_size):
        super().__init__(prev)
        self.axis_size = axis_size

    def apply_rule(self, rule, vals, dims, params):
        return rule(self.axis_size, vals, dims, **params)


def vmap_flat(fun, size, vals, dims):
    """Batch a flat function; returns the outputs and their batch dims."""
    return BatchInterpreter(core.current, size).run(fun, vals, dims)


def vmap(fun, in_axes=0, out_axes=0):
    """Map `fun` over an axis of its inputs, as one batched computation."""
    def batched(*args):
        core.check_call(fun, args)
        flat, tree = tree_flatten(args)
        axes = broadcast_prefix(in_axes, tree)
        axes = [None if a is None else _norm_axis(a, v) for a, v in zip(axes, flat)]
        size = _axis_size(flat, axes)
        flat_fun, out_tree = flatten_fun(fun, tree)
        outs, dims = vmap_flat(flat_fun, size, flat, axes)
        o_axes = broadcast_prefix(out_axes, out_tree(), "out_axes")
        # An output's result rank is its unbatched rank + 1; `o` already has
        # the batch axis where `d` is not None.
        outs = [_move_out(o, d, None if a is None else _norm_axis(a, o, int(d is None)), size)
                for o, d, a in zip(outs, dims, o_axes)]
        return tree_unflatten(out_tree(), outs)
    return batched


def _norm_axis(axis, x, extra=0):
    ndim = np.ndim(x) + extra
    if not -ndim <= axis < ndim:
        raise ValueError(f"vmap: axis {axis} is out of bounds for a value of rank "
                         f"{ndim - extra}\n  at {core.user_location()}")
    return axis % ndim


def _axis_size(flat, axes):
    sizes = {np.shape(x)[a] for x, a in zip(flat, axes) if a is not None}
    if len(sizes) != 1:
        raise ValueError(f"vmap: {'no argument is mapped' if not sizes else 'mapped axes have '}"
                         f"{'different sizes ' + str(sorted(sizes)) if sizes else ''}"
                         f"\n  at {core.user_location()}")
    return sizes.pop()


def _move_out(x, bdim, axis, size):
    if axis is None:
        if bdim is not None:
            raise ValueError(f"vmap: out_axes=None for an output that is batched"
                             f"\n  at {core.user_location()}")
        return x
    return ops.broadcast_batch(x, size, axis) if bdim is None else ops.moveaxis(x, bdim, axis)


@memoized
def vmap_jaxpr(jaxpr, size, batched, instantiate):
    """The program mapping a batch of the inputs (batch axis 0 where `batched`)
    to a batch of the outputs; returns it with the mask of batched outputs."""
    out_batched = []

    def fun(*args):
        dims = [0 if b else None for b in batched]
        outs, out_dims = vmap_flat(lambda *a: eval_jaxpr(jaxpr, a), size, args, dims)
        outs = [to_front(o, d, size) if inst or d is not None else o
                for o, d, inst in zip(outs, out_dims, instantiate)]
        out_batched[:] = [inst or d is not None for d, inst in zip(out_dims, instantiate)]
        return outs

    avals = [ShapedArray((size,) + a.shape, a.dtype) if b else a
             for a, b in zip(jaxpr.in_avals, batched)]
    return stage_closed(fun, avals), tuple(out_batched)


def size_inputs(jaxpr, size):
    """`jaxpr` taking the variables of a symbolic batch `size` it lacks as first
    inputs, and their values here: a sub-program restaged at that size (a
    loop body under `vmap` over an axis `n`) must bind `n`, so the rule that
    restages it passes `n` as an extra operand."""
    bound = {id(getattr(getattr(a, "dim", None), "var", None)) for a in jaxpr.in_avals}
    missing = [v for k, v in dims_of(size).items() if k not in bound]
    if not missing:
        return jaxpr, []
    return (Jaxpr(missing + jaxpr.invars, jaxpr.eqns, jaxpr.outvars),
            [dim_tracer(core.current, v) for v in missing])


# ----------------------------------------------------------------------------- rules

def to_front(x, bdim, size):
    """Move the batch axis to 0, broadcasting an unbatched value."""
    return ops.broadcast_batch(x, size) if bdim is None else ops.moveaxis(x, bdim, 0)


def elementwise_batch(prim, size, vals, dims, **params):
    """The batching rule of every elementwise primitive: operands batched on one
    axis stay there; otherwise every operand's batch axis moves to the front."""
    if all(d == dims[0] for d in dims):
        return bind(prim, *vals, **params), dims[0]
    return bind(prim, *[to_front(v, d, size) for v, d in zip(vals, dims)], **params), 0


def defelementwise(prim):
    """Register `elementwise_batch` for `prim` (done here for every elementwise
    primitive of `primitives.py`; a primitive made later calls it itself)."""
    vmap_rules[prim] = partial(elementwise_batch, prim)


for _p in PRIMITIVES:
    if _p.elementwise:
        defelementwise(_p)


def front_batch(prim, moved, batch, vals, dims, **params):
    """The batching rule of a primitive that takes every operand's batch axis at the
    front (an unbatched operand broadcast): `prim` again, with the parameters
    `moved(batch, **params)` gives for operands one axis longer.  (`batch` is the
    batch's size: scatter_add has a param `size` of its own.)"""
    vals = [to_front(v, d, batch) for v, d in zip(vals, dims)]
    return bind(prim, *vals, **moved(batch, **params)), 0


def _up(axes):
    return tuple(a + 1 for a in axes)


def _axis_up(batch, *, axis, **params):
    return {"axis": axis + 1, **params}


# How each primitive batched at the front moves its parameters: every axis it names
# one up, a shape it names one longer.  Linear algebra's matrices are the last two
# axes, so its batch joins the stack.
FRONT_MOVES = {
    **dict.fromkeys((P.reduce_sum_p, P.reduce_max_p, P.reduce_min_p),
                    lambda batch, *, axes: {"axes": _up(axes)}),
    **dict.fromkeys((P.cumsum_p, P.argsort_p, P.take_along_axis_p, P.scatter_add_p), _axis_up),
    **dict.fromkeys((P.solve_p, P.det_p, P.cholesky_p), lambda batch: {}),
    P.rev_p: lambda batch, *, dimensions: {"dimensions": _up(dimensions)},
    P.transpose_p: lambda batch, *, permutation: {"permutation": (0, *_up(permutation))},
    P.reshape_p: lambda batch, *, new_sizes: {"new_sizes": (batch, *new_sizes)},
    P.broadcast_in_dim_p: lambda batch, *, shape, broadcast_dimensions: {
        "shape": (batch, *shape), "broadcast_dimensions": (0, *_up(broadcast_dimensions))},
    P.concatenate_p: lambda batch, *, dimension: {"dimension": dimension + 1},
    P.slice_p: lambda batch, *, start_indices, limit_indices: {
        "start_indices": (0, *start_indices), "limit_indices": (batch, *limit_indices)},
}
for _p, _moved in FRONT_MOVES.items():
    vmap_rules[_p] = partial(front_batch, _p, _moved)


def _pad_batch(size, vals, dims, *, padding_config):
    (x, v), (dx, dv) = vals, dims
    if dv is not None:
        raise NotImplementedError("vmap of pad with a batched padding value")
    return ops.pad(ops.moveaxis(x, dx, 0), v, ((0, 0, 0),) + tuple(padding_config)), 0


vmap_rules[P.pad_p] = _pad_batch


def _dot_general_batch(size, vals, dims, *, dimension_numbers):
    (x, y), (dx, dy) = vals, dims
    (lc, rc), (lb, rb) = dimension_numbers
    if dx is not None and dy is not None:
        x, y = ops.moveaxis(x, dx, 0), ops.moveaxis(y, dy, 0)
        dn = ((_up(lc), _up(rc)), ((0,) + _up(lb), (0,) + _up(rb)))
        return ops.dot_general(x, y, dn), 0
    if dx is not None:
        x = ops.moveaxis(x, dx, 0)
        return ops.dot_general(x, y, ((_up(lc), rc), (_up(lb), rb))), len(lb)
    y = ops.moveaxis(y, dy, 0)
    x_free = np.ndim(x) - len(lc) - len(lb)
    return ops.dot_general(x, y, ((lc, _up(rc)), (lb, _up(rb)))), len(lb) + x_free


vmap_rules[P.dot_general_p] = _dot_general_batch
