"""Central finite differences with an error estimate.

`directional(program, args, direction)` estimates the directional derivative
J(x) v of every output of a NumPy-evaluated program with central differences
at two steps, h and h/2, and combines them by Richardson extrapolation
(h is the first of `FD_STEPS` whose own error estimate is small enough):

    D(h) = (f(x + h v) - f(x - h v)) / 2h           error ~ c h^2
    R    = D(h/2) + (D(h/2) - D(h)) / 3             error ~ c' h^4

|D(h) - D(h/2)| / 3 estimates the error of D(h/2), so it bounds R's error
with room to spare; a rounding term eps |f| / h is added.  Every evaluation
also records which side of each kink (`where`, `maximum`) it took: a
perturbed point on another side would make the estimate meaningless, so that
is reported as a generator bug, as is an estimate whose own error is large.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from oracles.errors import GeneratorBug
from oracles.tolerance import FD_RELIABLE, FD_STEPS
from strategies.ir import Program, evaluate

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
    """Why `estimate` cannot be trusted, or None."""
    for i, (v, e) in enumerate(zip(*estimate)):
        if np.any(e > FD_RELIABLE * np.maximum(1.0, np.abs(v))):
            return (f"output {i} has error estimate {float(np.max(e)):.3g} for derivatives "
                    f"up to {float(np.max(np.abs(v))):.3g}")
    return None


def directional(program: Program, args, direction, *, steps=FD_STEPS) -> Estimate:
    """Estimate J v for every output of `program` at `args` along `direction`.

    Steps are tried largest first (least rounding error); a function that
    varies fast (sin of x**-2 near the pole margin, exp of a sum of 125
    elements) needs a smaller one, and the first step whose own error
    estimate is small enough is used.  Only when every step fails is the
    example reported as a generator bug.
    """
    base_switches = []
    base = evaluate(program, args, switches=base_switches)
    problems = []
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
    raise GeneratorBug("finite differences are unreliable at every step: " + "; ".join(problems))


def inner(a, b) -> float:
    """<a, b> summed over a sequence of arrays."""
    return float(sum(np.vdot(x, y) for x, y in zip(a, b)))


def inner_error(a, errors) -> float:
    """A bound on the error of <a, b> when b carries per-element `errors`."""
    return float(sum(np.sum(np.abs(x) * e) for x, e in zip(a, errors)))
