"""HIPS autograd (https://github.com/HIPS/autograd) as a jaxcheck SUT.

`jaxcheck check --sut suts.autograd`, or `tox -e autograd`, which installs
autograd~=1.9 into its own environment.

How the contract maps onto autograd 1.9:

* `vjp`, `grad`: autograd's reverse mode, `autograd.core.make_vjp` (a
  recorded graph of `VJPNode`s, walked backwards).  `grad` refuses an output
  whose shape is not `()`, as JAX does.
* `jvp`: autograd's own forward mode, `autograd.core.make_jvp`: each
  primitive's tangent is pushed forward by its rule in `primitive_jvps`
  (`autograd/numpy/numpy_jvps.py`) as the function runs.  It is true forward
  mode, not the double-vjp trick (that one is a separate function,
  `autograd.differential_operators.make_jvp_reversemode`, unused here).
* `vmap`: a Python loop over the mapped axis, calling the function once per
  batch element and stacking the results with `autograd.numpy.stack`; it
  honours `in_axes` and `out_axes` (ints, `None`, pytree prefixes).  A batch of
  size zero calls the function once on zeros to learn the output shapes.
* `jit`: the identity.  autograd stages nothing, so `jit(f)` runs `f` eagerly
  on every call; it therefore cannot refuse a Python `if` on a traced value.
* `linearize`, `jacfwd`, `jacrev`, `hessian`: autograd has `make_jvp` (a
  function of the tangent, `f` run forward again at each call), `jacobian`
  (reverse mode) and `hessian` (`jacobian(jacobian(f))`), each of one
  array argument and one array output: `jacrev` and `hessian` are those per
  output leaf and per `argnums` entry, nested as JAX nests them; `linearize`
  is `make_jvp`, and `jacfwd`, which autograd lacks, `make_jvp` along each
  unit tangent, as JAX builds it from jvp and vmap.
* `custom_jvp`, `custom_vjp`: autograd's user-defined rules, a function made an
  `autograd.extend.primitive` with `defjvp_argnums` and `defvjp_argnums`.
  `checkpoint` is `autograd.checkpoint`, declared unsupported (A15).
* `numpy`: `autograd.numpy`, whose functions have NumPy's signatures.  Its
  `sort` rule indexes by `np.argsort`'s default quicksort, which is not
  stable and can reorder a tie of 5 elements or more: `sort_tie_convention`
  is declared.
* `lax`: `cond`, `fori_loop`, `scan` and `while_loop` written as Python
  control flow on concrete values, which autograd differentiates through like
  any Python code, in both modes, reverse mode through `while_loop` included;
  `stop_gradient` is `getval` (the value under every box), `dynamic_slice` a
  slice and `dynamic_update_slice` a padded update selected by `where`.

Pytrees (tuples, lists, dicts, `None`) are flattened here, with dict keys in
sorted order as in JAX; autograd itself only ever sees a tuple of leaves in
and a tuple of leaves out (`autograd.builtins.tuple`).

This module is named after the library it wraps; inside it `import autograd`
still means the library (imports are absolute).  Do not run this file as a
script: that would put `suts/` first on the path, and `import autograd`
would find this file.
"""

from __future__ import annotations

import functools
import warnings
from importlib.metadata import version

import autograd
import autograd.numpy as numpy
from autograd.builtins import tuple as traced_tuple
from autograd.core import make_jvp, make_vjp
from autograd.extend import defjvp_argnums, defvjp_argnums, primitive, vspace
from autograd.tracer import getval

__version__ = f"autograd {version('autograd')} (shim: vmap a loop, jit the identity)"

__sut_unsupported__ = frozenset({
    "make_jaxpr",  # autograd records a graph only inside make_vjp, with no equation list to count
    "jit_staging",  # jit is the identity: f runs on values, so a Python branch cannot be refused
    "leak_check",  # a box escaping grad or jvp keeps working (docs/findings/autograd.md, A3)
    "clip_convention",  # clip passes no tangent at its bounds (JAX's: half of it)
    "abs_at_zero",  # abs has slope 0 at 0 (JAX's: 1)
    "sort_tie_convention",  # np.argsort's default sort is unstable: from 5 tied elements
    # autograd.checkpoint has no forward mode, and drops the derivative through a
    # value its function closes over (docs/findings/autograd.md, A15).
    "checkpoint",
    "cbrt",  # autograd.numpy.cbrt has no derivative rule: grad raises NotImplementedError
    # No derivative rule in either mode: NotImplementedError ("VJP of take wrt argnums").
    "take", "median", "quantile", "convolve", "correlate",
    "flip", "fmod", "copysign", "cumprod", "ptp", "vdot", "average", "trapezoid",
    "take_along_axis", "nanmean",
})

# autograd's tracer warns "Output seems independent of input." whenever a function's
# output does not depend on the differentiated input (a zero derivative, which is right);
# generated programs do that on purpose, and the warning says nothing about correctness.
_INDEPENDENT_OUTPUT = "Output seems independent of input."


# ----------------------------------------------------------------------------- pytrees

_LEAF = "leaf"


def _flatten(tree):
    """The leaves of `tree` in JAX's order (dict keys sorted) and its structure."""
    leaves = []

    def walk(node):
        if isinstance(node, dict):
            keys = sorted(node)
            return (dict, keys, [walk(node[key]) for key in keys])
        if isinstance(node, (tuple, list)):
            return (type(node), None, [walk(child) for child in node])
        if node is None:
            return (None, None, [])
        leaves.append(node)
        return _LEAF

    return leaves, walk(tree)


def _unflatten(structure, leaves):
    """The tree of `structure` (from `_flatten`) with `leaves` in it."""
    remaining = iter(leaves)

    def build(node):
        if node == _LEAF:
            return next(remaining)
        kind, keys, children = node
        if kind is None:
            return None
        built = [build(child) for child in children]
        if kind is dict:
            return dict(zip(keys, built))
        if hasattr(kind, "_fields"):  # a namedtuple
            return kind(*built)
        return kind(built)

    return build(structure)


def _leaf_prefixes(prefix, tree):
    """`prefix` (an int, `None` or a pytree prefix of `tree`, as `in_axes` and
    `out_axes` are) spread to one entry per leaf of `tree`."""
    if prefix is None or isinstance(prefix, int):
        return [prefix] * len(_flatten(tree)[0])
    if isinstance(prefix, dict) and isinstance(tree, dict) and sorted(prefix) == sorted(tree):
        return [entry for key in sorted(tree) for entry in _leaf_prefixes(prefix[key], tree[key])]
    if (isinstance(prefix, (tuple, list)) and isinstance(tree, (tuple, list))
            and len(prefix) == len(tree)):
        return [entry for p, t in zip(prefix, tree) for entry in _leaf_prefixes(p, t)]
    raise ValueError(f"axes specification {prefix!r} is not a prefix of the tree {tree!r}")


def _on_leaves(fun, structure, count, out_structure):
    """`fun` as a function of one traced tuple of `count` input leaves, returning a
    traced tuple of its output leaves; the output's structure goes to `out_structure`."""

    def flat(leaves):
        out = fun(*_unflatten(structure, [leaves[i] for i in range(count)]))
        out_leaves, structure_of_out = _flatten(out)
        out_structure.append(structure_of_out)
        return traced_tuple(out_leaves)

    return flat


def _quietly(call, *args):
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=_INDEPENDENT_OUTPUT)
        return call(*args)


# ----------------------------------------------------------------------------- transformations

def jvp(fun, primals, tangents):
    """Forward mode: autograd's `make_jvp` over the tuple of input leaves."""
    leaves, structure = _flatten(tuple(primals))
    tangent_leaves, tangent_structure = _flatten(tuple(tangents))
    if tangent_structure != structure:
        raise ValueError(f"jvp: tangents {tangents!r} do not have the structure of primals")
    for primal, tangent in zip(leaves, tangent_leaves):
        if numpy.shape(primal) != numpy.shape(tangent):
            raise ValueError(f"jvp: a tangent of shape {numpy.shape(tangent)} for a primal "
                             f"of shape {numpy.shape(primal)}")
    out_structure = []
    flat = _on_leaves(fun, structure, len(leaves), out_structure)
    out, tangent_out = _quietly(make_jvp(flat, tuple(leaves)), tuple(tangent_leaves))
    return _unflatten(out_structure[0], out), _unflatten(out_structure[0], tangent_out)


def vjp(fun, *primals):
    """Reverse mode: autograd's `make_vjp` over the tuple of input leaves; the
    returned function takes a cotangent of the output's structure and returns a
    tuple with one cotangent per primal."""
    leaves, structure = _flatten(primals)
    out_structure = []
    flat = _on_leaves(fun, structure, len(leaves), out_structure)
    pullback, out = _quietly(make_vjp, flat, tuple(leaves))

    def vjp_fun(cotangent):
        cotangent_leaves, cotangent_structure = _flatten(cotangent)
        if cotangent_structure != out_structure[0]:
            raise ValueError(f"vjp: cotangent {cotangent!r} does not have the output's structure")
        return tuple(_unflatten(structure, pullback(tuple(cotangent_leaves))))

    return _unflatten(out_structure[0], out), vjp_fun


def grad(fun, argnums=0):
    """The gradient of a scalar-valued `fun` with respect to `argnums` (an int or a
    tuple of ints), by `vjp` with cotangent 1."""
    chosen = (argnums,) if isinstance(argnums, int) else tuple(argnums)

    def gradient(*args):
        def of_chosen(*values):
            full = list(args)
            for position, value in zip(chosen, values):
                full[position] = value
            return fun(*full)

        out, pullback = vjp(of_chosen, *(args[position] for position in chosen))
        if _flatten(out)[1] != _LEAF or numpy.shape(out) != ():
            raise TypeError("grad requires a function with a scalar output (shape ()), "
                            f"got {type(getval(out)).__name__} of shape {numpy.shape(out)}")
        cotangents = pullback(numpy.ones(()))
        return cotangents[0] if isinstance(argnums, int) else cotangents

    return gradient


def jit(fun, static_argnums=()):
    """The identity: autograd compiles nothing, so `jit(fun)` is `fun`, run eagerly."""
    return fun


# ----------------------------------------------------------------------------- derived

def linearize(fun, *primals):
    """autograd has no linearize; `make_jvp(f)(x)` is its nearest, a function of the
    tangent that runs `f` forward again at each call: (out, f_jvp)."""
    out, _ = jvp(fun, primals, tuple(_zeros_like(p) for p in primals))

    def tangent(*tangents):
        if len(tangents) != len(primals):
            raise TypeError(f"linearize: {len(tangents)} tangents for {len(primals)} primals")
        return jvp(fun, primals, tangents)[1]

    return out, tangent


def _zeros_like(tree):
    leaves, structure = _flatten(tree)
    return _unflatten(structure, [vspace(getval(leaf)).zeros() for leaf in leaves])


def _jacobian(of_one, fun, argnums):
    """The Jacobian of each output leaf of `fun` with respect to each of `argnums`, by
    `of_one(leaf_function, argnum, args)`, nested as JAX nests it: the output's
    structure outside, a tuple over a tuple `argnums` inside."""
    chosen = (argnums,) if isinstance(argnums, int) else tuple(argnums)

    def jacobian(*args):
        out_leaves, out_structure = _flatten(fun(*args))
        blocks = []
        for k in range(len(out_leaves)):
            def leaf(*values, k=k):
                return _flatten(fun(*values))[0][k]

            row = tuple(_quietly(of_one, leaf, i, args) for i in chosen)
            blocks.append(row[0] if isinstance(argnums, int) else row)
        return _unflatten(out_structure, blocks)

    return jacobian


def _reverse_block(leaf, argnum, args):
    return autograd.jacobian(leaf, argnum)(*args)


def _forward_block(leaf, argnum, args):
    """d leaf / d args[argnum] by `make_jvp` along each unit tangent, stacked on the
    trailing axes, where autograd.jacobian stacks cotangents on the leading ones."""
    x = args[argnum]
    shape = numpy.shape(x)

    def of_x(value):
        return leaf(*args[:argnum], value, *args[argnum + 1:])

    pushforward = make_jvp(of_x, x)
    basis = numpy.reshape(numpy.eye(int(numpy.prod(shape)), dtype=numpy.result_type(getval(x),
                                                                                  1.0)),
                          (-1, *shape))
    out = of_x(x)
    columns = [pushforward(unit)[1] for unit in basis]
    if not columns:
        return numpy.zeros(numpy.shape(out) + shape)
    stacked = numpy.stack([numpy.reshape(column, numpy.shape(out)) for column in columns], -1)
    return numpy.reshape(stacked, numpy.shape(out) + shape)


def jacrev(fun, argnums=0):
    """`autograd.jacobian` (reverse mode: one `make_vjp` pass per output element)."""
    return functools.wraps(fun)(_jacobian(_reverse_block, fun, argnums))


def jacfwd(fun, argnums=0):
    """autograd has no forward-mode Jacobian: `make_jvp` along each unit tangent of
    the input, stacked, as JAX builds jacfwd from jvp and vmap."""
    return functools.wraps(fun)(_jacobian(_forward_block, fun, argnums))


def hessian(fun, argnums=0):
    """`autograd.hessian` (`jacobian(jacobian(f))`) for an int `argnums`, and the same
    nesting for a tuple: reverse over reverse, where JAX's is forward over reverse."""
    return jacrev(jacrev(fun, argnums), argnums)


# ----------------------------------------------------------------------------- custom rules

def _tangents_at(argnums, given, args):
    """One tangent per argument: `given` at `argnums`, zeros elsewhere."""
    full = [vspace(arg).zeros() for arg in args]
    for position, tangent in zip(argnums, given):
        full[position] = tangent
    return tuple(full)


class custom_jvp:
    """JAX's `custom_jvp` as an autograd primitive (`autograd.extend.primitive`): its
    forward rule (`defjvp_argnums`) is the rule's tangent, and its reverse rule
    (`defvjp_argnums`) the rule transposed, the VJP of `t -> rule(primals, t)[1]`
    (linear in `t`), since autograd derives no reverse mode from a forward rule."""

    def __init__(self, fun):
        functools.update_wrapper(self, fun)
        self.fun, self.ruled = fun, None

    def defjvp(self, rule):
        ruled = primitive(self.fun)

        def forward(argnums, tangents, ans, args, kwargs):
            return rule(tuple(args), _tangents_at(argnums, tangents, args))[1]

        def reverse(argnums, ans, args, kwargs):
            def tangent_out(*tangents):
                return rule(tuple(args), _tangents_at(argnums, tangents, args))[1]

            _, pullback = vjp(tangent_out, *(vspace(args[i]).zeros() for i in argnums))
            return pullback

        defjvp_argnums(ruled, forward)
        defvjp_argnums(ruled, reverse)
        self.ruled = ruled
        return rule

    def __call__(self, *args):
        return self.ruled(*args)


class custom_vjp:
    """JAX's `custom_vjp` as an autograd primitive: its reverse rule runs `fwd` for the
    residuals and `bwd` on them.  Forward mode gives it `fwd`'s own derivative, which
    is what forward mode over reverse mode differentiates in JAX (a plain `jvp`
    through it, which JAX refuses, is never asked by the contract)."""

    def __init__(self, fun):
        functools.update_wrapper(self, fun)
        self.fun, self.ruled = fun, None

    def defvjp(self, fwd, bwd):
        ruled = primitive(self.fun)

        def reverse(argnums, ans, args, kwargs):
            _, residuals = fwd(*args)

            def pullback(cotangent):
                cotangents = bwd(residuals, cotangent)
                return tuple(cotangents[i] for i in argnums)

            return pullback

        def forward(argnums, tangents, ans, args, kwargs):
            return jvp(lambda *values: fwd(*values)[0], tuple(args),
                       _tangents_at(argnums, tangents, args))[1]

        defvjp_argnums(ruled, reverse)
        defjvp_argnums(ruled, forward)
        self.ruled = ruled

    def __call__(self, *args):
        return self.ruled(*args)


def checkpoint(fun):
    """`autograd.checkpoint`, declared unsupported: see `__sut_unsupported__`."""
    return autograd.checkpoint(fun)


def vmap(fun, in_axes=0, out_axes=0):
    """`fun` mapped over an axis of its arguments by a Python loop: one call per
    batch element, results stacked along `out_axes`."""

    def mapped(*args):
        if isinstance(in_axes, (tuple, list)):
            if len(in_axes) != len(args):
                raise ValueError(f"vmap: in_axes {in_axes!r} has {len(in_axes)} entries for "
                                 f"{len(args)} positional arguments")
            axes = _leaf_prefixes(tuple(in_axes), args)
        else:
            axes = _leaf_prefixes(in_axes, args)
        leaves, structure = _flatten(args)
        axes = [None if axis is None else _axis_of(leaf, axis, "in_axes")
                for leaf, axis in zip(leaves, axes)]
        sizes = {numpy.shape(leaf)[axis] for leaf, axis in zip(leaves, axes) if axis is not None}
        if not sizes:
            raise ValueError("vmap: in_axes maps no argument, so there is no batch size")
        if len(sizes) > 1:
            raise ValueError(f"vmap: mapped axes have different sizes {sorted(sizes)}")
        (size,) = sizes

        def element(i):
            return fun(*_unflatten(structure, [
                leaf if axis is None else _take(leaf, i, axis)
                for leaf, axis in zip(leaves, axes)]))

        if size == 0:
            return _empty_batch(fun, structure, leaves, axes, out_axes)
        return _stack(out_axes, [element(i) for i in range(size)])

    return mapped


def _axis_of(leaf, axis, name):
    rank = numpy.ndim(leaf)
    if not -rank <= axis < rank:
        raise ValueError(f"vmap: {name} {axis} is out of range for an array of rank {rank}")
    return axis % rank


def _take(leaf, i, axis):
    return leaf[(slice(None),) * axis + (i,)]


def _stack(out_axes, results):
    """The per-element `results` (pytrees of one structure) stacked leaf by leaf."""
    leaves_per_element = [_flatten(result)[0] for result in results]
    structure = _flatten(results[0])[1]
    axes = _leaf_prefixes(out_axes, results[0])
    stacked = []
    for position, axis in enumerate(axes):
        column = [leaves[position] for leaves in leaves_per_element]
        if axis is None:  # JAX requires an unmapped output to be the same for every element
            first = numpy.asarray(getval(column[0]))
            if any(not numpy.array_equal(numpy.asarray(getval(v)), first) for v in column[1:]):
                raise ValueError("vmap: out_axes None for an output that varies over the batch")
            stacked.append(column[0])
        else:
            rank = numpy.ndim(column[0]) + 1
            if not -rank <= axis < rank:
                raise ValueError(f"vmap: out_axes {axis} is out of range for rank {rank}")
            stacked.append(numpy.stack(column, axis=axis % rank))
    return _unflatten(structure, stacked)


def _empty_batch(fun, structure, leaves, axes, out_axes):
    """vmap over a batch of size zero: a loop learns nothing about the output, so
    `fun` runs once on zeros of one element's shape (values discarded, warnings
    silenced) and each output is an empty array with the batch axis inserted."""
    dummy = [getval(leaf) if axis is None
             else numpy.zeros(numpy.shape(leaf)[:axis] + numpy.shape(leaf)[axis + 1:])
             for leaf, axis in zip(leaves, axes)]
    with numpy.errstate(all="ignore"):
        sample = fun(*_unflatten(structure, dummy))
    sample_leaves, out_structure = _flatten(sample)
    empty = []
    for leaf, axis in zip(sample_leaves, _leaf_prefixes(out_axes, sample)):
        shape = numpy.shape(leaf)
        if axis is None:
            empty.append(getval(leaf))
        else:
            axis = axis % (len(shape) + 1)
            empty.append(numpy.zeros(shape[:axis] + (0,) + shape[axis:]))
    return _unflatten(out_structure, empty)


# ----------------------------------------------------------------------------- lax

class lax:
    """JAX's structured control flow as Python control flow on concrete values:
    autograd records whichever operations actually run, so derivatives in both
    modes follow the branch taken and the iterations run."""

    @staticmethod
    def stop_gradient(x):
        """`getval`: the value under every box, so no mode of any level sees a
        derivative through it."""
        return getval(x)

    @staticmethod
    def dynamic_slice(x, start_indices, slice_sizes):
        return x[tuple(slice(s, s + n) for s, n in zip(start_indices, slice_sizes))]

    @staticmethod
    def dynamic_update_slice(x, update, start_indices):
        """autograd cannot assign into an array: the update padded into place (mode
        given, A7) and selected inside its window."""
        shape = numpy.shape(x)
        widths = [(s, d - s - n) for s, n, d in zip(start_indices, numpy.shape(update), shape)]
        inside = numpy.zeros(shape, dtype=bool)
        inside[tuple(slice(s, s + n) for s, n in zip(start_indices, numpy.shape(update)))] = True
        return numpy.where(inside, numpy.pad(update, widths, "constant"), x)

    @staticmethod
    def cond(pred, true_fun, false_fun, *operands):
        return true_fun(*operands) if bool(getval(pred)) else false_fun(*operands)

    @staticmethod
    def fori_loop(lower, upper, body_fun, init_val):
        value = init_val
        for i in range(int(getval(lower)), int(getval(upper))):
            value = body_fun(i, value)
        return value

    @staticmethod
    def while_loop(cond_fun, body_fun, init_val):
        value = init_val
        while bool(getval(cond_fun(value))):
            value = body_fun(value)
        return value

    @staticmethod
    def scan(f, init, xs, length=None):
        """`f(carry, x) -> (carry, y)` over the leading axis of `xs` (a pytree);
        the ys stacked.  Zero steps: `f` runs once on zeros, for the ys' shapes."""
        x_leaves, x_structure = _flatten(xs)
        lengths = {numpy.shape(leaf)[0] for leaf in x_leaves} | ({length} - {None})
        if len(lengths) != 1:
            raise ValueError(f"scan: xs and length disagree on the length: {sorted(lengths)}")
        (steps,) = lengths
        carry, ys = init, []
        for i in range(steps):
            carry, y = f(carry, _unflatten(x_structure, [leaf[i] for leaf in x_leaves]))
            ys.append(y)
        if ys:
            return carry, _stack(0, ys)
        dummy = [numpy.zeros(numpy.shape(leaf)[1:], numpy.result_type(getval(leaf)))
                 for leaf in x_leaves]
        with numpy.errstate(all="ignore"):
            _, sample = f(init, _unflatten(x_structure, dummy))
        sample_leaves, y_structure = _flatten(sample)
        return carry, _unflatten(y_structure, [  # in the dtype a step's ys would have
            numpy.zeros((0, *numpy.shape(getval(leaf))), numpy.result_type(getval(leaf)))
            for leaf in sample_leaves])
