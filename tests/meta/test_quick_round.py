"""A newcomer's `check --quick` round keeps its budget on a slow SUT, and the next resumes it.

The SUT is refimpl slowed as a real system is (tests/shims/slow_refimpl.py:
seconds to import in the probe, the collection and every child, seconds in
every transformed call), and the round's budget is made small for the test
(`--quick-minutes`, a hidden option), so that it cannot judge every property:
the round must end within its budget and a stated slack, with every property
judged or counted as not reached or cut, and the next round, with the same
`--out`, must run only those and keep what the first judged.  The bound is
the budget itself: nothing here asserts a time tighter than it.
"""

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jaxcheck import record, table
from jaxcheck.cli import JUDGED, QUICK_OVERRUN
from jaxcheck.runner import Verdict
from tests.meta.command import MOSTLY_WAITING, ROOT

pytestmark = pytest.mark.meta

SUT = "tests.shims.slow_refimpl"
# The conventions' rows: 22 properties of one or two SUT calls an example.
SELECTION = "test_conventions"
MINUTES = 0.4
BUDGET = 60 * MINUTES
# Past its budget and a property's overrun (QUICK_OVERRUN of it), the round may
# take this long to end: the command's own start before its clock starts, ending
# the children and printing the summary, on a loaded machine.
SLACK = 20.0
# Slow enough that the round cannot judge every property: each call sleeps 2 s,
# and each child, the probe and the collection import for 3 s.
SLOW = {"JAXCHECK_SLOW_IMPORT": "3", "JAXCHECK_SLOW_CALL": "2"}
FAST = {"JAXCHECK_SLOW_IMPORT": "0", "JAXCHECK_SLOW_CALL": "0"}


def _round(out: Path, slowness: dict) -> tuple[subprocess.CompletedProcess, float]:
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "jaxcheck", "check", "--sut", SUT, "--quick", "--quick-minutes",
         str(MINUTES), "--only", SELECTION, "--jobs", "2", "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=600, env={**os.environ, **slowness})
    return done, time.monotonic() - start


def _newest(out: Path) -> record.Column:
    path = max(out.glob("logs/*/verdicts.json"), key=lambda p: p.stat().st_mtime)
    return record.read(path)[0]


@MOSTLY_WAITING
def test_a_quick_round_on_a_slow_sut_ends_within_its_budget_and_the_next_resumes_it(tmp_path):
    out = tmp_path / "out"
    first, seconds = _round(out, SLOW)
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    assert seconds <= BUDGET * (1 + QUICK_OVERRUN) + SLACK, (seconds, first.stdout[-3000:])
    judged_so_far = re.search(r"(\d+) of (\d+) properties judged so far", first.stdout)
    assert judged_so_far, first.stdout[-3000:]
    judged, total = map(int, judged_so_far.groups())
    column = _newest(out)
    outcomes = [v.outcome for v in column.verdicts]
    cut = outcomes.count("interrupted")
    not_run = total - len(column.verdicts)
    assert sum(o in JUDGED for o in outcomes) == judged
    assert judged + cut + not_run == total and cut + not_run > 0, first.stdout[-3000:]
    assert f"{not_run} not run" in first.stdout or not not_run, first.stdout[-3000:]
    assert record.not_run(column) == (f" [{not_run} of {total} properties not run]"
                                      if not_run else "")

    second, _ = _round(out, FAST)  # the same SUT, fast now: the round resumes the first
    assert second.returncode == 0, second.stdout[-3000:] + second.stderr[-3000:]
    assert "resuming the round of" in second.stdout, second.stdout[-3000:]
    assert f"jaxcheck check: {total - judged} properties" in second.stdout, second.stdout[:2000]
    assert f"all {total} properties judged" in second.stdout, second.stdout[-3000:]
    kept = {v.nodeid: v for v in column.verdicts if v.outcome in JUDGED}
    after = {v.nodeid: v for v in _newest(out).verdicts}
    assert len(after) == total and all(after[n] == v for n, v in kept.items())


def test_a_column_whose_run_did_not_reach_every_property_says_how_many(tmp_path):
    """On the page (drawn from the record) and in the closing table."""
    nodeids = [f"tests/test_x.py::test_{i}" for i in range(3)]
    verdicts = [Verdict(nodeids[0], "passed", 10, 1.0), Verdict(nodeids[1], "interrupted", 1, 1.0)]
    path = tmp_path / "out" / "logs" / "check-x" / "verdicts.json"
    path.parent.mkdir(parents=True)
    record.write(path, record.Column("refimpl", "refimpl 0.1.0", "triage", verdicts,
                                     collection=record.collection(nodeids)))
    page = subprocess.run([sys.executable, "-m", "jaxcheck", "report", "--from", str(path),
                           "--out", str(tmp_path / "page")], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert page.returncode == 0, page.stderr
    for name in ("conformance.md", "conformance.html"):
        assert "[1 of 3 properties not run]" in (tmp_path / "page" / name).read_text(), name
    assert table.summary(verdicts, planned=3) == "1 passed, 0 failed, 1 interrupted, 1 not run"
    assert table.summary(verdicts, planned=2) == "1 passed, 0 failed, 1 interrupted"
