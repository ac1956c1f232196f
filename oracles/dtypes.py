"""Dtypes: each output an SUT returns has the dtype the contract says.

float32 inputs give float32 outputs through every transformation, a
derivative has its primal's dtype, and float32 with float64 promotes to
float64 (`strategies/dtypes.py` says which dtype each output must have).
A result of the right values in the wrong dtype passes every comparison of
values, which read it as float64: only this oracle sees it.
"""

from __future__ import annotations

import numpy as np

from oracles.errors import SutBadOutput, SutWrongDtype
from oracles.experiment import Experiment
from oracles.reproducer import attached, dtype_script
from oracles.sut import Sut


def check_dtypes(sut: Sut, exp: Experiment, expected: tuple[np.dtype, ...], why: str) -> None:
    """Every output of `exp` on `sut` has its dtype in `expected`, for the reason `why`."""
    __tracebackhide__ = True
    with attached(lambda: dtype_script(exp, sut.name, expected, why)):
        got = tuple(leaf.dtype for leaf in exp.result_on(sut, as_float64=False))
        where = f"[{exp.title} on {sut.name}]"
        if len(got) != len(expected):
            raise SutBadOutput(f"got {len(got)} outputs, but should be {len(expected)} {where}")
        wrong = [f"output {i} is {g.name}, but should be {np.dtype(e).name}"
                 for i, (g, e) in enumerate(zip(got, expected)) if g != e]
        if wrong:
            raise SutWrongDtype(f"{'; '.join(wrong)}: {why} {where}")
