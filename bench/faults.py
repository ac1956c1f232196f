"""The long randomized fault schedule: `jaxcheck check` struck by a signal at a random moment.

    python bench/faults.py --trials 60 --seed 1 [--write]

Each trial runs, as a user does,

    python -m jaxcheck check --sut tests.shims.jvp_doubled_slowly --reference none
        --jobs 1 --only "test_jvp_matches_... or test_jit_retraces_for_a_new_shape"

(the shim's jvp is wrong and takes 3 s a call, and starts a `sleep`; the jit
property never calls jvp, so a verdict on it other than passed is a false
FAIL), or one of its variants, drawn from a `Random` of their own (`SUTS`:
its sleeper detached from the group by a double fork and setsid, SIGTERM
ignored; a non-daemon thread that never ends; `numpy.all` replaced in its
first jvp call, which must never make the wrong jvp pass), or an SUT whose
import never ends (`--sut-timeout 5`: the run ends by itself with exit 2),
and draws with `random.Random(seed)`:

* a fault: SIGINT, SIGTERM or SIGHUP, or now and then two SIGINTs 0-0.5 s
  apart, or a SIGKILL;
* a moment: a delay drawn uniformly from 0 to 40 s after the start (a run
  takes about 35 s alone: the delay lands in start-up and collection, the
  correct property, an SUT call, shrinking, the end, or after the end),
  "in an SUT call" (once the first call of the failing property has
  started, 0-2 s more), "while shrinking" (once the record says the failure
  shrinks, 0-3 s more), or "at the end" (once the record holds the
  failure's final verdict: the child ends and the table is written).

Where the fault landed is read from the run's files just before it is
sent.  Then each trial checks the same things as tests/meta/test_faults.py:

* kept: a failure the record or the output shows as found has its
  reproducer on disk (the record says failed, every reproducer exists);
* processes left: none carries the run's markers 5 s after it ended;
* exit status: 128 + the signal (137 for SIGKILL), or the run's own 1 if it
  had ended before the fault;
* false FAIL: the correct property is never failed, crashed, hung or error;
* false pass: the wrong jvp is never passed;
* tracebacks: none in the output (every error is one line).

Then, from the same `Random`, a hostile record or findings file (`HOSTILE`:
a reproducer path out of the run's folder by an absolute path, `..` or a
symlink, a shard label out of range, a record cut short or of the wrong
shape, a signature past the bounds of jaxcheck/signatures.py or one that
backtracks), built from the trial's record (or a small one where the fault
struck before there was one), is handed to `jaxcheck report --from`, as a
CI matrix hands another job's artifact.  It must be refused in one line
with exit 2 (or, for the backtracking signature, cut off by its time
bound), end within a minute, print no traceback, and copy nothing from
outside the run's folder into the report.

A line per trial, then a summary; exit 1 on any violation (the trial's
folder is kept and named).  With --write the summary becomes the "faults"
section of docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.report import machine, publish  # noqa: E402
from tests.meta.command import ROOT as CHECKOUT  # noqa: E402
from tests.meta.faults import (  # noqa: E402
    BOTH,
    CORRECT,
    FAILING,
    SLOW_SHIM,
    Background,
    kept,
    shrinking,
    start,
)

FAULTS = {"SIGINT": 3, "SIGTERM": 3, "SIGHUP": 3, "SIGINT twice": 2, "SIGKILL": 2}  # weights
# The SUT of a trial: the slow shim, or it with a sleeper that detaches from its
# group (double fork, setsid, SIGTERM ignored), with a thread that never ends,
# or replacing numpy.all; or an SUT whose import never ends.  Drawn from a
# Random of its own, so a new SUT does not move where the faults strike.
HANGS_AT_IMPORT = "tests.lifetime.import_hanging"
SUTS = {SLOW_SHIM: 2, f"{SLOW_SHIM}_detaching": 1, f"{SLOW_SHIM}_keeping_a_thread": 1,
        f"{SLOW_SHIM}_tampering": 1, HANGS_AT_IMPORT: 1}
# What a trial's SUT adds to the command, and the exit status of a run that ended
# before its fault: 1 for the jvp the shims get wrong, 2 for an import cut off
# by its limit (--sut-timeout, at least 30 s: jaxcheck/probe.py).
SUT_OPTIONS = {HANGS_AT_IMPORT: ("--sut-timeout", "5")}
ENDS_WITH = {HANGS_AT_IMPORT: 2}
MOMENTS = {"delay": 4, "in an SUT call": 2, "while shrinking": 2, "at the end": 2}
SIGNALS = {"SIGINT": (signal.SIGINT,), "SIGTERM": (signal.SIGTERM,),
           "SIGHUP": (signal.SIGHUP,), "SIGINT twice": (signal.SIGINT, signal.SIGINT),
           "SIGKILL": (signal.SIGKILL,)}

# The delay's range: a run alone takes about 35 s, so a few seconds past it.
MAX_DELAY = 40.0
# Seconds after "shrinking" is seen before the fault, at most (the window is
# about ten seconds); after the first SUT call is seen to start (it takes 3 s);
# and between the two SIGINTs of a double.
SHRINK_JITTER = 3.0
CALL_JITTER = 2.0
DOUBLE_GAP = 0.5
# Seconds a trial waits for a moment, or for the run to end once struck: far
# past what either takes on a loaded machine.
PATIENCE = 300.0

WHERE = ("start-up", "correct property", "SUT call", "between calls", "shrinking",
         "the end", "after the end")
BAD = ("failed", "crashed", "hung", "error")


@dataclass
class Trial:
    number: int
    fault: str
    moment: str
    sut: str = SLOW_SHIM
    where: str = ""
    status: int | None = None
    found: bool = False  # the record or the output shows the failure found
    lost: list[str] = field(default_factory=list)  # what is wrong with its reproducers
    wrong_exit: str = ""
    false_fail: str = ""
    false_pass: str = ""
    traceback: bool = False
    left: list[str] = field(default_factory=list)
    stuck: str = ""  # the run did not end
    hostile: Hostile | None = None  # the report on a hostile copy of its record

    @property
    def violations(self) -> list[str]:
        return [*self.lost,
                *filter(None, [self.wrong_exit, self.false_fail, self.false_pass, self.stuck]),
                *(["a traceback in the output"] if self.traceback else []),
                *([f"{len(self.left)} processes left: {self.left[:3]}"] if self.left else []),
                *(self.hostile.violations if self.hostile else [])]


def where(run: Background) -> str:
    """Where the run is now, read from its files."""
    if run.process.poll() is not None:
        return "after the end"
    found = run.verdicts() or {}
    failing = found.get(FAILING, {})
    if failing.get("outcome") == "failed":
        return "shrinking" if shrinking(found) else "the end"
    running = run.running()
    if running is None:
        return "start-up"
    if running == CORRECT:
        return "correct property"
    in_call = any(run.out.glob("logs/*/worker-*/inflight.py"))
    return "SUT call" if in_call else "between calls"


def wait_for(run: Background, moment: str, timeout: float = PATIENCE) -> None:
    """Until the run is at `moment` (as `where` reads it), or has ended."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and where(run) not in (moment, "after the end"):
        time.sleep(0.05)


def strike(run: Background, trial: Trial, rng: random.Random, began: float) -> None:
    if trial.moment == "delay":
        time.sleep(max(0.0, rng.uniform(0, MAX_DELAY) - (time.monotonic() - began)))
    elif trial.moment == "in an SUT call":
        wait_for(run, "SUT call")
        time.sleep(rng.uniform(0, CALL_JITTER))
    elif trial.moment == "while shrinking":
        wait_for(run, "shrinking")
        time.sleep(rng.uniform(0, SHRINK_JITTER))
    else:
        wait_for(run, "the end")
    trial.where = where(run)
    gap = rng.uniform(0, DOUBLE_GAP)
    for i, signum in enumerate(SIGNALS[trial.fault]):
        if i:
            time.sleep(gap)
        if run.process.poll() is not None:  # it ended meanwhile: no fault, or one fewer
            trial.where = trial.where if i else "after the end"
            break
        run.send(signum)


def judge(run: Background, trial: Trial) -> None:
    found = run.verdicts() or {}
    output = run.output()
    failing = found.get(FAILING)
    trial.found = (failing is not None and failing["outcome"] == "failed"
                   or f"FAIL  test_jvp.py::{FAILING}" in output)
    if trial.found:
        trial.lost = kept(failing) if failing else ["found, but not in the record"]
    ended = ENDS_WITH.get(trial.sut, 1)
    expected = ended if trial.where == "after the end" else 128 + SIGNALS[trial.fault][0]
    if trial.status != expected:
        trial.wrong_exit = f"exit status {trial.status}, expected {expected}"
    correct = found.get(CORRECT, {}).get("outcome")
    if correct in BAD or any(f"{mark}  test_jit.py::{CORRECT}" in output
                             for mark in ("FAIL", "CRASH", "HANG", "ERROR")):
        trial.false_fail = f"false FAIL: {CORRECT} is {correct}"
    if failing is not None and failing["outcome"] == "passed":
        trial.false_pass = f"false pass: {FAILING}, whose jvp is wrong, passed"
    trial.traceback = "Traceback" in output
    trial.left = run.left_behind()


def run_trial(number: int, rng: random.Random, work: Path, suts: random.Random,
              records: random.Random) -> tuple[Trial, Path]:
    trial = Trial(number, draw(rng, FAULTS), draw(rng, MOMENTS), draw(suts, SUTS))
    home = Path(tempfile.mkdtemp(prefix=f"trial-{number:03d}-", dir=work))
    began = time.monotonic()
    run = start(home, "check", "--sut", trial.sut, *SUT_OPTIONS.get(trial.sut, ()),
                "--reference", "none", "--jobs", "1", "--only", BOTH, "--out", str(home / "out"))
    try:
        strike(run, trial, rng, began)
        trial.status = run.wait(PATIENCE)
        judge(run, trial)
    except AssertionError as exc:  # the run did not end
        trial.stuck = str(exc).splitlines()[0]
    finally:
        run.kill()
    trial.hostile = hostile_report(trial, records, home)
    return trial, home


# ----------------------------------------------------------------------------- hostile input

# A file beside the run's folder, which a report must never copy: the line in it
# must appear in no file of the report.
SECRET = "a line from outside the run's folder, never to be published"
# Seconds `report` may take on a hostile record: it takes a few; a backtracking
# signature is cut off after 2 s a match (jaxcheck/signatures.py).
REPORT_PATIENCE = 60.0
# A failure message on which `(a+)+$` backtracks for hours, unbounded.
BACKTRACKS_ON = "Mismatch: " + "a" * 40 + "!"


def _failed(data: dict, message: str = "Mismatch: wrong jvp") -> dict:
    """The record's first verdict, made a failure with `message` (a record may
    hold none, if the fault struck early)."""
    data["verdicts"][:1] = [{"nodeid": f"tests/test_jvp.py::{FAILING}", "outcome": "failed",
                             "examples": 1, "reproducers": [], "message": message}]
    return data["verdicts"][0]


def _reproducer(path: str):
    def change(data, run, outside):
        _failed(data)["reproducers"] = [path.format(outside=outside,
                                                    up=os.path.relpath(outside, run))]
        if path == "link.py":
            os.symlink(outside, run / "link.py")
        return json.dumps(data), None
    return change


def _shard(label: str):
    return lambda data, run, outside: (json.dumps({**data, "shard": label}), None)


def _signature(signature: str, message: str = "Mismatch: wrong jvp"):
    def change(data, run, outside):
        _failed(data, message)
        page = f"# Findings\n\n### X1. A finding\n\nSignature ({data['sut']}): `{signature}`\n"
        return json.dumps(data), page
    return change


# name: (weight, change, exit status).  A change takes the record (a dict), the
# run's folder and the outside file, and gives the record's text and a findings
# page's (or None).  Each refusal is exit 2; a backtracking signature is cut
# off, and the report made without it (exit 0).
HOSTILE = {
    "absolute reproducer": (2, _reproducer("{outside}"), 2),
    "reproducer up and out": (2, _reproducer("{up}"), 2),
    "symlink out": (2, _reproducer("link.py"), 2),
    "shard 0/0": (1, _shard("0/0"), 2),
    "shard 3/2": (1, _shard("3/2"), 2),
    "cut short": (1, lambda data, run, outside: (json.dumps(data)[:len(json.dumps(data)) // 2],
                                                 None), 2),
    "verdicts not a list": (1, lambda data, run, outside: (
        json.dumps({**data, "verdicts": "all passed"}), None), 2),
    "1,000 nested groups": (1, _signature("(" * 1000 + "a" + ")" * 1000), 2),
    "a{4294967296}": (1, _signature("a{4294967296}"), 2),
    "backtracking signature": (1, _signature("(a+)+$", BACKTRACKS_ON), 0),
}


@dataclass
class Hostile:
    kind: str
    status: int | None = None
    lines: int = 0  # of the error output
    violations: list[str] = field(default_factory=list)


def hostile_report(trial: Trial, rng: random.Random, home: Path) -> Hostile:
    """`jaxcheck report --from` a hostile copy of the trial's record (HOSTILE)."""
    kind = draw(rng, {name: weight for name, (weight, _, _) in HOSTILE.items()})
    _, change, expected = HOSTILE[kind]
    found = next(iter((home / "out").glob("logs/*/verdicts.json")), None)
    try:
        data = json.loads(found.read_text()) if found else {}
    except ValueError:  # cut short by a SIGKILL
        data = {}
    data = {"sut": trial.sut, "description": trial.sut, "profile": "ci", "verdicts": [],
            **({k: v for k, v in data.items() if k != "columns"} if isinstance(data, dict)
               else {})}
    run = home / "artifact" / "logs" / "check-hostile-20261207-000000-abcdef"
    run.mkdir(parents=True)
    outside = home / "outside.py"
    outside.write_text(f"print({SECRET!r})\n")
    text, page = change(data, run, outside)
    (run / "verdicts.json").write_text(text)
    args = ["report", "--from", str(run / "verdicts.json"), "--out", str(home / "published")]
    if page is not None:
        (home / "findings.md").write_text(page)
        args += ["--findings", str(home / "findings.md")]
    result = Hostile(kind)
    try:
        ran = subprocess.run([sys.executable, "-m", "jaxcheck", *args], cwd=CHECKOUT,
                             capture_output=True, text=True, timeout=REPORT_PATIENCE)
    except subprocess.TimeoutExpired:
        result.violations.append(f"report on a {kind} did not end in {REPORT_PATIENCE:g} s")
        return result
    result.status, result.lines = ran.returncode, len(ran.stderr.strip().splitlines())
    if ran.returncode != expected:
        result.violations.append(f"report on a {kind}: exit {ran.returncode}, expected "
                                 f"{expected}: {ran.stderr.strip()[-300:]}")
    if expected == 2 and result.lines != 1:
        result.violations.append(f"report on a {kind}: {result.lines} lines of error, not one")
    if "Traceback" in ran.stdout + ran.stderr:
        result.violations.append(f"report on a {kind}: a traceback")
    published = [p for p in (home / "published").rglob("*") if p.is_file()]
    if any(SECRET in p.read_text(errors="replace") for p in published):
        result.violations.append(f"report on a {kind} published a file from outside the run")
    return result


def draw(rng: random.Random, weights: dict[str, int]) -> str:
    return rng.choices(list(weights), weights=list(weights.values()))[0]


def line(trial: Trial) -> str:
    verdict = "ok" if not trial.violations else "VIOLATION: " + "; ".join(trial.violations)
    sut = (trial.sut.removeprefix(SLOW_SHIM) or "plain" if trial.sut.startswith(SLOW_SHIM)
           else trial.sut.rpartition(".")[2])
    return (f"trial {trial.number:3d}  {sut:<18} "
            f"{trial.fault:<12} {trial.moment:<15} "
            f"landed in {trial.where:<16} exit {trial.status}  "
            f"{'found' if trial.found else 'not found':<9}  "
            f"{trial.hostile.kind if trial.hostile else '':<22} {verdict}")


def summary(trials: list[Trial], command: str, seconds: float) -> str:
    kinds = Counter((t.fault, t.where) for t in trials)
    wheres = [w for w in WHERE if any(t.where == w for t in trials)]
    rows = ["| fault | " + " | ".join(wheres) + " | all |",
            "|---|" + "---:|" * (len(wheres) + 1)]
    for fault in FAULTS:
        counts = [kinds[(fault, w)] for w in wheres]
        rows.append(f"| {fault} | " + " | ".join(map(str, counts)) + f" | {sum(counts)} |")
    totals = [sum(kinds[(f, w)] for f in FAULTS) for w in wheres]
    rows.append("| all | " + " | ".join(map(str, totals)) + f" | {len(trials)} |")
    by_sut = Counter(t.sut for t in trials)
    sut_rows = [f"| `{sut}` | {by_sut[sut]} | {sum(len(t.left) for t in trials if t.sut == sut)}"
                f" | {sum(bool(t.violations) for t in trials if t.sut == sut)} |" for sut in SUTS]
    figures = [
        ("trials", len(trials)),
        ("faults injected while the run was alive",
         sum(t.where != "after the end" for t in trials)),
        ("failures found (the record or the output shows it)", sum(t.found for t in trials)),
        ("failures kept (failed in the record, every reproducer on disk)",
         sum(t.found and not t.lost for t in trials)),
        ("processes left", sum(len(t.left) for t in trials)),
        ("wrong exit statuses", sum(bool(t.wrong_exit) for t in trials)),
        ("false FAILs of the correct property", sum(bool(t.false_fail) for t in trials)),
        ("false passes of the wrong jvp", sum(bool(t.false_pass) for t in trials)),
        ("tracebacks", sum(t.traceback for t in trials)),
        ("runs that did not end", sum(bool(t.stuck) for t in trials)),
    ]
    hostile = [t.hostile for t in trials if t.hostile]
    hostile_rows = [f"| {kind} | {sum(h.kind == kind for h in hostile)} | "
                    f"{sum(h.kind == kind and h.status == HOSTILE[kind][2] for h in hostile)} | "
                    f"{sum(h.kind == kind and bool(h.violations) for h in hostile)} |"
                    for kind in HOSTILE]
    return "\n".join([
        f"## Fault injection: {len(trials)} randomized interruptions of `jaxcheck check`",
        "",
        "Where each fault landed (read from the run's files just before it was sent), by "
        "fault:",
        "",
        *rows,
        "",
        "By SUT:",
        "",
        "| SUT | trials | processes left | trials with a violation |",
        "|---|---:|---:|---:|",
        *sut_rows,
        "",
        "| figure | count |",
        "|---|---:|",
        *(f"| {name} | {count} |" for name, count in figures),
        "",
        "`report --from` a hostile copy of each trial's record, by kind (exit 2 for a "
        "refusal; 0 for the backtracking signature, cut off):",
        "",
        "| hostile record or findings | reports | with the expected exit | with a violation |",
        "|---|---:|---:|---:|",
        *hostile_rows,
        "",
        f"Command: `{command}` ({seconds / 60:.0f} min), from the repository root; each "
        "trial's fault and moment as bench/faults.py's docstring says.",
        f"Machine: {machine()}.",
    ])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()),
                        help="where each trial's folder goes (kept only on a violation)")
    parser.add_argument("--write", action="store_true",
                        help="make the summary the 'faults' section of docs/performance.md")
    args = parser.parse_args()
    rng, suts = random.Random(args.seed), random.Random(f"{args.seed} suts")
    records = random.Random(f"{args.seed} records")
    work = Path(tempfile.mkdtemp(prefix="jaxcheck-faults-", dir=args.work))
    began = time.monotonic()
    trials = []
    for number in range(1, args.trials + 1):
        trial, home = run_trial(number, rng, work, suts, records)
        trials.append(trial)
        print(line(trial) + (f"  (kept: {home})" if trial.violations else ""), flush=True)
        if not trial.violations:
            shutil.rmtree(home, ignore_errors=True)
    command = f"python bench/faults.py --trials {args.trials} --seed {args.seed}"
    print()
    publish("faults", summary(trials, command, time.monotonic() - began), write=args.write)
    return 1 if any(t.violations for t in trials) else 0


if __name__ == "__main__":
    sys.exit(main())
