"""Every literal jaxcheck writes into a program or a reproducer reads back bit for bit.

Inputs, expected values, error estimates and module constants are written by
`strategies.language.render.array_literal`, constants inside a program by
`operand_source`; a reproducer is only as good as its literals, and `repr`
writes `nan` and `inf`, which a script does not define.  Each literal here
is rendered, executed, and compared with the original by its bits.
"""

import math
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays

from oracles.experiment import Experiment
from oracles.reproducer import Expectation, script
from oracles.tolerance import EXACT
from strategies.language.render import (
    PRELUDE,
    array_literal,
    float_literal,
    operand_source,
    render_module,
)

pytestmark = pytest.mark.meta
ROOT = Path(__file__).resolve().parents[2]

EDGES = [math.nan, -math.nan, math.inf, -math.inf, 0.0, -0.0, 5e-324, -5e-324,
         2.2250738585072014e-308, 1.7976931348623157e308, 0.1,
         # a NaN of another payload than np.nan's
         float(np.frombuffer(bytes.fromhex("010000000000f87f"))[0])]


def _bits(values) -> np.ndarray:
    return np.asarray(values, dtype=np.float64).view(np.uint64)


def _read_back(source: str):
    return eval(source, {"np": np})


@pytest.mark.parametrize("x", EDGES, ids=repr)
def test_a_float_literal_and_a_program_constant_read_back_bit_for_bit(x):
    assert _bits(_read_back(float_literal(x))) == _bits(x)
    assert _bits(_read_back(operand_source(x))) == _bits(x)


@pytest.mark.parametrize("shape", [(), (len(EDGES),), (3, len(EDGES)), (0, 2), (2, 0)], ids=str)
def test_an_array_literal_with_every_edge_reads_back_bit_for_bit(shape):
    values = np.resize(np.array(EDGES), shape)
    back = np.asarray(_read_back(array_literal(values)))
    assert back.shape == values.shape
    assert np.array_equal(_bits(back), _bits(values))


@given(arrays(np.float64, array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4),
              elements=st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True)))
def test_any_float64_array_reads_back_bit_for_bit(values):
    back = np.asarray(_read_back(array_literal(values)))
    assert back.shape == values.shape and np.array_equal(_bits(back), _bits(values))


@given(arrays(np.float32, array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4),
              elements=st.floats(width=32, allow_nan=True, allow_infinity=True,
                                 allow_subnormal=True)))
def test_any_float32_array_reads_back_bit_for_bit_in_float32(values):
    """A float32 example's inputs stay float32 in its reproducer."""
    back = np.asarray(_read_back(array_literal(values)))
    assert back.dtype == np.float32 and back.shape == values.shape
    assert np.array_equal(back.view(np.uint32), values.view(np.uint32))


def test_an_integer_array_reads_back_as_integers():
    """An integer argument stays an integer array in its reproducer."""
    for values in (np.array([2, -1, 3]), np.array([[0, 5]]), np.array(7)):
        back = np.asarray(_read_back(array_literal(values)))
        assert back.dtype == np.int64 and np.array_equal(back, values)


def test_module_constants_read_back_bit_for_bit():
    constants = {"c0": np.array(EDGES), "c1": np.float64(-math.inf)}
    namespace = {"sut": SimpleNamespace(numpy=None)}
    exec(render_module("", constants=constants), namespace)
    for name, value in constants.items():
        assert np.array_equal(_bits(namespace[name]), _bits(value)), name


def test_a_reproducer_with_nan_and_infinity_runs_and_judges():
    """The script of a mismatch whose inputs, expectation and error hold NaN and
    infinities runs to its verdict (exit 1, MISMATCH), not a NameError."""
    source = PRELUDE + "\n\ndef f(x0):\n    return x0 * 2.0\n"
    inputs = {"x0": np.array([math.nan, math.inf, -0.0, 1.0])}
    expected = Expectation((np.array([math.nan, -math.inf, 0.0, 3.0]),), "a made-up oracle",
                           EXACT, error=(np.array([0.0, math.inf, 5e-324, 0.0]),))
    text = script(Experiment("f(x)", source, "f(x0)", inputs), "refimpl", expected)
    run = subprocess.run([sys.executable, "-c", text], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 1 and "MISMATCH" in run.stdout, run.stdout + run.stderr
