"""Wrappers that bind each first-order primitive, one statement each (data
positional, params by keyword), and a few helpers built from them.

Every rule module builds its output with these, so they live apart from the
control-flow operators (`control.py`), which need the rule modules: that
keeps the imports one-way.  `lax.py` shows both to the user as one namespace.
"""
import numpy as np

from . import primitives as P
from .core import aval_of, bind


def add(x, y):
    return bind(P.add_p, x, y)


def sub(x, y):
    return bind(P.sub_p, x, y)


def mul(x, y):
    return bind(P.mul_p, x, y)


def div(x, y):
    return bind(P.div_p, x, y)


def max(x, y):
    return bind(P.max_p, x, y)


def gt(x, y):
    return bind(P.gt_p, x, y)


def lt(x, y):
    return bind(P.lt_p, x, y)


def neg(x):
    return bind(P.neg_p, x)


def sin(x):
    return bind(P.sin_p, x)


def cos(x):
    return bind(P.cos_p, x)


def tanh(x):
    return bind(P.tanh_p, x)


def exp(x):
    return bind(P.exp_p, x)


def log(x):
    return bind(P.log_p, x)


def sqrt(x):
    return bind(P.sqrt_p, x)


def integer_pow(x, y):
    return bind(P.integer_pow_p, x, y=int(y))


def select_n(which, *cases):
    return bind(P.select_n_p, which, *cases)


def reduce_sum(x, axes):
    return bind(P.reduce_sum_p, x, axes=tuple(axes))


def reduce_max(x, axes):
    return bind(P.reduce_max_p, x, axes=tuple(axes))


def reduce_min(x, axes):
    return bind(P.reduce_min_p, x, axes=tuple(axes))


def rev(x, dimensions):
    return bind(P.rev_p, x, dimensions=tuple(dimensions))


def cumsum(x, axis, reverse=False):
    return bind(P.cumsum_p, x, axis=axis, reverse=reverse)


def argsort(x, axis):
    return bind(P.argsort_p, x, axis=axis)


def take_along_axis(x, indices, axis):
    return bind(P.take_along_axis_p, x, indices, axis=axis)


def scatter_add(x, indices, axis, size):
    return bind(P.scatter_add_p, x, indices, axis=axis, size=size)


def solve(a, b):
    return bind(P.solve_p, a, b)


def det(a):
    return bind(P.det_p, a)


def cholesky(a):
    return bind(P.cholesky_p, a)


def transpose(x, permutation):
    return bind(P.transpose_p, x, permutation=tuple(permutation))


def reshape(x, new_sizes):
    return bind(P.reshape_p, x, new_sizes=tuple(new_sizes))


def concatenate(xs, dimension):
    return bind(P.concatenate_p, *xs, dimension=dimension)


def pad(x, padding_value, padding_config):
    return bind(P.pad_p, x, padding_value, padding_config=tuple(padding_config))


def convert_element_type(x, new_dtype):
    return bind(P.convert_element_type_p, x, new_dtype=np.dtype(new_dtype))


def broadcast_in_dim(x, shape, broadcast_dimensions):
    return bind(P.broadcast_in_dim_p, x, shape=tuple(shape),
                broadcast_dimensions=tuple(broadcast_dimensions))


def dot_general(x, y, dimension_numbers):
    (lc, rc), (lb, rb) = dimension_numbers
    dims = ((tuple(lc), tuple(rc)), (tuple(lb), tuple(rb)))
    return bind(P.dot_general_p, x, y, dimension_numbers=dims)


def slice(x, start_indices, limit_indices):
    return bind(P.slice_p, x, start_indices=tuple(start_indices),
                limit_indices=tuple(limit_indices))


def dynamic_slice(x, start_indices, slice_sizes):
    """JAX's, at static start indices (refimpl has no integer operands): a slice."""
    starts = [int(s) for s in start_indices]
    return slice(x, starts, [s + n for s, n in zip(starts, slice_sizes)])


def dynamic_update_slice(x, update, start_indices):
    """x with `update` written at static start indices: `update` padded into place,
    selected inside the window."""
    shape, size = aval_of(x).shape, aval_of(update).shape
    config = [(int(s), d - int(s) - n, 0) for s, d, n in zip(start_indices, shape, size)]
    inside = np.zeros(shape, bool)
    inside[tuple(np.s_[lo:d - hi] for (lo, hi, _), d in zip(config, shape))] = True
    return select_n(inside, x, pad(update, 0.0, config))


# ----------------------------------------------------------------------------- helpers

def zeros(aval):
    """Zeros of a given type, as one broadcast of a scalar literal (no array constant)."""
    return broadcast_in_dim(np.zeros((), aval.dtype), aval.shape, ())


def full_like(x, value):
    aval = aval_of(x)
    return broadcast_in_dim(np.asarray(value, aval.dtype), aval.shape, ())


def moveaxis(x, src, dst):
    if src == dst:
        return x
    perm = [i for i in range(np.ndim(x)) if i != src]
    perm.insert(dst, src)
    return transpose(x, perm)


def broadcast_batch(x, size, dim=0):
    """Insert a new axis of length `size` at `dim` (an unbatched value made batched)."""
    shape = list(np.shape(x))
    shape.insert(dim, size)
    return broadcast_in_dim(x, shape, [i for i in range(len(shape)) if i != dim])


def matrix_transpose(x):
    """The last two axes swapped, in a stack of matrices."""
    n = np.ndim(x)
    return transpose(x, [*range(n - 2), n - 1, n - 2])


def matmul(x, y):
    """Stacks of matrices multiplied, the leading axes batched (equal in both)."""
    nb = np.ndim(x) - 2
    return dot_general(x, y, (((nb + 1,), (nb,)), (range(nb), range(nb))))


def trace(x):
    """The trace of each matrix of a stack: the diagonal kept by an identity, summed."""
    shape, dtype = aval_of(x).shape, aval_of(x).dtype
    last = (len(shape) - 2, len(shape) - 1)
    return reduce_sum(mul(x, broadcast_in_dim(np.eye(shape[-1], dtype=dtype), shape, last)), last)
