"""A jaxcheck shim for TensorFlow (`tensorflow-cpu` 2.21.0, CPU): `--sut suts.tensorflow`.

The contract is docs/sut-api.md; this module maps it onto TensorFlow and adds
no differentiation or batching of its own, so what the suite finds is
TensorFlow's.

* Values are `tf.Tensor`s, float64 on the CPU.  NumPy's behaviour of
  `tf.experimental.numpy` is switched on at import
  (`experimental_enable_numpy_behavior(prefer_float32=False)`): without it a
  float32 tensor beside a float64 one raises (`x32 + x64`), `@` takes
  matrices only and a Python float makes float32 constants.  With it,
  operators on tensors promote as NumPy does, a Python number is weak
  (`x32 * 2.0` is float32), and a NumPy array on the left of an operator
  defers to the tensor (`__array_priority__`).
* `jvp` is `tf.autodiff.ForwardAccumulator`, `vjp` and `grad` a
  `tf.GradientTape`, `jacrev` and `hessian` `GradientTape.jacobian` (hessian
  nested), `linearize` a ForwardAccumulator per tangent (TensorFlow has no
  linearize; `f_jvp` runs the function again), `jacfwd` a ForwardAccumulator
  per basis tangent under `tf.vectorized_map` (TensorFlow has no jacfwd; JAX
  builds its own so, from jvp and vmap).  A tape and an accumulator
  key what they watch by the tensor's identity: the same array passed as two
  arguments would be one source, each given the other's gradient too, so
  each argument leaf is a tensor of its own (`tf.identity`).  A gradient of a
  gather is an `IndexedSlices`, densified where the shim returns it (one
  that meets a gradient function's `*` inside TensorFlow raises there under
  NumPy behaviour, before the shim sees it: TF19).  `grad` of a non-scalar
  output returns the gradient of its sum, TensorFlow's documented behaviour,
  where JAX raises.
* `vmap` is `tf.vectorized_map` over the batched arguments (their axis moved
  first; unbatched ones are closed over), the result's axis moved to
  `out_axes`.  It converts the function to a graph once (pfor), so a Python
  `if` on an unbatched argument raises, and operations without a pfor
  converter fall back to a `tf.while_loop` (TensorFlow's default,
  `fallback_to_while_loop=True`, with a warning).
* `jit` is `tf.function(fun, jit_compile=True)`: XLA, with AutoGraph, which
  turns a Python `if` or `while` on a traced tensor into `tf.cond` or
  `tf.while_loop` where JAX refuses it.  Arguments become tensors first
  (traced), `static_argnums` stay Python values (tf.function retraces for
  each, as JAX does).  Each new function traces and compiles: 1 to 3 s an
  example here.
* `lax.cond` is `tf.cond` (eager: the branch runs as Python; in a graph, a
  conditional), `fori_loop` and `while_loop` `tf.while_loop` (the index of
  fori_loop given in the carry's float dtype: JAX promotes its int32 index
  with float32 to float32, NumPy's rules, which TensorFlow's follow, to
  float64; fori_loop's trip count, fixed by its int bounds, given as
  `maximum_iterations`, which XLA needs to differentiate it), `scan`
  `tf.scan`, whose step returns the new carry and a row of `ys` together
  (one extra call of the step gives the row's shape).
* `custom_jvp` and `custom_vjp` are `tf.custom_gradient`: a custom_vjp's
  gradient function is `bwd`; a custom_jvp's is the rule transposed (the VJP
  of `t -> rule(primals, t)[1]`, linear in `t`), since TensorFlow has
  reverse-mode rules only and derives forward mode from them.  `checkpoint`
  is `tf.recompute_grad`, `lax.stop_gradient` `tf.stop_gradient`.
* `numpy` is `tf.experimental.numpy` where it has NumPy's signature, TensorFlow's
  own functions where it has none (`linalg`, `fmod`, `trunc`, `convolve`),
  with `pad`'s mode given (`tnp.pad` requires it).
* `make_jaxpr` is not offered (a graph's op list is not equations with
  shapes the suite counts): the cost properties time instead.
"""

from __future__ import annotations

import functools
import os

# Quiet TensorFlow's C++ start-up log lines (oneDNN notices, absl warnings);
# the shim's own messages are exceptions.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tensorflow.experimental.numpy as tnp  # noqa: E402

tnp.experimental_enable_numpy_behavior(prefer_float32=False)
tf.config.set_visible_devices([], "GPU")

__version__ = f"tensorflow {tf.__version__} (CPU)"

__sut_unsupported__ = frozenset({
    # A tensor that escapes a GradientTape or ForwardAccumulator is an ordinary
    # eager tensor afterwards: there is no tracer to leak.
    "leak_check",
    # Conventions of the transformations (docs/sut-api.md), each TensorFlow's
    # documented design: tf.function converts a Python `if` on a traced tensor to
    # tf.cond (AutoGraph), where JAX's jit refuses it; GradientTape.gradient of a
    # non-scalar target is the gradient of its sum, where JAX's grad raises;
    # tf.vectorized_map traces its function into a graph once (pfor), so a
    # Python `if` on an unbatched argument raises, where JAX's vmap runs it.
    "jit_stages_control_flow",
    "grad_nonscalar_sum",
    "vmap_stages_function",
    # Conventions at kinks other than JAX's: Maximum's and Minimum's gradient
    # goes to the first operand at a tie (x >= y), clip_by_value passes the
    # whole tangent at a bound, abs has slope sign(0) = 0 at 0.
    "tie_convention",
    "clip_convention",
    "abs_at_zero",
    # Reverse mode through tf.where gives the side not taken a zero gradient that
    # stays zero through that side's infinite derivative (sqrt at 0), where JAX's
    # multiplies it, 0 * inf, into a NaN.
    "unselected_nan",
    # No such function in TensorFlow or tf.experimental.numpy: copysign, median,
    # quantile and trapezoid live in TensorFlow Probability, not in TensorFlow.
    "copysign",
    "median",
    "quantile",
    "trapezoid",
})

_ZERO = tf.UnconnectedGradients.ZERO


# ----------------------------------------------------------------------------- boundary

def _tensor(x):
    """An operand as a tensor: float32 and booleans keep their dtype, integers
    and other floats become float64 (`tnp.asarray` keeps int64 as int64)."""
    if isinstance(x, tf.Tensor):
        return x
    if isinstance(x, (bool, np.bool_)):
        return tf.constant(bool(x))
    if isinstance(x, (int, float)):
        return tf.constant(float(x), dtype=tf.float64)
    x = np.asarray(x)
    if x.dtype == np.bool_ or x.dtype == np.float32:
        return tf.constant(x)
    return tf.constant(x.astype(np.float64))


def _leaf_in(x):
    """A leaf of a transformation's argument: NumPy values and floats become
    tensors; tensors, ints, bools and None pass unchanged."""
    if isinstance(x, (np.ndarray, np.generic, float)) and not isinstance(x, (bool, np.bool_)):
        if isinstance(x, np.ndarray) and x.dtype.kind in "iu":
            return tf.constant(x)
        return _tensor(x)
    return x


def _inputs(tree):
    return tf.nest.map_structure(_leaf_in, tree)


def _own(tree):
    """Each tensor leaf a tensor of its own (`tf.identity`): tapes and accumulators
    key what they watch by identity (module docstring)."""
    return tf.nest.map_structure(lambda x: tf.identity(x) if isinstance(x, tf.Tensor) else x,
                                 tree)


def _dense(x):
    """A gradient as a tensor: an IndexedSlices (a gather's) densified."""
    return tf.convert_to_tensor(x) if isinstance(x, tf.IndexedSlices) else x


def _results(tree):
    """A function's results as tensors: a NumPy value it closes over is a constant."""
    return tf.nest.map_structure(
        lambda x: _tensor(x) if isinstance(x, (np.ndarray, np.generic, float, int)) else x, tree)


def _differentiable(x) -> bool:
    return isinstance(x, tf.Tensor) and x.dtype.is_floating


# ----------------------------------------------------------------------------- transformations

def jvp(fun, primals, tangents):
    """`tf.autodiff.ForwardAccumulator`: (out, tangent_out)."""
    primals = _own(_inputs(tuple(primals)))
    tangents = _inputs(tuple(tangents))
    flat = tf.nest.flatten(primals)
    flat_tangents = tf.nest.flatten(tangents)
    watched = [(p, tf.cast(t, p.dtype)) for p, t in zip(flat, flat_tangents)
               if _differentiable(p)]
    with tf.autodiff.ForwardAccumulator([p for p, _ in watched],
                                        [t for _, t in watched]) as accumulator:
        out = _results(fun(*primals))
    tangent_out = tf.nest.map_structure(
        lambda o: accumulator.jvp(o, unconnected_gradients=_ZERO), out)
    return out, tangent_out


def vjp(fun, *primals):
    """A persistent `tf.GradientTape`: (out, pullback), pullback(cotangent) a tuple of
    one cotangent per primal."""
    primals = _own(_inputs(primals))
    flat = tf.nest.flatten(primals)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([p for p in flat if _differentiable(p)])
        out = _results(fun(*primals))

    def vjp_fun(cotangent):
        outs = tf.nest.flatten(out)
        cotangents = [tf.cast(_tensor(c), o.dtype)
                      for c, o in zip(tf.nest.flatten(_inputs(cotangent)), outs)]
        sources = [p if _differentiable(p) else tf.zeros(()) for p in flat]
        grads = tape.gradient(outs, sources, output_gradients=cotangents,
                              unconnected_gradients=_ZERO)
        grads = [_dense(g) if _differentiable(p) else tf.zeros_like(p, tf.float64)
                 for g, p in zip(grads, flat)]
        return tuple(tf.nest.pack_sequence_as(primals, grads))

    return out, vjp_fun


def grad(fun, argnums=0):
    """`tf.GradientTape.gradient` of `fun`'s output by the arguments in `argnums` (an
    int gives one gradient, a tuple a tuple)."""
    positions = (argnums,) if isinstance(argnums, int) else tuple(argnums)

    @functools.wraps(fun)
    def gradient(*args):
        args = list(_own(_inputs(args)))
        chosen = [args[i] for i in positions]
        with tf.GradientTape() as tape:
            tape.watch(tf.nest.flatten(chosen))
            out = _results(fun(*args))
        grads = tape.gradient(out, chosen, unconnected_gradients=_ZERO)
        grads = tf.nest.map_structure(_dense, grads)
        return grads[0] if isinstance(argnums, int) else tuple(grads)

    return gradient


def _axes(prefix, tree) -> list:
    """One axis per leaf of `tree`, from a pytree prefix of axes."""
    if prefix is None or isinstance(prefix, int):
        return [prefix] * len(tf.nest.flatten(tree))
    if isinstance(tree, dict):
        return [a for key in sorted(tree) for a in _axes(prefix[key], tree[key])]
    if len(prefix) != len(tree):
        raise ValueError(f"the axis prefix {prefix!r} does not match its argument")
    return [a for p, t in zip(prefix, tree) for a in _axes(p, t)]


def vmap(fun, in_axes=0, out_axes=0):
    """`tf.vectorized_map` over the batched leaves (axis moved first), the unbatched
    ones closed over; each result's axis moved to `out_axes`."""
    prefix = tuple(in_axes) if isinstance(in_axes, list) else in_axes

    @functools.wraps(fun)
    def batched(*args):
        args = _inputs(args)
        leaves = tf.nest.flatten(args)
        axes = _axes(prefix, args)
        mapped = [tnp.moveaxis(leaf, axis, 0) for leaf, axis in zip(leaves, axes)
                  if axis is not None]
        structure = {}

        def one(rows):
            rows = iter(rows)
            values = [leaf if axis is None else next(rows) for leaf, axis in zip(leaves, axes)]
            result = _results(fun(*tf.nest.pack_sequence_as(args, values)))
            structure["out"] = result
            return tf.nest.flatten(result)

        flat = tf.vectorized_map(one, mapped)
        out_leaves = _axes(out_axes, structure["out"])
        moved = [leaf[0] if axis is None else tnp.moveaxis(leaf, 0, axis)
                 for leaf, axis in zip(flat, out_leaves)]
        return tf.nest.pack_sequence_as(structure["out"], moved)

    return batched


def jit(fun, static_argnums=()):
    """`tf.function(fun, jit_compile=True)`; static arguments stay Python values,
    the others become tensors (module docstring)."""
    static = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
    compiled = tf.function(lambda *args: _results(fun(*args)), jit_compile=True)

    @functools.wraps(fun)
    def call(*args):
        return compiled(*(a if i in static else _inputs(a) for i, a in enumerate(args)))

    return call


def linearize(fun, *primals):
    """(out, f_jvp): TensorFlow has no linearize, so each `f_jvp(*tangents)` runs a
    ForwardAccumulator over `fun` again."""
    out = _results(fun(*_inputs(primals)))

    def tangent(*tangents):
        return jvp(fun, primals, tangents)[1]

    return out, tangent


def _jacobian_of(fun, argnums, args):
    """`GradientTape.jacobian` of each output leaf by each argument in `argnums`, nested
    as JAX nests it (the output's structure outside, a tuple argnums inside)."""
    positions = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    args = list(_own(_inputs(args)))
    chosen = [args[i] for i in positions]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(chosen)
        out = _results(fun(*args))
    per_leaf = [[_dense(tape.jacobian(o, c, unconnected_gradients=_ZERO)) for c in chosen]
                for o in tf.nest.flatten(out)]
    return tf.nest.pack_sequence_as(
        out, [js[0] if isinstance(argnums, int) else tuple(js) for js in per_leaf])


def jacrev(fun, argnums=0):
    """`tf.GradientTape.jacobian` (reverse mode, vectorized by pfor)."""
    @functools.wraps(fun)
    def jacobian(*args):
        return _jacobian_of(fun, argnums, args)
    return jacobian


def jacfwd(fun, argnums=0):
    """Forward-mode Jacobians, which TensorFlow has no function for: a
    ForwardAccumulator per basis tangent, batched by `tf.vectorized_map` (as JAX
    builds jacfwd from jvp and vmap), each Jacobian of shape `out.shape + x.shape`."""
    positions = (argnums,) if isinstance(argnums, int) else tuple(argnums)

    @functools.wraps(fun)
    def jacobian(*args):
        args = list(_inputs(args))
        per_argument = []
        for position in positions:
            x = args[position]
            size = int(np.prod(x.shape))
            basis = tf.reshape(tf.eye(size, dtype=x.dtype), (size, *x.shape))

            def along(tangent, position=position):
                tangents = [tangent if i == position else tf.zeros_like(a)
                            if _differentiable(a) else a for i, a in enumerate(args)]
                return tf.nest.flatten(jvp(fun, args, tangents)[1])

            columns = tf.vectorized_map(along, basis)  # each (size, *out.shape)
            per_argument.append([
                tf.reshape(tnp.moveaxis(c, 0, -1), (*c.shape[1:], *x.shape))
                for c in columns])
        structure = _results(fun(*args))
        per_leaf = list(zip(*per_argument))
        return tf.nest.pack_sequence_as(
            structure, [js[0] if isinstance(argnums, int) else tuple(js) for js in per_leaf])

    return jacobian


def hessian(fun, argnums=0):
    """`GradientTape.jacobian` of `GradientTape.jacobian`."""
    return jacrev(jacrev(fun, argnums), argnums)


# ----------------------------------------------------------------------------- custom rules

class custom_jvp:
    """JAX's `custom_jvp` as `tf.custom_gradient`: TensorFlow takes reverse-mode
    rules only, so the gradient function is the rule transposed (the VJP of the
    linear map `t -> rule(primals, t)[1]`), and forward mode is TensorFlow's,
    derived from it."""

    def __init__(self, fun):
        functools.update_wrapper(self, fun)
        self.fun, self.rule = fun, None

    def defjvp(self, rule):
        self.rule = rule
        return rule

    def __call__(self, *args):
        fun, rule = self.fun, self.rule

        @tf.custom_gradient
        def function(*primals):
            def backward(cotangent):
                zeros = [tf.zeros_like(p) for p in primals]
                with tf.GradientTape() as tape:
                    tape.watch(zeros)
                    tangent = _results(rule(primals, tuple(zeros))[1])
                return tape.gradient(tangent, zeros, output_gradients=cotangent,
                                     unconnected_gradients=_ZERO)
            return _results(fun(*primals)), backward

        return function(*(_tensor(a) for a in args))


class custom_vjp:
    """JAX's `custom_vjp` as `tf.custom_gradient`: `fwd` gives the output and the
    residuals, `bwd` is the gradient function."""

    def __init__(self, fun):
        functools.update_wrapper(self, fun)
        self.fun, self.fwd, self.bwd = fun, None, None

    def defvjp(self, fwd, bwd):
        self.fwd, self.bwd = fwd, bwd

    def __call__(self, *args):
        fwd, bwd = self.fwd, self.bwd

        @tf.custom_gradient
        def function(*primals):
            out, residuals = fwd(*primals)

            def backward(cotangent):
                return [_tensor(c) for c in bwd(residuals, cotangent)]
            return _results(out), backward

        return function(*(_tensor(a) for a in args))


def checkpoint(fun):
    """`tf.recompute_grad`."""
    recomputed = tf.recompute_grad(lambda *args: _results(fun(*args)))

    @functools.wraps(fun)
    def rematerialized(*args):
        return recomputed(*(_tensor(a) for a in args))

    return rematerialized


# ----------------------------------------------------------------------------- numpy

class _Linalg:
    """`numpy.linalg` as `tf.linalg` (tf.experimental.numpy has no linalg)."""

    @staticmethod
    def solve(a, b):
        """NumPy 2 reads b as a vector only where it has one axis (a column here, dropped
        after), else as a stack of matrices; tf.linalg.solve takes matrices of one
        rank, whose leading axes it does not broadcast."""
        a, b = _operands((a, b))
        vector = b.shape.rank == 1
        if vector:
            b = b[:, None]
        batch = tf.broadcast_static_shape(a.shape[:-2], b.shape[:-2])
        a = tf.broadcast_to(a, batch.concatenate(a.shape[-2:]))
        b = tf.broadcast_to(b, batch.concatenate(b.shape[-2:]))
        x = tf.linalg.solve(a, b)
        return x[..., 0] if vector else x

    inv = staticmethod(lambda a: tf.linalg.inv(_tensor(a)))
    det = staticmethod(lambda a: tf.linalg.det(_tensor(a)))
    cholesky = staticmethod(lambda a: tf.linalg.cholesky(_tensor(a)))


def _operand(x):
    """An argument of a tnp function: a NumPy value a tensor; a Python number as it is
    (weak, as in JAX), and shapes, axes and counts (ints, tuples, None) too."""
    return _tensor(x) if isinstance(x, (np.ndarray, np.generic)) else x


class _Numpy:
    """The contract's NumPy-signature functions: tf.experimental.numpy's where its
    signature is NumPy's (`_TWINS`), the others here."""

    linalg = _Linalg()

    @staticmethod
    def expand_dims(x, axis):
        """NumPy's expand_dims: `axis` an int or a tuple (tnp takes an int)."""
        x = _tensor(x)
        axes = axis if isinstance(axis, (tuple, list)) else (axis,)
        rank = x.shape.rank + len(axes)
        for position in sorted(a % rank for a in axes):
            x = tnp.expand_dims(x, position)
        return x

    @staticmethod
    def pad(x, pad_width):
        """NumPy's pad with zeros: tnp.pad requires its mode, and takes only a pair per
        axis (NumPy's widths may be an int or one pair for every axis)."""
        x = _tensor(x)
        widths = np.broadcast_to(np.asarray(pad_width), (x.shape.rank, 2))
        return tnp.pad(x, widths.tolist(), "constant")

    @staticmethod
    def argmax(x, axis=None, keepdims=False):
        """tnp.argmax has no keepdims."""
        index = tnp.argmax(_tensor(x), axis=axis)
        return tnp.expand_dims(index, axis) if keepdims else index

    @staticmethod
    def take(x, indices, axis=None):
        return tnp.take(_tensor(x), tf.constant(np.asarray(indices)), axis=axis)

    @staticmethod
    def take_along_axis(x, indices, axis):
        return tnp.take_along_axis(_tensor(x), indices, axis)

    @staticmethod
    def trunc(x):
        """tnp.fix: toward zero."""
        return tnp.fix(_tensor(x))

    @staticmethod
    def fmod(x, y):
        """C's modulo, the sign of x: tf.truncatemod."""
        x, y = _operands((x, y))
        return tf.truncatemod(x, y)

    @staticmethod
    def sort(x, axis=-1):
        """NumPy's sort: None sorts the flattened operand."""
        x = _tensor(x)
        return tnp.sort(tnp.ravel(x), -1) if axis is None else tnp.sort(x, axis)

    @staticmethod
    def einsum(subscripts, *operands):
        return tnp.einsum(subscripts, *map(_tensor, operands))

    @staticmethod
    def concatenate(arrays, axis=0):
        return tnp.concatenate([_tensor(a) for a in arrays], axis=axis)

    @staticmethod
    def stack(arrays, axis=0):
        return tnp.stack([_tensor(a) for a in arrays], axis=axis)

    @staticmethod
    def convolve(a, v, mode="full"):
        """NumPy's 1-D convolution, which TensorFlow has no function for:
        tf.nn.conv1d (a correlation) with the shorter operand flipped as its
        filter, padded for the whole result, then sliced as NumPy's mode asks."""
        a, v = _operands((a, v))
        if v.shape[0] > a.shape[0]:
            a, v = v, a
        n, m = a.shape[0], v.shape[0]
        padded = tnp.pad(a, [(m - 1, m - 1)], "constant")
        full = tf.reshape(tf.nn.conv1d(tf.reshape(padded, (1, n + 2 * m - 2, 1)),
                                       tf.reshape(tf.reverse(v, [0]), (m, 1, 1)), 1, "VALID"),
                          (n + m - 1,))
        start, length = {"full": (0, n + m - 1), "same": ((m - 1) // 2, n),
                         "valid": (m - 1, n - m + 1)}[mode]
        return full[start:start + length]

    @staticmethod
    def correlate(a, v, mode="valid"):
        """NumPy's correlation: a convolution with v reversed, but for 'same' where v is
        the longer, whose middle NumPy takes from a's length halved."""
        a, v = _operands((a, v))
        n, m = a.shape[0], v.shape[0]
        if mode == "same" and m > n:
            return _Numpy.convolve(a, tf.reverse(v, [0]), "full")[n // 2:n // 2 + m]
        return _Numpy.convolve(a, tf.reverse(v, [0]), mode)


def _operands(args) -> list:
    """Operands as tensors of one floating dtype, as NumPy promotes them (for
    TensorFlow's own functions, which refuse mixed dtypes); numbers weak."""
    tensors = [_tensor(a) for a in args if type(a) not in (int, float)]
    dtype = tf.float64 if any(t.dtype == tf.float64 for t in tensors) or not tensors \
        else tensors[0].dtype
    return [tf.cast(_tensor(a), dtype) if type(a) not in (int, float)
            else tf.constant(float(a), dtype) for a in args]


# The contract's functions whose tf.experimental.numpy function has NumPy's
# signature and meaning.
_TWINS = ("add subtract multiply divide negative sin cos tanh exp log sqrt sum transpose "
          "reshape broadcast_to matmul dot where greater less maximum log1p expm1 tan arctan "
          "arcsinh sinh cosh square reciprocal abs sign minimum arctan2 logaddexp power mean "
          "max min prod cumsum flip swapaxes clip arcsin arccos arctanh arccosh log2 log10 "
          "exp2 cbrt deg2rad rad2deg floor ceil round hypot logaddexp2 moveaxis squeeze "
          "ravel outer roll tile repeat diff tril triu diagonal trace remainder cumprod ptp "
          "inner vdot kron tensordot rot90 average var std nanmean sinc").split()


def _on_operands(op):
    """`op` with every array argument a tensor (`_operand`)."""
    return lambda *args, **kwargs: op(*map(_operand, args), **kwargs)


for _name in _TWINS:
    setattr(_Numpy, _name, staticmethod(_on_operands(getattr(tnp, _name))))

numpy = _Numpy()


# ----------------------------------------------------------------------------- lax

def _float_dtype(tree):
    """The float dtype of the first floating leaf of `tree` (float64 if none)."""
    for leaf in tf.nest.flatten(tree):
        if isinstance(leaf, tf.Tensor) and leaf.dtype.is_floating:
            return leaf.dtype
    return tf.float64


class _Lax:
    """Control flow as TensorFlow's: tf.cond, tf.while_loop, tf.scan."""

    @staticmethod
    def cond(pred, true_fun, false_fun, *operands):
        operands = _inputs(operands)
        return tf.cond(_tensor(pred), lambda: _results(true_fun(*operands)),
                       lambda: _results(false_fun(*operands)))

    @staticmethod
    def stop_gradient(x):
        return tf.stop_gradient(_tensor(x))

    @staticmethod
    def dynamic_slice(x, start_indices, slice_sizes):
        return tf.slice(_tensor(x), list(start_indices), list(slice_sizes))

    @staticmethod
    def dynamic_update_slice(x, update, start_indices):
        """TensorFlow has none outside XLA: the update padded into place, selected
        inside its window."""
        x, update = _operands((x, update))
        widths = [(s, d - s - n) for s, n, d in zip(start_indices, update.shape, x.shape)]
        inside = tf.pad(tf.ones(update.shape, tf.bool), widths)
        return tf.where(inside, tf.pad(update, widths), x)

    @staticmethod
    def fori_loop(lower, upper, body_fun, init_val):
        """A tf.while_loop told its trip count (`maximum_iterations`), which the
        bounds, Python ints, fix: XLA needs it to differentiate the loop in reverse
        mode (TF11), as JAX's fori_loop with static bounds can be."""
        lower, upper = int(lower), int(upper)
        value = _inputs(init_val)
        dtype = _float_dtype(value)
        _, result = tf.while_loop(
            lambda i, v: i < upper,
            lambda i, v: (i + 1, _results(body_fun(tf.cast(i, dtype), v))),
            (tf.constant(lower), value), maximum_iterations=max(upper - lower, 0))
        return result

    @staticmethod
    def while_loop(cond_fun, body_fun, init_val):
        (result,) = tf.while_loop(lambda v: cond_fun(v), lambda v: (_results(body_fun(v)),),
                                  (_results(_inputs(init_val)),))
        return result

    @staticmethod
    def scan(f, init, xs):
        """(final carry, ys stacked on a new leading axis) over the leading axis of xs:
        tf.scan stacks what its step returns, so the step returns (carry, y) and the
        last carry is the result's; one call of f on the first row (zeros for an
        empty xs) gives y's shape for the initializer."""
        carry, xs = _results(_inputs(init)), _results(_inputs(xs))
        leaves = tf.nest.flatten(xs)
        length = leaves[0].shape[0]
        first = tf.nest.map_structure(
            lambda leaf: leaf[0] if length else tf.zeros(leaf.shape[1:], leaf.dtype), xs)
        _, y0 = f(carry, first)
        y0 = tf.nest.map_structure(tf.zeros_like, _results(y0))
        if length == 0:
            return carry, tf.nest.map_structure(lambda y: tf.zeros((0, *y.shape), y.dtype), y0)
        carries, ys = tf.scan(lambda state, x: _results(f(state[0], x)), xs,
                              initializer=(carry, y0))
        return tf.nest.map_structure(lambda c: c[-1], carries), ys


lax = _Lax()
