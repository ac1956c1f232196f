"""An SUT that follows another convention at a kink says so, and is not failed for it.

`tests.broken.sqrt_derivative_zero_at_zero` gives sqrt a zero derivative at
0 where the contract (JAX) gives an infinite one.  Undeclared, that is a bug
the conventions property catches (tests/meta/test_broken_suts.py); declared
as `domain_edge` in `__sut_unsupported__`, it is a convention of its own, and
the property's rows for sqrt and log at 0 are skipped with a reason that
names it, while the other rows still run.
"""

from dataclasses import replace

import pytest

from oracles.sut import resolve
from tests.test_conventions import test_derivative_at_a_kink_follows_the_convention as prop

pytestmark = pytest.mark.meta

SAFE_SQRT = "tests.broken.sqrt_derivative_zero_at_zero"


def test_a_declared_convention_is_skipped_with_its_name():
    sut = resolve(SAFE_SQRT)
    declared = replace(sut, unsupported=sut.unsupported | {"domain_edge"})
    with pytest.raises(pytest.skip.Exception, match="declares domain_edge: it follows another"):
        prop(sut=declared, reference=None, name="sqrt_at_zero", mode="jvp")


def test_the_other_rows_still_run_on_it():
    sut = resolve(SAFE_SQRT)
    declared = replace(sut, unsupported=sut.unsupported | {"domain_edge"})
    prop(sut=declared, reference=None, name="power_at_zero", mode="vjp")
