"""linearize, jacfwd, jacrev and hessian, each as a layer of a stack, against its meaning.

JAX builds these four from `jvp`, `vjp` and `vmap`, and so may an SUT: the
bugs they hide are in what the building adds (the basis of tangents or
cotangents, the axes of the result, the nesting for several outputs and a
tuple `argnums`, the tangent program `linearize` stages once).  A drawn
stack features one of them, alone or with one more layer of any kind inside
or outside it (`vmap(jacrev(f))`, `jacfwd(jit(f))`, `linearize(grad(f))`),
and each layer is held to its row of `stacks.LAYERS` as in
`tests/test_stacks.py`: a Jacobian, projected on random weights, equals the
sum over its input's elements of the derivatives along each unit vector,
by central finite differences, and a Hessian the double sum of second
differences.  That meaning has a term per input element, so the programs
are small (`stacks.JACOBIAN_PROGRAMS`).  The whole stack is then called
again at a second point, against itself built afresh there and the
reference SUT (`oracles.stack_layers.check_reuse`: a Jacobian's function
made once and called twice, linearize's returned function at two tangents),
and two forward-mode layers (jacfwd of jacfwd, jvp of linearize) run over a
program that takes its first result again and again, as in
`tests/test_stacks.py`.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles.stack_layers import check_stack
from strategies import stacks


@pytest.fixture(scope="module")
def featured(sut) -> tuple[str, ...]:
    """The derived transformations the SUT offers; skipped, before any example is
    drawn, if none (module-scoped: Hypothesis refuses a function-scoped fixture
    that its examples would share)."""
    derived = [k for k in stacks.ORDER if stacks.LAYERS[k].derived]
    offered = tuple(k for k in derived if sut.supports(k))
    if not offered:
        pytest.skip(sut.lacking(derived))
    return offered


@given(data=st.data())
def test_jacobians_and_linearize_match_their_meaning_and_reference(sut, reference, vocabulary,
                                                                    featured, data):
    """A stack featuring linearize, jacfwd, jacrev or hessian matches its meaning."""
    kinds = tuple(k for k in stacks.ORDER if sut.supports(k))
    plain = any(not stacks.LAYERS[k].derivative for k in kinds)
    stack = data.draw(stacks.stack_cases(stacks.jacobian_programs(vocabulary), kinds=kinds,
                                         featuring=featured, max_layers=2 if plain else 1,
                                         again=True, fan_out=True),
                      label="stack")
    check_stack(sut, reference, stack)
