"""An SUT at a kink or a domain edge, against the value the contract's convention states.

A row of `strategies.language.conventions.CONVENTIONS` is run on the SUT under jvp or
vjp (jitted or not), and its results are held to the row's NumPy value, which
may hold NaN and infinities by design (`sqrt` at 0 has an infinite
derivative).  The call the SUT runs ends in `edges`, defined in the same
module: each output's finite part (NaN and inf as 0.0), then each output's
kind per element (0 finite, 1 NaN, 2 +inf, 3 -inf).  Both are finite numbers
that compare as numbers, and a NaN where a number is due shows plainly in
the reproducer as a kind 1 against 0.
The reference, where it follows the row's convention, must agree too.  The
property: `tests/test_conventions.py`.
"""

from __future__ import annotations

import inspect

import numpy as np

from oracles.experiment import Experiment
from oracles.reference import verify_matches_reference
from oracles.reproducer import Expectation
from oracles.sut import Sut
from oracles.tolerance import CONVENTION
from oracles.verify import verify
from strategies.language.conventions import Convention
from strategies.language.render import render_module
from strategies.language.transformations import JIT, JVP, VJP
from strategies.wrappers import define, names, tuple_of


def edges(*arrays):
    """Each array's finite part (NaN and inf as 0.0), then each array's kinds (0 finite,
    1 NaN, 2 +inf, 3 -inf): finite values that compare as numbers, edges as kinds."""
    arrays = [np.asarray(a, dtype=np.float64) for a in arrays]
    finite = [np.where(np.isfinite(a), a, 0.0) for a in arrays]
    kinds = [np.select([np.isnan(a), a == np.inf, a == -np.inf], [1.0, 2.0, 3.0], 0.0)
             for a in arrays]
    return (*finite, *kinds)


def as_tuple(value):
    """f's outputs as a tuple (a row's f returns one array or several)."""
    return value if isinstance(value, tuple) else (value,)


def _wrapper(row: Convention, mode: str, outputs: int, jitted: bool) -> tuple[str, list[str]]:
    """The source of `check` (jvp or vjp of f, flat outputs) and its parameters."""
    xs = names("x", row.arity)
    if mode == "jvp":
        ts = names("t", row.arity)
        params = xs + ts
        body = [f"out, tangent = {JVP.call('f', tuple_of(xs), tuple_of(ts))}",
                "return as_tuple(out) + as_tuple(tangent)"]
    else:
        us = names("u", outputs)
        params = xs + us
        cotangent = us[0] if outputs == 1 else tuple_of(us)
        body = [f"out, pullback = {VJP.call('f', *xs)}",
                f"return as_tuple(out) + tuple(pullback({cotangent}))"]
    source = define("check", params, body)
    if jitted:
        source += f"\n\ncheck = {JIT.call('check')}\n"
    return source, params


def convention_experiment(row: Convention, mode: str, inputs, directions,
                          jitted: bool) -> Experiment:
    outputs = len(row.value(*inputs))
    source, params = _wrapper(row, mode, outputs, jitted)
    helpers = inspect.getsource(edges) + "\n\n" + inspect.getsource(as_tuple)
    module = render_module(helpers, row.source, source)
    title = f"{'jit of ' * jitted}{mode} of f ({row.what})"
    return Experiment(title, module, f"edges(*check({', '.join(params)}))",
                      dict(zip(params, (*inputs, *directions))))


def expected(row: Convention, mode: str, inputs, directions) -> tuple:
    derivative = row.jvp if mode == "jvp" else row.vjp
    return edges(*row.value(*inputs), *derivative(*inputs, *directions))


def check_convention(sut: Sut, reference: Sut | None, row: Convention, mode: str, inputs,
                     directions, jitted: bool) -> None:
    """The SUT's value and derivative equal the row's, edges included; so do the
    reference's where it follows the row's convention."""
    __tracebackhide__ = True
    exp = convention_experiment(row, mode, inputs, directions, jitted)
    origin = (f"the contract's convention for {row.what} (docs/sut-api.md, JAX's), "
              "as finite parts then kinds (0 finite, 1 NaN, 2 +inf, 3 -inf)")
    verify(sut, exp, Expectation(expected(row, mode, inputs, directions), origin, CONVENTION))
    if reference is not None and (row.feature is None or reference.supports(row.feature)):
        verify_matches_reference(sut, reference, exp)
