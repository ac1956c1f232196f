"""One kind of error the SUT raises in one property is one bug, not one per program.

Hypothesis looks for further bugs after the first (`report_multiple_bugs`, on
in every profile but `ci` and `catch`) and shrinks each, telling them apart
by exception type and place.  The place of an error raised by C code is the
generated program's line, new in every program: a thorough run of torch.func
wrote 789 reproducers, 359 of them one TypeError in one property.
`SutRaised.kind_of` makes the kind of error the bug.
"""

import re

import pytest

from tests import test_value
from tests.meta.test_broken_suts import BOUNDED, run_property

pytestmark = pytest.mark.meta


def test_an_error_raised_from_c_in_many_programs_is_reported_once_per_kind(tmp_path):
    # Seed 4: its 100 `dev` examples call sin on arrays, as most seeds' but not all do.
    # Each bug is told apart while the examples are drawn, so a bounded shrink shows
    # the count as well as a full one: 20 s, where shrinking to the end took 90.
    run = run_property("tests.shims.sin_of_scalars_only",
                       test_value.test_value_matches_numpy_and_reference,
                       "--hypothesis-profile=dev", "--hypothesis-seed=4",
                       f"--reproducers={tmp_path}", shrinks=BOUNDED)
    assert run.returncode == 1, run.stdout[-3000:]
    kinds = set(re.findall(r"SutRaised: \S+ raised (\w+) while", run.stdout))
    assert "TypeError" in kinds, run.stdout[-3000:]
    saved = set(re.findall(r"saved to (\S+\.py)", run.stdout))
    # Each bug may keep its shrunk example's reproducer beside an amplified one.
    assert len(saved) <= 2 * len(kinds), f"{len(saved)} reproducers for {sorted(kinds)}"
