"""The operation table: one `OpSpec` row per operation of the language.

A row says everything the rest of jaxcheck needs to know about an operation:
its names in the contract (the `sut.numpy` functions it calls, so
`__sut_unsupported__` can switch it off), how to evaluate it in NumPy (the
generator grows programs concretely), how to render it as source in each
syntax (`sut.numpy` call or Python operator), how to draw valid operands
and parameters for it (a builder from `operands.py`, which fixes its arity
and operand ranks), the domain it must stay inside (with the margins of
`domains.py`), the primitives of refimpl that implement it, and facts
properties rely on: whether it is elementwise, and which operands a
derivative flows through.

Nothing else lists the operations: the contract's `numpy` names
(`oracles.sut.CONTRACT`), the features an SUT may declare unsupported, the
generator's vocabulary (`vocabulary.py`) and the coverage cells
(`coverage.py`) are derived from these rows, and tests hold the contract's
page (`tests/meta/test_sut_api_doc.py`) and refimpl's primitives and rules
(`tests/refimpl/test_refimpl_meta.py`) to them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from strategies.language import operands
from strategies.language.domains import KINK_MARGIN, MAX_CONDITION, NONZERO_FLOOR, POSITIVE_FLOOR
from strategies.language.ir import OutOfDomain

CALL = "call"
OPERATOR = "operator"


def _as_array(value) -> np.ndarray:
    """float64, except that complex values stay complex (the complex-step evaluation
    of nested derivatives in `constructs.py` runs programs on complex inputs)."""
    return np.asarray(value) if np.iscomplexobj(value) else np.asarray(value, dtype=np.float64)


@dataclass(frozen=True)
class OpSpec:
    """One operation: NumPy meaning, source templates, operand builder.

    * ``impl(*args, **params)`` evaluates it in NumPy float64.
    * ``call`` / ``operator`` are ``str.format`` templates over the rendered
      operands (``{0}``, ``{1}``...) and the parameters (``{axis}``...);
      ``operator`` is None where Python has no operator for it.
    * ``build(draw, scope)`` draws operands and parameters that keep the
      operation inside its domain, or returns None where the scope offers none.
    * ``why`` is the one-line reason the operation is in the language.
    * ``domain(*args, **params)``, where given, is what the operand values
      must satisfy (with the margins of `domains.py`); builders offer only
      operands that satisfy it, and loops re-check it at every iteration.
    * ``kink(*args, **params)``, where given, is the boolean pattern saying
      which smooth piece the result comes from; finite differences check that
      no perturbed evaluation switches pieces.
    * ``contract``: the functions of the contract's `sut.numpy` it calls, in
      the contract's order (default: its own name; `where` calls `greater` or
      `less` too; `integer_pow` is Python's `**` and calls none), or of
      `sut.lax` for a row whose ``namespace`` is "lax".
    * ``primitives``: the primitives of refimpl (JAX's names) that implement
      it, whose rules give its derivatives and batching (default: its own
      name; `tests/refimpl/test_refimpl_meta.py` holds refimpl to them).
    * ``elementwise``: it acts elementwise (with broadcasting), so it accepts
      inputs of any shape and a program over such operations can be called
      again on bigger inputs (`cases.two_shape_cases`).
    * ``carries_derivative(args, params)``: the operands a derivative flows
      through (not `where`'s predicate, not the base of `x ** 0`): what
      jvp, grad and vjp are sure to trace (`tests/test_errors.py`).
    * ``promoted(args, params)``: the operands whose dtypes the result takes
      (`dtypes.py`: float32 with float64 is float64): all of them, but
      `where`'s predicate.
    * ``polymorphic``: a shape-polymorphic program may use it (`symbolic.py`):
      every axis of its result is an operand's axis or 1, and its NumPy meaning
      reads no size as a value.  Default: ``elementwise`` (a result of the
      broadcast shape); any other operation is left out until its row says so,
      since one that writes, flattens or counts a size would be staged wrong
      at every size but the drawn one.
    * ``optional``: its contract functions joined the contract after shims
      were written against it, so an SUT may lack them without declaring
      it: jaxcheck checks it on the rest and says what it left out
      (`oracles/sut.py`).  A shim that worked before a row was added keeps
      working.
    """

    name: str
    impl: Callable[..., np.ndarray]
    call: str
    operator: str | None
    build: Callable
    why: str
    domain: Callable[..., bool] | None = None
    kink: Callable[..., np.ndarray] | None = None
    contract: tuple[str, ...] | None = None
    primitives: tuple[str, ...] | None = None
    elementwise: bool = False
    carries_derivative: Callable[[tuple, dict], tuple] = lambda args, params: tuple(args)
    promoted: Callable[[tuple, dict], tuple] = lambda args, params: tuple(args)
    polymorphic: bool | None = None
    optional: bool = False
    namespace: str = "numpy"
    construct: ClassVar[bool] = False  # an operation holds no blocks (`constructs.py`)

    def __post_init__(self):
        for default in ("contract", "primitives"):
            if getattr(self, default) is None:
                object.__setattr__(self, default, (self.name,))
        if self.polymorphic is None:
            object.__setattr__(self, "polymorphic", self.elementwise)

    def evaluate(self, args: Sequence, params: dict) -> np.ndarray:
        return _as_array(self.impl(*args, **params))

    def make(self, draw, scope):
        """Operands and parameters valid in `scope`, or None where it offers none."""
        return self.build(draw, scope, self)

    def allowed(self, scope) -> bool:
        return True

    def run(self, args: Sequence, params: dict, env: dict, how) -> tuple[np.ndarray]:
        """Evaluate, recording the kink pattern and checking the domain as `how` asks."""
        if how.checked and self.domain and not self.domain(*args, **params):
            raise OutOfDomain(f"{self.name} outside its domain margin")
        result = self.evaluate(args, params)
        if how.checked and not operands.bounded(result):
            raise OutOfDomain(f"{self.name} result not finite or above VALUE_CAP")
        if how.switches is not None and self.kink:
            how.switches.append(self.kink(*args, **params))
        return (result,)

    def render(self, args: Sequence[str], params: dict, syntax: str) -> str:
        template = self.operator if syntax == OPERATOR and self.operator else self.call
        return template.format(*args, **params)

    @property
    def syntaxes(self) -> tuple[str, ...]:
        return (CALL, OPERATOR) if self.operator else (CALL,)


def _positive(x) -> bool:
    return bool(np.all(np.real(x) >= POSITIVE_FLOOR))


def _nonzero(x) -> bool:
    return bool(np.all(np.abs(np.real(x)) >= NONZERO_FLOOR))


def _window(start_indices, sizes) -> tuple[slice, ...]:
    return tuple(slice(start, start + size) for start, size in zip(start_indices, sizes))


def _dynamic_slice(x, *, start_indices, slice_sizes):
    return x[_window(start_indices, slice_sizes)]


def _dynamic_update_slice(x, u, *, start_indices):
    """x with u written over the window at `start_indices` (complex if either is)."""
    out = np.array(x, dtype=np.result_type(x, u, np.float64))
    out[_window(start_indices, np.shape(u))] = u
    return out


def _above_minus_one(x) -> bool:
    """log1p's domain, x > -1, with the margin `log` has at 0."""
    return bool(np.all(np.real(x) >= -1 + POSITIVE_FLOOR))


def _off_tan_poles(x) -> bool:
    """tan away from its poles: |cos x| at least NONZERO_FLOOR, so |tan x| < 4."""
    return bool(np.all(np.abs(np.cos(np.real(x))) >= NONZERO_FLOOR))


def _off_zero(x) -> bool:
    """abs and sign away from their kink at 0."""
    return bool(np.all(np.abs(np.real(x)) >= KINK_MARGIN))


def _off_arctan2_cut(y, x) -> bool:
    """arctan2 away from its pole at the origin and its cut (x < 0, y = 0): the point
    (x, y) is NONZERO_FLOOR from the origin and, left of the y axis, from the cut, so
    both partials stay below 1 / NONZERO_FLOOR."""
    y, x = np.real(y), np.real(x)
    return bool(np.all((np.hypot(x, y) >= NONZERO_FLOOR)
                       & ((x > 0) | (np.abs(y) >= NONZERO_FLOOR))))


def _clip_apart(x, *, lo, hi) -> bool:
    return _apart(x, lo) and _apart(x, hi)


def _clip_piece(x, *, lo, hi) -> np.ndarray:
    """Which of clip's three pieces each element is on: 0 below, 1 inside, 2 above."""
    x = np.real(x)
    return (x > lo).astype(int) + (x > hi)


def _reduced_axes(ndim: int, axis) -> list[int]:
    """The axes (from 0) that a reduction over NumPy's `axis` removes."""
    return list(range(ndim)) if axis is None else [a % ndim for a in np.atleast_1d(axis)]


def _reduced_last(x, axis) -> np.ndarray:
    """x's real part with the axes a reduction over `axis` removes moved last, as one."""
    x = np.real(np.asarray(x))
    axes = _reduced_axes(x.ndim, axis)
    rest = [a for a in range(x.ndim) if a not in axes]
    return np.transpose(x, rest + axes).reshape([x.shape[a] for a in rest] + [-1])


def _counted(x, *, axis, keepdims) -> bool:
    """mean's domain: each mean is over at least one element (NumPy's mean of none is
    NaN, with a warning, so the generator must not even try it)."""
    shape = np.shape(x)
    return all(shape[a] > 0 for a in _reduced_axes(len(shape), axis))


def _one_chosen(chosen: int, runner_up: int):
    """max's (sorted positions -1, -2) or min's (0, 1) domain: the element it chooses
    apart from the next by KINK_MARGIN, so no tie is near and the derivative is one
    element's."""
    def domain(x, *, axis, keepdims) -> bool:
        if np.size(x) == 0:  # an empty axis has no element to choose
            return False
        ranked = np.sort(_reduced_last(x, axis), axis=-1)
        return ranked.shape[-1] < 2 or bool(np.all(
            np.abs(ranked[..., chosen] - ranked[..., runner_up]) >= KINK_MARGIN))
    return domain


def _within_unit(x) -> bool:
    """arcsin's, arccos's and arctanh's domain, |x| < 1, with POSITIVE_FLOOR's margin:
    their slopes stay below 1.6 (arctanh's below 2.3)."""
    return bool(np.all(np.abs(np.real(x)) <= 1 - POSITIVE_FLOOR))


def _above_one(x) -> bool:
    """arccosh's domain, x > 1, with POSITIVE_FLOOR's margin: its slope stays below 1.4."""
    return bool(np.all(np.real(x) >= 1 + POSITIVE_FLOOR))


def _off_integers(x) -> bool:
    """floor, ceil and trunc away from the integers, where they step."""
    x = np.real(x)
    return bool(np.all(np.abs(x - np.round(x)) >= KINK_MARGIN))


def _off_halves(x) -> bool:
    """round away from the halves, where it steps."""
    return _off_integers(np.real(x) + 0.5)


def _off_origin(x, y) -> bool:
    """hypot NONZERO_FLOOR from the origin, where its partials x / h and y / h jump."""
    return bool(np.all(np.hypot(np.real(x), np.real(y)) >= NONZERO_FLOOR))


def _off_steps(x, y) -> bool:
    """remainder and fmod: a divisor NONZERO_FLOOR from 0, and a quotient KINK_MARGIN
    from the integers, where they jump."""
    return _nonzero(y) and _off_integers(np.real(x) / np.real(y))


def _off_axes(x, y) -> bool:
    """copysign away from 0 in both operands: |x| has a kink there, y's sign flips."""
    return _off_zero(x) and _off_zero(y)


def _weights_apart_from_zero(x, w, *, axis) -> bool:
    """average divides by the weights' sum over `axis`: at least NONZERO_FLOOR."""
    return bool(np.all(np.abs(np.sum(np.real(w), axis=axis)) >= NONZERO_FLOOR))


def _apart(x, y) -> bool:
    return bool(np.all(np.abs(np.real(x) - np.real(y)) >= KINK_MARGIN))


def compare(a, b, cmp):
    """`a > b` or `a < b` on real parts (complex-step values carry a tiny imaginary part)."""
    return np.greater(np.real(a), np.real(b)) if cmp == "greater" else np.less(np.real(a),
                                                                              np.real(b))


# NumPy meanings that also take the complex step (`constructs.py` evaluates a
# nested derivative as Im f(x + i h) / h): each is the analytic continuation of
# the smooth piece the real part is on, so Im carries the derivative.

def _abs(x):
    return np.where(np.real(x) < 0, -x, x)


def _sign(x):
    return np.sign(np.real(x))


def _clip(x, *, lo, hi):
    return np.where(np.real(x) < lo, lo, np.where(np.real(x) > hi, hi, x))


def _logaddexp(x, y):
    if not (np.iscomplexobj(x) or np.iscomplexobj(y)):
        return np.logaddexp(x, y)
    top = np.maximum(np.real(x), np.real(y))
    return top + np.log(np.exp(x - top) + np.exp(y - top))


def _arctan2(y, x):
    """Off the cut, arctan2(y, x) = 2 arctan(y / (sqrt(x^2 + y^2) + x)), analytic there."""
    if not (np.iscomplexobj(x) or np.iscomplexobj(y)):
        return np.arctan2(y, x)
    return 2.0 * np.arctan(y / (np.sqrt(x * x + y * y) + x))


def _cbrt(x):
    if not np.iscomplexobj(x):
        return np.cbrt(x)
    return np.where(np.real(x) < 0, -((-x) ** (1 / 3)), x ** (1 / 3))


def _step(step):
    """floor, ceil, round or trunc of the real part: flat, so the complex step's
    imaginary part, the derivative, is 0."""
    return lambda x: step(np.real(x))


def _hypot(x, y):
    if not (np.iscomplexobj(x) or np.iscomplexobj(y)):
        return np.hypot(x, y)
    return np.sqrt(x * x + y * y)


def _logaddexp2(x, y):
    if not (np.iscomplexobj(x) or np.iscomplexobj(y)):
        return np.logaddexp2(x, y)
    return _logaddexp(x * np.log(2.0), y * np.log(2.0)) / np.log(2.0)


def _var(x, axis=None, keepdims=False):
    """The mean of squared deviations, with no conjugate: NumPy's var of a complex
    operand takes |x - mean|^2, which the complex step cannot see through."""
    if not np.iscomplexobj(x):
        return np.var(x, axis=axis, keepdims=keepdims)
    deviation = x - np.mean(x, axis=axis, keepdims=True)
    return np.mean(deviation * deviation, axis=axis, keepdims=keepdims)


def _std(x, axis=None, keepdims=False):
    return np.sqrt(_var(x, axis, keepdims))


def _copysign(x, y):
    return np.where(np.real(y) < 0, -_abs(x), _abs(x))


def _remainder(x, y):
    return x - y * np.floor(np.real(x) / np.real(y))


def _fmod(x, y):
    return x - y * np.trunc(np.real(x) / np.real(y))


_max_apart, _min_apart = _one_chosen(-1, -2), _one_chosen(0, 1)


def _ptp_apart(x, *, axis, keepdims) -> bool:
    """ptp's domain: both of its chosen elements apart from their runners-up."""
    return _max_apart(x, axis=axis, keepdims=keepdims) and _min_apart(x, axis=axis,
                                                                      keepdims=keepdims)


def _distinct(x, *, axis) -> bool:
    """sort's domain: along `axis`, every element apart from the next larger by
    KINK_MARGIN, so no tie is near and the permutation holds around x (an empty x
    has no tie)."""
    if np.size(x) == 0:
        return True
    ranked = np.sort(_reduced_last(x, axis), axis=-1)
    return bool(np.all(np.diff(ranked, axis=-1) >= KINK_MARGIN))


def _order(x, *, axis):
    """The permutation that sorts x along `axis`: the piece sort's result comes from."""
    return np.argsort(_reduced_last(x, axis), axis=-1) if np.size(x) else np.zeros(0, int)


def _distinct_along(x, *, axis, keepdims, q=None) -> bool:
    """median's and quantile's domain: sort's, the elements apart along `axis`."""
    return _distinct(x, axis=axis)


def _order_along(x, *, axis, keepdims, q=None):
    return _order(x, axis=axis)


def _quantile(x, *, q, axis, keepdims):
    """NumPy's linear method, written out: NumPy's quantile refuses complex operands,
    and the complex step (nested derivatives) needs one.  np.sort orders complex
    values by their real part first, so it chooses the real operand's order."""
    x = np.asarray(x)
    ordered = np.sort(x.reshape(-1) if axis is None else x, axis=-1 if axis is None else axis)
    at = -1 if axis is None else axis
    position = (ordered.shape[at] - 1) * q
    low = int(position)
    result = np.take(ordered, low, axis=at)
    if position > low:
        result = result * (1 - (position - low)) + np.take(ordered, low + 1, axis=at) * (
            position - low)
    if keepdims:
        return np.reshape(result, (1,) * x.ndim) if axis is None else np.expand_dims(result, at)
    return result


def _correlate(x, y, *, mode):
    """NumPy's correlate conjugates its second operand: conjugated twice here, so the
    complex step (nested derivatives) goes through it as through real values."""
    return np.correlate(x, np.conj(y), mode)


def _well_conditioned(a, *rest) -> bool:
    """solve's, inv's and det's domain: every matrix of the stack a within
    MAX_CONDITION, so a^-1 is far from blowing up."""
    a = np.real(np.asarray(a))
    return a.ndim >= 2 and a.shape[-1] > 0 and bool(np.all(np.linalg.cond(a) <= MAX_CONDITION))


def _gram_cholesky(a):
    """The lower factor l of a's Gram matrix g = a a^T = l l^T (symmetric, so every
    system reads it alike), by the Cholesky-Banachiewicz recurrence without a
    conjugate: analytic, so the complex step differentiates it, where NumPy's
    complex cholesky factors a Hermitian matrix instead."""
    g = a @ np.swapaxes(a, -1, -2)
    l = np.zeros_like(g)
    for j in range(g.shape[-1]):
        l[..., j, j] = np.sqrt(g[..., j, j] - np.sum(l[..., j, :j] ** 2, axis=-1))
        for i in range(j + 1, g.shape[-1]):
            l[..., i, j] = (g[..., i, j] - np.sum(l[..., i, :j] * l[..., j, :j], axis=-1)
                            ) / l[..., j, j]
    return l


def _ptp(x, *, axis, keepdims):
    """max less min (NumPy's ptp refuses complex operands; max and min order them by
    the real part first, so they choose the real operand's elements)."""
    return np.max(x, axis=axis, keepdims=keepdims) - np.min(x, axis=axis, keepdims=keepdims)


def _ptp_kink(x, *, axis, keepdims):
    """The chosen elements of max and min, as one pattern."""
    ranked = _reduced_last(x, axis)
    return np.argmax(ranked, axis=-1) * ranked.shape[-1] + np.argmin(ranked, axis=-1)


def _at_argmax(x, y, *, axis):
    """x where y is largest along `axis` (y's real part: the complex step perturbs x and y
    alike, and the index follows the real point)."""
    return np.take_along_axis(x, np.argmax(np.real(y), axis, keepdims=True), axis)


def _argmax_apart(x, y, *, axis) -> bool:
    """y's largest element along `axis` apart from the next, as max's."""
    return _max_apart(y, axis=axis, keepdims=True)


def _average(x, w, *, axis):
    return np.sum(x * w, axis=axis) / np.sum(w, axis=axis)


def _where(a, b, c, d, *, cmp):
    return np.where(compare(a, b, cmp), c, d)


def _concatenate(*arrays, axis):
    return np.concatenate(arrays, axis=axis)


# The Python operator of each comparison a program renders (`where`, a cond
# predicate, a Python `if` in `python_control.py`).
SYMBOL = {"greater": ">", "less": "<"}


@dataclass(frozen=True)
class _WhereSpec(OpSpec):
    """`where` renders its predicate, so it needs the comparison's symbol."""

    def render(self, args, params, syntax):
        a, b, c, d = args
        if syntax == OPERATOR:
            return f"jnp.where({a} {SYMBOL[params['cmp']]} {b}, {c}, {d})"
        return f"jnp.where(jnp.{params['cmp']}({a}, {b}), {c}, {d})"


@dataclass(frozen=True)
class _SequenceSpec(OpSpec):
    """`concatenate` and `stack` take a list of operands of any length."""

    def render(self, args, params, syntax):
        return f"jnp.{self.name}([{', '.join(args)}], axis={params['axis']})"


@dataclass(frozen=True)
class _EinsumSpec(OpSpec):
    """`einsum` takes its subscripts first, then one operand or two."""

    def render(self, args, params, syntax):
        return f"jnp.einsum({params['subscripts']!r}, {', '.join(args)})"


class _WindowSpec(OpSpec):
    """`lax.dynamic_slice` at static start indices is basic slicing: its operator
    syntax is Python's, `x[1:3, :2]` (an SUT's arrays index so where it offers
    the function, as `%` goes with `remainder`)."""

    def render(self, args, params, syntax):
        if syntax != OPERATOR:
            return super().render(args, params, syntax)
        window = ", ".join(f"{start or ''}:{start + size}" for start, size
                           in zip(params["start_indices"], params["slice_sizes"]))
        return f"{args[0]}[{window}]"


def _spread_out(x, *, axis, keepdims) -> bool:
    """std away from its kink where every element equals the mean (sqrt at 0): each
    standard deviation at least KINK_MARGIN."""
    return np.size(x) > 0 and bool(np.all(np.std(np.real(x), axis=axis) >= KINK_MARGIN))


def _unary(name, impl, build, why, operator=None, **rules):
    """An elementwise operation of one operand, `jnp.name(x)`."""
    return OpSpec(name, impl, f"jnp.{name}({{0}})", operator, build, why, elementwise=True,
                  **rules)


def _binary(name, impl, build, why, operator=None, **rules):
    """An operation of two operands, `jnp.name(x, y)`."""
    return OpSpec(name, impl, f"jnp.{name}({{0}}, {{1}})", operator, build, why, **rules)


OPS: dict[str, OpSpec] = {
    spec.name: spec
    for spec in [
        _binary("add", np.add, operands.broadcasting_pair, "linear; fan-in", "{0} + {1}",
                elementwise=True),
        _binary("subtract", np.subtract, operands.broadcasting_pair, "linear", "{0} - {1}",
                elementwise=True, primitives=("sub",)),
        _binary("multiply", np.multiply, operands.broadcasting_pair, "bilinear", "{0} * {1}",
                elementwise=True, primitives=("mul",)),
        _binary("divide", np.divide, operands.broadcasting_pair, "pole at 0", "{0} / {1}",
                domain=lambda x, y: _nonzero(y), elementwise=True, primitives=("div",)),
        _unary("negative", np.negative, operands.any_operand, "linear, unary", "-{0}",
               primitives=("neg",)),
        _unary("sin", np.sin, operands.any_operand, "transcendental"),
        _unary("cos", np.cos, operands.any_operand, "transcendental"),
        _unary("tanh", np.tanh, operands.any_operand, "saturating"),
        _unary("exp", np.exp, operands.any_operand, "grows fast: capped"),
        _unary("log", np.log, operands.any_operand, "domain x > 0", domain=_positive),
        _unary("sqrt", np.sqrt, operands.any_operand, "domain x >= 0, kink at 0",
               domain=_positive),
        OpSpec(
            "integer_pow",
            lambda x, *, n: np.power(x, n),
            "{0} ** {n}",
            "{0} ** {n}",
            operands.integer_power,
            "Python `**` with an int exponent; negative ones have a pole",
            domain=lambda x, *, n: n >= 0 or _nonzero(x),
            contract=(),
            elementwise=True,
            carries_derivative=lambda args, params: () if params.get("n") == 0 else tuple(args),
        ),
        OpSpec("sum", np.sum, "jnp.sum({0}, axis={axis})", None, operands.sum_axes,
               "reduction: None, int, negative int or tuple axis", primitives=("reduce_sum",),
               polymorphic=True),
        OpSpec("transpose", np.transpose, "jnp.transpose({0}, axes={axes})", None,
               operands.permutation, "pure data movement", polymorphic=True),
        OpSpec("reshape", np.reshape, "jnp.reshape({0}, {shape})", None,
               operands.reshape_target, "pure data movement"),
        OpSpec("broadcast_to", lambda x, *, shape: np.broadcast_to(x, shape).copy(),
               "jnp.broadcast_to({0}, {shape})", None, operands.broadcast_target,
               "fan-out: its transpose is a sum", primitives=("broadcast_in_dim",)),
        OpSpec("expand_dims", np.expand_dims, "jnp.expand_dims({0}, {axis})", None,
               operands.new_axis, "rank change", primitives=("broadcast_in_dim",),
               polymorphic=True),
        _binary("matmul", np.matmul, operands.matmul_pair, "contraction with batch rules",
                "{0} @ {1}", primitives=("dot_general",), polymorphic=True),
        _binary("dot", np.dot, operands.dot_pair, "NumPy dot contraction rules",
                primitives=("dot_general",), polymorphic=True),
        _WhereSpec("where", _where, "", None, operands.where_operands,
                   "select: a kink where the predicate flips",
                   domain=lambda a, b, c, d, *, cmp: _apart(a, b),
                   kink=lambda a, b, c, d, *, cmp: compare(a, b, cmp),
                   contract=("where", "greater", "less"), primitives=("select_n", "gt", "lt"),
                   elementwise=True,
                   carries_derivative=lambda args, params: tuple(args[2:]),
                   promoted=lambda args, params: tuple(args[2:])),
        _binary("maximum", np.maximum, operands.broadcasting_pair, "kink where operands tie",
                domain=_apart, kink=lambda x, y: compare(x, y, "greater"), elementwise=True,
                primitives=("max",)),
        _SequenceSpec("concatenate", _concatenate, "", None, operands.concatenable,
                         "several operands, one axis"),
        # Optional rows: the elementwise family beyond the first contract.  Last in
        # the table, so shrinking (towards option 0) prefers the operations above.
        _unary("log1p", np.log1p, operands.any_operand, "log(1 + x), exact near 0",
               domain=_above_minus_one, optional=True),
        _unary("expm1", np.expm1, operands.any_operand, "exp(x) - 1, exact near 0",
               optional=True),
        _unary("tan", np.tan, operands.any_operand, "poles at odd multiples of pi/2",
               domain=_off_tan_poles, optional=True),
        _unary("arctan", np.arctan, operands.any_operand, "bounded, slope 1/(1+x^2)",
               primitives=("atan",), optional=True),
        _unary("arcsinh", np.arcsinh, operands.any_operand, "slope through a square root",
               primitives=("asinh",), optional=True),
        _unary("sinh", np.sinh, operands.any_operand, "grows fast: capped", optional=True),
        _unary("cosh", np.cosh, operands.any_operand, "even, minimum at 0", optional=True),
        _unary("square", np.square, operands.any_operand, "x * x as one operation",
               optional=True),
        _unary("reciprocal", np.reciprocal, operands.any_operand, "1 / x: pole at 0",
               domain=_nonzero, primitives=("integer_pow",), optional=True),
        _unary("abs", _abs, operands.any_operand, "kink at 0", domain=_off_zero,
               kink=lambda x: np.real(x) > 0, optional=True),
        _unary("sign", _sign, operands.any_operand, "a step: flat off 0, so no derivative",
               domain=_off_zero, kink=lambda x: np.real(x) > 0,
               carries_derivative=lambda args, params: (), optional=True),
        _binary("minimum", np.minimum, operands.broadcasting_pair, "kink where operands tie",
                domain=_apart, kink=lambda x, y: compare(x, y, "less"), elementwise=True,
                primitives=("min",), optional=True),
        _binary("arctan2", _arctan2, operands.broadcasting_pair,
                "two-operand angle: a pole at the origin, a cut along x < 0",
                domain=_off_arctan2_cut, elementwise=True, primitives=("atan2",),
                optional=True),
        _binary("logaddexp", _logaddexp, operands.broadcasting_pair,
                "log(exp x + exp y) without overflow", elementwise=True, optional=True),
        _binary("power", np.power, operands.broadcasting_pair,
                "x ** y, a real exponent on a positive base", "{0} ** {1}",
                domain=lambda x, y: _positive(x), elementwise=True, primitives=("pow",),
                optional=True),
        OpSpec("mean", np.mean, "jnp.mean({0}, axis={axis}, keepdims={keepdims})", None,
               operands.reduction_axes, "a sum divided by its count", domain=_counted,
               primitives=("reduce_sum", "div"), optional=True),
        OpSpec("max", np.max, "jnp.max({0}, axis={axis}, keepdims={keepdims})", None,
               operands.reduction_axes, "its derivative is the chosen element's; ties a kink",
               domain=_one_chosen(-1, -2),
               kink=lambda x, *, axis, keepdims: np.argmax(_reduced_last(x, axis), axis=-1),
               primitives=("reduce_max",), optional=True, polymorphic=True),
        OpSpec("min", np.min, "jnp.min({0}, axis={axis}, keepdims={keepdims})", None,
               operands.reduction_axes, "as max, at the other end",
               domain=_one_chosen(0, 1),
               kink=lambda x, *, axis, keepdims: np.argmin(_reduced_last(x, axis), axis=-1),
               primitives=("reduce_min",), optional=True, polymorphic=True),
        OpSpec("prod", np.prod, "jnp.prod({0}, axis={axis}, keepdims={keepdims})", None,
               operands.reduction_axes, "a product: its derivative at a zero is the others'",
               domain=lambda x, *, axis, keepdims: np.size(x) > 0,
               primitives=("mul", "slice", "concatenate", "reshape", "transpose"),
               optional=True),
        OpSpec("cumsum", np.cumsum, "jnp.cumsum({0}, axis={axis})", None, operands.one_axis,
               "running sum: its transpose runs the other way", optional=True),
        OpSpec("flip", lambda x, *, axis: np.flip(x, axis), "jnp.flip({0}, axis={axis})", None,
               operands.one_axis, "reverses axes: its own transpose", primitives=("rev",),
               optional=True, polymorphic=True),
        OpSpec("swapaxes", np.swapaxes, "jnp.swapaxes({0}, {axis1}, {axis2})", None,
               operands.axis_pair, "exchanges two axes, a transpose", primitives=("transpose",),
               optional=True, polymorphic=True),
        OpSpec("clip", _clip, "jnp.clip({0}, {lo}, {hi})",
               None, operands.clip_bounds, "two kinks, at its bounds", domain=_clip_apart,
               kink=_clip_piece, primitives=("max", "min"), elementwise=True, optional=True),
        _unary("arcsin", np.arcsin, operands.any_operand, "domain |x| < 1, slope a root",
               domain=_within_unit, primitives=("asin",), optional=True),
        _unary("arccos", np.arccos, operands.any_operand, "arcsin's mirror, slope negative",
               domain=_within_unit, primitives=("acos",), optional=True),
        _unary("arctanh", np.arctanh, operands.any_operand, "poles at +-1",
               domain=_within_unit, primitives=("atanh",), optional=True),
        _unary("arccosh", np.arccosh, operands.any_operand, "domain x > 1, slope a root",
               domain=_above_one, primitives=("acosh",), optional=True),
        _unary("log2", np.log2, operands.any_operand, "log over a constant, as JAX writes it",
               domain=_positive, primitives=("log", "div"), optional=True),
        _unary("log10", np.log10, operands.any_operand, "log over a constant",
               domain=_positive, primitives=("log", "div"), optional=True),
        _unary("exp2", np.exp2, operands.any_operand, "2 ** x: a constant in its slope",
               optional=True),
        _unary("cbrt", _cbrt, operands.any_operand, "odd root: infinite slope at 0",
               domain=_nonzero, optional=True),
        _unary("deg2rad", lambda x: x * (np.pi / 180), operands.any_operand,
               "linear, a constant factor", primitives=("mul",), optional=True),
        _unary("rad2deg", lambda x: x * (180 / np.pi), operands.any_operand,
               "linear, a constant factor above 1", primitives=("mul",), optional=True),
        _unary("floor", _step(np.floor), operands.any_operand,
               "a step at every integer: flat between, so no derivative",
               domain=_off_integers, kink=_step(np.floor),
               carries_derivative=lambda args, params: (), optional=True),
        _unary("ceil", _step(np.ceil), operands.any_operand, "as floor, the other way",
               domain=_off_integers, kink=_step(np.floor),
               carries_derivative=lambda args, params: (), optional=True),
        _unary("round", _step(np.round), operands.any_operand,
               "steps at the halves (a half to the even neighbour)",
               domain=_off_halves, kink=lambda x: np.floor(np.real(x) + 0.5),
               carries_derivative=lambda args, params: (), optional=True),
        _unary("trunc", _step(np.trunc), operands.any_operand,
               "floor above 0, ceil below, as JAX composes it",
               domain=_off_integers, kink=_step(np.floor),
               primitives=("floor", "ceil", "select_n", "lt"),
               carries_derivative=lambda args, params: (), optional=True),
        _unary("sinc", np.sinc, operands.any_operand,
               "sin(pi x) / (pi x): kept off 0, where refimpl's quotient is 0 / 0",
               domain=_nonzero, primitives=("sin", "mul", "div"), optional=True),
        _binary("hypot", _hypot, operands.broadcasting_pair,
                "sqrt(x^2 + y^2): its partials jump at the origin", domain=_off_origin,
                elementwise=True, primitives=("mul", "add", "sqrt"), optional=True),
        _binary("logaddexp2", _logaddexp2, operands.broadcasting_pair,
                "logaddexp in base 2", elementwise=True,
                primitives=("logaddexp", "mul", "div"), optional=True),
        # Shapes and indexing, each composed of the primitives above in refimpl.
        OpSpec("moveaxis", lambda x, *, axis1, axis2: np.moveaxis(x, axis1, axis2),
               "jnp.moveaxis({0}, {axis1}, {axis2})", None, operands.axis_pair,
               "one axis to another place, a transpose", primitives=("transpose",),
               optional=True, polymorphic=True),
        OpSpec("squeeze", np.squeeze, "jnp.squeeze({0}, axis={axis})", None,
               operands.squeeze_axes, "drops size-1 axes: a reshape",
               primitives=("reshape",), optional=True),
        OpSpec("ravel", np.ravel, "jnp.ravel({0})", None, operands.any_operand,
               "flattens: a reshape", primitives=("reshape",), optional=True),
        _SequenceSpec("stack", lambda *arrays, axis: np.stack(arrays, axis), "", None,
                      operands.stackable, "several operands along a new axis",
                      primitives=("broadcast_in_dim", "concatenate"), optional=True),
        _binary("outer", np.outer, operands.outer_pair, "every product: a fan-out each way",
                primitives=("reshape", "broadcast_in_dim", "mul"), optional=True),
        OpSpec("pad", lambda x, *, pad_width: np.pad(x, pad_width),
               "jnp.pad({0}, {pad_width})", None, operands.pad_widths,
               "zeros around: its transpose slices", optional=True),
        OpSpec("roll", lambda x, *, shift, axis: np.roll(x, shift, axis),
               "jnp.roll({0}, {shift}, axis={axis})", None, operands.rolls,
               "a cyclic shift: its transpose shifts back", primitives=("slice", "concatenate"),
               optional=True),
        OpSpec("tile", lambda x, *, reps: np.tile(x, reps), "jnp.tile({0}, {reps})", None,
               operands.tilings, "repeated blocks: its transpose sums them",
               primitives=("broadcast_in_dim", "reshape"), optional=True),
        OpSpec("repeat", lambda x, *, repeats, axis: np.repeat(x, repeats, axis),
               "jnp.repeat({0}, {repeats}, axis={axis})", None, operands.repeats,
               "each element repeated: its transpose sums neighbours",
               primitives=("broadcast_in_dim", "reshape"), optional=True),
        OpSpec("diff", lambda x, *, axis: np.diff(x, axis=axis), "jnp.diff({0}, axis={axis})",
               None, operands.difference_axes, "neighbours' differences: two slices",
               primitives=("slice", "sub"), optional=True),
        OpSpec("tril", lambda x, *, k: np.tril(x, k), "jnp.tril({0}, k={k})", None,
               operands.triangle_offsets, "a constant mask: its transpose masks again",
               primitives=("select_n",), optional=True),
        OpSpec("triu", lambda x, *, k: np.triu(x, k), "jnp.triu({0}, k={k})", None,
               operands.triangle_offsets, "tril's other half", primitives=("select_n",),
               optional=True),
        OpSpec("diagonal", lambda x, *, offset: np.diagonal(x, offset).copy(),
               "jnp.diagonal({0}, offset={offset})", None, operands.diagonal_offsets,
               "a diagonal, moved last: its transpose scatters into a zero matrix",
               primitives=("slice", "select_n", "reduce_sum", "transpose"), optional=True),
        OpSpec("trace", lambda x, *, offset: np.trace(x, offset),
               "jnp.trace({0}, offset={offset})", None, operands.diagonal_offsets,
               "a diagonal's sum", primitives=("slice", "select_n", "reduce_sum"),
               optional=True),
        _binary("remainder", _remainder, operands.broadcasting_pair,
                 "NumPy's modulo: slope 1 in x, -floor(x / y) in y, a jump at each multiple",
                 "{0} % {1}", domain=_off_steps,
                 kink=lambda x, y: np.floor(np.real(x) / np.real(y)), elementwise=True,
                 primitives=("floor", "div", "mul", "sub"), optional=True),
        _binary("fmod", _fmod, operands.broadcasting_pair, "C's modulo, the sign of x",
                domain=_off_steps, kink=lambda x, y: np.floor(np.real(x) / np.real(y)),
                elementwise=True,
                primitives=("floor", "ceil", "select_n", "lt", "div", "mul", "sub"),
                optional=True),
        _binary("copysign", _copysign, operands.broadcasting_pair,
                "|x| with y's sign: y carries no derivative", domain=_off_axes,
                kink=lambda x, y: 2 * (np.real(x) > 0) + (np.real(y) > 0), elementwise=True,
                carries_derivative=lambda args, params: tuple(args[:1]),
                primitives=("abs", "neg", "select_n", "lt"), optional=True),
        OpSpec("cumprod", lambda x, *, axis: np.cumprod(x, axis=axis),
               "jnp.cumprod({0}, axis={axis})", None, operands.one_axis,
               "running product: at a zero, the product of the others", primitives=("mul",),
               optional=True),
        OpSpec("ptp", _ptp, "jnp.ptp({0}, axis={axis}, keepdims={keepdims})", None,
               operands.reduction_axes, "max less min: two chosen elements",
               domain=_ptp_apart, kink=_ptp_kink,
               primitives=("reduce_max", "reduce_min", "sub"), optional=True),
        _binary("inner", np.inner, operands.inner_pair, "the last axes contracted",
                primitives=("dot_general",), optional=True, polymorphic=True),
        _binary("vdot", lambda x, y: np.sum(x * y), operands.twin_pair,
                "both flattened, then contracted (NumPy's vdot conjugates a complex x)",
                primitives=("reshape", "dot_general"), optional=True),
        _binary("kron", np.kron, operands.kron_pair, "every product, in blocks",
                primitives=("reshape", "broadcast_in_dim", "mul"), optional=True),
        OpSpec("tensordot", lambda x, y, *, axes: np.tensordot(x, y, axes),
               "jnp.tensordot({0}, {1}, {axes})", None, operands.tensordot_pair,
               "several axes contracted at once, or none", primitives=("dot_general", "mul"),
               optional=True, polymorphic=True),
        OpSpec("sort", lambda x, *, axis: np.sort(x, axis=axis), "jnp.sort({0}, axis={axis})",
               None, operands.one_axis,
               "a permutation: the tangent permuted alike, ties a convention (drawn apart)",
               domain=_distinct, kink=_order,
               primitives=("argsort", "take_along_axis", "reshape"), optional=True),
        OpSpec("median", lambda x, *, axis, keepdims: np.median(x, axis, keepdims=keepdims),
               "jnp.median({0}, axis={axis}, keepdims={keepdims})", None, operands.median_axes,
               "the middle of a sort, or the mean of two: its derivative picks or halves",
               domain=_distinct_along, kink=_order_along,
               primitives=("argsort", "take_along_axis", "mul", "add", "reshape"), optional=True),
        OpSpec("quantile",
               _quantile,
               "jnp.quantile({0}, {q}, axis={axis}, keepdims={keepdims})", None,
               operands.quantile_axes,
               "two sorted neighbours weighed by q: the derivative splits between them",
               domain=_distinct_along, kink=_order_along,
               primitives=("argsort", "take_along_axis", "mul", "add", "reshape"), optional=True),
        OpSpec("convolve", lambda x, y, *, mode: np.convolve(x, y, mode),
               "jnp.convolve({0}, {1}, mode={mode!r})", None, operands.convolution_pair,
               "shifted copies, scaled and summed: its transpose correlates",
               primitives=("pad", "mul", "add", "slice"), optional=True),
        OpSpec("correlate", _correlate,
               "jnp.correlate({0}, {1}, mode={mode!r})", None, operands.convolution_pair,
               "convolve's transpose, with its own middle for 'same'",
               primitives=("rev", "pad", "mul", "add", "slice"), optional=True),
        # Linear algebra, `numpy.linalg`: on well-conditioned matrices only.
        OpSpec("solve", np.linalg.solve, "jnp.linalg.solve({0}, {1})", None, operands.solve_pair,
               "a^-1 b: its derivative solves again, its transpose with a's transpose",
               domain=_well_conditioned, contract=("linalg.solve",),
               primitives=("solve", "dot_general", "sub", "broadcast_in_dim", "reshape"),
               optional=True),
        OpSpec("inv", np.linalg.inv, "jnp.linalg.inv({0})", None, operands.square_matrices,
               "a^-1: -a^-1 da a^-1", domain=_well_conditioned, contract=("linalg.inv",),
               primitives=("solve", "dot_general", "broadcast_in_dim"), optional=True),
        OpSpec("det", np.linalg.det, "jnp.linalg.det({0})", None, operands.square_matrices,
               "Jacobi's formula: det(a) trace(a^-1 da)", domain=_well_conditioned,
               contract=("linalg.det",), primitives=("det", "solve", "mul", "reduce_sum"),
               optional=True),
        OpSpec("cholesky", _gram_cholesky, "jnp.linalg.cholesky({0} @ jnp.swapaxes({0}, -1, -2))",
               None, operands.square_matrices,
               "a a^T = l l^T, of condition at most MAX_CONDITION squared: two triangular "
               "solves and a product", domain=_well_conditioned,
               contract=("linalg.cholesky", "swapaxes"),
               primitives=("cholesky", "dot_general", "transpose", "solve", "mul"), optional=True),
        OpSpec("argmax", _at_argmax,
               "jnp.take_along_axis({0}, jnp.argmax({1}, axis={axis}, keepdims=True), "
               "axis={axis})", None, operands.argmax_pair,
               "an integer result, no derivative, that indexes a gather inside the program",
               domain=_argmax_apart,
               kink=lambda x, y, *, axis: np.argmax(np.real(y), axis),
               contract=("take_along_axis", "argmax"),
               primitives=("argsort", "neg", "slice", "reshape", "take_along_axis"),
               carries_derivative=lambda args, params: tuple(args[:1]),
               promoted=lambda args, params: tuple(args[:1]), optional=True),
        OpSpec("take", lambda x, *, indices, axis: np.take(x, indices, axis),
               "jnp.take({0}, np.array({indices}), axis={axis})", None, operands.take_indices,
               "a gather, repeats allowed: its transpose adds each repeat back",
               primitives=("take_along_axis", "reshape"), optional=True),
        # `lax`'s windows, at static start indices (programs hold no integer values).
        _WindowSpec("dynamic_slice", _dynamic_slice,
                    "sut.lax.dynamic_slice({0}, {start_indices}, {slice_sizes})", "{0}[a:b]",
                    operands.windows,
                    "a window (or basic slicing): its transpose pads the cotangent back into place",
                    primitives=("slice",), optional=True, namespace="lax"),
        OpSpec("dynamic_update_slice", _dynamic_update_slice,
               "sut.lax.dynamic_update_slice({0}, {1}, {start_indices})", None,
               operands.update_windows,
               "a window written over: the derivative by x is zero inside it, by u its place",
               primitives=("pad", "select_n"), optional=True, namespace="lax"),
        _EinsumSpec("einsum", lambda *args, subscripts: np.einsum(subscripts, *args), "",
                    None, operands.einsum_operands,
                    "subscripts: sums, contractions, batch letters and a transpose at once",
                    primitives=("reduce_sum", "dot_general", "transpose"), optional=True),
        OpSpec("rot90", lambda x, *, k: np.rot90(x, k).copy(), "jnp.rot90({0}, {k})", None,
               operands.quarter_turns, "a quarter turn: flips and a swap of axes",
               primitives=("rev", "transpose"), optional=True),
        OpSpec("average", _average, "jnp.average({0}, axis={axis}, weights={1})", None,
               operands.weighted, "a weighted mean: the weights' derivative divides by their sum",
               domain=_weights_apart_from_zero,
               primitives=("mul", "reduce_sum", "div", "broadcast_in_dim"), optional=True),
        OpSpec("trapezoid", lambda y, *, axis: np.trapezoid(y, axis=axis),
               "jnp.trapezoid({0}, axis={axis})", None, operands.difference_axes,
               "the trapezoid rule: neighbours' means, summed",
               primitives=("slice", "add", "reduce_sum", "mul"), optional=True),
        OpSpec("var", _var, "jnp.var({0}, axis={axis}, keepdims={keepdims})", None,
               operands.reduction_axes, "mean squared deviation: the mean's derivative twice",
               domain=lambda x, *, axis, keepdims: np.size(x) > 0,
               primitives=("reduce_sum", "sub", "mul", "div"), optional=True),
        OpSpec("std", _std, "jnp.std({0}, axis={axis}, keepdims={keepdims})", None,
               operands.deviation_axes, "var's square root: a kink where the elements agree",
               domain=_spread_out, primitives=("reduce_sum", "sub", "mul", "div", "sqrt"),
               optional=True),
        OpSpec("nanmean", np.nanmean, "jnp.nanmean({0}, axis={axis}, keepdims={keepdims})",
               None, operands.reduction_axes,
               "a mean through a mask: no NaN is drawn, so a rule that lets the mask's "
               "select or count drift shows", domain=_counted,
               primitives=("gt", "lt", "select_n", "reduce_sum", "div"), optional=True),
    ]
}

# The SUT features each operation needs, for `__sut_unsupported__`: its own
# name, and the contract's functions its rendering calls (`where` calls
# `greater`/`less`).
FEATURES: dict[str, frozenset[str]] = {name: frozenset({name, *spec.contract})
                                       for name, spec in OPS.items()}



def contract_functions(namespace: str) -> tuple[str, ...]:
    """The contract's functions in `namespace` that rows call, in the table's order."""
    return tuple(dict.fromkeys(function for spec in OPS.values() if spec.namespace == namespace
                               for function in spec.contract))


def optional_functions(namespace: str) -> frozenset[str]:
    """Those an SUT may lack without declaring them: only optional rows call them."""
    rows = [spec for spec in OPS.values() if spec.namespace == namespace]
    return frozenset(f for spec in rows if spec.optional for f in spec.contract) - {
        f for spec in rows if not spec.optional for f in spec.contract}


# The contract's `numpy` namespace: every row's functions, in the table's order;
# and the operations of its `lax` namespace (control flow is constructs.py's).
CONTRACT_NUMPY = contract_functions("numpy")
OPTIONAL_NUMPY = optional_functions("numpy")
CONTRACT_LAX = contract_functions("lax")
OPTIONAL_LAX = optional_functions("lax")


def _qualified(spec: OpSpec, function: str) -> str:
    return function if spec.namespace == "numpy" else f"{spec.namespace}.{function}"


def markdown_table() -> str:
    """The table as a user reads it: each operation, the contract functions it calls,
    whether an SUT may lack them, and why it is in the language."""
    lines = ["| operation | `numpy` functions (`lax.`: `lax`'s) | optional | why |",
             "|---|---|---|---|"]
    lines += [f"| `{name}` | {' '.join(f'`{_qualified(spec, f)}`' for f in spec.contract)}"
              f"{'(operator)' if not spec.contract else ''} | "
              f"{'yes' if spec.optional else ''} | {spec.why} |" for name, spec in OPS.items()]
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown_table())
