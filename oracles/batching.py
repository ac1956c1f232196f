"""What `vmap` must equal: the unbatched function on each batch element, stacked on `out_axes`.

`looped` runs the SUT's own unbatched `f` per element, so a property that
compares `vmap` with it isolates batching (`tests/test_vmap.py`); a wrong
value of `f` itself is `tests/test_value.py`'s to find.  `stacked` is the
stacking step alone, for per-element results computed elsewhere (NumPy, in
`tests/test_python_control_flow.py`).
"""

from __future__ import annotations

import numpy as np

from oracles.experiment import case_experiment
from oracles.sut import Sut
from oracles.verify import verify_returns
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
