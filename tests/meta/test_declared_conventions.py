"""An SUT that follows another convention says so, and is not failed for it.

At a kink: `tests.broken.sqrt_derivative_zero_at_zero` gives sqrt a zero
derivative at 0 where the contract (JAX) gives an infinite one.
Undeclared, that is a bug the conventions property catches
(tests/meta/test_broken_suts.py); declared as `domain_edge` in
`__sut_unsupported__`, it is a convention of its own, and the property's
rows for sqrt and log at 0 are skipped with a reason that names it, while
the other rows still run.

Of the transformations (`STAGING`): a declared convention is checked, not
skipped.  `tests/shims/staging_conventions.py` follows each one it
declares and passes the property that holds other SUTs to JAX's
behaviour; the SUTs that behave so without declaring it
(`grad_sums_outputs`, `jit_is_eager`, `vmap_batches_unmapped`) and those
that declare it and break it (`grad_nonscalar_by_mean`,
`jit_stages_the_first_branch`, `vmap_staged_if_takes_then`) fail it
(tests/meta/test_broken_suts.py).
"""

import inspect
import re
from dataclasses import replace
from pathlib import Path

import pytest

from oracles.sut import resolve
from strategies.language.conventions import FEATURES, STAGING
from strategies.language.vocabulary import vocabulary_for
from tests import test_errors, test_python_control_flow
from tests.meta.test_sut_api_doc import DOC
from tests.test_conventions import test_derivative_at_a_kink_follows_the_convention as prop

pytestmark = pytest.mark.meta

SAFE_SQRT = "tests.broken.sqrt_derivative_zero_at_zero"
ROOT = Path(__file__).resolve().parents[2]


def test_a_declared_convention_is_skipped_with_its_name():
    sut = resolve(SAFE_SQRT)
    declared = replace(sut, unsupported=sut.unsupported | {"domain_edge"})
    with pytest.raises(pytest.skip.Exception, match="declares domain_edge: it follows another"):
        prop(sut=declared, reference=None, name="sqrt_at_zero", mode="jvp")


def test_the_other_rows_still_run_on_it():
    sut = resolve(SAFE_SQRT)
    declared = replace(sut, unsupported=sut.unsupported | {"domain_edge"})
    prop(sut=declared, reference=None, name="power_at_zero", mode="vjp")


# Each convention of the transformations: the SUT that follows it and the property
# that checks it (the row's `prop`).
FOLLOWING = {
    "grad_nonscalar_sum": ("SUMS", test_errors.test_grad_of_a_non_scalar_output_raises),
    "jit_stages_control_flow": (
        "AUTOGRAPH", test_python_control_flow.test_jit_refuses_a_python_branch_on_a_traced_value),
    "vmap_stages_function": (
        "STAGED_VMAP", test_python_control_flow.test_vmap_branches_on_an_unbatched_value),
}


def test_every_convention_of_the_transformations_has_an_sut_that_follows_it():
    assert set(FOLLOWING) == set(STAGING)
    for feature, (_, test) in FOLLOWING.items():
        assert STAGING[feature].prop.endswith(f"::{test.__name__}"), feature
        assert (ROOT / STAGING[feature].prop.split("::")[0]).is_file(), feature


@pytest.mark.parametrize("feature", list(FOLLOWING))
def test_a_declared_convention_of_a_transformation_is_checked_and_passes(feature):
    """The SUT that follows the convention it declares passes the property (an SUT
    that does not follow it fails: tests/meta/test_broken_suts.py)."""
    name, test = FOLLOWING[feature]
    sut = resolve(f"tests.shims.staging_conventions:{name}")
    assert feature in sut.unsupported
    fixtures = {"sut": sut, "reference": None, "vocabulary": vocabulary_for(sut.unsupported)}
    test(**{param: fixtures[param] for param in inspect.signature(test).parameters})


def _conventions_table(heading: str) -> list[list[str]]:
    """The rows of the first table after `heading` in docs/sut-api.md, as cells."""
    text = DOC.read_text().split(f"## {heading}\n", 1)[1]
    lines = [line for line in text.split("\n## ", 1)[0].splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def test_the_contract_page_tables_the_conventions_the_code_checks():
    """Each convention feature is a row of the page's tables of conventions, with the
    property file that checks it; no row names a feature the code does not know."""
    kinks = _conventions_table("Conventions at kinks and domain edges")
    staging = _conventions_table("Conventions of the transformations")
    named = [re.fullmatch(r"`(\w+)`", row[-1]) for row in kinks + staging]  # or "none: ..."
    assert {match.group(1) for match in named if match} == set(FEATURES)
    for row in staging:
        feature = row[-1].strip("`")
        assert STAGING[feature].prop.split("::")[0] in row[-2], (
            f"docs/sut-api.md's row of {feature} does not name {STAGING[feature].prop}")
