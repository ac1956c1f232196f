"""Equal programs, equal results: a program and its rewrite under every transformation.

A drawn program is rewritten into a mathematically equal one
(`strategies/equivalences.py`: `x` as `maximum(x, x)` or `where(p, x, x)`,
`x * 1`, `x + 0`, a double transpose, a reshape round trip, a sum over a
size-1 axis, a loop split or unrolled, a `cond` with equal branches,
commutative operands swapped, a `matmul` reassociated, `x ** 2` as `x * x`,
...), and a drawn stack of up to three layers of jit, vmap, jvp, grad and
vjp (`strategies/stacks.py`) is applied to both.  The SUT must give both
programs the same value and the same stacked result, and agree with the
reference on both (`oracles/equivalence.py`).

The point is where finite differences cannot judge: `maximum(x, x)` is a tie
at every element, `where(x > x, x, x)` and a `cond` whose threshold equals its
predicate sit on their switch.  Equal functions have equal derivatives
wherever they have derivatives, and the contract's conventions make these
points differentiable (docs/sut-api.md, "Conventions at kinks and domain
edges"): at a tie, maximum's tangent is a weighted mean of its operands'
tangents with weights that sum to one (JAX: one half each), so that
`maximum(x, x)` has the derivative of `x` under every convention an SUT may
declare; the unselected side of `where` receives a zero cotangent.  How a
tie is split between two different values is checked against the
contract's stated value in `tests/test_conventions.py`.
"""

from hypothesis import given
from hypothesis import strategies as st

from oracles.equivalence import check_equivalent
from strategies import equivalences, stacks
from tests.test_stacks import supported_layers


@given(data=st.data())
def test_rewritten_program_agrees_under_every_transformation(sut, reference, vocabulary, data):
    """A program and its rewrite into an equal one agree under a drawn stack of transformations."""
    kinds = supported_layers(sut)
    plain = any(not stacks.LAYERS[k].derivative for k in kinds)
    stack = data.draw(stacks.stack_cases(stacks.stack_programs(vocabulary), kinds=kinds,
                                         max_layers=3 if plain else stacks.MAX_DERIVATIVES),
                      label="stack")
    rewritten, applied = data.draw(equivalences.rewritten(stack.case, vocabulary.ops),
                                   label="rewritten")
    check_equivalent(sut, reference, stack, rewritten, applied)
