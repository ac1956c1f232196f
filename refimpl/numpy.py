"""The user-facing `numpy` namespace: NumPy signatures over the primitives.

Each wrapper makes NumPy's implicit behaviour explicit in the IR: dtype
promotion (a Python scalar takes the arrays' dtype, integers become floating
point next to floats, float32 next to float64 becomes float64) and
broadcasting (one `broadcast_in_dim` per operand whose shape differs), so
primitives only ever see equal shapes.  With no transformation active the
wrappers call NumPy directly (the fast eager path).  Python operators on
tracers are defined here too, so `x * 2.0`, `np_array - x` and `x ** 3` reach
the same wrappers.
"""
import builtins
import functools
from types import SimpleNamespace

import numpy as _np

from . import core, ops
from . import primitives as P
from .core import EVAL, ShapeError, Tracer, aval_of, bind, explain_eval_error
from .core import prod as product
from .dims import Dim


def _eager(*args):
    return core.current is EVAL


def _numpy(name, fun, *args, **kw):
    """Run NumPy eagerly; its errors come back naming the op and the user's line."""
    try:
        return fun(*args, **kw)
    except Exception as exc:
        explain_eval_error(name, args, exc)


def _promote(xs):
    """Give every operand one floating dtype when any is floating point, as NumPy
    and JAX do: float32 with float64 is float64, integers become floating point,
    and a Python scalar is weak (it takes the arrays' dtype: `x32 * 2.0` is float32)."""
    strong = [aval_of(x).dtype for x in xs if not isinstance(x, (int, float))]
    floats = [d for d in strong if d.kind == "f"] or [
        _np.dtype(_np.float64) for x in xs if aval_of(x).dtype.kind == "f"]
    if not floats:
        return list(xs)
    dtype = _np.result_type(*floats)
    return [x if aval_of(x).dtype == dtype else _to(x, dtype) for x in xs]


def _to(x, dtype):
    if isinstance(x, Tracer):
        return ops.convert_element_type(x, dtype)
    return _np.asarray(x, dtype)


def broadcast_shapes(name, *shapes):
    """NumPy's broadcast result shape, or a ShapeError naming `name` and the shapes."""
    n = builtins.max(len(s) for s in shapes)
    out = []
    for dims in zip(*[(1,) * (n - len(s)) + tuple(s) for s in shapes]):
        big = {d for d in dims if d != 1}
        if len(big) > 1:
            symbolic = any(isinstance(d, Dim) for d in big)
            raise ShapeError(f"{name}: shapes {' and '.join(map(str, shapes))} cannot be "
                             f"broadcast together" + symbolic * (
                                 f": dimensions {' and '.join(sorted(map(str, big)))} may differ "
                                 f"(different dimension variables are different sizes)"))
        out.append(big.pop() if big else 1)
    return tuple(out)


def broadcast_to(x, shape):
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if _eager():
        return _numpy("broadcast_to", _np.broadcast_to, x, shape)
    s = aval_of(x).shape
    if s == shape:
        return x
    lead = len(shape) - len(s)
    if lead < 0 or any(a not in (1, b) for a, b in zip(s, shape[lead:])):
        raise ShapeError(f"broadcast_to: cannot broadcast shape {s} to shape {shape}")
    return ops.broadcast_in_dim(x, shape, range(lead, len(shape)))


def _elementwise(prim, name, *xs):
    if _eager():
        return bind(prim, *xs)
    xs = _promote(xs)
    shape = broadcast_shapes(name, *[aval_of(x).shape for x in xs])
    return bind(prim, *[broadcast_to(x, shape) for x in xs])


def _elementwise_function(name, prim):
    def function(*xs):
        return _elementwise(prim, name, *xs)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = (f"NumPy's `{name}`: the `{prim.name}` primitive on promoted, "
                        "broadcast operands.")
    return function


# One function per elementwise primitive, named where the primitive is defined
# (`primitives.NUMPY_FUNCTIONS`), so that a new primitive needs no line here.
globals().update({name: _elementwise_function(name, prim)
                  for name, prim in P.NUMPY_FUNCTIONS.items()})
# The ones this module calls itself, named here for its reader (and linters).
(add, subtract, multiply, divide, negative, greater, less, maximum, minimum, log, sqrt,
 logaddexp, floor, ceil, sin) = (
    globals()[name] for name in ("add", "subtract", "multiply", "divide", "negative", "greater",
                                 "less", "maximum", "minimum", "log", "sqrt", "logaddexp",
                                 "floor", "ceil", "sin"))


def where(condition, x, y):
    if _eager():
        return _numpy("where", _np.where, condition, x, y)
    if aval_of(condition).dtype != _np.bool_:
        condition = not_equal_zero(condition)
    x, y = _promote([x, y])
    shape = broadcast_shapes("where", *[aval_of(v).shape for v in (condition, x, y)])
    return ops.select_n(*[broadcast_to(v, shape) for v in (condition, y, x)])


def not_equal_zero(x):
    x = _promote([x, 0.0])[0]
    return greater(multiply(x, x), 0.0)


def power(x, y):
    """NumPy's `power`, also `x ** y`: JAX's integer_pow for an integer exponent given
    as a Python number (an integer-valued float too), its pow for any other (an array,
    or a real number: the contract offers that on a positive base only)."""
    if isinstance(y, (float, _np.floating)) and float(y).is_integer():
        y = int(y)
    if not isinstance(y, (int, _np.integer)) or isinstance(y, bool):
        return _elementwise(P.pow_p, "power", x, y)
    if _eager():
        return _numpy("integer_pow", P._integer_pow_impl, x, y=int(y))
    return ops.integer_pow(_promote([x, 0.0])[0], int(y))


def reciprocal(x):
    """`1 / x` as JAX writes it: integer_pow with exponent -1."""
    return power(x, -1)


def clip(x, a_min, a_max):
    """NumPy's `clip` with both bounds, as JAX composes it: `minimum(a_max, maximum(a_min, x))`."""
    return minimum(a_max, maximum(a_min, x))


def log2(x):
    """JAX's: log(x) / log(2)."""
    return divide(log(x), float(_np.log(2.0)))


def log10(x):
    return divide(log(x), float(_np.log(10.0)))


def deg2rad(x):
    return multiply(x, _np.pi / 180.0)


def rad2deg(x):
    return multiply(x, 180.0 / _np.pi)


def trunc(x):
    """Towards zero, as JAX composes it: ceil below zero, floor above."""
    return where(less(x, 0.0), ceil(x), floor(x))


def hypot(x, y):
    """sqrt(x^2 + y^2); the contract offers it away from the origin, where this is exact
    enough (values stay below VALUE_CAP, so the squares cannot overflow)."""
    x, y = _promote([x, y])
    return sqrt(add(multiply(x, x), multiply(y, y)))


def logaddexp2(x, y):
    """log2(2^x + 2^y), through logaddexp in units of log(2)."""
    ln2, (x, y) = float(_np.log(2.0)), _promote([x, y])
    return divide(logaddexp(multiply(x, ln2), multiply(y, ln2)), ln2)


# ----------------------------------------------------------------------------- structural

def _axis(name, axis, ndim):
    if not -ndim <= axis < ndim:
        raise ShapeError(f"{name}: axis {axis} is out of bounds for an array of rank {ndim}")
    return axis % ndim


def _axes(name, axis, shape) -> tuple[int, ...]:
    """NumPy's `axis` (None, an int or a tuple, negatives counted from the end), sorted."""
    axes = range(len(shape)) if axis is None else (axis,) if isinstance(axis, int) else axis
    return tuple(sorted(_axis(name, a, len(shape)) for a in axes))


def _reduction(name, reduce, eager, x, axis, keepdims):
    shape = aval_of(x).shape
    axes = _axes(name, axis, shape)
    if _eager():
        return _numpy(name, eager, x, axis=axes, keepdims=keepdims)
    out = reduce(x, axes)
    return reshape(out, [1 if i in axes else d for i, d in enumerate(shape)]) if keepdims else out


def sum(x, axis=None, keepdims=False):
    return _reduction("sum", ops.reduce_sum, _np.sum, x, axis, keepdims)


def max(x, axis=None, keepdims=False):
    return _reduction("max", ops.reduce_max, _np.max, x, axis, keepdims)


def min(x, axis=None, keepdims=False):
    return _reduction("min", ops.reduce_min, _np.min, x, axis, keepdims)


def mean(x, axis=None, keepdims=False):
    """The sum divided by the count of the elements summed, as JAX's mean."""
    shape = aval_of(x).shape
    count = product(shape[a] for a in _axes("mean", axis, shape))
    return divide(sum(x, axis, keepdims), float(count))


def flip(x, axis=None):
    """NumPy's flip: every axis for None, else the axis or axes named."""
    axes = _axes("flip", axis, aval_of(x).shape)
    if _eager():
        return _numpy("flip", _np.flip, x, axis=axes)
    return ops.rev(x, axes)


def swapaxes(x, axis1, axis2):
    """NumPy's swapaxes, a transpose."""
    perm = list(range(len(aval_of(x).shape)))
    a, b = (_axis("swapaxes", axis, len(perm)) for axis in (axis1, axis2))
    perm[a], perm[b] = perm[b], perm[a]
    return transpose(x, perm)


def prod(x, axis=None, keepdims=False):
    """NumPy's prod, as JAX differentiates it: a tree of multiplications, the
    reduced elements halved into pairs (padded with a one) until one is left, so
    that its derivative at a zero is the product of the others, never a division."""
    shape = aval_of(x).shape
    axes = _axes("prod", axis, shape)
    if _eager():
        return _numpy("prod", _np.prod, x, axis=axes, keepdims=keepdims)
    rest = [i for i in range(len(shape)) if i not in axes]
    kept = [shape[i] for i in rest]
    count, dtype = product(shape[a] for a in axes), aval_of(x).dtype
    if count == 0:
        return full([1 if i in axes else d for i, d in enumerate(shape)] if keepdims else kept,
                    1.0, dtype)
    tree = reshape(transpose(x, list(axes) + rest), (count, product(kept)))
    while count > 1:
        if count % 2:
            tree, count = concatenate([tree, full((1, product(kept)), 1.0, dtype)]), count + 1
        tree, count = multiply(tree[:count // 2], tree[count // 2:]), count // 2
    out = reshape(tree, kept)
    return reshape(out, [1 if i in axes else d for i, d in enumerate(shape)]) if keepdims else out


def cumsum(x, axis=None):
    """NumPy's running sum: along `axis`, or along the flattened operand for None."""
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    axis = _axis("cumsum", axis, len(aval_of(x).shape))
    if _eager():
        return _numpy("cumsum", _np.cumsum, x, axis=axis)
    return ops.cumsum(x, axis)


def transpose(x, axes=None):
    ndim = len(aval_of(x).shape)
    axes = tuple(reversed(range(ndim))) if axes is None else tuple(
        _axis("transpose", a, ndim) for a in axes)
    if sorted(axes) != list(range(ndim)):
        raise ShapeError(f"transpose: axes {axes} are not a permutation of {ndim} dimensions")
    if _eager():
        return _np.transpose(x, axes)
    return ops.transpose(x, axes)


def reshape(x, shape):
    shape = (shape,) if isinstance(shape, (int, Dim)) else tuple(
        d if isinstance(d, Dim) else int(d) for d in shape)
    size = aval_of(x).size
    if shape.count(-1) == 1:
        known = product([d for d in shape if d != -1])
        shape = tuple(size // known if d == -1 and known else d for d in shape)
    if product(shape) != size or any(d < 0 for d in shape):
        raise ShapeError(f"reshape: cannot reshape an array of shape {aval_of(x).shape} "
                         f"into shape {shape}")
    if _eager():
        return _np.reshape(x, shape)
    return x if shape == aval_of(x).shape else ops.reshape(x, shape)


def expand_dims(x, axis):
    shape = aval_of(x).shape
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    out_ndim = len(shape) + len(axes)
    axes = sorted(_axis("expand_dims", a, out_ndim) for a in axes)
    if _eager():
        return _np.expand_dims(x, tuple(axes))
    it = iter(shape)
    new = [1 if i in axes else next(it) for i in range(out_ndim)]
    return ops.broadcast_in_dim(x, new, [i for i in range(out_ndim) if i not in axes])


def concatenate(arrays, axis=0):
    arrays = _promote(list(arrays))
    avals = [aval_of(a) for a in arrays]
    if not arrays or avals[0].ndim == 0 or any(a.ndim != avals[0].ndim for a in avals):
        raise ShapeError(f"concatenate: wants arrays of one rank >= 1, got "
                         f"{' and '.join(map(str, avals))}")
    axis = _axis("concatenate", axis, avals[0].ndim)
    if _eager():
        return _numpy("concatenate", _np.concatenate, arrays, axis=axis)
    return ops.concatenate(arrays, axis)


def _promoted_pair(a, b):
    """The operands of a product, promoted to one dtype, and their types."""
    a, b = _promote([a, b])
    return a, b, aval_of(a), aval_of(b)


def _contract_check(name, a, b, i, j):
    if a.shape[i] != b.shape[j]:
        raise ShapeError(f"{name}: shapes {a.shape} and {b.shape} do not align "
                         f"(dimension {i} of the first != dimension {j} of the second)")


def matmul(a, b):
    if _eager():
        return _numpy("matmul", _np.matmul, a, b)
    a, b, sa, sb = _promoted_pair(a, b)
    if sa.ndim == 0 or sb.ndim == 0:
        raise ShapeError(f"matmul: operands must not be scalars, got {sa} and {sb}")
    if sa.ndim == 1 or sb.ndim == 1:
        return dot(a, b) if sb.ndim <= 2 or sa.ndim != 1 else _matvec(a, b, sa, sb)
    _contract_check("matmul", sa, sb, -1, -2)
    batch = broadcast_shapes("matmul", sa.shape[:-2], sb.shape[:-2])
    a = broadcast_to(a, batch + sa.shape[-2:])
    b = broadcast_to(b, batch + sb.shape[-2:])
    nb = len(batch)
    return ops.dot_general(a, b, (((nb + 1,), (nb,)), (range(nb), range(nb))))


def _matvec(a, b, sa, sb):
    """A vector times a stack of matrices: contract with the matrices' rows."""
    _contract_check("matmul", sa, sb, 0, -2)
    return ops.dot_general(a, b, (((0,), (sb.ndim - 2,)), ((), ())))


def dot(a, b):
    if _eager():
        return _numpy("dot", _np.dot, a, b)
    a, b, sa, sb = _promoted_pair(a, b)
    if sa.ndim == 0 or sb.ndim == 0:
        return multiply(a, b)
    j = builtins.max(sb.ndim - 2, 0)
    _contract_check("dot", sa, sb, sa.ndim - 1, j)
    return ops.dot_general(a, b, (((sa.ndim - 1,), (j,)), ((), ())))


def stack(arrays, axis=0):
    arrays = list(arrays)
    out_ndim = len(aval_of(arrays[0]).shape) + 1 if arrays else 1
    return concatenate([expand_dims(a, axis) for a in arrays], _axis("stack", axis, out_ndim))


def moveaxis(x, source, destination):
    ndim = len(aval_of(x).shape)
    source, destination = (_axis("moveaxis", a, ndim) for a in (source, destination))
    perm = [i for i in range(ndim) if i != source]
    perm.insert(destination, source)
    return transpose(x, perm)


def squeeze(x, axis=None):
    """Drop the size-1 axes named (every one for None): a reshape."""
    shape = aval_of(x).shape
    axes = [i for i, d in enumerate(shape) if d == 1] if axis is None else _axes(
        "squeeze", axis, shape)
    if any(shape[a] != 1 for a in axes):
        raise ShapeError(f"squeeze: an axis of {axes} of shape {shape} is not of size 1")
    return reshape(x, [d for i, d in enumerate(shape) if i not in axes])


def ravel(x):
    return reshape(x, (-1,))


def outer(a, b):
    """Both operands flattened, then every product: a broadcast multiply."""
    return multiply(reshape(a, (-1, 1)), reshape(b, (1, -1)))


def _along(x, axis, lo, hi):
    """x[..., lo:hi, ...] with the slice on `axis`."""
    shape = aval_of(x).shape
    return ops.slice(x, [lo if i == axis else 0 for i in range(len(shape))],
                     [hi if i == axis else d for i, d in enumerate(shape)])


def diff(x, axis=-1):
    """x[1:] - x[:-1] along `axis`."""
    if _eager():
        return _numpy("diff", _np.diff, x, axis=axis)
    x = _promote([x, 0.0])[0]
    axis = _axis("diff", axis, len(aval_of(x).shape))
    d = aval_of(x).shape[axis]
    return subtract(_along(x, axis, builtins.min(1, d), d), _along(x, axis, 0, d - 1))


def argmax(a, axis=None, keepdims=False):
    """The first index of the largest element along `axis` (None: of the flattened
    operand): the head of a stable argsort of -a.  An integer: it carries no tangent."""
    if _eager():
        return _numpy("argmax", _np.argmax, a, axis=axis, keepdims=keepdims)
    shape, axes = aval_of(a).shape, _axes("argmax", axis, aval_of(a).shape)
    a, at = (ravel(a), 0) if axis is None else (a, axes[0])
    head = _along(ops.argsort(negative(a), at), at, 0, 1)
    return reshape(head, [1 if i in axes else d for i, d in enumerate(shape)] if keepdims
                   else [d for i, d in enumerate(shape) if i not in axes])


def take_along_axis(arr, indices, axis):
    """A gather by integer indices shaped as `arr` but along `axis`, traced or not."""
    if _eager():
        return _numpy("take_along_axis", _np.take_along_axis, arr, indices, axis)
    arr = _promote([arr, 0.0])[0]
    return ops.take_along_axis(arr, indices, _axis("take_along_axis", axis, aval_of(arr).ndim))


def sort(x, axis=-1):
    """x gathered by its own argsort (None: of the flattened operand), as JAX's rule
    does: the derivative is the permutation's, the order itself carries none."""
    if _eager():
        return _numpy("sort", _np.sort, x, axis=axis)
    x = _promote([x, 0.0])[0]
    if axis is None:
        x, axis = ravel(x), 0
    axis = _axis("sort", axis, len(aval_of(x).shape))
    return ops.take_along_axis(x, ops.argsort(x, axis), axis)


def quantile(a, q, axis=None, keepdims=False):
    """NumPy's linear method: of the elements sorted along `axis` (None: all), those at
    the floor and ceiling of (n - 1) q, weighed by its fraction (q a constant)."""
    if _eager():
        return _numpy("quantile", _np.quantile, a, q, axis=axis, keepdims=keepdims)
    a = _promote([a, 0.0])[0]
    shape = aval_of(a).shape
    ordered, at = (sort(ravel(a)), 0) if axis is None else (sort(a, axis), axis)
    at = _axis("quantile", at, len(aval_of(ordered).shape))
    n = aval_of(ordered).shape[at]
    if n == 0 or not 0 <= q <= 1:
        raise ShapeError(f"quantile: wants an axis with elements and 0 <= q <= 1, got "
                         f"{n} elements and q={q}")
    position = (n - 1) * float(q)
    low = int(position)
    fraction = position - low
    result = take(ordered, _np.array([low]), at)
    if fraction:
        result = add(multiply(result, 1.0 - fraction),
                     multiply(take(ordered, _np.array([low + 1]), at), fraction))
    if keepdims:
        kept = [1] * len(shape) if axis is None else list(aval_of(result).shape)
        return reshape(result, kept)
    return reshape(result, [d for i, d in enumerate(aval_of(result).shape) if i != at])


def median(a, axis=None, keepdims=False):
    """The middle element, or the mean of the two middle ones: quantile at 1/2."""
    return quantile(a, 0.5, axis, keepdims)


def take(a, indices, axis=None):
    """A gather: a's slices along `axis` (None: of the flattened a) at a vector of
    constant indices, in their order, repeats allowed; its transpose adds the
    repeats back (scatter_add)."""
    if isinstance(indices, Tracer):
        raise ShapeError("take: refimpl takes constant indices, not a traced value")
    if _eager():
        return _numpy("take", _np.take, a, indices, axis=axis)
    indices = _np.asarray(indices)
    a = _promote([a, 0.0])[0]
    if axis is None:
        a, axis = ravel(a), 0
    shape = aval_of(a).shape
    axis = _axis("take", axis, len(shape))
    n = shape[axis]
    if indices.ndim != 1 or indices.dtype.kind not in "iu" or not all(-n <= i < n for i in indices):
        raise ShapeError(f"take: refimpl takes a vector of integer indices within the axis's "
                         f"{n} elements, got {indices!r}")
    spread = [len(indices) if i == axis else d for i, d in enumerate(shape)]
    where = (indices % n).reshape([len(indices) if i == axis else 1 for i in range(len(shape))])
    return ops.take_along_axis(a, _np.broadcast_to(where, spread), axis)


def roll(x, shift, axis=None):
    """The last `shift` elements along `axis` moved to the front (None: of the
    flattened operand): two slices, concatenated the other way round."""
    if axis is None:
        return reshape(roll(ravel(x), shift, 0), aval_of(x).shape)
    if _eager():
        return _numpy("roll", _np.roll, x, shift, axis=axis)
    axis = _axis("roll", axis, len(aval_of(x).shape))
    d = aval_of(x).shape[axis]
    k = shift % d if d else 0
    if k == 0:
        return x
    return ops.concatenate([_along(x, axis, d - k, d), _along(x, axis, 0, d - k)], axis)


def tile(x, reps):
    """The operand repeated as blocks: a broadcast over a new axis before each axis
    (len(reps) and the rank padded with leading 1s to match), then a reshape."""
    reps = (reps,) if isinstance(reps, int) else tuple(reps)
    shape = aval_of(x).shape
    n = builtins.max(len(reps), len(shape))
    reps, shape = (1,) * (n - len(reps)) + reps, (1,) * (n - len(shape)) + tuple(shape)
    x = reshape(x, shape)
    wide = [size for pair in zip(reps, shape) for size in pair]
    out = broadcast_to(reshape(x, [size for d in shape for size in (1, d)]), wide)
    return reshape(out, [r * d for r, d in zip(reps, shape)])


def repeat(x, repeats, axis=None):
    """Each element `repeats` times along `axis` (None: of the flattened operand): a
    broadcast over a new axis after it, then a reshape."""
    if axis is None:
        x, axis = ravel(x), 0
    shape = aval_of(x).shape
    axis = _axis("repeat", axis, len(shape))
    wide = shape[:axis + 1] + (repeats,) + shape[axis + 1:]
    out = broadcast_to(expand_dims(x, axis + 1), wide)
    return reshape(out, shape[:axis] + (shape[axis] * repeats,) + shape[axis + 1:])


def pad(x, pad_width):
    """Zeros around the operand: `pad_width` an int, one (before, after) pair, or a pair
    per axis, as NumPy reads it."""
    ndim = len(aval_of(x).shape)
    widths = _np.broadcast_to(_np.asarray(pad_width, dtype=int), (ndim, 2)).tolist()
    if _eager():
        return _numpy("pad", _np.pad, x, widths)
    x = _promote([x, 0.0])[0]
    return ops.pad(x, _np.zeros((), aval_of(x).dtype), [(lo, hi, 0) for lo, hi in widths])


def convolve(a, v, mode="full"):
    """NumPy's 1-D convolution: each element of the shorter operand scales a copy of
    the longer one shifted by its position (a pad), summed; 'same' and 'valid' slice
    the full result (its middle, and where the two overlap wholly)."""
    if _eager():
        return _numpy("convolve", _np.convolve, a, v, mode=mode)
    a, v, sa, sv = _promoted_pair(a, v)
    if sa.ndim != 1 or sv.ndim != 1 or not sa.shape[0] or not sv.shape[0] or mode not in (
            "full", "same", "valid"):
        raise ShapeError(f"convolve: wants two non-empty vectors and mode 'full', 'same' or "
                         f"'valid', got {sa}, {sv} and {mode!r}")
    if sv.shape[0] > sa.shape[0]:
        a, v, sa, sv = v, a, sv, sa
    n, m = sa.shape[0], sv.shape[0]
    full = functools.reduce(add, [multiply(pad(a, (j, m - 1 - j)), _along(v, 0, j, j + 1))
                                  for j in range(m)])
    start, length = {"full": (0, n + m - 1), "same": ((m - 1) // 2, n),
                     "valid": (m - 1, n - m + 1)}[mode]
    return _along(full, 0, start, start + length)


def correlate(a, v, mode="valid"):
    """NumPy's correlation: v slid along a unflipped, a convolution with v reversed,
    but for 'same' where v is the longer: NumPy then takes the middle of the full
    result from a's length halved, one step right of convolve's."""
    if _eager():
        return _numpy("correlate", _np.correlate, a, v, mode=mode)
    sa, sv = aval_of(a).shape, aval_of(v).shape
    if mode == "same" and len(sa) == len(sv) == 1 and sv[0] > sa[0]:
        return _along(convolve(a, flip(v, 0), "full"), 0, sa[0] // 2, sa[0] // 2 + sv[0])
    return convolve(a, flip(v, 0), mode)


def _square_stack(name, a):
    shape = aval_of(a).shape
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ShapeError(f"linalg.{name}: wants a stack of square matrices, got shape {shape}")
    return shape


def _solve(a, b):
    """NumPy 2's: b a vector if it has one axis, else a stack of matrices; the stacks
    of a and b broadcast against each other."""
    if _eager():
        return _numpy("linalg.solve", _np.linalg.solve, a, b)
    a, b = _promote([a, b])
    sa, sb = _square_stack("solve", a), aval_of(b).shape
    vector = len(sb) == 1
    if vector:
        b, sb = reshape(b, (sb[0], 1)), (sb[0], 1)
    lead = tuple(broadcast_shapes("linalg.solve", sa[:-2], sb[:-2]))
    x = ops.solve(broadcast_to(a, lead + sa[-2:]), broadcast_to(b, lead + sb[-2:]))
    return reshape(x, lead + sb[-2:-1]) if vector else x


def _inv(a):
    """a^-1: a solve for the identity."""
    if _eager():
        return _numpy("linalg.inv", _np.linalg.inv, a)
    a = _promote([a, 0.0])[0]
    shape = _square_stack("inv", a)
    return ops.solve(a, broadcast_to(_np.eye(shape[-1], dtype=aval_of(a).dtype), shape))


def _of_matrices(name, op):
    """`numpy.linalg.<name>` of a stack of square matrices, binding `op`."""
    def apply(a):
        if _eager():
            return _numpy(f"linalg.{name}", getattr(_np.linalg, name), a)
        a = _promote([a, 0.0])[0]
        _square_stack(name, a)
        return op(a)
    return apply


# `numpy.linalg`: the four of NumPy's linear algebra the language draws.
linalg = SimpleNamespace(solve=_solve, inv=_inv, det=_of_matrices("det", ops.det),
                         cholesky=_of_matrices("cholesky", ops.cholesky))


def _triangle(name, x, k, lower):
    shape = aval_of(x).shape
    if len(shape) < 2:
        raise ShapeError(f"{name}: wants an operand of rank 2 at least, got shape {shape}")
    rows, columns = _np.indices(shape[-2:])
    keep = columns - rows <= k if lower else columns - rows >= k
    return where(keep, x, 0.0)


def tril(x, k=0):
    """Zero above the k-th diagonal of the last two axes, by a select (as JAX)."""
    return _triangle("tril", x, k, lower=True)


def triu(x, k=0):
    return _triangle("triu", x, k, lower=False)


def diagonal(x, offset=0):
    """NumPy's diagonal of the first two axes, moved last: the square block the
    diagonal crosses sliced out, masked by the identity, summed over its columns."""
    shape = aval_of(x).shape
    if len(shape) < 2:
        raise ShapeError(f"diagonal: wants an operand of rank 2 at least, got shape {shape}")
    if _eager():
        return _numpy("diagonal", _np.diagonal, x, offset)
    row, column = builtins.max(-offset, 0), builtins.max(offset, 0)
    length = builtins.max(0, builtins.min(shape[0] - row, shape[1] - column))
    block = ops.slice(x, [row, column] + [0] * (len(shape) - 2),
                      [row + length, column + length, *shape[2:]])
    identity = _np.eye(length).reshape((length, length) + (1,) * (len(shape) - 2))
    return moveaxis(sum(where(identity > 0, block, 0.0), axis=1), 0, -1)


def trace(x, offset=0):
    return sum(diagonal(x, offset), axis=-1)


def var(x, axis=None, keepdims=False):
    """The mean squared deviation from the mean (NumPy's, with no correction)."""
    deviation = subtract(x, mean(x, axis, keepdims=True))
    return mean(multiply(deviation, deviation), axis, keepdims)


def std(x, axis=None, keepdims=False):
    return sqrt(var(x, axis, keepdims))


def nanmean(x, axis=None, keepdims=False):
    """The mean of the elements that are not NaN, as JAX's: a NaN counts in neither the
    sum nor the count.  A number is above -inf or below inf; a NaN is neither."""
    shape, dtype = aval_of(x).shape, aval_of(x).dtype
    one, zero = full(shape, 1.0, dtype), full(shape, 0.0, dtype)
    above, below = greater(x, -_np.inf), less(x, _np.inf)
    kept = where(above, x, where(below, x, zero))
    counted = where(above, one, where(below, one, zero))
    return divide(sum(kept, axis, keepdims), sum(counted, axis, keepdims))


def sinc(x):
    """sin(pi x) / (pi x); at 0, where JAX has a rule of its own, 0 / 0."""
    pix = multiply(x, _np.pi)
    return divide(sin(pix), pix)


def remainder(x, y):
    """NumPy's `remainder` (the sign of y), as x - y floor(x / y): its derivatives
    are JAX's, 1 for x and -floor(x / y) for y."""
    if _eager():
        return _numpy("remainder", _np.remainder, x, y)
    return subtract(x, multiply(y, floor(divide(x, y))))


def fmod(x, y):
    """C's `fmod` (the sign of x), as x - y trunc(x / y)."""
    if _eager():
        return _numpy("fmod", _np.fmod, x, y)
    return subtract(x, multiply(y, trunc(divide(x, y))))


def copysign(x, y):
    """|x| with y's sign, as JAX selects it: y's sign carries no derivative."""
    if _eager():
        return _numpy("copysign", _np.copysign, x, y)
    x, y = _promote([x, y])
    magnitude = abs(x)
    return where(less(y, 0.0), negative(magnitude), magnitude)


def cumprod(x, axis=None):
    """NumPy's running product, one multiplication per element as JAX's scan of
    products: its derivative at a zero is a product of the others, never a division."""
    if axis is None:
        x, axis = ravel(x), 0
    if _eager():
        return _numpy("cumprod", _np.cumprod, x, axis=axis)
    x = _promote([x, 0.0])[0]
    axis = _axis("cumprod", axis, len(aval_of(x).shape))
    running = []
    for k in range(aval_of(x).shape[axis]):
        element = _along(x, axis, k, k + 1)
        running.append(multiply(running[-1], element) if running else element)
    return ops.concatenate(running, axis) if len(running) > 1 else x


def ptp(x, axis=None, keepdims=False):
    """Peak to peak: max less min."""
    return subtract(max(x, axis, keepdims), min(x, axis, keepdims))


def inner(a, b):
    """The last axes contracted (a scalar multiplies)."""
    a, b, sa, sb = _promoted_pair(a, b)
    if sa.ndim == 0 or sb.ndim == 0:
        return multiply(a, b)
    _contract_check("inner", sa, sb, -1, -1)
    if _eager():
        return _np.inner(a, b)
    return ops.dot_general(a, b, (((sa.ndim - 1,), (sb.ndim - 1,)), ((), ())))


def vdot(a, b):
    """Both operands flattened, then their dot product."""
    return inner(ravel(a), ravel(b))


def kron(a, b):
    """Every product of an element of a and one of b, in blocks: the ranks padded
    with leading 1s to match, the operands interleaved by broadcasting, then merged."""
    sa, sb = aval_of(a).shape, aval_of(b).shape
    n = builtins.max(len(sa), len(sb))
    sa, sb = (1,) * (n - len(sa)) + tuple(sa), (1,) * (n - len(sb)) + tuple(sb)
    wide = multiply(reshape(a, [d for m in sa for d in (m, 1)]),
                    reshape(b, [d for m in sb for d in (1, m)]))
    return reshape(wide, [m * k for m, k in zip(sa, sb)])


def _einsum_parts(subscripts, count):
    """The operands' letters and the output's, or a ShapeError saying what refimpl takes."""
    inputs, arrow, output = str(subscripts).partition("->")
    inputs = inputs.split(",")
    if (not arrow or len(inputs) != count or count not in (1, 2)
            or not all(c.isalpha() for c in "".join(inputs) + output)
            or any(len(set(s)) != len(s) for s in (*inputs, output))
            or not set(output) <= set("".join(inputs))):
        raise ShapeError(f"einsum: refimpl takes explicit subscripts ('ij,jk->ik') for one "
                         f"or two operands, no letter twice in one, got {subscripts!r}")
    return inputs, output


def einsum(subscripts, *operands):
    """Explicit subscripts, no letter twice in one operand: the letters found in one
    operand only are summed first, then one dot_general contracts the shared letters
    the output drops and batches those it keeps, and a transpose orders the output."""
    inputs, output = _einsum_parts(subscripts, len(operands))
    for letters, x in zip(inputs, operands):
        if len(letters) != len(aval_of(x).shape):
            raise ShapeError(f"einsum: {letters!r} names {len(letters)} axes of an operand "
                             f"of shape {aval_of(x).shape}")
    if _eager():
        return _numpy("einsum", _np.einsum, subscripts, *operands)
    operands, kept = _promote(list(operands)), []
    for k, (letters, x) in enumerate(zip(inputs, operands)):
        elsewhere = output + "".join(inputs[:k] + inputs[k + 1:])
        alone = tuple(i for i, c in enumerate(letters) if c not in elsewhere)
        kept.append(("".join(c for c in letters if c in elsewhere),
                     sum(x, axis=alone) if alone else x))
    if len(kept) == 1:
        (letters, x), = kept
        return transpose(x, [letters.index(c) for c in output])
    (sa, a), (sb, b) = kept
    batch = [c for c in sa if c in sb and c in output]
    contract = [c for c in sa if c in sb and c not in output]
    result = ops.dot_general(a, b, (([sa.index(c) for c in contract],
                                      [sb.index(c) for c in contract]),
                                     ([sa.index(c) for c in batch], [sb.index(c) for c in batch])))
    order = batch + [c for c in sa if c not in sb] + [c for c in sb if c not in sa]
    return transpose(result, [order.index(c) for c in output])


def tensordot(a, b, axes=2):
    """a's last `axes` axes contracted with b's first `axes`."""
    a, b, sa, sb = _promoted_pair(a, b)
    if axes > builtins.min(sa.ndim, sb.ndim) or sa.shape[sa.ndim - axes:] != sb.shape[:axes]:
        raise ShapeError(f"tensordot: shapes {sa.shape} and {sb.shape} do not align on "
                         f"{axes} axes")
    if _eager():
        return _np.tensordot(a, b, axes)
    if axes == 0:
        return multiply(reshape(a, sa.shape + (1,) * sb.ndim), b)
    return ops.dot_general(a, b, ((range(sa.ndim - axes, sa.ndim), range(axes)), ((), ())))


def rot90(x, k=1):
    """A quarter turn of the first two axes, k times anticlockwise: flips and a swap."""
    if len(aval_of(x).shape) < 2:
        raise ShapeError(f"rot90: wants an operand of rank 2 at least, got {aval_of(x).shape}")
    k %= 4
    if k == 1:
        return swapaxes(flip(x, 1), 0, 1)
    if k == 2:
        return flip(x, (0, 1))
    if k == 3:
        return flip(swapaxes(x, 0, 1), 1)
    return x


def average(x, axis=None, weights=None):
    """The weighted mean sum(x w) / sum(w), w of x's shape (None: the plain mean)."""
    if weights is None:
        return mean(x, axis)
    return divide(sum(multiply(x, weights), axis), sum(broadcast_to(weights, aval_of(x).shape),
                                                       axis))


def trapezoid(y, dx=1.0, axis=-1):
    """The trapezoid rule: neighbours' means along `axis`, summed, times dx."""
    if _eager():
        return _numpy("trapezoid", _np.trapezoid, y, dx=dx, axis=axis)
    y = _promote([y, 0.0])[0]
    axis = _axis("trapezoid", axis, len(aval_of(y).shape))
    d = aval_of(y).shape[axis]
    pairs = add(_along(y, axis, builtins.min(1, d), d), _along(y, axis, 0, builtins.max(d - 1, 0)))
    return multiply(sum(pairs, axis=axis), dx / 2)


def full(shape, value, dtype=_np.float64):
    """A constant array needs no tracing, unless its shape is symbolic."""
    shape = (shape,) if isinstance(shape, (int, Dim)) else tuple(shape)
    if any(isinstance(d, Dim) for d in shape):
        return ops.broadcast_in_dim(_np.asarray(value, dtype), shape, ())
    return _np.full(shape, value, dtype)


def zeros(shape):
    return full(shape, 0.0)


def ones(shape):
    return full(shape, 1.0)


def zeros_like(x):
    return full(aval_of(x).shape, 0.0, aval_of(x).dtype)


def ones_like(x):
    return full(aval_of(x).shape, 1.0, aval_of(x).dtype)


float64 = _np.float64


# ----------------------------------------------------------------------------- operators

def _getitem(x, index):
    """Basic indexing with integers and unit-step slices: a `slice`, then a `reshape`."""
    index = index if isinstance(index, tuple) else (index,)
    shape = aval_of(x).shape
    if len(index) > len(shape) or any(
            not isinstance(i, (int, _np.integer, slice)) or isinstance(i, slice) and i.step
            not in (None, 1) for i in index):
        raise TypeError(f"refimpl supports indexing with integers and unit-step slices only, "
                        f"got {index!r}")
    index = index + (slice(None),) * (len(shape) - len(index))
    start, limit, keep = [], [], []
    for i, d in zip(index, shape):
        if isinstance(i, slice):
            lo, hi, _ = i.indices(d)
            start, limit, keep = start + [lo], limit + [builtins.max(lo, hi)], keep + [True]
        else:
            j = _axis("indexing", int(i), d)
            start, limit, keep = start + [j], limit + [j + 1], keep + [False]
    out = ops.slice(x, start, limit)
    return reshape(out, [hi - lo for lo, hi, k in zip(start, limit, keep) if k])


Tracer.__getitem__ = _getitem
Tracer.__add__ = add
Tracer.__radd__ = lambda x, y: add(y, x)
Tracer.__sub__ = subtract
Tracer.__rsub__ = lambda x, y: subtract(y, x)
Tracer.__mul__ = multiply
Tracer.__rmul__ = lambda x, y: multiply(y, x)
Tracer.__truediv__ = divide
Tracer.__rtruediv__ = lambda x, y: divide(y, x)
Tracer.__neg__ = negative
Tracer.__pos__ = lambda x: x
Tracer.__mod__ = remainder
Tracer.__rmod__ = lambda x, y: remainder(y, x)
Tracer.__pow__ = power
Tracer.__rpow__ = lambda x, y: power(y, x)
Tracer.__gt__ = greater
Tracer.__lt__ = less
Tracer.__matmul__ = matmul
Tracer.__rmatmul__ = lambda x, y: matmul(y, x)
Tracer.T = property(transpose)
Tracer.sum = sum
Tracer.reshape = lambda x, *shape: reshape(x, shape[0] if len(shape) == 1 else shape)
Tracer.transpose = lambda x, *axes: transpose(x, axes or None)
