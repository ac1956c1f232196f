"""New inputs for a drawn example, with its program and every structural choice kept.

After Hypothesis has shrunk a failing example, `oracles/amplify.py` looks for
inputs at which the same program shows its bug plainly.  `moved(drawn, move)`
gives the drawn example with every input array replaced by `move(array,
bound)`: program inputs within `INPUT_BOUND`, directions (tangents,
cotangents, loss weights) within `DIRECTION_BOUND`, as the generator draws
them.  What is derived from the inputs (a batch stacked from the variants,
the bigger inputs of a jit case) is rebuilt from the moved ones, and the
program is kept only where the generator would have kept it: every input set
inside every domain margin (`evaluate(..., checked=True)` raises
`OutOfDomain` otherwise), so finite differences can still judge.

`RULES` says how each drawn type moves.  A value of any other type that
holds an array raises `Unmovable`: its example is not amplified rather than
moved by a guess that might break what ties its parts together.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from strategies.cases import (
    GradCase,
    JvpCase,
    TwoShapeCase,
    VjpCase,
    VmapCase,
    batch_inputs,
    per_input_axes,
    stacked_with_flips,
)
from strategies.evaluation import evaluate
from strategies.program import ProgramCase

# The generator's bounds (strategies/inputs.py): inputs in [-2, 2], directions in [-1, 1].
INPUT_BOUND = 2.0
DIRECTION_BOUND = 1.0

Move = Callable[[np.ndarray, float], np.ndarray]


class Unmovable(TypeError):
    """A drawn value with arrays in it that no rule of `RULES` knows how to move."""


def moved(drawn, move: Move):
    """`drawn` at new inputs; raises `OutOfDomain` where the generator would not have drawn
    them, and `Unmovable` for a type without a rule."""
    rule = RULES.get(type(drawn))
    if rule is not None:
        return rule(drawn, move)
    if _inert(drawn):
        return drawn
    raise Unmovable(f"no rule moves the inputs of a {type(drawn).__name__}")


def _inert(value) -> bool:
    """Structure only (argnums, axes, labels, flags): nothing to move."""
    if isinstance(value, tuple | list):
        return all(map(_inert, value))
    return value is None or isinstance(value, str | int | bool)


def _program_case(case: ProgramCase, move: Move) -> ProgramCase:
    """Every input set moved (an input shared by all sets stays shared), each one
    checked against every domain margin of the program."""
    first = tuple(move(x, INPUT_BOUND) for x in case.args)
    rest = tuple(
        tuple(first[i] if shared else move(x, INPUT_BOUND)
              for i, (x, shared) in enumerate(zip(variant, case.shared)))
        for variant in case.variants[1:]
    )
    variants = (first, *rest)
    for inputs in variants:
        evaluate(case.program, inputs, checked=True)
    return case._replace(args=first, variants=variants)


def _directions(arrays, move: Move) -> tuple:
    return tuple(move(a, DIRECTION_BOUND) for a in arrays)


def _vmap_case(drawn: VmapCase, move: Move) -> VmapCase:
    case = _program_case(drawn.case, move)
    return drawn._replace(case=case, batched=batch_inputs(case, per_input_axes(drawn)))


def _two_shape_case(drawn: TwoShapeCase, move: Move) -> TwoShapeCase:
    case = _program_case(drawn.case, move)
    return TwoShapeCase(case, stacked_with_flips(case.args))


RULES: dict[type, Callable] = {
    ProgramCase: _program_case,
    JvpCase: lambda d, m: JvpCase(_program_case(d.case, m), _directions(d.tangents, m)),
    GradCase: lambda d, m: d._replace(case=_program_case(d.case, m),
                                      weights=_directions(d.weights, m),
                                      directions=_directions(d.directions, m)),
    VjpCase: lambda d, m: VjpCase(_program_case(d.case, m), _directions(d.cotangents, m),
                                  _directions(d.directions, m)),
    VmapCase: _vmap_case,
    TwoShapeCase: _two_shape_case,
}
