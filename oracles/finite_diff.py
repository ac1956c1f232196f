"""Central finite differences with an error estimate.

`directional(program, args, direction)` estimates the directional derivative
J(x) v of every output of a NumPy-evaluated program with central differences
at two steps, h and h/2, and combines them by Richardson extrapolation
(h is the first of `FD_STEPS`, then of `FD_STEPS_SHARP`, whose own error
estimate is small enough and finite):

    D(h) = (f(x + h v) - f(x - h v)) / 2h           error ~ c h^2
    R    = D(h/2) + (D(h/2) - D(h)) / 3             error ~ c' h^4

|D(h) - D(h/2)| / 3 estimates the error of D(h/2), so it bounds R's error
with room to spare; a rounding term eps |f| / h is added.  Every evaluation
also records which side of each kink (`where`, `maximum`) it took: a
perturbed point on another side would make the estimate meaningless, so that
is reported as a generator bug, as is an estimate whose own error is large
at every step; an example too sharp for finite differences is rejected
(`_give_up`).

`mixed(program, point, weights, order)` estimates a mixed derivative of
order <= 2 of the scalar <weights(eps), program(point(eps))> in small
parameters eps, with the same Richardson scheme and kink check: the NumPy
meaning of a transformation stack is a sum of these (`strategies/stacks.py`,
`oracles/stack_layers.py`).
"""

from __future__ import annotations

import itertools
from math import prod
from typing import NamedTuple, NoReturn

import numpy as np
from hypothesis import event, reject
from hypothesis.control import currently_in_test_context

from oracles.errors import GeneratorBug, TooSharp
from oracles.tolerance import (
    FD_RELIABLE,
    FD_ROUNDING_MIXED,
    FD_SHARP_DERIVATIVE,
    FD_STEPS,
    FD_STEPS_SECOND_ORDER,
    FD_STEPS_SHARP,
)
from strategies.language.evaluation import evaluate
from strategies.language.ir import OutOfDomain
from strategies.program import Program

EPS = np.finfo(np.float64).eps


class Estimate(NamedTuple):
    """Per-output derivative estimates and per-element error bounds."""

    value: tuple[np.ndarray, ...]
    error: tuple[np.ndarray, ...]


class _Crossed(Exception):
    """A perturbed evaluation took the other side of a kink."""


def _at(program, args, direction, step, base_switches):
    shifted = [x + step * v for x, v in zip(args, direction)]
    switches = []
    with np.errstate(all="ignore"):  # a step out of the domain is judged by `_unreliable`
        outputs = evaluate(program, shifted, switches=switches)
    if any(not np.array_equal(s, b) for s, b in zip(switches, base_switches)):
        raise _Crossed(step)
    return outputs


def _richardson(program, args, direction, h, base, base_switches) -> Estimate:
    def central(step):
        plus = _at(program, args, direction, step, base_switches)
        minus = _at(program, args, direction, -step, base_switches)
        return [(p - m) / (2 * step) for p, m in zip(plus, minus)]

    coarse, fine = central(h), central(h / 2)
    value = tuple(f + (f - c) / 3 for c, f in zip(coarse, fine))
    error = tuple(np.abs(f - c) / 3 + 8 * EPS * (1 + np.abs(y)) / h
                  for c, f, y in zip(coarse, fine, base))
    return Estimate(value, error)


def _unreliable(estimate: Estimate) -> str | None:
    """Why `estimate` cannot be trusted, or None.

    A perturbed point may leave an operation's domain (a large step moves
    the argument of a `sqrt` below 0) and give NaN: not finite is not
    reliable, and a smaller step is tried.
    """
    for i, (v, e) in enumerate(zip(*estimate)):
        if not (np.all(np.isfinite(v)) and np.all(np.isfinite(e))):
            return f"output {i} is not finite"
        if np.any(e > FD_RELIABLE * np.maximum(1.0, np.abs(v))):
            return (f"output {i} has error estimate {float(np.max(e)):.3g} for derivatives "
                    f"up to {float(np.max(np.abs(v))):.3g}")
    return None


def directional(program: Program, args, direction, *,
                steps=FD_STEPS + FD_STEPS_SHARP) -> Estimate:
    """Estimate J v for every output of `program` at `args` along `direction`.

    Steps are tried largest first (least rounding error); a function that
    varies fast (sin of x**-2 near the pole margin, exp of a sum of 125
    elements, a loop that compounds its derivative) needs a smaller one, and
    the first step whose own error estimate is small enough is used.  When
    every step fails, the example is rejected as too sharp or reported as a
    generator bug (`_give_up`).
    """
    base_switches = []
    base = evaluate(program, args, switches=base_switches)
    problems, sizes = [], []
    for h in steps:
        try:
            estimate = _richardson(program, args, direction, h, base, base_switches)
        except _Crossed:
            problems.append(f"step {h:g} crosses a kink (`where`/`maximum` switch side)")
            continue
        problem = _unreliable(estimate)
        if problem is None:
            return estimate
        problems.append(f"step {h:g}: {problem}")
        size = max((float(np.max(np.abs(v), initial=0.0)) for v in estimate.value),
                   default=0.0)
        if np.isfinite(size):
            sizes.append(size)
    _give_up("finite differences are unreliable at every step", problems, sizes,
             _inside_margins(program, args))


def _inside_margins(program: Program, args) -> bool:
    """Every operation of `program` at `args` keeps its domain margin (`domains.py`)."""
    try:
        evaluate(program, args, checked=True)
    except OutOfDomain:
        return False
    return True


def _give_up(what: str, problems: list[str], sizes: list[float],
             inside_margins: bool) -> NoReturn:
    """Refuse an example that no step can judge: reject it if it is too sharp, else a bug.

    The domain margins keep a perturbed point on the same smooth piece only
    while h |J v| is far below them; derivatives compound through loops and
    exp chains (inside every margin) to 1e4 or 1e5, and a function that
    sharp changes faster than float64 differences can follow.  That is
    neither the SUT's fault nor a margin that is too thin: when the estimate
    at the finest step that gave a finite one (`sizes` runs coarsest first)
    exceeds `FD_SHARP_DERIVATIVE`, the example is rejected, with an event so
    that Hypothesis's statistics count it (outside a property, `TooSharp` is
    raised).  So is an example where every step crosses a kink although the
    unperturbed point keeps every margin: a value inside the program then
    moves by a margin (KINK_MARGIN, 0.05, or more) within the finest step
    (1e-4 at second order), a slope of 500 or more, which the outputs need
    not show (a loop of `rad2deg` into a `remainder` compounds it to 2,500).
    Anything else (a kink crossed from a point that breaks a margin, a tame
    derivative that no step resolves) is jaxcheck's bug and fails loudly.
    """
    message = f"{what}: " + "; ".join(problems)
    crossed_everywhere = all("crosses a kink" in problem for problem in problems)
    if sizes and sizes[-1] > FD_SHARP_DERIVATIVE or crossed_everywhere and inside_margins:
        if not currently_in_test_context():
            raise TooSharp(message)
        event("finite differences: too sharp to judge, rejected")
        reject()
    raise GeneratorBug(message)


def inner(a, b) -> float:
    """<a, b> summed over a sequence of arrays."""
    return float(sum(np.vdot(x, y) for x, y in zip(a, b)))


def inner_error(a, errors) -> float:
    """A bound on the error of <a, b> when b carries per-element `errors`."""
    return float(sum(np.sum(np.abs(x) * e) for x, e in zip(a, errors)))


# ----------------------------------------------------------------------------- mixed

class Scalar(NamedTuple):
    """One derivative estimate and a bound on its error."""

    value: float
    error: float


def _psi(program, point, weights, eps, base_switches) -> float:
    """<weights(eps), program(point(eps))>, refusing a point on another side of a kink."""
    switches = []
    with np.errstate(all="ignore"):
        outputs = evaluate(program, point(eps), switches=switches)
        value = inner(weights(eps), outputs)
    if any(not np.array_equal(s, b) for s, b in zip(switches, base_switches)):
        raise _Crossed(eps)
    return value


def _mixed_central(program, point, weights, order, h, base_switches) -> float:
    """sum over signs s of prod(s) psi(s h) / (2h)^k: the k-th mixed central difference."""
    total = 0.0
    for signs in itertools.product((1.0, -1.0), repeat=len(order)):
        eps = {e: s * h for e, s in zip(order, signs)}
        total += prod(signs) * _psi(program, point, weights, eps, base_switches)
    return total / (2 * h) ** len(order)


def mixed(program: Program, point, weights, order: tuple, *, steps=None) -> Scalar:
    """d^k/d eps[order] of <weights(eps), program(point(eps))> at eps = 0, k = len(order) <= 2.

    `point(eps)` and `weights(eps)` give the program's inputs and the weights
    on its outputs for a dict of small parameters.  Order 0 is the exact
    NumPy value.  Otherwise the k-th mixed central difference at steps h and
    h/2 is combined by Richardson extrapolation (its error is ~ c h^2 for k
    = 1 and 2 alike), and the error bound is |D(h/2) - D(h)| / 3 plus the
    rounding term of `FD_ROUNDING_MIXED`.  Every step of `FD_STEPS` (order
    1) or `FD_STEPS_SECOND_ORDER` (order 2) is tried, and the reliable one
    with the smallest bound is used: no step suits every program, and the
    bounds are honest (estimates at two steps differ by at most 0.4 times
    the sum of their bounds over 800 drawn stacks).  At order 1, when none
    is reliable, the steps of `FD_STEPS_SHARP` are tried the same way.
    """
    k = len(order)
    if k > 2:
        raise ValueError(f"order={order!r}: finite differences here go to second order")
    zero = {e: 0.0 for e in order}
    base_switches = []
    outputs = evaluate(program, point(zero), switches=base_switches)
    value = inner(weights(zero), outputs)
    if k == 0:
        return Scalar(value, 0.0)
    scale = sum(float(np.sum(np.abs(w) * (1 + np.abs(y)))) for w, y in zip(weights(zero), outputs))
    if steps:
        groups = (steps,)
    else:
        groups = (FD_STEPS, FD_STEPS_SHARP) if k == 1 else (FD_STEPS_SECOND_ORDER,)
    problems, sizes = [], []
    for group in groups:
        reliable = []
        for h in group:
            try:
                coarse, fine = (_mixed_central(program, point, weights, order, step, base_switches)
                                for step in (h, h / 2))
            except _Crossed:
                problems.append(f"step {h:g} crosses a kink (`where`/`maximum` switch side)")
                continue
            estimate = fine + (fine - coarse) / 3
            error = abs(fine - coarse) / 3 + FD_ROUNDING_MIXED * k * EPS * (1 + scale) / h ** k
            if np.isfinite(estimate) and error <= FD_RELIABLE * max(1.0, abs(estimate)):
                reliable.append(Scalar(float(estimate), float(error)))
            else:
                problems.append(f"step {h:g}: estimate {estimate:.3g}, error bound {error:.3g}")
                if np.isfinite(estimate):
                    sizes.append(abs(float(estimate)))
        if reliable:
            return min(reliable, key=lambda estimate: estimate.error)
    _give_up(f"order-{k} finite differences are unreliable at every step", problems, sizes,
             _inside_margins(program, point(zero)))
