"""Compare what the SUT computed with what an oracle expects.

Messages follow "got X, but should be Y [what]" and name the output, the
worst element, its absolute and relative error, and the tolerance with its
reason: enough to judge a failure without a debugger.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from oracles.errors import Mismatch, SutBadOutput
from oracles.tolerance import Tolerance


def check_shapes(actual: Sequence[np.ndarray], shapes: Sequence[tuple], what: str) -> None:
    """The SUT returned exactly `len(shapes)` arrays of these shapes."""
    __tracebackhide__ = True
    got = [a.shape for a in actual]
    if len(got) != len(shapes):
        raise SutBadOutput(f"got {len(got)} arrays, but should be {len(shapes)} [{what}]")
    wrong = [f"output {i} has shape {g}, but should be {s}"
             for i, (g, s) in enumerate(zip(got, shapes)) if tuple(g) != tuple(s)]
    if wrong:
        raise SutBadOutput("; ".join(wrong) + f" [{what}]")


def assert_close(actual, expected, tol: Tolerance, what: str, *, error=None) -> None:
    """Every output within tolerance; `error` holds per-element estimates of the
    oracle's own error (finite differences), added in `tol.error_factor` times."""
    __tracebackhide__ = True
    check_shapes(actual, [np.shape(e) for e in expected], what)
    errors = error if error is not None else [np.zeros(np.shape(e)) for e in expected]
    worst = [
        _worst(i, a, e, tol, err)
        for i, (a, e, err) in enumerate(zip(actual, expected, errors))
        if not _close(a, e, tol, err)
    ]
    if worst:
        ratio, relative, _ = max(worst)
        raise Mismatch("\n".join(line for *_, line in worst) + f"\n[{what}; tolerance: {tol.why}]",
                       ratio=ratio, relative=relative)


def allowed(expected, tol: Tolerance, error) -> np.ndarray:
    return tol.atol + tol.rtol * np.abs(expected) + tol.error_factor * np.asarray(error)


def _close(actual, expected, tol, error) -> bool:
    with np.errstate(invalid="ignore"):
        return bool(np.all(np.abs(actual - expected) <= allowed(expected, tol, error)))


def _worst(i, actual, expected, tol, error) -> tuple[float, float, str]:
    """Output `i`'s worst element: its error over the allowed error, its relative
    error, and a line that names it."""
    with np.errstate(invalid="ignore", divide="ignore"):
        limit = allowed(expected, tol, error)
        excess = np.nan_to_num(np.abs(actual - expected) / limit, nan=np.inf)
    worst = np.unravel_index(np.argmax(excess), np.shape(actual)) if np.ndim(actual) else ()
    a, e = np.asarray(actual)[worst], np.asarray(expected)[worst]
    abs_err = abs(a - e)
    rel_err = abs_err / abs(e) if e else np.inf
    at = f" at index {tuple(int(k) for k in worst)}" if worst else ""
    bound = float(np.broadcast_to(limit, np.shape(actual))[worst])
    ratio = float(np.asarray(excess)[worst])
    if np.isnan(a) or np.isnan(e):  # NaN is never close, even to NaN: inputs keep off poles
        return ratio, float(rel_err), (
            f"output {i}{at}: got {a!r}, but should be {e!r}: NaN, where every value of a "
            f"generated program is finite (inputs keep off every pole and domain edge)")
    return ratio, float(rel_err), (
        f"output {i}{at}: got {a!r}, but should be {e!r} (abs error {abs_err:.3g}, "
        f"{ratio:.3g} times the allowed {bound:.3g}; rel error {rel_err:.3g})")
