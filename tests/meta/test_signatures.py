"""Findings' signatures are input: each is compiled and matched within bounds
(jaxcheck/signatures.py), and one that exceeds them is refused, named, in one line."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from jaxcheck import findings, signatures
from jaxcheck.runner import Verdict

ROOT = Path(__file__).resolve().parents[2]

HOSTILE = {
    "nested groups": ("(" * 100 + "a" + ")" * 100, "nests groups 100 deep"),
    "1,000 nested groups": ("(" * 1000 + "a" + ")" * 1000, "2001 characters long"),
    "a huge count": ("a{4294967296}", "repeats {4294967296}"),
    "a huge range": ("a{2,99999999}", "repeats {2,99999999}"),
    "too long": ("a" * (signatures.MAX_LENGTH + 1), "characters long"),
    "no regex": ("(unclosed", "is not a regular expression"),
}


def page(tmp_path: Path, signature: str) -> Path:
    path = tmp_path / "findings.md"
    path.write_text(f"# Findings\n\n### T1. A finding\n\nSignature (refimpl): `{signature}`\n")
    return path


@pytest.mark.meta
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_signature_past_a_bound_is_refused_naming_it(tmp_path, name):
    signature, says = HOSTILE[name]
    with pytest.raises(findings.FindingsError) as refused:
        findings.read(page(tmp_path, signature))
    message = str(refused.value)
    assert says in message and "findings.md:5" in message, message
    assert len(message) < 600 and "\n" not in message, message


@pytest.mark.meta
def test_the_shipped_findings_are_within_the_bounds():
    read = findings.read(ROOT / "docs" / "findings")
    assert read and all(isinstance(f.pattern, re.Pattern) for f in read)


@pytest.mark.meta
def test_escaped_and_classed_brackets_do_not_count_as_groups_or_counts():
    deep = "\\(" * 50 + "[(((]" * 50 + "\\{99999999\\}"
    assert signatures.compiled(deep).search("(" * 50 + "(" * 50 + "{99999999}")


BACKTRACKING = """
import sys, time
from jaxcheck import findings
from jaxcheck.runner import Verdict
read = findings.read(__import__("pathlib").Path(sys.argv[1]))
verdict = Verdict("tests/test_jvp.py::p", "failed", message="a" * 40 + "!")
start = time.monotonic()
print(findings.recognise(verdict, "refimpl", read).kind, round(time.monotonic() - start))
"""


@pytest.mark.meta
def test_a_backtracking_signature_is_cut_off_and_explains_nothing(tmp_path):
    run = subprocess.run([sys.executable, "-c", BACKTRACKING, str(page(tmp_path, "(a+)+$"))],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    kind, seconds = run.stdout.split()
    assert kind == "unclassified" and int(seconds) <= 3 * signatures.MATCH_SECONDS, run.stdout
    assert "`(a+)+$` of T1 took more than" in run.stderr and "is refused" in run.stderr


@pytest.mark.meta
def test_a_signature_within_the_bounds_still_recognises(tmp_path):
    read = findings.read(page(tmp_path, r"got (\d+)\.0, but should be \1"))
    verdict = Verdict("tests/test_jvp.py::p", "failed", message="got 2.0, but should be 2")
    assert findings.recognise(verdict, "refimpl", read).kind == "known"
