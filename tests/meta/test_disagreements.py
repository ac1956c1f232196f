"""What a failed comparison says: NaN plainly, numbers as numbers, the operation that
lost precision.

A NaN in the same place on both sides is agreement; on one side only it is
named as such.
"""

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from oracles.amplify import search
from oracles.compare import assert_close
from oracles.errors import Mismatch
from oracles.experiment import Experiment
from oracles.reproducer import Expectation, script
from oracles.tolerance import EXACT
from strategies.ir import Eqn, Var
from strategies.program import Program, ProgramCase
from strategies.render import PRELUDE

pytestmark = pytest.mark.meta
ROOT = Path(__file__).resolve().parents[2]


def _message(check) -> Mismatch:
    with pytest.raises(Mismatch) as raised:
        check()
    return raised.value


# ----------------------------------------------------------------------------- NaN

@pytest.mark.parametrize("same", [math.nan, math.inf, -math.inf], ids=repr)
def test_the_same_nan_or_infinity_on_both_sides_is_agreement(same):
    a, b = np.array([1.0, same]), np.array([1.0, same])
    assert_close((a,), (b,), EXACT, "f(x)")


def test_a_nan_on_one_side_says_so_and_a_real_difference_beside_it_is_not_hidden():
    sut_nan = _message(lambda: assert_close((np.array([1.0, math.nan]),),
                                            (np.array([1.0, 2.0]),), EXACT, "f(x)"))
    assert "output 0 at index (1,): got nan, but should be 2.0: a NaN on the SUT's side only" \
        in str(sut_nan)
    oracle_nan = _message(lambda: assert_close((np.array([2.0]),), (np.array([math.nan]),),
                                               EXACT, "f(x)"))
    assert "got 2.0, but should be nan: a NaN on the oracle's side only" in str(oracle_nan)
    # NaN at index 1 on both sides agrees: the worst element is the real difference at 0.
    beside = _message(lambda: assert_close((np.array([1.0, math.nan]),),
                                           (np.array([3.0, math.nan]),), EXACT, "f(x)"))
    assert "output 0 at index (0,): got 1.0, but should be 3.0" in str(beside)


def test_a_reproducer_agrees_where_compare_agrees_on_the_same_nan_or_infinity():
    source = PRELUDE + "\n\ndef f(x0):\n    return x0 * 2.0\n"
    inputs = {"x0": np.array([math.nan, math.inf, 1.0])}
    same = Expectation((np.array([math.nan, math.inf, 2.0]),), "by hand", EXACT)
    text = script(Experiment("f(x)", source, "f(x0)", inputs), "refimpl", same)
    run = subprocess.run([sys.executable, "-c", text], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0 and "agree within tolerance" in run.stdout, run.stdout + run.stderr


def test_values_are_written_as_numbers():
    failure = _message(lambda: assert_close((np.array(1.5),), (np.array(3.0),), EXACT, "f(x)"))
    assert "got 1.5, but should be 3.0" in str(failure) and "np.float64" not in str(failure)


# ----------------------------------------------------------------------------- precision

def _one_operation(op: str) -> ProgramCase:
    x, y = Var("x0", (2,)), Var("v0", (2,))
    program = Program((x,), (Eqn(op, (x,), (), y, "call"),), (y,))
    args = (np.array([0.5, 0.25]),)
    return ProgramCase(program, args, (args,), (False,))


def _precision_loss(drawn: list) -> Mismatch:
    """A float32 step: about 3 times the tolerance at every input, 3e-7 relative."""
    return Mismatch("", ratio=3.0 + 0.1 * np.sin(float(np.sum(drawn[-1].args[0]))),
                    relative=3e-7)


def test_a_loss_of_precision_names_the_operation_that_lost_it():
    """The per-operation property draws one program per operation and checks each as
    it is drawn: the last one drawn is the one that failed."""
    drawn = [_one_operation("sin"), _one_operation("exp")]
    note = search(_precision_loss, drawn, Mismatch("", ratio=3.0, relative=3e-7)).note()
    assert "a loss of precision in exp, the program's one operation" in note, note
