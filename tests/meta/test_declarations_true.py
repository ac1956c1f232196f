"""A real system's shim declares unsupported only what the system lacks or a finding explains.

A declaration skips every property that needs the feature, and the page
lists it under what the system lacks: one that is false hides the system's
behaviour there.  Each declared operation, and each one the shim leaves
unmapped, is tried on the system itself, without the shim
(`tests/meta/declarations.py`); where the system computes its value and a
derivative, the declaration must cite a finding of the system's page that
says why (a float32 kernel, a missing forward rule, ...), and an unmapped
operation must be mapped.  Every declaration carries its reason, and a
declared convention is one the system departs from.  A system that is not
installed is skipped, saying how to install it.
"""

import importlib.util

import pytest

from tests.meta import declarations
from tests.meta.declarations import AUTOGRAD, COMPUTES, LACKS, RAISES, SYSTEMS, TORCH

pytestmark = pytest.mark.meta


def _installed(system) -> bool:
    top = system.library.split(".")[0]
    return importlib.util.find_spec(top) is not None and \
        importlib.util.find_spec(system.library) is not None


def _need(system):
    if not _installed(system):
        pytest.skip(f"{system.library} is not installed ({system.install}): "
                    f"{system.shim} cannot be checked against it")
    if not system.path.exists():
        pytest.skip(f"{system.shim} does not exist yet ({system.path.name} missing)")


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.shim)
def test_each_declaration_is_true_and_each_operation_the_system_computes_is_mapped(system):
    _need(system)
    declared, unmapped = declarations.shim_parts(system)
    problems = declarations.judge(system, declared, unmapped)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.shim)
def test_each_declared_convention_is_one_the_system_follows(system):
    """A convention declared (`clip_convention`, ...) is one the system departs from:
    with the declaration taken away, the conventions property fails on it."""
    _need(system)
    declared, _ = declarations.shim_parts(system)
    needless = [feature for feature in declarations.conventions_declared(declared)
                if declarations.deviation(system.shim, feature) is None]
    assert not needless, (f"{system.shim} declares {', '.join(needless)}, but follows the "
                          "contract's convention there")


def test_a_declared_convention_the_system_follows_fails_it():
    """autograd follows the contract at a tie of maximum (half of each tangent):
    declaring `tie_convention` is not needed, and the check says so."""
    _need(AUTOGRAD)
    assert declarations.deviation("suts.autograd", "tie_convention") is None
    assert "clip_at_bounds" in (declarations.deviation("suts.autograd", "clip_convention") or "")


def test_a_declared_operation_the_system_computes_fails_it():
    """A copy of the autograd shim's declarations with `sin` added, which autograd
    computes in both modes, with a reason that cites no finding."""
    _need(AUTOGRAD)
    declared, unmapped = declarations.shim_parts(AUTOGRAD)
    declared["sin"] = "a reason that names no finding"
    problems = declarations.judge(AUTOGRAD, declared, unmapped)
    assert any(p.startswith("suts.autograd declares sin unsupported, but autograd computes it")
               for p in problems), problems


def test_an_unmapped_operation_the_system_computes_fails_it():
    _need(AUTOGRAD)
    declared, unmapped = declarations.shim_parts(AUTOGRAD)
    problems = declarations.judge(AUTOGRAD, declared, unmapped | {"arctan"})
    assert any("leaves arctan unmapped, but autograd computes it" in p for p in problems), \
        problems


def test_a_declaration_without_a_reason_fails_it():
    _need(AUTOGRAD)
    declared, unmapped = declarations.shim_parts(AUTOGRAD)
    declared["take"] = ""
    problems = declarations.judge(AUTOGRAD, declared, unmapped)
    assert problems == ["suts.autograd declares take with no reason (a comment on its line, "
                        "or above it)"]


def test_a_cited_finding_keeps_a_declaration_the_system_computes():
    """autograd computes `sin`; a reason citing a finding of its page (A3, as a shim
    would cite the finding that explains it) keeps the declaration."""
    _need(AUTOGRAD)
    declared, unmapped = declarations.shim_parts(AUTOGRAD)
    declared["sin"] = "wrong somewhere (docs/findings/autograd.md, A3)"
    assert declarations.judge(AUTOGRAD, declared, unmapped) == []


def test_the_verdicts_tell_lacking_from_raising_from_computing():
    _need(AUTOGRAD)
    assert declarations.try_operation(AUTOGRAD, "sin").outcome == COMPUTES
    assert declarations.try_operation(AUTOGRAD, "take").outcome == RAISES  # no derivative rule
    assert declarations.try_operation(AUTOGRAD, "dynamic_slice").outcome == LACKS  # no lax
    _need(TORCH)
    assert declarations.try_operation(TORCH, "cbrt").outcome == LACKS


def test_a_reason_is_the_comment_on_the_line_or_the_block_above(tmp_path):
    shim = tmp_path / "shim.py"
    shim.write_text('__sut_unsupported__ = frozenset({\n'
                    '    "make_jaxpr",  # no equations\n'
                    '    # a block of two\n'
                    '    # lines\n'
                    '    "take", "median",\n'
                    '    "flip",\n'
                    '    "cbrt",  # its own\n'
                    '    "fmod",\n'
                    '})\n'
                    'other = {"sin"}  # not a declaration\n')
    assert declarations.reasons(shim) == {
        "make_jaxpr": "no equations", "take": "a block of two lines",
        "median": "a block of two lines", "flip": "a block of two lines", "cbrt": "its own",
        "fmod": "a block of two lines"}
