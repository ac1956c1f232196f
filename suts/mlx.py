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
* `linearize`, `jacfwd`, `jacrev` and `hessian`, which MLX does not offer,
  are built from MLX's own transformations as a user of MLX would build
  them, and as JAX does: `jacfwd` is `mx.vmap` of `mx.jvp` over a basis of
  tangents, `jacrev` `mx.vmap` of `mx.vjp` over a basis of cotangents,
  `hessian` `jacfwd` of `jacrev`, and `linearize` runs `mx.jvp` again for
  each tangent (MLX stages no tangent program to keep).
* `numpy` maps each name of the language that MLX offers, under its own name
  or another (`deg2rad` and `rad2deg` are `mx.radians` and `mx.degrees`,
  `ravel` `mx.flatten`); `numpy.linalg.det` is `mx.linalg.det`, and
  `lax.dynamic_slice` and `dynamic_update_slice` are `mx.slice` and
  `mx.slice_update`.  `take_along_axis` stops the gradient of its indices,
  as MLX's error asks ("Use stop_gradient on indices"): MLX would otherwise
  differentiate the gather by argmax's integer result and raise.  MLX has no
  `exp2`, `cbrt`, `sinc`, `hypot`, `logaddexp2`, `fmod`, `copysign`, `ptp`,
  `vdot`, `quantile`, `correlate`, `rot90`, `average`, `trapezoid` or
  `nanmean`: the run's header lists them as lacking.
* Not offered, and declared: `while_loop` (its trip count depends on values,
  which neither `mx.compile` nor `mx.vmap` may read, and MLX has no loop
  primitive), `leak_check` (`mx.grad` and the others run on real arrays, so
  nothing escapes as a tracer), and `make_jaxpr` (MLX has no equation list;
  the cost properties time instead).  Declared for a finding
  (docs/findings/mlx.md): `inv`, `solve`, `cholesky`, `convolve` and
  `cumprod`, whose derivative rules MLX lacks (M17).
* Conventions of its own, declared: `tie_convention` (maximum's and
  minimum's derivative at a tie is the second operand's), `clip_convention`
  (`mx.clip` passes no tangent at a bound), `abs_at_zero` (`mx.abs` has slope
  0 at 0) and `reduction_tie_convention` (`mx.max` shares ties in reverse
  mode and not in forward mode, M18).
* Declared less accurate (`__sut_accuracy__`): exp, and expm1 whose forward
  mode uses exp, logaddexp, and log2 and log10 whose derivatives multiply by
  a float32 constant, so that the suite still checks their derivative rules,
  batching and staging at that accuracy.  sin, cos and tan, less accurate
  than a declaration may state, are declared unsupported.
* `custom_jvp` and `custom_vjp` are `mx.custom_function`s: a custom_jvp's
  `jvp` is its rule's tangent and its `vjp` the rule transposed (MLX derives
  no reverse mode from a forward rule); a custom_vjp's `vjp` runs `fwd` again
  for the residuals, MLX handing it the primals, and its `jvp` is `fwd`'s
  (JAX's forward mode over reverse mode differentiates `fwd`; MLX would
  differentiate the function's body).  `checkpoint` is
  `mx.checkpoint`, `lax.stop_gradient` `mx.stop_gradient`.  What they met
  is docs/findings/mlx.md, M14, M15 and M16 (`mx.checkpoint` differentiates
  by its arguments only); under `ci` their construct rows fail
  first through M1.
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
    # Conventions of MLX's own at kinks (docs/findings/mlx.md, the summary's last
    # rows): at a tie, maximum's and minimum's tangent and cotangent go to the
    # second operand (JAX splits them in halves); mx.clip passes no tangent at a
    # bound (JAX: half); mx.abs has slope 0 at 0 (JAX: 1).
    "tie_convention",
    "clip_convention",
    "abs_at_zero",
    # mx.max and mx.min with tied elements: forward mode takes one element's
    # tangent, reverse mode shares the cotangent among them (M18).
    "reduction_tie_convention",
    # float32 approximations (M3): sin and cos err by up to 3.8e-6 and tan's
    # derivatives, which go through cos, by 4.4e-5, more than `__sut_accuracy__`
    # may declare (5e-7).
    "sin",
    "cos",
    "tan",
    # No derivative rules (M17): mx.linalg.inv and cholesky have neither a JVP
    # nor a VJP, solve neither (its LU factorization has none), convolve and
    # cumprod no JVP.  Every program that differentiates through them raises, so
    # each is declared rather than ending most derivative properties at it.
    "inv",
    "solve",
    "cholesky",
    "convolve",
    "cumprod",
})

# MLX's float64 exp, sin and cos on the CPU use float32 approximations
# (docs/findings/mlx.md, M3), and so do the derivative rules built on them.
# Worst errors, as |MLX - JAX| / (1 + |JAX|) over 200,001 points of the
# arguments a generated program may give each (values within 100), value,
# first and second derivatives (`python bench/mlx_accuracy.py`): exp 4.8e-7,
# expm1 4.8e-7 (its forward mode only, which multiplies by exp).  Both are
# declared at 5e-7, the most a declaration may state.  sin and cos err by
# 3.8e-6 and tan's derivatives by 4.4e-5: more than that, so they are
# declared unsupported above.  Measured the same way: logaddexp 2.1e-8 (its
# value; derivatives 1.3e-8), declared at 5e-8; the derivatives of log2 and
# log10, whose constant factor 1 / log 2 (1 / log 10) is a float32 number,
# 1.3e-8 and 4.0e-8, declared at 2e-8 and 5e-8.
_FLOAT32_KERNEL = "MLX computes it with a float32 approximation on the CPU (ml-explore/mlx#3047)"
_FLOAT32_FACTOR = "its derivative's constant factor is a float32 number"
__sut_accuracy__ = {
    "exp": (5e-7, _FLOAT32_KERNEL),
    "expm1": (5e-7, "its forward-mode derivative is MLX's exp, a float32 approximation"),
    "logaddexp": (5e-8, "it goes through MLX's exp, a float32 approximation on the CPU"),
    "log2": (2e-8, _FLOAT32_FACTOR),
    "log10": (5e-8, _FLOAT32_FACTOR),
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


def linearize(fun, *primals):
    """(out, f_jvp): `mx.jvp` at the primals, again for each tangent (MLX stages no
    tangent program to keep, so the function runs once per call, as a user's would)."""
    primals = _inputs(primals)
    out = fun(*primals)

    def f_jvp(*tangents):
        return jvp(fun, primals, tangents)[1]

    return out, f_jvp


def _positions(argnums) -> tuple[int, ...]:
    return (argnums,) if isinstance(argnums, int) else tuple(argnums)


def _size(leaf) -> int:
    return int(np.prod(leaf.shape))


def _basis(leaves) -> list:
    """One stack of unit tangents per leaf: row k is 1 at the k-th element of all the
    leaves together, the rows of an identity of that size split among the leaves."""
    total = sum(_size(leaf) for leaf in leaves)
    stacks, start = [], 0
    for leaf in leaves:
        eye = mx.eye(total, dtype=leaf.dtype)[:, start:start + _size(leaf)]
        stacks.append(mx.reshape(eye, [total, *leaf.shape]))
        start += _size(leaf)
    return stacks


def _split_last(array, leaves, lead) -> list:
    """`array` of shape lead + (n,), n the leaves' sizes together, as one array per leaf
    of shape lead + leaf.shape."""
    pieces, start = [], 0
    for leaf in leaves:
        piece = array[..., start:start + _size(leaf)]
        pieces.append(mx.reshape(piece, [*lead, *leaf.shape]))
        start += _size(leaf)
    return pieces


def _nest(out_structure, per_output, arg_structure, argnums):
    """JAX's nesting: the output's structure outside; inside, the chosen arguments'
    (a tuple over a tuple `argnums`, the one argument's structure for an int)."""
    inner = [_unflatten(arg_structure, blocks) for blocks in per_output]
    inner = [tree[0] if isinstance(argnums, int) else tree for tree in inner]
    return _unflatten(out_structure, inner)


def _differentiated(fun, args, positions):
    """(leaves of the chosen arguments, their structure, `fun` over those leaves alone
    returning a flat list, the dict `_flat` leaves the output's structure in)."""
    chosen = tuple(args[i] for i in positions)
    leaves, structure = _flatten(chosen)

    def rebuilt(*diff):
        whole = list(args)
        for i, value in zip(positions, _unflatten(structure, diff)):
            whole[i] = value
        return fun(*whole)

    out = {}
    return leaves, structure, _flat(rebuilt, _flatten(tuple(leaves))[1], out), out


def jacfwd(fun, argnums=0):
    """The Jacobian by forward mode: `mx.vmap` of `mx.jvp` over a basis of tangents,
    one per element of the chosen arguments, as JAX builds it."""

    @functools.wraps(fun)
    def jacobian(*args):
        args = list(_inputs(args))
        leaves, structure, flat, out = _differentiated(fun, args, _positions(argnums))
        values = flat(*leaves)

        def push(*tangents):
            return mx.jvp(flat, leaves, list(tangents))[1]

        columns = mx.vmap(push, in_axes=tuple(0 for _ in leaves))(*_basis(leaves))
        per_output = [_split_last(mx.moveaxis(column, 0, -1), leaves, value.shape)
                      for column, value in zip(columns, values)]
        return _nest(out["structure"], per_output, structure, argnums)

    return jacobian


def jacrev(fun, argnums=0):
    """The Jacobian by reverse mode: `mx.vmap` of `mx.vjp` over a basis of cotangents,
    one per element of the output, as JAX builds it."""

    @functools.wraps(fun)
    def jacobian(*args):
        args = list(_inputs(args))
        leaves, structure, flat, out = _differentiated(fun, args, _positions(argnums))
        values = flat(*leaves)

        def pull(*cotangents):
            return mx.vjp(flat, leaves, list(cotangents))[1]

        rows = mx.vmap(pull, in_axes=tuple(0 for _ in values))(*_basis(values))
        per_output, start = [], 0
        for value in values:  # rows: one per input leaf, of shape (m,) + leaf.shape
            block = [mx.reshape(row[start:start + _size(value)], [*value.shape, *leaf.shape])
                     for row, leaf in zip(rows, leaves)]
            per_output.append(block)
            start += _size(value)
        return _nest(out["structure"], per_output, structure, argnums)

    return jacobian


def hessian(fun, argnums=0):
    """`jacfwd(jacrev(fun, argnums), argnums)`, as JAX defines it."""
    return jacfwd(jacrev(fun, argnums), argnums)


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
    `bwd`.  Its `jvp` is `fwd`'s, as JAX's forward mode over reverse mode
    differentiates `fwd`: without one, MLX differentiates the function's own body,
    which a custom rule may exist to replace (`jvp` of a `vjp` then gave the
    primal output no tangent)."""

    def __init__(self, fun):
        functools.update_wrapper(self, fun)
        self.fun, self.function = fun, None

    def defvjp(self, fwd, bwd):
        function = mx.custom_function(lambda *args: _array(self.fun(*args)))

        @function.vjp
        def backward(primals, cotangent, output):
            _, residuals = fwd(*_several(primals))
            return tuple(_array(c) for c in bwd(residuals, _single(cotangent)))

        @function.jvp
        def forward(primals, tangents):
            # MLX hands None for an argument the jvp holds fixed, as in custom_jvp.
            primals = _several(primals)
            tangents = [mx.zeros_like(p) if t is None else t
                        for p, t in zip(primals, _several(tangents))]
            return mx.jvp(lambda *p: [_array(fwd(*p)[0])], list(primals), tangents)[1][0]

        self.function = function

    def __call__(self, *args):
        return self.function(*_inputs(args))


def checkpoint(fun):
    """`mx.checkpoint`."""
    return mx.checkpoint(lambda *args: _array(fun(*args)))


# ----------------------------------------------------------------------------- numpy

class _Linalg:
    """`numpy.linalg`: MLX's `mx.linalg.det`.  solve, inv and cholesky are declared
    (`__sut_unsupported__`): MLX has no derivative rule for them."""

    det = staticmethod(lambda a: mx.linalg.det(_array(a)))


def _axes_of(axis):
    """NumPy's `axis` (None, an int, a tuple) as MLX's (None, an int, a list)."""
    return list(axis) if isinstance(axis, (tuple, list)) else axis


def _reduction(op):
    """An MLX reduction with NumPy's `axis` and `keepdims`."""
    return lambda x, axis=None, keepdims=False: op(_array(x), axis=_axes_of(axis),
                                                    keepdims=keepdims)


class _Numpy:
    """The contract's NumPy-signature functions on MLX arrays: those whose
    MLX function means something else, here; the rest, `_TWINS`."""

    linalg = _Linalg()

    @staticmethod
    def sum(x, axis=None):
        x = _array(x)
        if isinstance(axis, (tuple, list)):
            return mx.sum(x, axis=list(axis)) if axis else x
        return mx.sum(x, axis=axis)

    mean, max, min, prod, var, std, median = map(
        staticmethod, map(_reduction, (mx.mean, mx.max, mx.min, mx.prod, mx.var, mx.std,
                                       mx.median)))

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

    @staticmethod
    def stack(arrays, axis=0):
        return mx.stack([_array(a) for a in arrays], axis=axis)

    @staticmethod
    def clip(x, lo, hi):
        return mx.clip(_array(x), lo, hi)

    @staticmethod
    def cumsum(x, axis=None):
        return mx.cumsum(_array(x), axis=axis)

    @staticmethod
    def flip(x, axis=None):
        return mx.flip(_array(x), axis=_axes_of(axis))

    @staticmethod
    def swapaxes(x, axis1, axis2):
        return mx.swapaxes(_array(x), axis1, axis2)

    @staticmethod
    def moveaxis(x, source, destination):
        return mx.moveaxis(_array(x), source, destination)

    @staticmethod
    def squeeze(x, axis=None):
        return mx.squeeze(_array(x), axis=_axes_of(axis))

    @staticmethod
    def ravel(x):
        """NumPy's ravel is MLX's flatten."""
        return mx.flatten(_array(x))

    @staticmethod
    def pad(x, pad_width):
        return mx.pad(_array(x), pad_width)

    @staticmethod
    def roll(x, shift, axis=None):
        return mx.roll(_array(x), shift, axis=_axes_of(axis))

    @staticmethod
    def tile(x, reps):
        return mx.tile(_array(x), reps if isinstance(reps, int) else list(reps))

    @staticmethod
    def repeat(x, repeats, axis=None):
        return mx.repeat(_array(x), repeats, axis=axis)

    @staticmethod
    def diff(x, axis=-1):
        return mx.diff(_array(x), axis=axis)

    @staticmethod
    def tril(x, k=0):
        return mx.tril(_array(x), k)

    @staticmethod
    def triu(x, k=0):
        return mx.triu(_array(x), k)

    @staticmethod
    def diagonal(x, offset=0):
        return mx.diagonal(_array(x), offset)

    @staticmethod
    def trace(x, offset=0):
        return mx.trace(_array(x), offset)

    @staticmethod
    def tensordot(x, y, axes=2):
        axes = axes if isinstance(axes, int) else [list(a) for a in axes]
        return mx.tensordot(_array(x), _array(y), axes=axes)

    @staticmethod
    def sort(x, axis=-1):
        return mx.sort(_array(x), axis=axis)

    @staticmethod
    def take(x, indices, axis=None):
        return mx.take(_array(x), mx.array(np.asarray(indices)), axis=axis)

    @staticmethod
    def argmax(x, axis=None, keepdims=False):
        return mx.argmax(_array(x), axis=axis, keepdims=keepdims)

    @staticmethod
    def take_along_axis(x, indices, axis):
        """MLX tries to differentiate the gather by its indices too, and refuses ("Use
        stop_gradient on indices"); indices carry no derivative, so they are stopped, as
        the message asks."""
        return mx.take_along_axis(_array(x), mx.stop_gradient(_array_of_indices(indices)),
                                  axis=axis)

    @staticmethod
    def einsum(subscripts, *operands):
        return mx.einsum(subscripts, *map(_array, operands))


def _array_of_indices(indices):
    """Indices as MLX's: an MLX array (argmax's) as it is, NumPy's as an MLX array."""
    return indices if isinstance(indices, mx.array) else mx.array(np.asarray(indices))


# The contract's functions whose MLX function has NumPy's meaning, given arrays
# (deg2rad and rad2deg under MLX's names, radians and degrees).
_TWINS = {"add": mx.add, "subtract": mx.subtract, "multiply": mx.multiply,
          "divide": mx.divide, "negative": mx.negative, "sin": mx.sin, "cos": mx.cos,
          "tanh": mx.tanh, "exp": mx.exp, "log": mx.log, "sqrt": mx.sqrt,
          "matmul": mx.matmul, "where": mx.where, "greater": mx.greater, "less": mx.less,
          "maximum": mx.maximum, "log1p": mx.log1p, "expm1": mx.expm1, "tan": mx.tan,
          "arctan": mx.arctan, "arcsinh": mx.arcsinh, "sinh": mx.sinh, "cosh": mx.cosh,
          "square": mx.square, "reciprocal": mx.reciprocal, "abs": mx.abs, "sign": mx.sign,
          "minimum": mx.minimum, "arctan2": mx.arctan2, "logaddexp": mx.logaddexp,
          "power": mx.power, "arcsin": mx.arcsin, "arccos": mx.arccos, "arctanh": mx.arctanh,
          "arccosh": mx.arccosh, "log2": mx.log2, "log10": mx.log10,
          "deg2rad": mx.radians, "rad2deg": mx.degrees, "floor": mx.floor, "ceil": mx.ceil,
          "round": mx.round, "trunc": mx.trunc, "remainder": mx.remainder,
          "outer": mx.outer, "inner": mx.inner, "kron": mx.kron}


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
    def dynamic_slice(x, start_indices, slice_sizes):
        """`mx.slice`, MLX's slice at start indices given as an array."""
        x = _array(x)
        return mx.slice(x, mx.array(list(start_indices)), list(range(x.ndim)),
                        list(slice_sizes))

    @staticmethod
    def dynamic_update_slice(x, update, start_indices):
        """`mx.slice_update`, MLX's update at start indices given as an array."""
        x = _array(x)
        return mx.slice_update(x, _array(update), mx.array(list(start_indices)),
                               list(range(x.ndim)))

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
