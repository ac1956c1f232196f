"""Every ordered pair of transformations around every construct and family of operations.

A rule right under each transformation alone can be wrong where two meet:
a custom_jvp rule ignored when the derivative is taken inside `jit`, a
custom_vjp's backward pass batched wrong under `vmap` of `vjp`, a
checkpoint's captured values detached under `grad` of `vmap`.  Each row is
one subject (`strategies/pairs.py`: a construct with a rule of its own, or
a family of operations) and one outer transformation, and each of its
examples runs every pair `outer(inner(f))` the contract allows around the
subject (`pairs.pairs_for`), over a program that is the subject, so every
(subject, outer, inner) is met in every example: three times in `ci`.

Each pair is held to its NumPy meaning by finite differences
(`oracles.stack_layers.check_meaning`: the stack projected on random
weights, as `tests/test_stacks.py` holds each layer), an oracle that stages
nothing: a defect common to every staged composition shows, where
`test_jit_commutes_with`, holding `jit(T(f))` to `T(jit(f))`, would see
the two agree.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracles.stack_layers import check_meaning
from strategies import coverage, pairs, stacks

# Each example runs up to 9 pairs where another property runs one stack, so a row
# gets a twentieth of the profile's examples: 3 in `ci` (every pair of every subject
# reached 3 times, the coverage report's bar), 100 in `thorough`.
EXAMPLES = max(3, settings().max_examples // 20)


@settings(max_examples=EXAMPLES)
@pytest.mark.parametrize("subject, outer", pairs.ROWS, ids=[f"{s}-{o}" for s, o in pairs.ROWS])
@given(data=st.data())
def test_each_pair_of_transformations_around_each_subject(sut, reference, vocabulary, subject,
                                                          outer, data):
    """Each construct and family of operations under every pair of transformations."""
    inners = [i for o, i in pairs.pairs_for(subject, sut.supports, vocabulary) if o == outer]
    if not inners:
        pytest.skip(f"{sut.name} offers no pair {outer}(T(f)) around {subject}")
    size = data.draw(st.integers(2, 3), label="batch size")
    programs = pairs.shared(pairs.subject_programs(vocabulary, subject))
    for inner in inners:
        stack = data.draw(stacks.layered_cases(programs, (inner, outer), size,
                                               pairs.every_input(subject, outer, inner),
                                               leave_out=pairs.left_out(subject, outer, inner)),
                          label=f"{outer}({inner}(f))")
        coverage.note_pairs(stack.case.program, (inner, outer), stack.case.args)
        check_meaning(sut, reference, stack, 2)
