"""What `vmap` must equal: the unbatched function on each batch element, stacked on `out_axes`.

`looped` runs the SUT's own unbatched `f` per element, so `check_vmap`,
which compares `vmap` with it, isolates batching (`tests/test_vmap.py` on
drawn programs, `tests/test_cells.py` on each one-equation cell); a wrong
value of `f` itself is `check_value`'s to find (`oracles/values.py`).  `stacked` is the
stacking step alone, for per-element results computed elsewhere (NumPy, in
`tests/test_python_control_flow.py`).
"""

from __future__ import annotations

import numpy as np

from oracles.experiment import case_experiment
from oracles.reproducer import Expectation
from oracles.sut import Sut
from oracles.tolerance import EXACT
from oracles.verify import verify, verify_returns
from strategies import wrappers
from strategies.program import ProgramCase


def stacked(per_element, out_axes: int) -> tuple[np.ndarray, ...]:
    """Each output of every batch element, stacked along `out_axes`."""
    return tuple(np.stack(outs, axis=out_axes) for outs in zip(*per_element))


def looped(sut: Sut, case: ProgramCase, out_axes: int) -> tuple[np.ndarray, ...]:
    """Run f on each input variant with the SUT, stack each output along out_axes."""
    per_variant = [verify_returns(sut, case_experiment(case._replace(args=args),
                                                       wrappers.value(case.program), "f(x)"),
                                  "f on one batch element, as the loop vmap is held to runs it")
                   for args in case.variants]
    return stacked(per_variant, out_axes)


def check_vmap(sut: Sut, case: ProgramCase, in_axes, out_axes: int, batched) -> None:
    """vmap(f, in_axes, out_axes) on the `batched` inputs against `looped`."""
    __tracebackhide__ = True
    exp = case_experiment(case, wrappers.vmap(case.program, in_axes, out_axes),
                          f"vmap(f, in_axes={in_axes!r}, out_axes={out_axes!r})",
                          inputs=wrappers.named("x", batched))
    origin = f"f applied to each of {len(case.variants)} batch elements, stacked on axis {out_axes}"
    verify(sut, exp, Expectation(looped(sut, case, out_axes), origin, EXACT))
