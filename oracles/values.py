"""A program's value, plainly and under `jit`: NumPy float64 is the oracle.

`check_value` holds `f(x)` to NumPy's evaluation of the program and to the
reference; `check_jit` holds one `jit(f)`, called at each of two inputs of one
shape, to the SUT's own eager `f` at each (so a wrong value of `f` itself
is `check_value`'s to report, not jit's) and to NumPy.  Both are whole
oracles for one case: `tests/test_value.py` and `tests/test_jit.py` run
them on drawn programs, `tests/test_cells.py` on every one-equation cell.
"""

from __future__ import annotations

from oracles.experiment import case_experiment
from oracles.reference import from_reference
from oracles.reproducer import Expectation
from oracles.sut import Sut
from oracles.tolerance import EXACT
from oracles.verify import verify, verify_returns
from strategies import wrappers
from strategies.cases import inputs_of
from strategies.language.evaluation import evaluate
from strategies.program import ProgramCase


def check_value(sut: Sut, reference: Sut | None, case: ProgramCase) -> None:
    """f(x) against NumPy float64 and the reference."""
    __tracebackhide__ = True
    exp = case_experiment(case, wrappers.value(case.program), "f(x)")
    by_numpy = Expectation(evaluate(case.program, case.args), "NumPy float64", EXACT)
    verify(sut, exp, by_numpy, *from_reference(reference, exp))


def check_jit(sut: Sut, case: ProgramCase) -> None:
    """One jit(f) called at the case's first input set, then at its second (a case of
    one set: once), against the SUT's eager f at each, then NumPy float64.

    The sets have one shape and other values: a jit that keeps what it compiled
    for a shape must still take each call's values, and one called once cannot
    show a jit that keeps the first call's (tests/broken/jit_keeps_the_first_values.py)."""
    __tracebackhide__ = True
    sets = case.variants[:2]
    eager = [verify_returns(sut, case_experiment(case._replace(args=args),
                                                 wrappers.value(case.program), "f(x) eagerly"),
                            "f eagerly, which jit must equal") for args in sets]
    by_numpy = [evaluate(case.program, args) for args in sets]
    if len(sets) == 1:
        exp = case_experiment(case, wrappers.jit(case.program), "jit(f)(x)")
    else:
        exp = case_experiment(case, wrappers.jit_twice(case.program),
                              "one jit(f) at x, then at y of the same shapes",
                              inputs=inputs_of(case, y=sets[1]), also=sets[1:])
    each = " at each" if len(sets) > 1 else ""
    verify(sut, exp, Expectation(tuple(out for outs in eager for out in outs),
                                 f"{sut.name} eager{each}", EXACT),
           Expectation(tuple(out for outs in by_numpy for out in outs),
                       f"NumPy float64{each}", EXACT))
