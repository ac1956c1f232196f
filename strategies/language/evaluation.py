"""Run a generated program in NumPy float64, looking each equation up in `LANGUAGE`.

The generator evaluates as it grows (every value is known when the next
equation is drawn); the properties and the finite-difference oracle call
`evaluate` for the program's expected value and its perturbed values.
"""

from __future__ import annotations

import numpy as np

from strategies.language.ir import Run, run
from strategies.language.table import LANGUAGE


def evaluate(program, inputs, *, switches: list | None = None, checked: bool = False) -> tuple:
    """Run `program` in NumPy; return its outputs as a tuple of arrays.

    When `switches` is a list, the boolean pattern of every kinked operation
    (and every branch predicate) is appended to it, so a caller can tell
    whether two evaluations took the same smooth piece.  With `checked`,
    every operation's domain margin is checked (OutOfDomain otherwise): the
    generator uses this to find how many loop iterations stay valid.
    """
    env = {var.name: np.asarray(x) for var, x in zip(program.inputs, inputs)}
    return run(program.eqns, program.outputs, env, Run(LANGUAGE, switches, checked))
