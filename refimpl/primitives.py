"""The closed list of first-order primitives: shape rule, NumPy impl, jit source, cost.

Names and params follow JAX's (`mul`, `reduce_sum[axes]`, `dot_general[dimension_numbers]`,
...) so one cost model reads both IRs.  Shape rules are the type system: they
accept exactly the operands the primitive is defined on (elementwise ops want
equal shapes: NumPy broadcasting is made explicit by the `numpy` wrappers) and
raise `ShapeError` naming the op and the offending types.  Higher-order
primitives (`jit`, `cond`, `scan`, `while`) are defined in `jit.py` and
`control.py`.  Tests: tests/refimpl/test_refimpl_ops.py.
"""
from functools import partial

import numpy as np

from .core import ShapedArray, ShapeError, bind, primitive, prod

# ----------------------------------------------------------------------------- elementwise


def _elementwise_shape(name, *avals, out_dtype=None):
    first = avals[0]
    for a in avals[1:]:
        if a.shape != first.shape or a.dtype != first.dtype:
            raise ShapeError(f"{name}: operand types {' and '.join(map(str, avals))} differ "
                             f"(broadcasting must be explicit)")
    return ShapedArray(first.shape, out_dtype or first.dtype)


def _float_only(name, *avals, **params):
    for a in avals:
        if a.dtype.kind != "f":
            raise ShapeError(f"{name}: wants floating-point operands, got {a}")
    return _elementwise_shape(name, *avals)


def _elementwise_cost(eqn):
    return sum(v.aval.size for v in eqn.outvars)


# The NumPy function each elementwise primitive is, by its NumPy name: the
# `numpy` namespace makes one wrapper per entry (operands promoted and broadcast).
NUMPY_FUNCTIONS = {}


def _def_elementwise(name, impl, source, shape=_elementwise_shape, transposable=True,
                     jvp=(), numpy=True, **kw):
    """An elementwise primitive, defined in one place: vmap batches it by the rule
    every elementwise primitive shares (`vmap.elementwise_batch`), and `jvp`, where
    its JVP rule is one line per operand, gives those lines, each
    `(tangent, out, *operands) -> contribution` (`jvp.defjvp` registers them; a
    longer rule is in `jvp.py`).  A transpose rule, if `transposable`, is in
    `transpose.py`.  `numpy`: the NumPy function it is, which the user's `numpy`
    namespace then offers (True: the one of its own name; False: none, for a
    primitive with params or operands NumPy's functions do not take)."""
    prim = primitive(name, transposable=transposable, elementwise=True)
    prim.impl, prim.source, prim.cost = impl, source, _elementwise_cost
    prim.shape_rule = partial(shape, name, **kw)
    prim.partials = jvp
    if numpy:
        NUMPY_FUNCTIONS[name if numpy is True else numpy] = prim
    return prim


# A nonlinear primitive (or one with a boolean result) never receives a tangent:
# its JVP rule builds the tangent from linear primitives (or gives none), so
# reverse mode needs no transpose rule for it.
_def_nonlinear = partial(_def_elementwise, transposable=False)

# The JVP lines bind primitives defined anywhere in this module (a lambda reads
# the name when it runs).  A Python float meets a value through Python's
# operators (`1.0 - y`, `2.0 * out`), which are the `numpy` namespace's
# subtract and multiply on a tracer (`numpy.py`: the float is broadcast) and
# NumPy's on an array.
add_p = _def_elementwise("add", np.add, "np.add({0}, {1})")
sub_p = _def_elementwise("sub", np.subtract, "np.subtract({0}, {1})", numpy="subtract")
mul_p = _def_elementwise("mul", np.multiply, "np.multiply({0}, {1})", numpy="multiply",
                         jvp=(lambda t, out, x, y: bind(mul_p, t, y),
                              lambda t, out, x, y: bind(mul_p, x, t)))
div_p = _def_elementwise(
    "div", np.divide, "np.divide({0}, {1})", _float_only, numpy="divide",
    jvp=(lambda t, out, x, y: bind(div_p, t, y),
         lambda t, out, x, y: bind(neg_p, bind(mul_p, t, bind(div_p, out, y)))))
max_p = _def_nonlinear("max", np.maximum, "np.maximum({0}, {1})", numpy="maximum")
neg_p = _def_elementwise("neg", np.negative, "np.negative({0})", numpy="negative")
sin_p = _def_nonlinear("sin", np.sin, "np.sin({0})", _float_only,
                       jvp=(lambda t, out, x: bind(mul_p, t, bind(cos_p, x)),))
cos_p = _def_nonlinear("cos", np.cos, "np.cos({0})", _float_only,
                       jvp=(lambda t, out, x: bind(neg_p, bind(mul_p, t, bind(sin_p, x))),))
tanh_p = _def_nonlinear(
    "tanh", np.tanh, "np.tanh({0})", _float_only,
    jvp=(lambda t, out, x: bind(mul_p, t, 1.0 - bind(integer_pow_p, out, y=2)),))
exp_p = _def_nonlinear("exp", np.exp, "np.exp({0})", _float_only,
                       jvp=(lambda t, out, x: bind(mul_p, t, out),))
log_p = _def_nonlinear("log", np.log, "np.log({0})", _float_only,
                       jvp=(lambda t, out, x: bind(div_p, t, x),))
sqrt_p = _def_nonlinear("sqrt", np.sqrt, "np.sqrt({0})", _float_only,
                        jvp=(lambda t, out, x: bind(div_p, t, 2.0 * out),))
log1p_p = _def_nonlinear("log1p", np.log1p, "np.log1p({0})", _float_only,
                         jvp=(lambda t, out, x: bind(div_p, t, 1.0 + x),))
expm1_p = _def_nonlinear("expm1", np.expm1, "np.expm1({0})", _float_only,
                         jvp=(lambda t, out, x: bind(mul_p, t, out + 1.0),))
tan_p = _def_nonlinear("tan", np.tan, "np.tan({0})", _float_only,
                       jvp=(lambda t, out, x: bind(mul_p, t, 1.0 + bind(mul_p, out, out)),))
atan_p = _def_nonlinear("atan", np.arctan, "np.arctan({0})", _float_only, numpy="arctan",
                        jvp=(lambda t, out, x: bind(div_p, t, 1.0 + bind(mul_p, x, x)),))
asinh_p = _def_nonlinear(
    "asinh", np.arcsinh, "np.arcsinh({0})", _float_only, numpy="arcsinh",
    jvp=(lambda t, out, x: bind(div_p, t, bind(sqrt_p, 1.0 + bind(mul_p, x, x))),))
sinh_p = _def_nonlinear("sinh", np.sinh, "np.sinh({0})", _float_only,
                        jvp=(lambda t, out, x: bind(mul_p, t, bind(cosh_p, x)),))
cosh_p = _def_nonlinear("cosh", np.cosh, "np.cosh({0})", _float_only,
                        jvp=(lambda t, out, x: bind(mul_p, t, bind(sinh_p, x)),))
square_p = _def_nonlinear("square", np.square, "np.square({0})", _float_only,
                          jvp=(lambda t, out, x: bind(mul_p, t, 2.0 * x),))
min_p = _def_nonlinear("min", np.minimum, "np.minimum({0}, {1})", numpy="minimum")
abs_p = _def_nonlinear("abs", np.abs, "np.abs({0})", _float_only)
# sign is flat wherever it has a derivative: its tangent is a symbolic zero.
sign_p = _def_nonlinear("sign", np.sign, "np.sign({0})", _float_only, jvp=(None,))
atan2_p = _def_nonlinear(
    "atan2", np.arctan2, "np.arctan2({0}, {1})", _float_only, numpy="arctan2",
    jvp=(lambda t, out, y, x: bind(div_p, bind(mul_p, t, x), _squared_norm(y, x)),
         lambda t, out, y, x: bind(neg_p, bind(div_p, bind(mul_p, t, y), _squared_norm(y, x)))))
logaddexp_p = _def_nonlinear(
    "logaddexp", np.logaddexp, "np.logaddexp({0}, {1})", _float_only,
    jvp=(lambda t, out, x, y: bind(mul_p, t, bind(exp_p, bind(sub_p, x, out))),
         lambda t, out, x, y: bind(mul_p, t, bind(exp_p, bind(sub_p, y, out)))))
# x ** y for a real y: the base's partial y * x ** (y - 1) is written y * out / x,
# which holds where the contract offers pow, on a positive base.
pow_p = _def_nonlinear(
    "pow", np.power, "np.power({0}, {1})", _float_only, numpy=False,
    jvp=(lambda t, out, x, y: bind(mul_p, t, bind(mul_p, y, bind(div_p, out, x))),
         lambda t, out, x, y: bind(mul_p, t, bind(mul_p, out, bind(log_p, x)))))
asin_p = _def_nonlinear(
    "asin", np.arcsin, "np.arcsin({0})", _float_only, numpy="arcsin",
    jvp=(lambda t, out, x: bind(div_p, t, bind(sqrt_p, 1.0 - bind(mul_p, x, x))),))
acos_p = _def_nonlinear(
    "acos", np.arccos, "np.arccos({0})", _float_only, numpy="arccos",
    jvp=(lambda t, out, x: bind(neg_p, bind(div_p, t, bind(sqrt_p, 1.0 - bind(mul_p, x, x)))),))
atanh_p = _def_nonlinear("atanh", np.arctanh, "np.arctanh({0})", _float_only, numpy="arctanh",
                         jvp=(lambda t, out, x: bind(div_p, t, 1.0 - bind(mul_p, x, x)),))
acosh_p = _def_nonlinear(
    "acosh", np.arccosh, "np.arccosh({0})", _float_only, numpy="arccosh",
    jvp=(lambda t, out, x: bind(div_p, t, bind(sqrt_p, bind(mul_p, x, x) - 1.0)),))
cbrt_p = _def_nonlinear("cbrt", np.cbrt, "np.cbrt({0})", _float_only,
                        jvp=(lambda t, out, x: bind(div_p, t, 3.0 * bind(mul_p, out, out)),))
exp2_p = _def_nonlinear("exp2", np.exp2, "np.exp2({0})", _float_only,
                        jvp=(lambda t, out, x: bind(mul_p, t, float(np.log(2.0)) * out),))
# Steps, flat wherever they have a derivative (as sign): symbolic zero tangents.
# round is NumPy's and JAX's: halves go to the even neighbour.
floor_p = _def_nonlinear("floor", np.floor, "np.floor({0})", _float_only, jvp=(None,))
ceil_p = _def_nonlinear("ceil", np.ceil, "np.ceil({0})", _float_only, jvp=(None,))
round_p = _def_nonlinear("round", np.round, "np.round({0})", _float_only, jvp=(None,))
gt_p = _def_nonlinear("gt", np.greater, "np.greater({0}, {1})", numpy="greater",
                      out_dtype=np.bool_)
lt_p = _def_nonlinear("lt", np.less, "np.less({0}, {1})", numpy="less", out_dtype=np.bool_)


def _squared_norm(y, x):
    return bind(add_p, bind(mul_p, x, x), bind(mul_p, y, y))


def _integer_pow_impl(x, *, y):
    return np.power(x, y) if y >= 0 else 1.0 / np.power(x, -y)


integer_pow_p = _def_nonlinear("integer_pow", _integer_pow_impl,
                               "{impl}({0}, y={y})", _float_only, numpy=False)


def _select_n_shape(which, *cases):
    if which.dtype != np.bool_ or len(cases) != 2:
        raise ShapeError(f"select_n: wants a bool predicate and two cases, got {which}, {cases}")
    if which.shape != cases[0].shape:
        raise ShapeError(f"select_n: predicate {which} and cases {cases[0]} differ in shape")
    return _elementwise_shape("select_n", *cases)


def _select_n_impl(which, *cases):
    return np.where(which, cases[1], cases[0])


select_n_p = _def_elementwise("select_n", _select_n_impl, "np.where({0}, {2}, {1})",
                              numpy=False)
select_n_p.shape_rule = _select_n_shape


def _convert_shape(x, *, new_dtype):
    return ShapedArray(x.shape, new_dtype)


def _convert_impl(x, *, new_dtype):
    return np.asarray(x).astype(new_dtype)


convert_element_type_p = _def_elementwise("convert_element_type", _convert_impl,
                                          "{impl}({0}, new_dtype=np.{new_dtype})",
                                          numpy=False)
convert_element_type_p.shape_rule = _convert_shape

# ----------------------------------------------------------------------------- structural


def _def_structural(name, shape_rule, impl, source):
    prim = primitive(name)
    prim.shape_rule, prim.impl, prim.source, prim.cost = shape_rule, impl, source, _elementwise_cost
    return prim


def _check_axes(name, axes, ndim, unique=True):
    if any(not 0 <= a < ndim for a in axes) or (unique and len(set(axes)) != len(axes)):
        raise ShapeError(f"{name}: invalid axes {axes} for an operand of rank {ndim}")


def _reduce_shape(name, empty_ok, x, *, axes):
    _check_axes(name, axes, x.ndim)
    if not empty_ok and any(x.shape[a] == 0 for a in axes):
        raise ShapeError(f"{name}: cannot reduce an operand {x} along an empty axis")
    return ShapedArray([d for i, d in enumerate(x.shape) if i not in axes], x.dtype)


def _def_reduction(name, reduce, transposable=True, empty_ok=False):
    """A reduction over `axes`, NumPy's `reduce(x, axis=axes)`; `empty_ok`: it has an
    identity (a sum of nothing is 0), so an empty axis is allowed."""
    prim = _def_structural(name, partial(_reduce_shape, name, empty_ok),
                           lambda x, *, axes: reduce(x, axis=axes),
                           f"np.{reduce.__name__}({{0}}, axis={{axes}})")
    prim.transposable = transposable
    return prim


reduce_sum_p = _def_reduction("reduce_sum", np.sum, empty_ok=True)
# Nonlinear: their JVP rules (jvp.py) build the tangent from linear primitives.
reduce_max_p = _def_reduction("reduce_max", np.max, transposable=False)
reduce_min_p = _def_reduction("reduce_min", np.min, transposable=False)


def _cumsum_shape(x, *, axis, reverse):
    _check_axes("cumsum", (axis,), x.ndim)
    return x


def _cumsum_impl(x, *, axis, reverse):
    if reverse:
        return np.flip(np.cumsum(np.flip(x, axis), axis=axis), axis)
    return np.cumsum(x, axis=axis)


cumsum_p = _def_structural("cumsum", _cumsum_shape, _cumsum_impl,
                           "{impl}({0}, axis={axis}, reverse={reverse})")


def _rev_shape(x, *, dimensions):
    _check_axes("rev", dimensions, x.ndim)
    return x


rev_p = _def_structural("rev", _rev_shape, lambda x, *, dimensions: np.flip(x, dimensions),
                        "np.flip({0}, {dimensions})")


def _argsort_shape(x, *, axis):
    _check_axes("argsort", (axis,), x.ndim)
    return ShapedArray(x.shape, np.dtype(np.int64))


# The order that sorts x along `axis` (stable: ties keep their order); integer, so
# it carries no tangent, and `sort` gathers by it (numpy.py).
argsort_p = _def_structural("argsort", _argsort_shape,
                            lambda x, *, axis: np.argsort(x, axis=axis, kind="stable"),
                            "np.argsort({0}, axis={axis}, kind='stable')")
argsort_p.transposable = False


def _gather_shape(name, x, indices, *, axis, size=None):
    """`take_along_axis`'s and its transpose's: integer indices shaped as the operand
    but along `axis`; the scatter's result `size` long there."""
    _check_axes(name, (axis,), x.ndim)
    if indices.dtype.kind not in "iu" or indices.ndim != x.ndim or any(
            a != axis and d != e for a, (d, e) in enumerate(zip(x.shape, indices.shape))):
        raise ShapeError(f"{name}: indices {indices} do not index an operand {x} along "
                         f"axis {axis}")
    shape = indices.shape if size is None else x.shape[:axis] + (size,) + x.shape[axis + 1:]
    return ShapedArray(shape, x.dtype)


def _scatter_add_impl(x, indices, *, axis, size):
    """The transpose of take_along_axis: each element added where it was taken from."""
    shape = x.shape[:axis] + (size,) + x.shape[axis + 1:]
    out = np.zeros(shape, x.dtype)
    where = list(np.indices(indices.shape, sparse=True))
    where[axis] = indices
    np.add.at(out, tuple(where), x)
    return out


# Linear in the operand, the indices held constant: each the other's transpose.
take_along_axis_p = _def_structural("take_along_axis", partial(_gather_shape, "take_along_axis"),
                                    lambda x, i, *, axis: np.take_along_axis(x, i, axis),
                                    "np.take_along_axis({0}, {1}, {axis})")
scatter_add_p = _def_structural("scatter_add", partial(_gather_shape, "scatter_add"),
                                _scatter_add_impl, "{impl}({0}, {1}, axis={axis}, size={size})")


def _transpose_shape(x, *, permutation):
    if sorted(permutation) != list(range(x.ndim)):
        raise ShapeError(f"transpose: permutation {permutation} does not fit an operand {x}")
    return ShapedArray([x.shape[p] for p in permutation], x.dtype)


def _transpose_impl(x, *, permutation):
    return np.transpose(x, permutation)


transpose_p = _def_structural("transpose", _transpose_shape, _transpose_impl,
                              "np.transpose({0}, {permutation})")


def _reshape_shape(x, *, new_sizes):
    if prod(new_sizes) != x.size or any(d < 0 for d in new_sizes):
        raise ShapeError(f"reshape: cannot reshape an operand {x} to shape {new_sizes}")
    return ShapedArray(new_sizes, x.dtype)


def _reshape_impl(x, *, new_sizes):
    return np.reshape(x, new_sizes)


reshape_p = _def_structural("reshape", _reshape_shape, _reshape_impl,
                            "np.reshape({0}, {new_sizes})")


def _broadcast_in_dim_shape(x, *, shape, broadcast_dimensions):
    dims = broadcast_dimensions
    ok = len(dims) == x.ndim and all(0 <= d < len(shape) for d in dims)
    ok = ok and list(dims) == sorted(set(dims))
    ok = ok and all(x.shape[i] in (1, shape[d]) for i, d in enumerate(dims))
    if not ok:
        raise ShapeError(f"broadcast_in_dim: cannot broadcast an operand {x} to shape {shape} "
                         f"along dimensions {dims}")
    return ShapedArray(shape, x.dtype)


def _broadcast_in_dim_impl(x, *, shape, broadcast_dimensions):
    expanded = [1] * len(shape)
    for i, d in enumerate(broadcast_dimensions):
        expanded[d] = np.shape(x)[i]
    return np.broadcast_to(np.reshape(x, expanded), shape)


broadcast_in_dim_p = _def_structural(
    "broadcast_in_dim", _broadcast_in_dim_shape, _broadcast_in_dim_impl,
    "{impl}({0}, shape={shape}, broadcast_dimensions={broadcast_dimensions})")


def _concatenate_shape(*xs, dimension):
    first = xs[0]
    _check_axes("concatenate", (dimension,), first.ndim)
    for x in xs:
        if x.ndim != first.ndim or x.dtype != first.dtype or any(
                a != b for i, (a, b) in enumerate(zip(x.shape, first.shape)) if i != dimension):
            raise ShapeError(f"concatenate: operands {' and '.join(map(str, xs))} do not agree "
                             f"off dimension {dimension}")
    shape = list(first.shape)
    shape[dimension] = sum(x.shape[dimension] for x in xs)
    return ShapedArray(shape, first.dtype)


def _concatenate_impl(*xs, dimension):
    return np.concatenate(xs, axis=dimension)


concatenate_p = _def_structural("concatenate", _concatenate_shape, _concatenate_impl,
                                "np.concatenate([{args}], axis={dimension})")


def _slice_shape(x, *, start_indices, limit_indices):
    ok = len(start_indices) == len(limit_indices) == x.ndim
    if not ok or any(not 0 <= s <= l <= d for s, l, d in zip(start_indices, limit_indices,
                                                            x.shape)):
        raise ShapeError(f"slice: bad bounds {start_indices}:{limit_indices} for an operand {x}")
    return ShapedArray([l - s for s, l in zip(start_indices, limit_indices)], x.dtype)


def _slice_impl(x, *, start_indices, limit_indices):
    return x[tuple(slice(s, l) for s, l in zip(start_indices, limit_indices))]


slice_p = _def_structural("slice", _slice_shape, _slice_impl,
                          "{impl}({0}, start_indices={start_indices}, "
                          "limit_indices={limit_indices})")


def _pad_shape(x, padding_value, *, padding_config):
    if len(padding_config) != x.ndim or padding_value.shape != () or any(
            lo < 0 or hi < 0 or interior != 0 for lo, hi, interior in padding_config):
        raise ShapeError(f"pad: bad padding {padding_config} for an operand {x}")
    return ShapedArray([d + lo + hi for d, (lo, hi, _) in zip(x.shape, padding_config)], x.dtype)


def _pad_impl(x, padding_value, *, padding_config):
    widths = [(lo, hi) for lo, hi, _ in padding_config]
    return np.pad(x, widths, constant_values=padding_value)


pad_p = _def_structural("pad", _pad_shape, _pad_impl, "{impl}({0}, {1}, "
                        "padding_config={padding_config})")

# ----------------------------------------------------------------------------- linear algebra


def _square(name, a):
    if a.ndim < 2 or a.shape[-1] != a.shape[-2] or a.dtype.kind != "f":
        raise ShapeError(f"{name}: wants a stack of square float matrices, got {a}")


def _solve_shape(a, b):
    """a a stack of square matrices, b as many right-hand sides, (..., n, k)."""
    _square("solve", a)
    if b.ndim != a.ndim or b.shape[:-2] != a.shape[:-2] or b.shape[-2] != a.shape[-1] or (
            b.dtype != a.dtype):
        raise ShapeError(f"solve: right-hand sides {b} do not fit the matrices {a}")
    return b


def _det_shape(a):
    _square("det", a)
    return ShapedArray(a.shape[:-2], a.dtype)


def _each_or_nan(factor):
    """`factor` of a stack of matrices, NaN for a matrix it cannot factor (singular, or
    not positive-definite), as XLA's factorizations give, where NumPy raises for the
    whole stack: a cond's branch that vmap runs for examples that do not take it runs
    on another branch's residuals (zeros, control.py) and its results are discarded."""
    def impl(a, *rest):
        try:
            return factor(a, *rest)
        except np.linalg.LinAlgError:
            a = np.asarray(a)
            flat = a.reshape(-1, *a.shape[-2:])
            others = [np.asarray(r).reshape(-1, *np.shape(r)[-2:]) for r in rest]
            outs = []
            for k, matrix in enumerate(flat):
                try:
                    outs.append(factor(matrix, *(r[k] for r in others)))
                except np.linalg.LinAlgError:
                    shape = np.shape(rest[0])[-2:] if rest else matrix.shape
                    outs.append(np.full(shape, np.nan, dtype=matrix.dtype))
            return np.stack(outs).reshape(*a.shape[:-2], *outs[0].shape)
    impl.__name__ = f"{factor.__name__}_or_nan"
    return impl


# Linear in b, a held constant: its transpose solves with a's transpose (transpose.py).
solve_p = _def_structural("solve", _solve_shape, _each_or_nan(np.linalg.solve),
                          "{impl}({0}, {1})")
det_p = _def_structural("det", _det_shape, np.linalg.det, "np.linalg.det({0})")
det_p.transposable = False
# a = l l^T for a symmetric positive-definite a: the lower factor, a's shape.
cholesky_p = _def_structural("cholesky", lambda a: _square("cholesky", a) or a,
                             _each_or_nan(np.linalg.cholesky), "{impl}({0})")
cholesky_p.transposable = False

# ----------------------------------------------------------------------------- dot_general


def _dot_general_shape(x, y, *, dimension_numbers):
    (lc, rc), (lb, rb) = dimension_numbers
    ok = len(lc) == len(rc) and len(lb) == len(rb) and x.dtype == y.dtype
    ok = ok and all(0 <= a < x.ndim for a in lc + lb) and all(0 <= a < y.ndim for a in rc + rb)
    ok = ok and len(set(lc + lb)) == len(lc + lb) and len(set(rc + rb)) == len(rc + rb)
    ok = ok and all(x.shape[a] == y.shape[b] for a, b in zip(lc + lb, rc + rb))
    if not ok:
        raise ShapeError(f"dot_general: operands {x} and {y} do not fit "
                         f"dimension_numbers={dimension_numbers}")
    free_x = [d for i, d in enumerate(x.shape) if i not in lc + lb]
    free_y = [d for i, d in enumerate(y.shape) if i not in rc + rb]
    return ShapedArray([x.shape[a] for a in lb] + free_x + free_y, x.dtype)


def einsum_spec(x_ndim, y_ndim, dimension_numbers):
    """The `np.einsum` subscripts that compute a dot_general."""
    (lc, rc), (lb, rb) = dimension_numbers
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    xs = [next(letters) for _ in range(x_ndim)]
    ys = [next(letters) for _ in range(y_ndim)]
    for a, b in zip(lc + lb, rc + rb):
        ys[b] = xs[a]
    out = ([xs[a] for a in lb] + [c for i, c in enumerate(xs) if i not in lc + lb]
           + [c for i, c in enumerate(ys) if i not in rc + rb])
    return f"{''.join(xs)},{''.join(ys)}->{''.join(out)}"


def _dot_general_impl(x, y, *, dimension_numbers):
    return np.einsum(einsum_spec(np.ndim(x), np.ndim(y), dimension_numbers), x, y)


def _dot_general_cost(eqn):
    (lc, _), _ = eqn.params["dimension_numbers"]
    x = eqn.invars[0].aval
    return eqn.outvars[0].aval.size * prod([x.shape[a] for a in lc])


def _dot_general_source(eqn, ins):
    spec = einsum_spec(eqn.invars[0].aval.ndim, eqn.invars[1].aval.ndim,
                       eqn.params["dimension_numbers"])
    return f"np.einsum({spec!r}, {ins[0]}, {ins[1]})"


dot_general_p = _def_structural("dot_general", _dot_general_shape, _dot_general_impl,
                                _dot_general_source)
dot_general_p.cost = _dot_general_cost
