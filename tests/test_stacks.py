"""Stacks of up to three transformations, each layer against its own meaning.

A drawn stack (`strategies/stacks.py`) such as `jit(vmap(jvp(f)))` is run
stage by stage on the SUT, innermost first, and each layer is held to its
row of `LAYERS`:

* `jit` is the identity: the stage equals its inner stage run eagerly;
* `vmap` is a loop: the stage equals its inner stage on each batch element,
  stacked on `out_axes`;
* `jvp`, `grad`, `vjp` are derivatives: the stage, projected on random
  weights, equals the NumPy meaning of the stack up to it, by central
  finite differences of order <= 2 (`oracles.finite_diff.mixed`).

The first two compare with the SUT's own inner stage, so a failure names the
layer that broke; the whole stack is then held to its NumPy meaning (when
its top layer is not already a derivative) and to the reference SUT.

One stack is then called again at a second point, drawn apart from the
first (`oracles.stack_layers.check_reuse`): the second call must equal the
stack built afresh there, so a system that keeps a primal, a residual or a
trace from the first call by function object is caught (where the top layer
is vjp, its pullback is called at two cotangents too).  A stack of two
forward-mode layers (jvp of jvp) runs over a program that takes its first
result again and again (`a = sin(x); (a * a) * a`), where nested forward
mode must keep each level's perturbation apart.

An example in two runs in float32 (its inputs, tangents and loss weights
float32; an SUT that computes in float64 only declares `float32`), judged
by the same oracles at float32's tolerance (`oracles/tolerance.py`,
`in_float32`): the NumPy meaning and finite differences stay float64, at
the float32 inputs.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles.stack_layers import check_stack
from strategies import stacks
from strategies.dtypes import FLOAT32, stack_in_dtypes


def supported_layers(sut) -> tuple[str, ...]:
    """The core layers the SUT offers (the derived ones are tests/test_jacobians.py's)."""
    kinds = tuple(k for k in stacks.CORE if sut.supports(k))
    if not kinds:
        pytest.skip(f"{sut.name} declares every transformation unsupported (__sut_unsupported__)")
    return kinds


@given(data=st.data())
def test_stack_layers_match_their_meaning_and_reference(sut, reference, vocabulary, data):
    """Each layer of a drawn stack of up to three transformations matches its own meaning."""
    kinds = supported_layers(sut)
    plain = any(not stacks.LAYERS[k].derivative for k in kinds)
    stack = data.draw(stacks.stack_cases(stacks.stack_programs(vocabulary), kinds=kinds,
                                         max_layers=3 if plain else stacks.MAX_DERIVATIVES,
                                         again=True, fan_out=True),
                      label="stack")
    if sut.supports("float32") and data.draw(st.booleans(), label="in float32"):
        stack, _ = stack_in_dtypes(stack, [FLOAT32] * len(stack.case.args))
    check_stack(sut, reference, stack)
