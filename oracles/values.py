"""A program's value, plainly and under `jit`: NumPy float64 is the oracle.

`check_value` holds `f(x)` to NumPy's evaluation of the program and to the
reference; `check_jit` holds `jit(f)(x)` to the SUT's own eager `f(x)` (so a
wrong value of `f` itself is `check_value`'s to report, not jit's) and to
NumPy.  Both are whole oracles for one case: `tests/test_value.py` and
`tests/test_jit.py` run them on drawn programs, `tests/test_cells.py` on
every one-equation cell.
"""

from __future__ import annotations

from oracles.experiment import case_experiment
from oracles.reference import from_reference
from oracles.reproducer import Expectation
from oracles.sut import Sut
from oracles.tolerance import EXACT
from oracles.verify import verify, verify_returns
from strategies import wrappers
from strategies.evaluation import evaluate
from strategies.program import ProgramCase


def check_value(sut: Sut, reference: Sut | None, case: ProgramCase) -> None:
    """f(x) against NumPy float64 and the reference."""
    __tracebackhide__ = True
    exp = case_experiment(case, wrappers.value(case.program), "f(x)")
    by_numpy = Expectation(evaluate(case.program, case.args), "NumPy float64", EXACT)
    verify(sut, exp, by_numpy, *from_reference(reference, exp))


def check_jit(sut: Sut, case: ProgramCase) -> None:
    """jit(f)(x) against the SUT's eager f(x), then NumPy float64."""
    __tracebackhide__ = True
    eager = verify_returns(sut, case_experiment(case, wrappers.value(case.program),
                                                "f(x) eagerly"), "f eagerly, which jit must equal")
    verify(sut, case_experiment(case, wrappers.jit(case.program), "jit(f)(x)"),
           Expectation(eager, f"{sut.name} eager", EXACT),
           Expectation(evaluate(case.program, case.args), "NumPy float64", EXACT))
