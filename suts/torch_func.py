"""A jaxcheck shim for `torch.func` (PyTorch 2.13.0, CPU build): `--sut suts.torch_func`.

The contract is docs/sut-api.md; this module maps it onto torch and adds no
differentiation or batching of its own, so what the suite finds is torch's.

* `jvp`, `vjp`, `grad`, `vmap` are `torch.func.jvp`, `vjp`, `grad`, `vmap`,
  and the contract's optional `linearize`, `jacfwd`, `jacrev`, `hessian` are
  `torch.func`'s functions of those names.
  JAX's `in_axes`/`out_axes` are `in_dims`/`out_dims` (the same pytree-prefix
  rules); dict prefixes are re-ordered to the argument's key order, since
  torch's pytrees compare dicts in insertion order where JAX sorts the keys.
* At the boundary, NumPy arrays and scalars become tensors of their dtype
  (float32 stays float32, integers become float64) and Python floats become
  float64 tensors (`torch.set_default_dtype(torch.float64)` at import, so
  Python floats inside programs are float64 too).  A `numpy` function's
  operands are promoted as NumPy and JAX promote them (`_operands`): torch
  keeps a dimensioned float32 tensor float32 beside a 0-d float64 one, and
  makes a 0-d float32 tensor float64 beside a Python float.  Results are left as
  tensors: a transformation's result may be used inside another one (a
  program applies `sut.grad` inside an outer `sut.vjp`), so it must keep the
  outer transformation's tracking; at the top level no transformation is
  active and `numpy.asarray` converts the plain tensors torch.func returns.
* `numpy` maps NumPy's signatures onto torch where the semantics differ:
  `sum(x, axis=())` sums nothing (torch's `dim=()` sums everything),
  `transpose(x)` reverses the axes, `dot` is NumPy's dot (a tensordot over
  the last axis of `a` and the second-to-last of `b`), `expand_dims` takes a
  tuple of axes.  `sort` is `torch.sort`, which is not stable: it can reorder a
  tie of 17 elements or more, so `sort_tie_convention` is declared.
* `lax.cond` is `torch.cond` where it works, Python control flow elsewhere
  (measured on this machine, torch 2.13.0+cpu; reproducers in
  docs/findings/torch_func.md, T1-T2):
  - eager, no transformation active: `torch.cond` works (about 0.2 s a call
    with fresh branch functions, each call compiles through dynamo; 4 s for
    the first of a process).  A branch that returns its operand unchanged is
    refused by torch.cond ("Encountered aliasing"), so the branches' results
    are cloned, as its error message advises.
  - under `torch.func.grad`, `vjp` and `jvp`, `torch.cond` raises
    (AssertionError "Expected FakeTensor, got <class 'torch.Tensor'>" for
    grad and vjp; "attempted to apply meta conversion to view functorch
    tensor" for jvp), so there the shim branches in Python on the concrete
    predicate.
  - under `torch.func.vmap`, `torch.cond` works alone but fails once a
    `vmap(vmap(...))` of a cond ran earlier in the process (TorchRuntimeError
    "when making fake tensor call"): results depend on call order, so under
    any transformation the shim branches in Python.  A batched predicate
    under vmap cannot be read by Python `if`; there both branches run and
    `torch.where` selects per batch element, as JAX's vmap of cond does.
  - under `torch.compile` (`jit`), Python's `if` on a tensor is a graph
    break, which dynamo handles; the shim does not call torch.cond there,
    since it cannot tell from inside the compiled frame whether a torch.func
    transformation is active (under which torch.cond fails, as above).
  - inside a branch of a `torch.cond` the shim called, a cond is a
    `torch.cond` too: dynamo traces the branches as one whole graph, where
    Python's `if` on a tensor is an error, not a graph break.
* `lax.fori_loop`, `while_loop` and `scan` are Python loops (torch has no
  loop primitive usable under torch.func), so reverse mode through
  `while_loop` works and `while_loop_reverse` is not declared.  `fori_loop`
  passes the index as a Python int; `while_loop` reads the predicate with
  `bool()`, so under vmap its predicate must not be batched (jaxcheck's
  while loops count with an unbatched float).  A `scan` over zero rows runs
  the step once on zeros, discarded, to learn the shape of its stacked output.
* `jit` is `torch.compile(fun, backend="eager")`, measured here (2 cores
  shared with other work, so the figures move with the load): a fresh
  function compiles in 35-55 ms on a quiet machine and 115-275 ms under
  load, 150-230 ms for the first of a process; a compiled call of
  `sin(x) * x` on two elements then costs about twice an eager one (44 us
  against 22 us, under load); "aot_eager" takes about 100 ms per compile.
  Under torch.func transformations, with fullgraph=False, `grad`, `vjp`,
  `jvp`, `vmap` of a compiled `sin(x) * x` and `torch.compile` of `grad`,
  `vjp`, `jvp`, `vmap` all return (the suite then found where they do not:
  docs/findings/torch_func.md, T3, T4, T8 and T9); with fullgraph=True
  `jvp(compiled)` raises ("attempted to apply meta conversion to view
  functorch tensor"), and with "aot_eager"
  `grad(compiled)` is refused outright ("Calling torch.func.grad(compiled_fn)
  function from eager mode is not supported", PyTorch issue 128711) and with
  fullgraph=False silently runs eagerly.  So: backend "eager", fullgraph
  False.  A consequence: a Python `if` on a traced value is a graph break, not
  an error, so `jit` follows the right branch for every input where JAX
  refuses; and a tensor stored in a list inside a compiled function is a
  real tensor afterwards.  `static_argnums` is accepted and not needed:
  dynamo specializes on Python ints and guards on them.
* `make_jaxpr` is not offered (torch has no equivalent the suite can count
  equations in), so the cost properties time instead.
"""

from __future__ import annotations

import functools

import numpy as np
import torch
import torch.func as tf
import torch.utils.checkpoint
from torch.utils import _pytree as pytree

torch.set_default_dtype(torch.float64)

__version__ = f"torch {torch.__version__} (torch.func)"

# Every transformation, operation and construct of the contract runs; reverse
# mode through while_loop works, the loop being a Python loop that torch's
# autograd records.  Declared, each a documented design of torch, not a bug
# (docs/findings/torch_func.md, T6):
__sut_unsupported__ = frozenset({
    # torch.compile does not trace with abstract values: a Python `if` on a
    # tensor is a graph break, run on the concrete value (the right branch for
    # each input), and a tensor stored in a list inside it is a real tensor.
    "jit_staging",
    # torch.func.grad, vjp and jvp do not detect a tensor that escapes them
    # (vmap does); its documentation asks functions not to assign to globals.
    "leak_check",
    # Conventions at kinks other than JAX's: torch.clamp passes the whole
    # tangent at a bound (JAX's clip, half of it), and torch.abs has slope 0
    # at 0, sgn(0) (JAX's: 1).
    "clip_convention",
    "abs_at_zero",
    "sort_tie_convention",  # torch.sort is unstable: from 17 tied elements their order changes
    # torch.func's reverse mode does not support saved tensor hooks, on which
    # torch.utils.checkpoint is built ("torch.func.{grad, vjp, jacrev, hessian}
    # don't yet support saved tensor hooks").
    "checkpoint",
    # An autograd.Function without a `jvp` has no forward mode, also over
    # reverse mode (jvp of grad: "You must implement the jvp function"), where
    # JAX differentiates a custom_vjp's backward pass; JAX's custom_vjp gives
    # no forward rule to map to one.
    "custom_vjp",
    # torch has no cube root (no torch.cbrt, no Tensor.cbrt): a composition of
    # pow and sign would check those, not a cbrt of torch's.
    "cbrt",
    # torch computes both (torch.quantile), but a failed torch.compile of one
    # under jvp breaks every later transformation of the process once garbage is
    # collected (docs/findings/torch_func.md, T26): in the ci run of 2026-12-07
    # the 14 properties after the one that drew it failed at once, unchecked.
    "median",
    "quantile",
})


# ----------------------------------------------------------------------------- boundary

def _tensor(x):
    """An operand of a numpy-namespace function as a tensor: float64, or bool for
    predicates (the result of a comparison of NumPy arrays).

    Nothing here reads a NumPy array's attributes: these functions also run
    inside dynamo (torch.compile, and torch.cond, which captures its branches
    whole), where NumPy arrays are traced and `ndarray.dtype` is unsupported
    (under torch.cond, an UncapturedHigherOrderOpError), and where a constant
    made by `np.asarray(2.0)` whose dtype is then read breaks
    `torch.compile(torch.func.grad(f))` (docs/findings/torch_func.md, T4).
    """
    if isinstance(x, torch.Tensor):
        return x
    if isinstance(x, (bool, np.bool_)):
        return torch.tensor(bool(x))
    if isinstance(x, (int, float)):
        return torch.tensor(float(x), dtype=torch.float64)
    return _floating(torch.as_tensor(x))


def _floating(t):
    """`t` in float64, unless it holds booleans or float32 (the contract's dtypes)."""
    return t if t.dtype in (torch.bool, torch.float32, torch.float64) else t.to(torch.float64)


def _operands(args) -> list:
    """`args` as tensors of one floating dtype, as NumPy and JAX promote: float32 with
    float64 is float64 whatever the ranks (torch keeps a dimensioned float32 beside a
    0-d float64), and a Python number takes the tensors' dtype, weak as JAX's scalars
    are (`x32 * 2.0` is float32 at any rank).  Booleans and integers are left alone."""
    def number(a):
        return isinstance(a, (int, float)) and not isinstance(a, bool)

    tensors = {i: _tensor(a) for i, a in enumerate(args) if not number(a)}
    floats = [t.dtype for t in tensors.values() if t.is_floating_point()]
    dtype = functools.reduce(torch.promote_types, floats) if floats else torch.float64
    return [(tensors[i].to(dtype) if tensors[i].is_floating_point() else tensors[i])
            if i in tensors else torch.tensor(float(a), dtype=dtype) for i, a in enumerate(args)]


def _leaf_in(x):
    """A leaf of a transformation's argument: NumPy arrays and floats become tensors
    (`_tensor`); tensors, ints, bools and None pass unchanged."""
    if isinstance(x, (np.ndarray, np.generic, float)) and not isinstance(x, (bool, np.bool_)):
        return _tensor(x)
    return x


def _inputs(tree):
    return pytree.tree_map(_leaf_in, tree)


def _like(template, value):
    """`value` rebuilt with `template`'s container types and dict key order.

    torch's pytrees treat two dicts with the same keys in different insertion
    order as different structures; JAX sorts the keys.  Cotangents, tangents
    and axis prefixes drawn for a dict follow JAX, so they are re-ordered to
    the order torch sees in the function's own arguments or results.
    """
    if isinstance(template, dict) and isinstance(value, dict):
        return {key: _like(template[key], value[key]) for key in template if key in value} | {
            key: value[key] for key in value if key not in template}
    if isinstance(template, (tuple, list)) and isinstance(value, (tuple, list)) \
            and len(template) == len(value):
        return type(value)(_like(t, v) for t, v in zip(template, value))
    return value


# ----------------------------------------------------------------------------- transformations

def _returning_tensors(fun):
    """`fun` with NumPy arrays and floats among its results made tensors: a function
    may return a NumPy value it closes over, which torch.func's transformations
    and torch.cond refuse ("expected f(*primals) to return only tensors") and
    JAX's take as a constant."""
    return lambda *args: _inputs(fun(*args))


def jvp(fun, primals, tangents):
    """`torch.func.jvp`: (out, tangent_out)."""
    primals = tuple(_inputs(tuple(primals)))
    tangents = _like(primals, tuple(_inputs(tuple(tangents))))
    return tf.jvp(_returning_tensors(fun), primals, tangents)


def vjp(fun, *primals):
    """`torch.func.vjp`: (out, pullback), pullback(cotangent) a tuple per primal."""
    out, pullback = tf.vjp(_returning_tensors(fun), *_inputs(primals))

    def vjp_fun(cotangent):
        return pullback(_like(out, _inputs(cotangent)))

    return out, vjp_fun


def grad(fun, argnums=0):
    """`torch.func.grad` (an int argnums gives one gradient, a tuple a tuple)."""
    transformed = tf.grad(_returning_tensors(fun), argnums=argnums)

    @functools.wraps(fun)
    def gradient(*args):
        return transformed(*_inputs(args))

    return gradient


def vmap(fun, in_axes=0, out_axes=0):
    """`torch.func.vmap` with JAX's axes: in_axes -> in_dims, out_axes -> out_dims."""
    in_dims = tuple(in_axes) if isinstance(in_axes, list) else in_axes

    @functools.wraps(fun)
    def batched(*args):
        args = _inputs(args)
        dims = _like(args, in_dims) if isinstance(in_dims, tuple) else in_dims
        return tf.vmap(_returning_tensors(fun), in_dims=dims, out_dims=out_axes)(*args)

    return batched


# How many `linearize` calls are tracing their function (`_transformed`).
_linearizing = 0


def linearize(fun, *primals):
    """`torch.func.linearize`: (out, f_jvp), f_jvp(*tangents) the output's tangent."""
    global _linearizing
    primals = _inputs(primals)
    _linearizing += 1
    try:
        out, f_jvp = tf.linearize(_returning_tensors(fun), *primals)
    finally:
        _linearizing -= 1

    def tangent(*tangents):
        return f_jvp(*_like(primals, _inputs(tangents)))

    return out, tangent


def _jacobian(transform):
    """The contract's `name(fun, argnums=0)` for `torch.func.<name>` (jacfwd, jacrev,
    hessian), which take `argnums` and nest their results as JAX does."""
    def make(fun, argnums=0):
        transformed = transform(_returning_tensors(fun), argnums=argnums)

        @functools.wraps(fun)
        def jacobian(*args):
            return transformed(*_inputs(args))

        return jacobian

    make.__name__ = make.__qualname__ = transform.__name__
    make.__doc__ = f"`torch.func.{transform.__name__}`."
    return make


jacfwd, jacrev, hessian = (_jacobian(tf.jacfwd), _jacobian(tf.jacrev), _jacobian(tf.hessian))


def jit(fun, static_argnums=()):
    """`torch.compile(fun, backend="eager")`: see the module docstring for why this
    backend and what it costs.  Arguments become tensors first, so dynamo never
    traces NumPy arrays through its own NumPy emulation."""
    compiled = torch.compile(fun, backend="eager")

    @functools.wraps(fun)
    def call(*args):
        return compiled(*_inputs(args))

    return call


# ----------------------------------------------------------------------------- custom rules

class custom_jvp:
    """JAX's `custom_jvp` as a `torch.autograd.Function` in the form torch.func
    transforms (forward without ctx, `setup_context`, a generated vmap rule).
    Its `jvp` is the rule's tangent.  torch derives no reverse mode from a
    forward rule, as JAX does by transposing it, so `backward` transposes it
    here: the VJP of `t -> rule(primals, t)[1]`, which is linear in `t`."""

    def __init__(self, fun):
        functools.update_wrapper(self, fun)
        self.fun, self.function = fun, None

    def defjvp(self, rule):
        fun = self.fun

        class Rule(torch.autograd.Function):
            generate_vmap_rule = True

            @staticmethod
            def forward(*args):
                return fun(*args)

            @staticmethod
            def setup_context(ctx, inputs, output):
                # Saved for each mode as torch.func asks (a tensor kept on ctx
                # itself is not transformed); saving them for backward alone
                # makes jvp of vmap raise (docs/findings/torch_func.md, T25).
                ctx.save_for_backward(*inputs)
                ctx.save_for_forward(*inputs)

            @staticmethod
            def jvp(ctx, *tangents):
                return rule(ctx.saved_tensors, tangents)[1]

            @staticmethod
            def backward(ctx, cotangent):
                primals = ctx.saved_tensors
                _, pullback = tf.vjp(lambda *t: rule(primals, t)[1],
                                     *(torch.zeros_like(p) for p in primals))
                return pullback(cotangent)

        self.function = Rule
        return rule

    def __call__(self, *args):
        return self.function.apply(*_inputs(args))


class custom_vjp:
    """JAX's `custom_vjp` as a `torch.autograd.Function` (the form torch.func
    transforms): `fwd`'s residuals are extra outputs, saved by `setup_context`
    for `backward`, which calls `bwd`."""

    def __init__(self, fun):
        functools.update_wrapper(self, fun)
        self.fun, self.function = fun, None

    def defvjp(self, fwd, bwd):
        class Rule(torch.autograd.Function):
            generate_vmap_rule = True

            @staticmethod
            def forward(*args):
                out, residuals = fwd(*args)
                # A residual that is an input must be saved as a view of it (torch
                # refuses to save an input returned as it is, with setup_context).
                return (out, *(_tensor(r).view_as(r) for r in residuals))

            @staticmethod
            def setup_context(ctx, inputs, output):
                ctx.save_for_backward(*output[1:])

            @staticmethod
            def backward(ctx, cotangent, *unused):
                return tuple(bwd(ctx.saved_tensors, cotangent))

        self.function = Rule

    def __call__(self, *args):
        return self.function.apply(*_inputs(args))[0]


def checkpoint(fun):
    """`torch.utils.checkpoint.checkpoint`, non-reentrant (the variant torch
    recommends; the reentrant one does not support `torch.autograd.grad`)."""
    @functools.wraps(fun)
    def rematerialized(*args):
        return torch.utils.checkpoint.checkpoint(fun, *_inputs(args), use_reentrant=False)
    return rematerialized


# ----------------------------------------------------------------------------- numpy

class _Linalg:
    """`numpy.linalg`: torch.linalg's, but for solve's right-hand side (below)."""

    @staticmethod
    def solve(a, b):
        """NumPy 2 reads b as a vector only where it has one axis, else as a stack of
        matrices; torch reads b as a stack of vectors wherever its shape is a's but the
        last, so a b of fewer axes than a gets leading 1s, read as a stack of one."""
        a, b = _tensor(a), _tensor(b)
        if 2 <= b.ndim < a.ndim:
            b = b.reshape((1,) * (a.ndim - b.ndim) + tuple(b.shape))
        return torch.linalg.solve(a, b)

    inv = staticmethod(lambda a: torch.linalg.inv(_tensor(a)))
    det = staticmethod(lambda a: torch.linalg.det(_tensor(a)))
    cholesky = staticmethod(lambda a: torch.linalg.cholesky(_tensor(a)))


class _Numpy:
    """The contract's NumPy-signature functions on torch tensors: those
    whose torch function means something else, here; the rest, `_TWINS`."""

    linalg = _Linalg()

    @staticmethod
    def sum(x, axis=None):
        """NumPy's sum: axis None sums all, () sums none (torch's dim=() sums all)."""
        x = _tensor(x)
        if axis is None:
            return torch.sum(x)
        if isinstance(axis, (tuple, list)) and len(axis) == 0:
            return x.clone()
        return torch.sum(x, dim=axis)

    @staticmethod
    def mean(x, axis=None, keepdims=False):
        return _reduce(torch.mean, x, axis, keepdims)

    @staticmethod
    def nanmean(x, axis=None, keepdims=False):
        return _reduce(torch.nanmean, x, axis, keepdims)

    @staticmethod
    def max(x, axis=None, keepdims=False):
        """NumPy's max is torch's amax, which shares the gradient among ties (max(dim)
        gives it to one of them)."""
        return _reduce(torch.amax, x, axis, keepdims)

    @staticmethod
    def min(x, axis=None, keepdims=False):
        return _reduce(torch.amin, x, axis, keepdims)

    @staticmethod
    def prod(x, axis=None, keepdims=False):
        """NumPy's prod: torch.prod takes one dim at a time, so several are taken in turn
        (the last first, so the earlier dims keep their numbers)."""
        x = _tensor(x)
        for dim in sorted((d % x.ndim for d in _dims(x, axis)), reverse=True):
            x = torch.prod(x, dim=dim, keepdim=keepdims)
        return x

    @staticmethod
    def flip(x, axis=None):
        """NumPy's flip: None reverses every axis."""
        x = _tensor(x)
        return torch.flip(x, _dims(x, axis))

    @staticmethod
    def swapaxes(x, axis1, axis2):
        return torch.swapaxes(_tensor(x), axis1, axis2)

    @staticmethod
    def var(x, axis=None, keepdims=False):
        """NumPy's var divides by the count: torch's with no correction."""
        return _spread(torch.var, x, axis, keepdims)

    @staticmethod
    def std(x, axis=None, keepdims=False):
        return _spread(torch.std, x, axis, keepdims)

    @staticmethod
    def moveaxis(x, source, destination):
        return torch.movedim(_tensor(x), source, destination)

    @staticmethod
    def squeeze(x, axis=None):
        x = _tensor(x)
        return torch.squeeze(x) if axis is None else torch.squeeze(x, axis)

    @staticmethod
    def stack(arrays, axis=0):
        return torch.stack([_tensor(a) for a in arrays], axis)

    @staticmethod
    def outer(a, b):
        """NumPy's outer flattens its operands; torch.outer takes vectors."""
        return torch.outer(torch.ravel(_tensor(a)), torch.ravel(_tensor(b)))

    @staticmethod
    def pad(x, pad_width):
        """NumPy's widths (an int, a pair, a pair per axis; the first axis first) as
        torch's flat list, the last axis first."""
        x = _tensor(x)
        widths = np.broadcast_to(np.asarray(pad_width), (x.ndim, 2))
        return torch.nn.functional.pad(x, [int(w) for pair in widths[::-1] for w in pair])

    @staticmethod
    def tile(x, reps):
        return torch.tile(_tensor(x), (reps,) if isinstance(reps, int) else tuple(reps))

    @staticmethod
    def repeat(x, repeats, axis=None):
        """NumPy's repeat is torch's repeat_interleave (torch's repeat is NumPy's tile)."""
        return torch.repeat_interleave(_tensor(x), repeats, axis)

    @staticmethod
    def roll(x, shift, axis=None):
        return torch.roll(_tensor(x), shift, axis)

    @staticmethod
    def tril(x, k=0):
        return torch.tril(_tensor(x), k)

    @staticmethod
    def triu(x, k=0):
        return torch.triu(_tensor(x), k)

    @staticmethod
    def diff(x, axis=-1):
        return torch.diff(_tensor(x), dim=axis)

    @staticmethod
    def diagonal(x, offset=0):
        return torch.diagonal(_tensor(x), offset, 0, 1)

    @staticmethod
    def trace(x, offset=0):
        """NumPy's trace, of the first two axes at any rank and offset (torch.trace takes
        a matrix's main diagonal only): its diagonal, summed."""
        return torch.diagonal(_tensor(x), offset, 0, 1).sum(-1)

    @staticmethod
    def cumprod(x, axis=None):
        """NumPy's cumprod: axis None runs over the flattened operand."""
        x = _tensor(x)
        return torch.cumprod(x.reshape(-1), 0) if axis is None else torch.cumprod(x, axis)

    @staticmethod
    def ptp(x, axis=None, keepdims=False):
        """Peak to peak, which torch has no function for: amax less amin."""
        return _reduce(torch.amax, x, axis, keepdims) - _reduce(torch.amin, x, axis, keepdims)

    @staticmethod
    def vdot(a, b):
        """NumPy's vdot flattens its operands; torch.vdot takes vectors."""
        return torch.vdot(torch.ravel(_tensor(a)), torch.ravel(_tensor(b)))

    @staticmethod
    def tensordot(a, b, axes=2):
        return torch.tensordot(_tensor(a), _tensor(b), dims=axes)

    @staticmethod
    def sort(x, axis=-1):
        """torch.sort returns the values and their indices; None sorts the flattened x."""
        x, axis = (torch.ravel(_tensor(x)), -1) if axis is None else (_tensor(x), axis)
        return torch.sort(x, dim=axis).values

    @staticmethod
    def quantile(x, q, axis=None, keepdims=False):
        return torch.quantile(_tensor(x), q, dim=axis, keepdim=keepdims)

    @staticmethod
    def median(x, axis=None, keepdims=False):
        """NumPy's median averages the two middle elements of an even count; torch.median
        returns the lower one, so this is torch.quantile at 1/2, as NumPy's is."""
        return torch.quantile(_tensor(x), 0.5, dim=axis, keepdim=keepdims)

    @staticmethod
    def convolve(a, v, mode="full"):
        """NumPy's 1-D convolution, which torch has no function for: conv1d (a
        correlation) with the shorter operand flipped as its kernel, padded for the
        whole result, then sliced as NumPy's mode asks."""
        a, v = _tensor(a), _tensor(v)
        if v.shape[0] > a.shape[0]:
            a, v = v, a
        n, m = a.shape[0], v.shape[0]
        full = torch.nn.functional.conv1d(a.reshape(1, 1, n), torch.flip(v, (0,)).reshape(1, 1, m),
                                          padding=m - 1).reshape(n + m - 1)
        start, length = {"full": (0, n + m - 1), "same": ((m - 1) // 2, n),
                         "valid": (m - 1, n - m + 1)}[mode]
        return full[start:start + length]

    @staticmethod
    def correlate(a, v, mode="valid"):
        """NumPy's correlation: a convolution with v reversed, but for 'same' where v is
        the longer, whose middle NumPy takes from a's length halved."""
        a, v = _tensor(a), _tensor(v)
        n, m = a.shape[0], v.shape[0]
        if mode == "same" and m > n:
            return _Numpy.convolve(a, torch.flip(v, (0,)), "full")[n // 2:n // 2 + m]
        return _Numpy.convolve(a, torch.flip(v, (0,)), mode)

    @staticmethod
    def take(x, indices, axis=None):
        """torch.take gathers from the flattened x; along an axis, index_select."""
        x, indices = _tensor(x), torch.as_tensor(indices)
        return torch.take(x, indices) if axis is None else torch.index_select(x, axis, indices)

    @staticmethod
    def argmax(x, axis=None, keepdims=False):
        return torch.argmax(_tensor(x), dim=axis, keepdim=keepdims)

    @staticmethod
    def take_along_axis(x, indices, axis):
        return torch.take_along_dim(_tensor(x), torch.as_tensor(indices), dim=axis)

    @staticmethod
    def einsum(subscripts, *operands):
        return torch.einsum(subscripts, *map(_tensor, operands))

    @staticmethod
    def rot90(x, k=1):
        return torch.rot90(_tensor(x), k, (0, 1))

    @staticmethod
    def average(x, axis=None, weights=None):
        """NumPy's weighted mean, which torch has no function for: sum(x w) / sum(w)."""
        x, weights = _tensor(x), _tensor(weights)
        return _reduce(torch.sum, x * weights, axis, False) / _reduce(torch.sum, weights, axis,
                                                                      False)

    @staticmethod
    def trapezoid(y, axis=-1):
        return torch.trapezoid(_tensor(y), dim=axis)

    @staticmethod
    def cumsum(x, axis=None):
        """NumPy's cumsum: axis None runs over the flattened operand."""
        x = _tensor(x)
        return torch.cumsum(x.reshape(-1), 0) if axis is None else torch.cumsum(x, axis)

    @staticmethod
    def transpose(x, axes=None):
        """NumPy's transpose: no axes reverses them."""
        x = _tensor(x)
        return x.permute(tuple(axes) if axes is not None else tuple(range(x.ndim))[::-1])

    @staticmethod
    def reshape(x, shape):
        return torch.reshape(_tensor(x), (shape,) if isinstance(shape, int) else tuple(shape))

    @staticmethod
    def broadcast_to(x, shape):
        return torch.broadcast_to(_tensor(x), (shape,) if isinstance(shape, int) else
                                  tuple(shape))

    @staticmethod
    def expand_dims(x, axis):
        """NumPy's expand_dims: `axis` an int or a tuple, positions in the result."""
        x = _tensor(x)
        axes = axis if isinstance(axis, (tuple, list)) else (axis,)
        rank = x.ndim + len(axes)
        for position in sorted(a % rank for a in axes):
            x = x.unsqueeze(position)
        return x

    @staticmethod
    def dot(x, y):
        """NumPy's dot: a product with a scalar, else a sum over the last axis of x and
        the second-to-last of y (the only axis of a vector y)."""
        x, y = _operands((x, y))
        if x.ndim == 0 or y.ndim == 0:
            return torch.mul(x, y)
        return torch.tensordot(x, y, dims=([x.ndim - 1], [max(y.ndim - 2, 0)]))

    @staticmethod
    def concatenate(arrays, axis=0):
        return torch.cat([_tensor(a) for a in arrays], dim=axis)



def _dims(x, axis) -> tuple[int, ...]:
    """NumPy's `axis` (None: every axis; an int; a tuple) as torch's tuple of dims."""
    if axis is None:
        return tuple(range(x.ndim))
    return (axis,) if isinstance(axis, int) else tuple(axis)


def _spread(spread, x, axis, keepdims):
    """torch's var or std over NumPy's `axis` with NumPy's count (no correction); over no
    axis (a scalar's, or `axis=()`), each element's spread about itself, 0."""
    x = _tensor(x)
    dims = _dims(x, axis)
    return spread(x, dim=dims, correction=0, keepdim=keepdims) if dims else x - x


def _reduce(reduction, x, axis, keepdims):
    """A torch reduction over NumPy's `axis`: None reduces every axis, () none."""
    x = _tensor(x)
    dims = _dims(x, axis)
    return reduction(x, dim=dims, keepdim=keepdims) if dims else x.clone()


# The contract's functions whose torch function has NumPy's meaning, given tensors.
_TWINS = {"add": torch.add, "subtract": torch.sub, "multiply": torch.mul, "divide": torch.div,
          "negative": torch.neg, "sin": torch.sin, "cos": torch.cos, "tanh": torch.tanh,
          "exp": torch.exp, "log": torch.log, "sqrt": torch.sqrt, "matmul": torch.matmul,
          "where": torch.where, "greater": torch.gt, "less": torch.lt, "maximum": torch.maximum,
          "log1p": torch.log1p, "expm1": torch.expm1, "tan": torch.tan, "arctan": torch.atan,
          "arcsinh": torch.asinh, "sinh": torch.sinh, "cosh": torch.cosh,
          "square": torch.square, "reciprocal": torch.reciprocal, "abs": torch.abs,
          "sign": torch.sign, "minimum": torch.minimum, "arctan2": torch.atan2,
          "logaddexp": torch.logaddexp, "power": torch.pow, "clip": torch.clamp,
          "arcsin": torch.asin, "arccos": torch.acos, "arctanh": torch.atanh,
          "arccosh": torch.acosh, "log2": torch.log2, "log10": torch.log10, "exp2": torch.exp2,
          "deg2rad": torch.deg2rad, "rad2deg": torch.rad2deg, "floor": torch.floor,
          "ceil": torch.ceil, "round": torch.round, "trunc": torch.trunc, "hypot": torch.hypot,
          "logaddexp2": torch.logaddexp2, "ravel": torch.ravel, "sinc": torch.sinc,
          "remainder": torch.remainder, "fmod": torch.fmod, "copysign": torch.copysign,
          "inner": torch.inner, "kron": torch.kron}


def _on_tensors(op):
    """`op` with every argument made a tensor first (`_operands`)."""
    return lambda *args: op(*_operands(args))


for _name, _op in _TWINS.items():
    setattr(_Numpy, _name, staticmethod(_on_tensors(_op)))

numpy = _Numpy()


# ----------------------------------------------------------------------------- lax

def _transformed() -> bool:
    """Whether a torch.func transformation (grad, jvp, vjp, vmap) is active, or
    `linearize` is tracing: it traces with forward-mode dual tensors outside
    functorch's stack, and `torch.cond` under it returns a zero tangent
    (docs/findings/torch_func.md, T16)."""
    return torch._C._functorch.peek_interpreter_stack() is not None or _linearizing > 0


def _cloned(branch):
    """`branch` with fresh, contiguous tensor results, as torch.cond's errors advise: it
    refuses a branch that returns its input or a NumPy array ("Encountered
    aliasing"), and branches whose results are laid out differently ("The sorted
    order of strides of the two branches' output doesn't match": a transpose in
    one of them)."""
    def fresh(*operands):
        return pytree.tree_map(
            lambda v: v.clone(memory_format=torch.contiguous_format)
            if isinstance(v, torch.Tensor) else v, _returning_tensors(branch)(*operands))
    return fresh


# How many torch.cond calls the shim made from eager code are running.  Their
# branches are traced by dynamo as one whole graph, where a Python `if` on a
# tensor is an error ("Could not guard on data-dependent expression"), not
# the graph break it is under `jit`: a cond inside one must be a torch.cond
# too (nested torch.cond works, but see docs/findings/torch_func.md, T13).  Changed in
# eager code only, and read as a constant by the tracing.
_cond_depth = 0


def _outermost_cond(pred, true_fun, false_fun, operands):
    global _cond_depth
    _cond_depth += 1
    try:
        return torch.cond(pred, _cloned(true_fun), _cloned(false_fun), tuple(operands))
    finally:
        _cond_depth -= 1


class _Lax:
    """Control flow: torch.cond where it works, Python elsewhere (module docstring)."""

    @staticmethod
    def cond(pred, true_fun, false_fun, *operands):
        operands = _inputs(operands)
        if isinstance(pred, (bool, np.bool_)):
            return (true_fun if pred else false_fun)(*operands)
        pred = _tensor(pred)
        if torch.compiler.is_compiling():
            if _cond_depth:  # in a branch torch.cond traces: no graph break allowed
                return torch.cond(pred, _cloned(true_fun), _cloned(false_fun), tuple(operands))
        elif not _transformed():
            return _outermost_cond(pred, true_fun, false_fun, operands)
        try:
            taken = bool(pred)
        except RuntimeError as exc:  # a batched predicate under vmap: run both, select
            if "data-dependent control flow" not in str(exc):
                raise
            taken_true, taken_false = true_fun(*operands), false_fun(*operands)
            leaves, spec = pytree.tree_flatten(taken_true)
            others = pytree.tree_flatten(taken_false)[0]
            return pytree.tree_unflatten(
                [torch.where(pred, a, b) for a, b in zip(leaves, others)], spec)
        return (true_fun if taken else false_fun)(*operands)

    @staticmethod
    def stop_gradient(x):
        return _tensor(x).detach()

    @staticmethod
    def dynamic_slice(x, start_indices, slice_sizes):
        return _tensor(x)[tuple(slice(s, s + n) for s, n in zip(start_indices, slice_sizes))]

    @staticmethod
    def dynamic_update_slice(x, update, start_indices):
        """torch has none: the update padded into place, selected inside its window."""
        x, update = _tensor(x), _tensor(update)
        inside = torch.zeros(x.shape, dtype=torch.bool)
        inside[tuple(slice(s, s + n) for s, n in zip(start_indices, update.shape))] = True
        widths = [w for s, n, d in reversed(list(zip(start_indices, update.shape, x.shape)))
                  for w in (s, d - s - n)]
        return torch.where(inside, torch.nn.functional.pad(update, widths), x)

    @staticmethod
    def fori_loop(lower, upper, body_fun, init_val):
        value = _inputs(init_val)
        for i in range(int(lower), int(upper)):
            value = body_fun(i, value)
        return value

    @staticmethod
    def while_loop(cond_fun, body_fun, init_val):
        value = _inputs(init_val)
        while bool(cond_fun(value)):
            value = body_fun(value)
        return value

    @staticmethod
    def scan(f, init, xs):
        """(final carry, ys stacked on a new leading axis) over the leading axis of xs."""
        carry = _inputs(init)
        leaves, spec = pytree.tree_flatten(_inputs(xs))
        length = leaves[0].shape[0]
        rows = [pytree.tree_unflatten([leaf[i] for leaf in leaves], spec) for i in range(length)]
        if length == 0:  # one step on zeros, only for the shapes of ys
            zeros = pytree.tree_unflatten([leaf.new_zeros(leaf.shape[1:]) for leaf in leaves],
                                          spec)
            _, y = f(carry, zeros)
            return carry, pytree.tree_map(lambda v: _tensor(v).unsqueeze(0)[:0], y)
        ys = []
        for row in rows:
            carry, y = f(carry, row)
            ys.append(y)
        y_leaves = [pytree.tree_flatten(y)[0] for y in ys]
        y_spec = pytree.tree_flatten(ys[0])[1]
        stacked = [torch.stack([_tensor(v) for v in column]) for column in zip(*y_leaves)]
        return carry, pytree.tree_unflatten(stacked, y_spec)


lax = _Lax()
