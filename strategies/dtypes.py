"""Dtypes: what each value of a program and of a transformation stack must be.

The contract's dtype rules are JAX's (and NumPy's, for the two floating
types): float32 operands give a float32 result, float32 with float64
promotes to float64, and a Python scalar is weak, taking the dtype of the
arrays beside it.  Through a transformation a tangent has its primal's
dtype, a cotangent and a gradient theirs too, as JAX requires.  A program's
NumPy meaning is float64 whatever its inputs (`evaluation.py`), so the
dtypes it must have are inferred here from the program, not evaluated.
Mixed dtypes are drawn here too: float32 for one input and float64 for
another, over programs of the `numpy` namespace alone (`mixed_dtypes`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from strategies import stacks
from strategies.cases import program_cases
from strategies.language.ir import Var
from strategies.language.opspec import OPS
from strategies.language.table import LANGUAGE
from strategies.language.vocabulary import Vocabulary
from strategies.stacks import LAYERS, Signature, StackCase

FLOAT32 = np.dtype(np.float32)
FLOAT64 = np.dtype(np.float64)


def program_dtypes(program, dtypes: Sequence[np.dtype]) -> tuple[np.dtype, ...]:
    """The dtype of each output of `program` whose inputs have `dtypes`.

    Inputs of one dtype give it to every value, constructs included (a
    Python scalar is weak).  Otherwise an operation's result promotes the
    dtypes of its array operands (`OpSpec.promoted`: not `where`'s
    predicate), and constructs are refused: a loop's carry and a branch's
    result must keep one dtype, which mixed dtypes break by design.
    """
    if len(set(map(np.dtype, dtypes))) == 1:
        return (np.dtype(dtypes[0]),) * len(program.outputs)
    known = {var.name: np.dtype(d) for var, d in zip(program.inputs, dtypes)}
    for eqn in program.eqns:
        spec = LANGUAGE[eqn.op]
        if spec.construct:
            raise InvalidArgument(f"{eqn.op} is a construct: program_dtypes infers operations only")
        arrays = [a for a in spec.promoted(eqn.args, eqn.kwargs) if isinstance(a, Var)]
        result = np.result_type(*(known[a.name] for a in arrays)) if arrays else FLOAT64
        known |= {out.name: result for out in eqn.outs}
    return tuple(known[out.name] for out in program.outputs)


def _dtype(slot: tuple) -> np.dtype:
    return next(x for x in slot if isinstance(x, np.dtype))


def stack_in_dtypes(stack: StackCase, dtypes: Sequence[np.dtype]) -> tuple[StackCase,
                                                                            tuple[np.dtype, ...]]:
    """`stack` with program input i in `dtypes[i]`, and the dtype each output of its
    top stage must have.

    Each tangent takes its primal's dtype, each cotangent and loss weight its
    output's, as JAX requires.  The dtypes follow from the layers' signature
    functions applied to one-element slots holding a dtype in place of
    shapes: they move slots whole, but for vmap's, which inserts the batch
    size beside the dtype, and the Jacobians', which join two slots (a
    stack of `stacks.CORE` layers only).
    """
    if any(LAYERS[layer.name].derived for layer in stack.layers):
        raise InvalidArgument("stack_in_dtypes takes stacks of the core layers only")
    dtypes = tuple(map(np.dtype, dtypes))
    base = stack.signatures[0]
    sigs = [Signature(base.names, tuple((d,) for d in dtypes),
                      tuple((d,) for d in program_dtypes(stack.case.program, dtypes)))]
    for level, layer in enumerate(stack.layers, 1):
        sigs.append(LAYERS[layer.name].signature(layer, level, sigs[-1]))
    top = sigs[-1]
    inputs = {name: np.asarray(stack.inputs[name], _dtype(slot))
              for name, slot in zip(top.names, top.inputs)}
    constants = {}
    for name, value in stack.constants.items():  # w{level}_{j}: output j of stage level - 1
        level, j = map(int, name[1:].split("_"))
        constants[name] = np.asarray(value, _dtype(sigs[level - 1].outputs[j]))
    again = stack.again and {name: np.asarray(stack.again[name], _dtype(slot))
                             for name, slot in zip(top.names, top.inputs)}
    return (stack._replace(inputs=inputs, constants=constants, again=again),
            tuple(_dtype(slot) for slot in top.outputs))


# Programs and dtypes for mixing float32 with float64 (tests/test_dtypes.py).

def promoting(vocabulary: Vocabulary) -> Vocabulary:
    """The SUT's operations of the `numpy` namespace: a construct's loop carry or
    branch result keeps one dtype, and `lax`'s operations take operands of one
    dtype, so mixed dtypes are theirs to refuse."""
    keep = [op for op in vocabulary.operations if OPS[op].namespace == "numpy"]
    return Vocabulary(tuple(keep), tuple(op for op in vocabulary.reverse_ops if op in keep))


def mixed_programs(vocabulary: Vocabulary):
    """`stacks.stack_cases`' programs: two or three inputs, whose dtypes will mix."""
    def programs(variants: int, reverse: bool, second: bool):
        return program_cases(vocabulary, variants=variants, reverse=reverse, min_inputs=2,
                             **stacks.STACK_PROGRAMS)
    return programs


@st.composite
def mixed_dtypes(draw, count: int) -> list:
    """float32 for x0, float64 for one of the others, either for the rest."""
    wide = draw(st.integers(1, count - 1), label="a float64 input")
    return [FLOAT32, *(FLOAT64 if i == wide else draw(st.sampled_from([FLOAT32, FLOAT64]),
                                                      label=f"dtype of x{i}")
                       for i in range(1, count))]
