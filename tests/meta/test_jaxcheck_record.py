"""`jaxcheck/record.py` and `jaxcheck report --from`: a matrix drawn again from saved runs.

A thorough run takes hours, a findings document changes in minutes: a
report must be rebuilt from the runs' records, with the same verdicts and
the findings as they are now, and a file that is not a record must be
refused saying what it is not.
"""

import json
import re
import shutil
from pathlib import Path

import pytest

from jaxcheck.record import Column, RecordError, read, write
from jaxcheck.runner import Verdict
from tests.meta.command import jaxcheck, verdicts

pytestmark = pytest.mark.meta

FINDINGS = """# Findings

### S1. grad segfaults

Signature (tests.shims.grad_segfaults): `SIGSEGV`
"""


def test_a_record_reads_back_as_written_wherever_it_is_moved(tmp_path):
    script = str(tmp_path / "out" / "r.py")
    failure = {"error": "Mismatch: boom", "reproducers": [script]}
    columns = [Column("refimpl", "refimpl 0.1.0", "ci", [Verdict("t.py::a", "passed", 60)]),
               Column("lib.shim", "lib 1.0", "thorough",
                      [Verdict("t.py::a", "failed", 3, reproducers=[script],
                               failures=[failure], message="boom")])]
    (tmp_path / "out").mkdir()
    assert read(write(tmp_path / "out" / "many.json", columns)) == columns
    assert read(write(tmp_path / "one.json", columns[1])) == columns[1:]
    stored = json.loads((tmp_path / "one.json").read_text())["verdicts"][0]
    assert stored["reproducers"] == ["out/r.py"]  # relative to the record
    moved = tmp_path / "moved"
    (tmp_path / "out").rename(moved)
    again = read(moved / "many.json")[1].verdicts[0]
    assert again.reproducers == [str(moved / "r.py")]
    assert again.failures[0]["reproducers"] == [str(moved / "r.py")]


@pytest.mark.parametrize("text, says", [
    ("{", "is not JSON"),
    (json.dumps([{"nodeid": "t.py::a", "outcome": "passed"}]), "not a run's record"),
    (json.dumps({"refimpl": []}), "not a run's record"),
    (json.dumps({"sut": "s", "profile": "ci", "verdicts": [{"outcome": "passed"}]}),
     "verdict 0: 'nodeid' is missing"),
    (json.dumps({"sut": "s", "profile": "ci", "verdicts": [], "written": "yesterday"}),
     "'written' must be a time as YYYY-MM-DD HH:MM, got 'yesterday'"),
])
def test_a_file_that_is_not_a_record_is_refused_saying_why(tmp_path, text, says):
    path = tmp_path / "verdicts.json"
    path.write_text(text)
    with pytest.raises(RecordError, match=says):
        read(path)


def test_a_report_is_drawn_from_a_check_runs_record_with_todays_findings(tmp_path):
    check = jaxcheck("check", "--sut", "tests.shims.grad_segfaults", "--only",
                     "test_grad_matches", "--out", str(tmp_path / "run"))
    assert check.returncode == 1, check.stdout + check.stderr
    assert verdicts(tmp_path / "run")["test_grad_matches_finite_differences_and_reference"][
        "outcome"] == "crashed"
    saved = next((tmp_path / "run").glob("logs/*/verdicts.json"))
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", read(saved)[0].written)
    # The page says when the run was, not when it is drawn.
    stored = json.loads(saved.read_text())
    saved.write_text(json.dumps(dict(stored, written="2001-02-03 04:05")))
    findings = tmp_path / "findings.md"
    findings.write_text(FINDINGS)
    out = tmp_path / "report"
    report = jaxcheck("report", "--from", str(saved), "--out", str(out), "--findings",
                      str(findings))
    assert report.returncode == 0, report.stdout + report.stderr
    assert "jaxcheck report:" not in report.stdout  # drawn, not run: no run header
    markdown = (out / "conformance.md").read_text()
    assert "Profile `ci`, run 2001-02-03 04:05:" in markdown, markdown
    assert "run 2001-02-03 04:05" in (out / "conformance.html").read_text()
    assert "**CRASH**" in markdown and "finding [S1]" in markdown, markdown
    # The summary's known, unclassified and findings-shown columns for the one system.
    assert re.search(r"\| 1 \| 0 \| \[S1\]\([^)]+\) \|", markdown), markdown
    # The page is one folder: the run it was drawn from can go.
    original = read(saved)
    shutil.rmtree(tmp_path / "run")
    links = re.findall(r"\]\(([^)#]+)\)", markdown)
    assert any(link.endswith(".py") for link in links), markdown
    assert all((out / link).is_file() for link in links), links
    again = tmp_path / "again"
    redrawn = jaxcheck("report", "--from", str(out / "conformance" / "verdicts.json"),
                       "--out", str(again))
    assert redrawn.returncode == 0, redrawn.stdout + redrawn.stderr
    assert _named(read(again / "conformance" / "verdicts.json")) == _named(original)
    assert "run 2001-02-03 04:05:" in (again / "conformance.md").read_text()
    for verdict in read(again / "conformance" / "verdicts.json")[0].verdicts:
        assert all(Path(p).is_relative_to(again) and Path(p).is_file()
                   for p in verdict.reproducers), verdict.reproducers


def _named(columns: list[Column]) -> list:
    """The columns with each reproducer path cut to its file name."""
    return [(c.sut, c.description, [(v.nodeid, v.outcome, v.examples, v.message,
                                      [Path(p).name for p in v.reproducers])
                                     for v in c.verdicts]) for c in columns]


@pytest.mark.parametrize("args, says", [
    ((), "name the SUTs to check"),
    (("--from", "absent.json"), "cannot read"),
])
def test_a_report_without_runs_is_a_usage_error(tmp_path, args, says):
    run = jaxcheck("report", *args, "--out", str(tmp_path), cwd=tmp_path)
    assert run.returncode == 2 and says in run.stderr, run.stdout + run.stderr
