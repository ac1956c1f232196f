"""The operation table: one `OpSpec` row per operation a generated program may use.

A row says everything the rest of jaxcheck needs to know about an operation:
how to evaluate it in NumPy (the generator grows programs concretely), how to
render it as source in each syntax (`sut.numpy` call or Python operator),
which SUT feature it needs (so `__sut_unsupported__` can switch it off), and
how to draw valid operands and parameters for it (`operands.py`, which also
holds the domain margins that keep it away from kinks and singularities).

Adding an operation means adding one row here; nothing else lists them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from strategies import operands

CALL = "call"
OPERATOR = "operator"


def _as_array(value) -> np.ndarray:
    return np.asarray(value, dtype=np.float64)


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
    """

    name: str
    impl: Callable[..., np.ndarray]
    call: str
    operator: str | None
    build: Callable
    why: str

    def evaluate(self, args: Sequence, params: dict) -> np.ndarray:
        return _as_array(self.impl(*args, **params))

    def render(self, args: Sequence[str], params: dict, syntax: str) -> str:
        template = self.operator if syntax == OPERATOR and self.operator else self.call
        return template.format(*args, **params)

    @property
    def syntaxes(self) -> tuple[str, ...]:
        return (CALL, OPERATOR) if self.operator else (CALL,)


def _where(a, b, c, d, *, cmp):
    predicate = np.greater(a, b) if cmp == "greater" else np.less(a, b)
    return np.where(predicate, c, d)


def _concatenate(*arrays, axis):
    return np.concatenate(arrays, axis=axis)


_SYMBOL = {"greater": ">", "less": "<"}


@dataclass(frozen=True)
class _WhereSpec(OpSpec):
    """`where` renders its predicate, so it needs the comparison's symbol."""

    def render(self, args, params, syntax):
        a, b, c, d = args
        if syntax == OPERATOR:
            return f"jnp.where({a} {_SYMBOL[params['cmp']]} {b}, {c}, {d})"
        return f"jnp.where(jnp.{params['cmp']}({a}, {b}), {c}, {d})"


@dataclass(frozen=True)
class _ConcatenateSpec(OpSpec):
    """`concatenate` takes a list of operands of any length."""

    def render(self, args, params, syntax):
        return f"jnp.concatenate([{', '.join(args)}], axis={params['axis']})"


def _unary(name, impl, build, why, operator=None):
    return OpSpec(name, impl, f"jnp.{name}({{0}})", operator, build, why)


def _binary(name, impl, build, why, operator=None):
    return OpSpec(name, impl, f"jnp.{name}({{0}}, {{1}})", operator, build, why)


OPS: dict[str, OpSpec] = {
    spec.name: spec
    for spec in [
        _binary("add", np.add, operands.broadcasting_pair, "linear; fan-in", "{0} + {1}"),
        _binary("subtract", np.subtract, operands.broadcasting_pair, "linear", "{0} - {1}"),
        _binary("multiply", np.multiply, operands.broadcasting_pair, "bilinear", "{0} * {1}"),
        _binary("divide", np.divide, operands.divisor_pair, "pole at 0", "{0} / {1}"),
        _unary("negative", np.negative, operands.any_operand, "linear, unary", "-{0}"),
        _unary("sin", np.sin, operands.any_operand, "transcendental"),
        _unary("cos", np.cos, operands.any_operand, "transcendental"),
        _unary("tanh", np.tanh, operands.any_operand, "saturating"),
        _unary("exp", np.exp, operands.any_operand, "grows fast: capped"),
        _unary("log", np.log, operands.positive_operand, "domain x > 0"),
        _unary("sqrt", np.sqrt, operands.positive_operand, "domain x >= 0, kink at 0"),
        OpSpec(
            "integer_pow",
            lambda x, *, n: np.power(x, n),
            "{0} ** {n}",
            "{0} ** {n}",
            operands.integer_power,
            "Python `**` with an int exponent; negative ones have a pole",
        ),
        OpSpec("sum", np.sum, "jnp.sum({0}, axis={axis})", None, operands.sum_axes,
               "reduction: None, int, negative int or tuple axis"),
        OpSpec("transpose", np.transpose, "jnp.transpose({0}, axes={axes})", None,
               operands.permutation, "pure data movement"),
        OpSpec("reshape", np.reshape, "jnp.reshape({0}, {shape})", None,
               operands.reshape_target, "pure data movement"),
        OpSpec("broadcast_to", lambda x, *, shape: np.broadcast_to(x, shape).copy(),
               "jnp.broadcast_to({0}, {shape})", None, operands.broadcast_target,
               "fan-out: its transpose is a sum"),
        OpSpec("expand_dims", np.expand_dims, "jnp.expand_dims({0}, {axis})", None,
               operands.new_axis, "rank change"),
        _binary("matmul", np.matmul, operands.matmul_pair, "contraction with batch rules",
                "{0} @ {1}"),
        _binary("dot", np.dot, operands.dot_pair, "NumPy dot contraction rules"),
        _WhereSpec("where", _where, "", None, operands.where_operands,
                   "select: a kink where the predicate flips"),
        _binary("maximum", np.maximum, operands.separated_pair, "kink where operands tie"),
        _ConcatenateSpec("concatenate", _concatenate, "", None, operands.concatenable,
                         "several operands, one axis"),
    ]
}

# The SUT feature each operation needs, for `__sut_unsupported__`.  `where`
# also calls `greater`/`less`; an SUT lacking those lacks `where` too.
FEATURES: dict[str, frozenset[str]] = {
    name: frozenset({name} | ({"greater", "less"} if name == "where" else set()))
    for name in OPS
}
FEATURES["integer_pow"] = frozenset({"integer_pow"})
