"""The shape-polymorphic generator (strategies/symbolic.py): valid at every size, and
every construct of the language drawn on values with a symbolic axis (half the
programs for reverse mode alone, where a custom_vjp function may be called).

Run with `-s` to see the share of programs that use each operation and
construct symbolically (docs/refimpl-dynamic-shapes.md quotes it).
"""

import dataclasses
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies.language.constructs import CONSTRUCTS
from strategies.language.evaluation import evaluate
from strategies.language.opspec import OPS
from strategies.language.table import LANGUAGE
from strategies.language.vocabulary import vocabulary_for
from strategies.symbolic import symbolic_cases, symbolic_uses

# One worker for the file: the second test reads what the first drew (`loadgroup`
# in tox.ini keeps a group together; split, the second skipped).
pytestmark = [pytest.mark.meta, pytest.mark.xdist_group("symbolic")]

EXAMPLES = 300
USES: Counter = Counter()


@settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None)
@given(case=st.one_of(*(symbolic_cases(vocabulary_for({"while_loop_reverse"}), grad_only=g)
                        for g in (False, True))))
def test_symbolic_programs_hold_at_every_size_and_keep_their_axes(case):
    """Every size assignment and batch element evaluates finite, every margin kept;
    every output axis is a variable or one fixed size (no arithmetic on sizes)."""
    for sets in case.args:
        for args in sets:
            for out in evaluate(case.program, args, checked=True):
                assert np.all(np.isfinite(out)) and np.all(np.abs(out) <= 100)
    for axes in case.out_axes():
        assert all(isinstance(d, str) and d in case.variables or isinstance(d, int) for d in axes)
    assert any(v for ax in case.axes for v in ax)
    USES["programs"] += 1
    USES.update(symbolic_uses(case))


def test_every_construct_is_drawn_symbolically():
    """Runs after the property above (file order)."""
    if not USES:
        pytest.skip("run together with the generator property above")
    total = USES.pop("programs")
    print(f"\nshare of {total} programs using each on a symbolic value:")
    for name, count in USES.most_common():
        print(f"  {name:14s} {count / total:6.1%}")
    assert set(CONSTRUCTS) - set(USES) == set()
    assert all(LANGUAGE[name].polymorphic for name in USES)


def test_an_operation_is_polymorphic_only_where_its_row_says_so():
    """An elementwise row is polymorphic by default; any other, added without saying so,
    is left out of shape-polymorphic programs (`OpSpec.polymorphic`)."""
    assert dataclasses.replace(OPS["sin"], polymorphic=None).polymorphic
    assert not dataclasses.replace(OPS["sum"], polymorphic=None).polymorphic
    assert OPS["sum"].polymorphic and not OPS["reshape"].polymorphic
