"""A known-findings baseline (`--known`, jaxcheck/known.py): known failures keep a CI green and
are not shrunk again; a new one fails the run and is named as new.

The command runs against a deliberately broken SUT whose `divide` has the
wrong forward-mode rule, with a findings file that knows it (and one finding
nothing shows, and one of another SUT); the same run without that finding
in the file exits 1 and names the failure as new.  The classification
itself (a verdict with a known and an unknown failure side by side is new)
is held on verdicts made here, without a run.
"""

import subprocess
from xml.etree import ElementTree

import pytest

from jaxcheck import known
from jaxcheck.runner import Verdict
from tests.meta.command import jaxcheck, verdicts

pytestmark = pytest.mark.meta

BROKEN = "tests.broken.div_jvp_denominator_sign"
PROPERTY = "test_jvp_matches_finite_differences_and_reference"
TEMPLATE = """# Findings of a broken divide

### D1. `divide`'s forward-mode rule has the denominator's sign wrong

Signature ({broken}): `{d1}`

### D2. A finding long fixed

Signature ({broken}): `nothing shows this 9f3a`

### X1. A finding of another system

Signature (mypkg.other): `.`
"""
KNOWN = TEMPLATE.format(broken=BROKEN, d1=r"jnp\.divide\(")
UNKNOWN = TEMPLATE.format(broken=BROKEN, d1="nothing shows this either")


def _check(tmp_path, findings: str, *extra: str) -> tuple[subprocess.CompletedProcess, dict]:
    path = tmp_path / "known.md"
    path.write_text(findings)
    out = tmp_path / "out"
    run = jaxcheck("check", "--sut", BROKEN, "--only", PROPERTY, "--jobs", "1",
                   "--out", str(out), "--known", str(path), *extra)
    return run, verdicts(out)[PROPERTY]


@pytest.fixture(scope="module")
def known_run(tmp_path_factory):
    base = tmp_path_factory.mktemp("known")
    run, verdict = _check(base, KNOWN, "--junit-xml", str(base / "junit.xml"))
    return run, verdict, base / "junit.xml"


def test_a_known_failure_passes_the_run_and_says_which_finding(known_run):
    run, verdict, _ = known_run
    assert run.returncode == 0, run.stdout + run.stderr
    assert verdict["outcome"] == "failed" and verdict["known"] == ["D1"], verdict
    assert "0 passed, 0 failed, 1 known" in run.stdout, run.stdout
    assert "known  D1. `divide`'s forward-mode rule" in run.stdout, run.stdout


def test_a_known_failure_is_not_shrunk_again(known_run, tmp_path):
    """Shrinking a failure of this SUT takes hundreds of examples; known, the run ends
    within a few of the budget's 60 (ci) after its first failure.  The same run
    with --shrink-known shrinks, which shows the bound can fail: 20 successful
    shrinks took 94 examples (5 s), shrinking to the end hundreds (16 s)."""
    _, verdict, _ = known_run
    assert verdict["examples"] <= 60 + 5, verdict
    _, shrunk = _check(tmp_path, KNOWN, "--shrink-known", "--max-shrinks", "20")
    assert shrunk["known"] == ["D1"] and shrunk["examples"] > 60 + 5, shrunk


def test_findings_no_failure_shows_are_listed_for_pruning(known_run):
    run, _, _ = known_run
    assert "not seen (fixed, or not drawn by this run, which did not run every property): " \
           "D2. A finding long fixed" in run.stdout, run.stdout
    assert "X1" not in run.stdout.split("Known findings", 1)[1], run.stdout
    assert "known findings: 2 of tests.broken.div_jvp_denominator_sign" in run.stdout


def test_a_failure_no_finding_explains_fails_the_run_and_is_named_new(tmp_path):
    # A new failure is shrunk; how far does not change what it is called.
    run, verdict = _check(tmp_path, UNKNOWN, "--max-shrinks", "5")
    assert run.returncode == 1, run.stdout + run.stderr
    assert verdict["known"] == [], verdict
    assert f"NEW    failures that show no known finding: 1 property: test_jvp.py::{PROPERTY}" \
           in run.stdout, run.stdout
    assert "0 passed, 1 failed" in run.stdout


@pytest.mark.parametrize("findings, says", [
    ("# nothing here\n", "has no `Signature (SUT): `regex`` line"),
    ("### D1. x\n\nSignature (s): `(`\n", "is not a regular expression"),
], ids=["no signature", "a bad regex"])
def test_an_unusable_findings_file_is_one_usage_line(tmp_path, findings, says):
    path = tmp_path / "known.md"
    path.write_text(findings)
    run = jaxcheck("check", "--sut", BROKEN, "--known", str(path), "--out", str(tmp_path))
    assert run.returncode == 2, run.stdout + run.stderr
    assert run.stderr.startswith("jaxcheck check: --known: ") and says in run.stderr, run.stderr
    assert "Traceback" not in run.stderr


def test_the_junit_xml_has_the_known_failure_as_skipped_with_its_finding(known_run):
    _, _, path = known_run
    (case,) = ElementTree.parse(path).getroot().iter("testcase")
    assert case.attrib["name"] == PROPERTY and case.attrib["classname"] == "tests.test_jvp"
    (skipped,) = case
    assert skipped.tag == "skipped" and skipped.attrib["type"] == "jaxcheck.known"
    assert skipped.attrib["message"].startswith("known finding D1"), skipped.attrib


def _verdict(*errors: str, outcome: str = "failed") -> Verdict:
    return Verdict("tests/test_x.py::test_x", outcome,
                   failures=[{"error": e, "reproducers": []} for e in errors])


@pytest.fixture
def baseline(tmp_path):
    path = tmp_path / "known.md"
    path.write_text(KNOWN)
    return known.read(path, BROKEN)


def test_every_failure_of_a_verdict_must_be_known_for_it_to_be(baseline):
    assert baseline.judged(_verdict("Mismatch in jnp.divide(x0, x0)")).known == ["D1"]
    mixed = _verdict("Mismatch in jnp.divide(x0, x0)", "SutRaised: something else")
    assert baseline.judged(mixed).known == []
    assert baseline.judged(_verdict(outcome="passed")).known == []


def test_a_crash_or_a_hang_is_known_by_its_message_and_reason(baseline):
    crashed = Verdict("tests/test_x.py::test_x", "crashed", reason="SIGSEGV",
                      message="in jnp.divide(x0, x0)")
    assert baseline.judged(crashed).known == ["D1"]


def test_a_finding_with_two_signatures_is_counted_and_listed_once(tmp_path):
    path = tmp_path / "known.md"
    d2 = f"Signature ({BROKEN}): `nothing shows this 9f3a`"
    path.write_text(KNOWN.replace(d2, f"{d2}\nSignature ({BROKEN}): `nor this 9f3b`"))
    baseline = known.read(path, BROKEN)
    assert len(baseline.findings) == 3  # D1, and D2's two signatures
    assert "known findings: 2 of " in baseline.header()
    assert "(1 of other SUTs left aside)" in baseline.header()
    assert [f.id for f in baseline.unseen([])] == ["D1", "D2"]
