"""A jaxcheck shim for MLX (`mlx[cpu]` 0.32.4, its CPU build): `--sut suts.mlx`.

The contract is docs/sut-api.md; this module maps it onto `mlx.core` and adds
no differentiation or batching of its own, so what the suite finds is MLX's.

* Arrays run on the CPU device, the only one where MLX has float64.  A
  float32 input stays float32 (MLX's default dtype) and any other float
  becomes float64: MLX keeps float32 on entry, `mx.array(np.array([1.0]))`
  is float32, so the boundary passes the dtype explicitly.  A Python number
  reaches MLX as it is, weak as in JAX (`x32 * 2.0` is float32), and
  float32 with float64 is float64, as in NumPy and JAX.
* `jvp`, `vjp`, `grad`, `vmap` are `mx.jvp`, `mx.vjp`, `mx.grad`, `mx.vmap`.
  MLX's take flat lists of arrays (`mx.vjp(fun, primals, cotangents)` runs
  the function and its pullback in one call), so pytrees are flattened here,
  dicts by sorted key as JAX does, and `vjp`'s pullback calls `mx.vjp`
  with the cotangent it is given.
* `jit` is `mx.compile`: it traces with placeholder arrays, so a Python `if`
  on an array inside it raises, as JAX's `jit` does.  Static arguments are
  closed over, one compiled function per value.
* MLX evaluates lazily: an array computes when it is read.  Results are
  left as MLX arrays, and `numpy.asarray` reads them; an error MLX raises on
  reading is the SUT's (the contract says so).
* `lax.cond` is Python's `if` where the predicate can be read, and both
  branches selected by `mx.where` where it cannot (under `mx.vmap` and
  `mx.compile`, which refuse to evaluate an array): MLX has no cond.
  `fori_loop` and `scan` are Python loops, MLX having no loop primitive.
* Not offered, and declared: `while_loop` (its trip count depends on values,
  which neither `mx.compile` nor `mx.vmap` may read, and MLX has no loop
  primitive), `leak_check` (`mx.grad` and the others run on real arrays, so
  nothing escapes as a tracer), and `make_jaxpr` (MLX has no equation list;
  the cost properties time instead).
* A convention of its own, declared: `tie_convention` (maximum's derivative
  at a tie is its second operand's).
* Declared less accurate (`__sut_accuracy__`): exp, and expm1 whose forward
  mode uses exp, so that the suite still checks their derivative rules,
  batching and staging at that accuracy.  sin, cos and tan, less accurate
  than a declaration may state, are declared unsupported.
* `custom_jvp` and `custom_vjp` are `mx.custom_function`s: a custom_jvp's
  `jvp` is its rule's tangent and its `vjp` the rule transposed (MLX derives
  no reverse mode from a forward rule); a custom_vjp's `vjp` runs `fwd` again
  for the residuals, MLX handing it the primals.  `checkpoint` is
  `mx.checkpoint`, `lax.stop_gradient` `mx.stop_gradient`.  What they met
  is docs/findings/mlx.md, M14, M15 and M16 (`mx.checkpoint` differentiates
  by its arguments only); under `ci` their construct rows fail
  first through M1.
* Not mapped: the operations that joined the contract after MLX's runs were
  classified (docs/findings/mlx.md), which the header lists as lacking.  Mapping
  one means a new `ci` and `thorough` round with every failure classified.
  Measured so far, for that round: `mx.clip` passes no tangent at a bound
  and `mx.abs` has slope 0 at 0 (to declare: `clip_convention`,
  `abs_at_zero`); `mx.minimum` gives a tie to its second operand
  (`tie_convention`, already declared); `mx.logaddexp` errs by 2.1e-8, its
  derivatives by 1.3e-8 (`python bench/mlx_accuracy.py`: a declaration of
  5e-8); `mx.reciprocal`, `sign`, `arctan2` and `power` and the derivatives
  of the last two agree with NumPy to float64 rounding at 1,000 points.
"""

from __future__ import annotations

import functools

import mlx.core as mx
import numpy as np

mx.set_default_device(mx.cpu)

__version__ = f"mlx {mx.__version__} (CPU)"

__sut_unsupported__ = frozenset({
    # A value-dependent loop: mx.compile and mx.vmap refuse to read the predicate.
    "while_loop",
    # Transformations run on concrete arrays: there is no tracer to leak.
    "leak_check",
    # At a tie, maximum's tangent and cotangent go to its second operand, as
    # refimpl's do; JAX splits them in halves.
    "tie_convention",
    # float32 approximations (docs/findings/mlx.md, M3): sin and cos err by up to
    # 3.8e-6 and tan's derivatives, which go through cos, by 4.4e-5, more than
    # `__sut_accuracy__` may declare (5e-7).
    "sin",
    "cos",
    "tan",
})

# MLX's float64 exp, sin and cos on the CPU use float32 approximations
# (docs/findings/mlx.md, M3), and so do the derivative rules built on them.
# Worst errors, as |MLX - JAX| / (1 + |JAX|) over 200,001 points of the
# arguments a generated program may give each (values within 100), value,
# first and second derivatives (`python bench/mlx_accuracy.py`): exp 4.8e-7,
# expm1 4.8e-7 (its forward mode only, which multiplies by exp).  Both are
# declared at 5e-7, the most a declaration may state.  sin and cos err by
# 3.8e-6 and tan's derivatives by 4.4e-5: more than that, so they are
# declared unsupported above.
_FLOAT32_KERNEL = "MLX computes it with a float32 approximation on the CPU (ml-explore/mlx#3047)"
__sut_accuracy__ = {
    "exp": (5e-7, _FLOAT32_KERNEL),
    "expm1": (5e-7, "its forward-mode derivative is MLX's exp, a float32 approximation"),
}


# ----------------------------------------------------------------------------- boundary

def _array(x):
    """An operand as an MLX array: float32 stays float32, any other number becomes
    float64, and a boolean (a predicate) stays boolean."""
    if isinstance(x, mx.array):
        return x
    x = np.asarray(x)
    if x.dtype == np.bool_:
        return mx.array(x)
    if x.dtype == np.float32:
        return mx.array(x, dtype=mx.float32)
    return mx.array(x.astype(np.float64), dtype=mx.float64)


def _operand(x):
    """An operand of an elementwise function: a Python number as it is (weak: it
    takes the other operand's dtype, as in JAX), anything else `_array`'s."""
    return x if type(x) in (int, float) else _array(x)


def _leaf_in(x):
    """A leaf of a transformation's argument: NumPy values and floats become MLX
    arrays; MLX arrays, ints, bools and None pass unchanged."""
    if isinstance(x, (np.ndarray, np.generic, float)) and not isinstance(x, (bool, np.bool_)):
        return _array(x)
    return x


def _flatten(tree) -> tuple[list, object]:
    """(leaves, structure): tuples, lists and dicts (by sorted key, as JAX) are nodes."""
    if isinstance(tree, (tuple, list)):
        parts = [_flatten(child) for child in tree]
        return [leaf for leaves, _ in parts for leaf in leaves], (type(tree), [s for _, s in parts])
    if isinstance(tree, dict):
        keys = sorted(tree)
        parts = [_flatten(tree[key]) for key in keys]
        return [leaf for leaves, _ in parts for leaf in leaves], (dict, keys, [s for _, s in parts])
    return [tree], None


def _unflatten(structure, leaves):
    """The tree `_flatten` took apart, rebuilt from `leaves` (an iterator)."""
    leaves = iter(leaves)

    def build(node):
        if node is None:
            return next(leaves)
        if node[0] is dict:
            _, keys, children = node
            return {key: build(child) for key, child in zip(keys, children)}
        kind, children = node
        return kind(build(child) for child in children)

    return build(structure)


def _count(structure) -> int:
    if structure is None:
        return 1
    return sum(_count(child) for child in structure[-1])


def _inputs(tree):
    leaves, structure = _flatten(tree)
    return _unflatten(structure, map(_leaf_in, leaves))


def _flat(fun, structure, out: dict):
    """`fun` over a flat list of input leaves, returning a flat list of arrays; the
    result's structure is left in `out["structure"]`."""
    def flat(*leaves):
        result = fun(*_unflatten(structure, leaves))
        out_leaves, out["structure"] = _flatten(result)
        return [_array(leaf) for leaf in out_leaves]
    return flat


# ----------------------------------------------------------------------------- transformations

def jvp(fun, primals, tangents):
    """`mx.jvp`: (out, tangent_out)."""
    primals = _inputs(tuple(primals))
    leaves, structure = _flatten(primals)
    tangent_leaves, _ = _flatten(_inputs(tuple(tangents)))
    out = {}
    values, derivatives = mx.jvp(_flat(fun, structure, out),
                                 leaves, [_array(t) for t in tangent_leaves])
    return _unflatten(out["structure"], values), _unflatten(out["structure"], derivatives)


def vjp(fun, *primals):
    """(out, pullback): `mx.vjp` runs the function and its pullback together, so the
    pullback calls it with the cotangent it is given."""
    primals = _inputs(primals)
    leaves, structure = _flatten(primals)
    out = {}
    flat = _flat(fun, structure, out)
    values = flat(*leaves)
    result = _unflatten(out["structure"], values)

    def vjp_fun(cotangent):
        cotangent_leaves, _ = _flatten(_inputs(cotangent))
        _, grads = mx.vjp(flat, leaves, [_array(c) for c in cotangent_leaves])
        return _unflatten(structure, grads)

    return result, vjp_fun


def grad(fun, argnums=0):
    """`mx.grad` over the leaves of the arguments in `argnums` (an int gives one
    gradient, a tuple a tuple)."""
    positions = (argnums,) if isinstance(argnums, int) else tuple(argnums)

    @functools.wraps(fun)
    def gradient(*args):
        args = list(_inputs(args))
        chosen = tuple(args[i] for i in positions)
        leaves, structure = _flatten(chosen)

        def flat(*diff):
            rebuilt = list(args)
            for i, value in zip(positions, _unflatten(structure, diff)):
                rebuilt[i] = value
            return _array(fun(*rebuilt))

        grads = mx.grad(flat, argnums=list(range(len(leaves))))(*leaves)
        grads = [grads] if len(leaves) == 1 and not isinstance(grads, (list, tuple)) else grads
        per_argument = _unflatten(structure, grads)
        return per_argument[0] if isinstance(argnums, int) else per_argument

    return gradient


def _axes(prefix, structure) -> list:
    """One axis per leaf, from a pytree prefix of axes (an int or None covers a subtree)."""
    if prefix is None or isinstance(prefix, int):
        return [prefix] * _count(structure)
    if structure is None:
        raise ValueError(f"the axis prefix {prefix!r} is deeper than its argument")
    if structure[0] is dict:
        _, keys, children = structure
        return [a for key, child in zip(keys, children) for a in _axes(prefix[key], child)]
    _, children = structure
    if len(prefix) != len(children):
        raise ValueError(f"the axis prefix {prefix!r} does not match its argument")
    return [a for p, child in zip(prefix, children) for a in _axes(p, child)]


def vmap(fun, in_axes=0, out_axes=0):
    """`mx.vmap` over the arguments' leaves, with JAX's pytree prefixes of axes."""

    @functools.wraps(fun)
    def batched(*args):
        args = _inputs(args)
        leaves, structure = _flatten(args)
        prefix = tuple(in_axes) if isinstance(in_axes, list) else in_axes
        leaf_axes = _axes(prefix, structure)
        out = {}
        flat = _flat(fun, structure, out)
        if isinstance(out_axes, int) or out_axes is None:
            flat_out_axes = out_axes
        else:  # a prefix of the result: its structure from one unbatched call
            one = [leaf if axis is None else mx.take(leaf, 0, axis=axis)
                   for leaf, axis in zip(leaves, leaf_axes)]
            flat(*one)
            flat_out_axes = _axes(out_axes, out["structure"])
        values = mx.vmap(flat, in_axes=tuple(leaf_axes), out_axes=flat_out_axes)(*leaves)
        return _unflatten(out["structure"], values)

    return batched


def jit(fun, static_argnums=()):
    """`mx.compile`, one compiled function per value of the static arguments (closed
    over) and per tree structure of the others (flattened: `mx.compile` takes arrays)."""
    static = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
    compiled = {}

    @functools.wraps(fun)
    def call(*args):
        fixed = {i: args[i] for i in static}
        dynamic = _inputs(tuple(a for i, a in enumerate(args) if i not in fixed))
        leaves, structure = _flatten(dynamic)
        key = (tuple(fixed.items()), len(args), repr(structure))
        if key not in compiled:
            count = len(args)

            def whole(*values):
                values = iter(values)
                return fun(*(fixed[i] if i in fixed else next(values) for i in range(count)))

            out = {}
            compiled[key] = (mx.compile(_flat(whole, structure, out)), out)
        compiled_flat, out = compiled[key]
        values = compiled_flat(*leaves)
        return _unflatten(out["structure"], values)

    return call


# ----------------------------------------------------------------------------- custom rules

def _single(values):
    """MLX passes the cotangent of a function of one output as one array, or a list of one."""
    return values[0] if isinstance(values, (list, tuple)) and len(values) == 1 else values


def _several(values) -> tuple:
    """MLX passes the primals and tangents of a function of one argument as one array."""
    return tuple(values) if isinstance(values, (list, tuple)) else (values,)


class custom_jvp:
    """JAX's `custom_jvp` as an `mx.custom_function`: its `jvp` is the rule's
    tangent.  MLX derives no reverse mode from a forward rule, as JAX does by
    transposing it, so its `vjp` transposes it here: the VJP of
    `t -> rule(primals, t)[1]`, which is linear in `t`."""

    def __init__(self, fun):
        functools.update_wrapper(self, fun)
        self.fun, self.function = fun, None

    def defjvp(self, rule):
        function = mx.custom_function(lambda *args: _array(self.fun(*args)))

        @function.jvp
        def tangent(primals, tangents):
            # MLX hands None for an argument the jvp holds fixed (one a function
            # under an inner jvp closes over); a rule, as in JAX, gets zeros.
            primals = _several(primals)
            tangents = tuple(mx.zeros_like(p) if t is None else t
                             for p, t in zip(primals, _several(tangents)))
            return _array(rule(primals, tangents)[1])

        @function.vjp
        def transposed(primals, cotangent, output):
            primals = _several(primals)
            _, cotangents = mx.vjp(lambda *t: [_array(rule(primals, t)[1])],
                                   [mx.zeros_like(p) for p in primals], [_single(cotangent)])
            return tuple(cotangents)

        self.function = function
        return rule

    def __call__(self, *args):
        return self.function(*_inputs(args))


class custom_vjp:
    """JAX's `custom_vjp` as an `mx.custom_function`: its `vjp` runs `fwd` again for
    the residuals (MLX hands it the primals, not what a forward pass saved), then
    `bwd`."""

    def __init__(self, fun):
        functools.update_wrapper(self, fun)
        self.fun, self.function = fun, None

    def defvjp(self, fwd, bwd):
        function = mx.custom_function(lambda *args: _array(self.fun(*args)))

        @function.vjp
        def backward(primals, cotangent, output):
            _, residuals = fwd(*_several(primals))
            return tuple(_array(c) for c in bwd(residuals, _single(cotangent)))

        self.function = function

    def __call__(self, *args):
        return self.function(*_inputs(args))


def checkpoint(fun):
    """`mx.checkpoint`."""
    return mx.checkpoint(lambda *args: _array(fun(*args)))


# ----------------------------------------------------------------------------- numpy

class _Numpy:
    """The contract's NumPy-signature functions on MLX arrays: those whose
    MLX function means something else, here; the rest, `_TWINS`."""

    @staticmethod
    def sum(x, axis=None):
        x = _array(x)
        if isinstance(axis, (tuple, list)):
            return mx.sum(x, axis=list(axis)) if axis else x
        return mx.sum(x, axis=axis)

    @staticmethod
    def transpose(x, axes=None):
        x = _array(x)
        return mx.transpose(x, list(axes)) if axes is not None else mx.transpose(x)

    @staticmethod
    def reshape(x, shape):
        return mx.reshape(_array(x), [shape] if isinstance(shape, int) else list(shape))

    @staticmethod
    def broadcast_to(x, shape):
        return mx.broadcast_to(_array(x), [shape] if isinstance(shape, int) else list(shape))

    @staticmethod
    def expand_dims(x, axis):
        return mx.expand_dims(_array(x), list(axis) if isinstance(axis, tuple) else axis)

    @staticmethod
    def dot(x, y):
        """NumPy's dot: a product with a scalar, else a sum over the last axis of x and
        the second-to-last of y (the only axis of a vector y)."""
        x, y = _array(x), _array(y)
        if x.ndim == 0 or y.ndim == 0:
            return mx.multiply(x, y)
        return mx.tensordot(x, y, axes=([x.ndim - 1], [max(y.ndim - 2, 0)]))

    @staticmethod
    def concatenate(arrays, axis=0):
        return mx.concatenate([_array(a) for a in arrays], axis=axis)


# The contract's functions whose MLX function has NumPy's meaning, given arrays.
_TWINS = {"add": mx.add, "subtract": mx.subtract, "multiply": mx.multiply,
          "divide": mx.divide, "negative": mx.negative, "sin": mx.sin, "cos": mx.cos,
          "tanh": mx.tanh, "exp": mx.exp, "log": mx.log, "sqrt": mx.sqrt,
          "matmul": mx.matmul, "where": mx.where, "greater": mx.greater, "less": mx.less,
          "maximum": mx.maximum, "log1p": mx.log1p, "expm1": mx.expm1, "tan": mx.tan,
          "arctan": mx.arctan, "arcsinh": mx.arcsinh, "sinh": mx.sinh, "cosh": mx.cosh,
          "square": mx.square}


def _on_arrays(op):
    """`op` with every argument made an MLX array (`_operand`) first."""
    return lambda *args: op(*map(_operand, args))


for _name, _op in _TWINS.items():
    setattr(_Numpy, _name, staticmethod(_on_arrays(_op)))

numpy = _Numpy()


# ----------------------------------------------------------------------------- lax

# How MLX refuses to read an array where it has no value: a ValueError under
# mx.vmap and mx.compile ("Attempting to eval an array during function
# transformations"), a RuntimeError where the array comes from a
# transformation inside the vmap ("Attempting to eval an array without a
# primitive"), and a ValueError from item() on a placeholder of mx.compile
# inside another transformation.
_REFUSED_READ = ("Attempting to eval", "can only be called on evaled arrays")


class _Lax:
    """Control flow as Python, since MLX has no cond or loop primitive (module docstring)."""

    @staticmethod
    def cond(pred, true_fun, false_fun, *operands):
        operands = _inputs(operands)
        if isinstance(pred, (bool, np.bool_)):
            return (true_fun if pred else false_fun)(*operands)
        pred = _array(pred)
        try:
            taken = pred.item()
        # Under mx.vmap or mx.compile: run both, select.  MLX refuses the read
        # in one of three messages (`_REFUSED_READ`).
        except (ValueError, RuntimeError) as exc:
            if not any(message in str(exc) for message in _REFUSED_READ):
                raise
            leaves, structure = _flatten(true_fun(*operands))
            others, _ = _flatten(false_fun(*operands))
            return _unflatten(structure, [mx.where(pred, _array(a), _array(b))
                                          for a, b in zip(leaves, others)])
        return (true_fun if taken else false_fun)(*operands)

    @staticmethod
    def stop_gradient(x):
        return mx.stop_gradient(_array(x))

    @staticmethod
    def fori_loop(lower, upper, body_fun, init_val):
        value = _inputs(init_val)
        for i in range(int(lower), int(upper)):
            value = body_fun(i, value)
        return value

    @staticmethod
    def scan(f, init, xs):
        """(final carry, ys stacked on a new leading axis) over the leading axis of xs."""
        carry = _inputs(init)
        leaves, structure = _flatten(_inputs(xs))
        length = leaves[0].shape[0]
        if length == 0:  # one step on zeros, only for the shapes of ys
            zeros = _unflatten(structure, [mx.zeros(leaf.shape[1:], dtype=leaf.dtype)
                                           for leaf in leaves])
            _, y = f(carry, zeros)
            y_leaves, y_structure = _flatten(y)
            return carry, _unflatten(y_structure, [mx.expand_dims(_array(v), 0)[:0]
                                                   for v in y_leaves])
        ys = []
        for i in range(length):
            carry, y = f(carry, _unflatten(structure, [leaf[i] for leaf in leaves]))
            ys.append(_flatten(y))
        y_structure = ys[0][1]
        stacked = [mx.stack([_array(v) for v in column])
                   for column in zip(*(leaves_ for leaves_, _ in ys))]
        return carry, _unflatten(y_structure, stacked)


lax = _Lax()
