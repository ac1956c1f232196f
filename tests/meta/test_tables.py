"""One table per fact: a list of transformations that cannot derive from its table is held to it.

The transformations are the rows of `strategies/language/transformations.py`.  Most
lists derive from them (the contract's top level, the coverage modes, the
stack layers, the constructs that apply one inside a program); a few keep an
order of their own, because the order is what Hypothesis draws from and
shrinks towards, or name only some.  Each of those is checked here against
the table, with what it leaves out and why, so a transformation added to the
table fails here until every list has taken it or said why not.
"""

import pytest

from strategies import stacks, symbolic_wrappers
from strategies.language.constructs import CONSTRUCTS
from strategies.language.transformations import DERIVED, TRANSFORMATIONS
from tests import test_cells, test_errors, test_identities, test_pytrees

pytestmark = pytest.mark.meta

# What the lists below that leave out the derived transformations say of them.
LATER = ("the derived ones (linearize, jacfwd, jacrev, hessian) are checked as the featured "
         "layer of a stack (tests/test_jacobians.py) and are not drawn here yet")

# name: (the list, entries that are not transformations, transformations it
# leaves out, and why).
LISTS = {
    "stacks.ORDER, the stack layers simplest first": (stacks.ORDER, (), (), ""),
    "stacks.LAYERS": (tuple(stacks.LAYERS), (), (), ""),
    "constructs.CONSTRUCTS, transformations applied inside a program": (
        tuple(row.transformation.name for row in CONSTRUCTS.values() if row.transformation),
        (), ("vjp", *DERIVED),
        f"a pullback is a function: inner_grad is reverse mode inside a program; {LATER}"),
    "tests/test_identities.py TRANSFORMS, what jit commutes with": (
        test_identities.TRANSFORMS, (), ("jit", *DERIVED),
        "jit commutes with itself trivially; jit inside and outside each derived one are "
        "stacks of tests/test_jacobians.py, each held to the same meaning"),
    "tests/test_errors.py TRANSFORMS, refusals simplest first": (
        test_errors.TRANSFORMS, ("eager",), DERIVED, LATER),
    "tests/test_pytrees.py TRANSFORMS": (
        test_pytrees.TRANSFORMS, ("value",), ("vmap", *DERIVED),
        f"vmap over pytrees is its own property, with pytree prefixes of in_axes; {LATER}"),
    "strategies/symbolic_wrappers.py TRANSFORMS, what export stages": (
        symbolic_wrappers.TRANSFORMS, ("value",), ("jit", "vjp", *DERIVED),
        f"export stages `jit(f)` itself, and vjp returns a function, which it cannot stage; "
        f"{LATER}"),
    "tests/test_cells.py MODES, by the features each needs": (
        tuple({name for features, _ in test_cells.MODES.values() for name in features}),
        (), DERIVED, LATER),
}


@pytest.mark.parametrize("name", list(LISTS))
def test_a_list_of_transformations_is_the_table_or_says_what_it_leaves_out(name):
    names, others, left_out, why = LISTS[name]
    listed = set(names) - set(others)
    assert listed == set(TRANSFORMATIONS) - set(left_out), (
        f"{name} lists {sorted(listed)}; the table (strategies/language/transformations.py) has "
        f"{sorted(TRANSFORMATIONS)}, of which it leaves out {sorted(left_out)}: {why or 'none'}")
    assert len(listed) == len(names) - len(set(names) & set(others)), f"{name} repeats a name"
