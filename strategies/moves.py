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
from strategies.identity_cases import (
    AdjointCase,
    CommuteCase,
    GradVjpCase,
    HessianCase,
    LinearityCase,
    VmapGradCase,
)
from strategies.language.evaluation import evaluate
from strategies.program import ProgramCase
from strategies.pytree_cases import TransformedPackedCase, VmapPackedCase
from strategies.stacks import StackCase, batched_input
from strategies.wrappers import named

# The generator's bounds (strategies/language/inputs.py): inputs in [-2, 2], directions in [-1, 1].
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


def movable(drawn) -> bool:
    """Whether `moved` has a rule for `drawn` (or nothing in it needs one)."""
    return type(drawn) in RULES or _inert(drawn)


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


def _named_directions(arrays: dict, move: Move) -> dict:
    return {name: move(a, DIRECTION_BOUND) for name, a in arrays.items()}


def _batched(case: ProgramCase, in_axes) -> tuple:
    return batch_inputs(case, per_input_axes(in_axes, len(case.args)))


def _vmap_case(drawn: VmapCase, move: Move) -> VmapCase:
    case = _program_case(drawn.case, move)
    return drawn._replace(case=case, batched=_batched(case, drawn.in_axes))


def _vmap_grad_case(drawn: VmapGradCase, move: Move) -> VmapGradCase:
    case = _program_case(drawn.case, move)
    return drawn._replace(case=case, weights=_directions(drawn.weights, move),
                          batched=_batched(case, drawn.in_axes))


def _two_shape_case(drawn: TwoShapeCase, move: Move) -> TwoShapeCase:
    case = _program_case(drawn.case, move)
    return TwoShapeCase(case, stacked_with_flips(case.args))


def _commute_case(drawn: CommuteCase, move: Move) -> CommuteCase:
    """The program's inputs x.. rebuilt from the moved case (batched for vmap);
    tangents, cotangents and loss weights moved."""
    case = _program_case(drawn.case, move)
    in_axes = drawn.options.get("in_axes")
    xs = named("x", case.args if in_axes is None else _batched(case, in_axes))
    others = {k: v for k, v in drawn.inputs.items() if k not in xs}
    return drawn._replace(case=case, inputs=xs | _named_directions(others, move),
                          constants=_named_directions(drawn.constants, move))


def _transformed_packed_case(drawn: TransformedPackedCase, move: Move):
    case = _program_case(drawn.packed.case, move)
    xs = named("x", case.args)
    others = {k: v for k, v in drawn.inputs.items() if k not in xs}
    constants = drawn.constants and _named_directions(drawn.constants, move)
    return drawn._replace(packed=drawn.packed._replace(case=case),
                          inputs=xs | _named_directions(others, move), constants=constants)


def _vmap_packed_case(drawn: VmapPackedCase, move: Move) -> VmapPackedCase:
    case = _program_case(drawn.packed.case, move)
    return drawn._replace(packed=drawn.packed._replace(case=case),
                          batched=batch_inputs(case, drawn.axes))


def _stack_case(drawn: StackCase, move: Move) -> StackCase:
    """The outermost stage's first inputs rebuilt from the moved case (batched as
    its vmap layers batch them); its tangents and cotangents, the loss weights
    and the probes moved; a second point likewise."""
    case = _program_case(drawn.case, move)
    names = list(drawn.inputs)
    count = len(case.args)
    inputs = {name: batched_input(case, drawn.layers, i) for i, name in enumerate(names[:count])}
    inputs |= {name: move(drawn.inputs[name], DIRECTION_BOUND) for name in names[count:]}
    probes = {k: _directions(p, move) for k, p in drawn.probes.items()}
    again = drawn.again
    if again is not None:  # the second point, rebuilt as the first
        again = {name: batched_input(case, drawn.layers, i, shift=1)
                 for i, name in enumerate(names[:count])}
        again |= {name: move(drawn.again[name], DIRECTION_BOUND) for name in names[count:]}
    return drawn._replace(case=case, inputs=inputs,
                          constants=_named_directions(drawn.constants, move), probes=probes,
                          again=again)


def _fields(*directions: str, scalars: tuple[str, ...] = ()) -> Callable:
    """A rule for a case type made of the program case (field `case`), tuples of
    direction arrays (`directions`) and single direction arrays (`scalars`),
    everything else kept."""

    def rule(drawn, move: Move):
        moves = {"case": _program_case(drawn.case, move)}
        moves |= {name: _directions(getattr(drawn, name), move) for name in directions}
        moves |= {name: move(getattr(drawn, name), DIRECTION_BOUND) for name in scalars}
        return drawn._replace(**moves)

    return rule


RULES: dict[type, Callable] = {
    ProgramCase: _program_case,
    JvpCase: _fields("tangents"),
    GradCase: _fields("weights", "directions"),
    VjpCase: _fields("cotangents", "directions"),
    VmapCase: _vmap_case,
    TwoShapeCase: _two_shape_case,
    AdjointCase: _fields("tangents", "cotangents"),
    LinearityCase: _fields("t", "s", scalars=("a", "b")),
    HessianCase: _fields("weights", "p", "q"),
    GradVjpCase: _fields("weights"),
    VmapGradCase: _vmap_grad_case,
    CommuteCase: _commute_case,
    StackCase: _stack_case,
    TransformedPackedCase: _transformed_packed_case,
    VmapPackedCase: _vmap_packed_case,
}
