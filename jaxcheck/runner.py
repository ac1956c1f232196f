"""Run properties in child pytest processes, so that a bad SUT ends one example, not the run.

Each of `jobs` workers is a child `pytest` over its share of the
properties, with the plugin `jaxcheck.child`, which writes what the
parent needs into the worker's directory (see there).  The parent polls
those files and turns them into `Verdict`s:

* a property the child finished: passed, failed or skipped, as pytest said;
* the child died (a signal, `os._exit`): the property it was running
  *crashed*; the script of the SUT call in flight is its reproducer;
* the SUT did not return within `--sut-timeout`: the child ends itself
  (`oracles.inflight.EXIT_HUNG`), or, if the call is stuck where Python
  cannot interrupt it, the parent kills it once the in-flight script is
  `WATCHDOG_FACTOR` time-outs old: the property *hung*.

After a crash or a hang, a new child takes the worker's remaining
properties; a hanging property costs one time-out plus a child's start-up,
not a hundred time-outs of shrinking.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from oracles import inflight, reproducer
from oracles.sut import DEFAULT_TIMEOUT

ROOT = Path(__file__).resolve().parents[1]

# The properties: tests/ without jaxcheck's own self-tests.
PROPERTIES = "tests"
SELF_TESTS = ("tests/meta", "tests/refimpl")

# A call stuck where SIGALRM cannot reach it (C code holding the GIL) is
# killed by the parent when its script is this many time-outs old: the
# child's own alarm gets the first time-out, the watchdog the second.
WATCHDOG_FACTOR = 2.0

# Seconds between two looks at the workers' files: a live line appears
# within this, and the parent costs nothing measurable.
POLL_SECONDS = 0.2

# pytest's exit codes that mean the child ran as a test run should
# (0: all passed, 1: some failed); any other ending is examined.
PYTEST_RAN = {0, 1}


@dataclass(frozen=True)
class RunOptions:
    """How to run the properties: the SUT, its reference, the Hypothesis profile,
    the time limit of one SUT call, parallel workers, where reproducers go,
    and for a hunt its deadline and example database."""

    sut: str
    reference: str = "auto"
    profile: str = "ci"
    timeout: float = DEFAULT_TIMEOUT
    jobs: int = 1
    out: Path = Path(reproducer.DIRECTORY)
    deadline: float | None = None
    db: str | None = None
    max_shrinks: int | None = None  # successful shrinks before a failure is reported


@dataclass
class Verdict:
    """One property's result on one SUT."""

    nodeid: str
    outcome: str  # passed failed skipped crashed hung interrupted error
    examples: int | None = None
    seconds: float = 0.0
    reason: str = ""
    reproducers: list[str] = field(default_factory=list)
    # Each distinct failure: {"error": "Type: message", "reproducers": [paths]}.
    failures: list[dict] = field(default_factory=list)
    first_failure: int | None = None
    first_failure_seconds: float | None = None  # from the property's start
    message: str = ""
    evidence: str = ""  # the end of the failure report (jaxcheck/child.py)
    peak_rss_mib: int | None = None

    @property
    def name(self) -> str:
        return self.nodeid.split("/", 1)[-1]

    def describe(self) -> str:
        return f"{self.outcome}: {self.reason}" if self.reason else self.outcome

    @classmethod
    def from_record(cls, record: dict) -> Verdict:
        return cls(**{key: record[key] for key in cls.__dataclass_fields__ if key in record})


class RunError(Exception):
    """The properties could not be run at all: the message says why."""


# JAX's compilation cache on disk, for every run of the suite (plain pytest through
# conftest.py, jaxcheck's children and replays here) unless the user sets it: each
# example wraps its program in new functions, so JAX's in-memory cache misses, while
# the same small programs recur across examples, seeds and runs.  JAX writes only
# compiles of at least 1 s by default, and ours take about 0.1 s.  tests/test_cells.py
# on refimpl, `ci`: 211 s without it, 163 s cold, 69 s warm (docs/benchmarks.md).
XLA_CACHE = {"JAX_COMPILATION_CACHE_DIR": str(Path.home() / ".cache" / "jaxcheck" / "xla"),
             "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0"}


def child_env() -> dict[str, str]:
    """The environment of a child: the user's directory and the checkout importable,
    and JAX's compilation cache (`XLA_CACHE`)."""
    env = {**XLA_CACHE, **os.environ}
    paths = [os.getcwd(), str(ROOT), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def pytest_command(options: RunOptions, *args: str) -> list[str]:
    """`python -m pytest` in the checkout's configuration, wherever it is run from."""
    command = [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"),
               "--rootdir", str(ROOT), "--confcutdir", str(ROOT), "-p", "no:cacheprovider",
               "--sut", options.sut, "--reference", options.reference,
               "--hypothesis-profile", options.profile, "--sut-timeout", f"{options.timeout:g}"]
    return command + list(args)


def collect(options: RunOptions, select: str | None = None) -> list[str]:
    """The node ids of the properties (never the self-tests), optionally `-k select`."""
    args = ["--collect-only", "-q", str(ROOT / PROPERTIES),
            *(f"--ignore={ROOT / path}" for path in SELF_TESTS)]
    if select:
        args += ["-k", select]
    run = subprocess.run(pytest_command(options, *args), capture_output=True, text=True,
                         env=child_env())
    ids = [line for line in run.stdout.splitlines() if "::" in line]
    if run.returncode not in (0, 5) or not ids:
        detail = (run.stderr.strip() or run.stdout.strip())[-2000:]
        what = f"no property matches -k {select!r}" if run.returncode == 5 else "collection failed"
        raise RunError(f"{what}:\n{detail}")
    return ids


class Worker:
    """One child pytest process over a share of the properties, restarted after a
    crash or a hang with the properties it had not run."""

    def __init__(self, index: int, nodeids: list[str], options: RunOptions, run_dir: Path):
        self.options = options
        self.directory = run_dir / f"worker-{index}"
        self.directory.mkdir(parents=True, exist_ok=True)
        self.remaining = list(nodeids)
        self.process: subprocess.Popen | None = None
        self.starts = 0
        self._read = 0
        self._killed_by_watchdog = False

    @property
    def log(self) -> Path:
        return self.directory / f"pytest-{self.starts}.log"

    @property
    def running(self) -> bool:
        return self.process is not None

    def start(self) -> None:
        self.starts += 1
        for stale in ("current.json", "inflight.py"):
            (self.directory / stale).unlink(missing_ok=True)
        args = ["-q", "--hypothesis-show-statistics", f"--reproducers={self.options.out}",
                "-p", "jaxcheck.child",
                f"--jaxcheck-worker={self.directory}"]
        if self.options.deadline is not None:
            args.append(f"--jaxcheck-deadline={self.options.deadline}")
        if self.options.db:
            args.append(f"--jaxcheck-db={self.options.db}")
        if self.options.max_shrinks is not None:
            args.append(f"--max-shrinks={self.options.max_shrinks}")
        ids = [str(ROOT / nodeid) for nodeid in self.remaining]
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(pytest_command(self.options, *args, *ids),
                                            stdout=log, stderr=subprocess.STDOUT,
                                            env=child_env(), start_new_session=True)

    def current(self) -> dict | None:
        try:
            return json.loads((self.directory / "current.json").read_text())
        except (FileNotFoundError, json.JSONDecodeError):
            return None

    def finished(self) -> list[Verdict]:
        """Verdicts the child has written since the last look."""
        path = self.directory / "results.jsonl"
        if not path.exists():
            return []
        with open(path) as results:
            results.seek(self._read)
            lines = results.readlines()
        complete = [line for line in lines if line.endswith("\n")]
        self._read += sum(len(line.encode()) for line in complete)
        verdicts = [Verdict.from_record(json.loads(line)) for line in complete]
        done = {v.nodeid for v in verdicts}
        self.remaining = [n for n in self.remaining if n not in done]
        return verdicts

    def poll(self) -> list[Verdict]:
        """New verdicts; restarts the child after a crash or a hang."""
        if self.process is None:
            return []
        self._watchdog()
        returncode = self.process.poll()
        verdicts = self.finished()
        if returncode is None:
            return verdicts
        self.process = None
        if self.remaining:
            verdicts.append(self._ended_early(returncode))
            if self.remaining:
                self.start()
        return verdicts

    def _watchdog(self) -> None:
        script = self.directory / "inflight.py"
        limit = self.options.timeout * WATCHDOG_FACTOR
        try:
            age = time.time() - script.stat().st_mtime
        except FileNotFoundError:
            return
        if limit > 0 and age > limit and not self._killed_by_watchdog:
            self._killed_by_watchdog = True
            self.kill()

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def _ended_early(self, returncode: int) -> Verdict:
        """The verdict on the property the child was running when it ended."""
        current = self.current() or {}
        nodeid = current.get("nodeid")
        if nodeid not in self.remaining:  # it died before starting a property
            if returncode not in PYTEST_RAN and current == {} and self.starts == 1:
                tail = self.log.read_text()[-3000:]
                self.remaining = []
                raise RunError(f"the child pytest run ended with exit status {returncode} "
                               f"before running any property:\n{tail}")
            nodeid = self.remaining[0]
        self.remaining.remove(nodeid)
        hung = returncode == inflight.EXIT_HUNG or self._killed_by_watchdog
        self._killed_by_watchdog = False
        if hung:
            outcome, reason = "hung", f"no return within {self.options.timeout:g} s"
        elif returncode < 0:
            outcome, reason = "crashed", signal.Signals(-returncode).name
        else:
            outcome, reason = "crashed", f"exit status {returncode}"
        saved = self._save_in_flight(nodeid, outcome)
        if not saved:
            reason += ", outside an example's SUT call: no reproducer"
        return Verdict(nodeid, outcome, current.get("examples"),
                       round(time.time() - current.get("started", time.time()), 3),
                       reason, saved, message=f"the child's output: {self.log}")

    def _save_in_flight(self, nodeid: str, outcome: str) -> list[str]:
        script = self.directory / "inflight.py"
        if not script.exists():
            return []
        name = nodeid.rsplit("::", 1)[-1] + f"-{outcome}"
        path = reproducer.save(script.read_text(), name, self.options.out)
        script.unlink()
        return [str(path)]


def run(nodeids: list[str], options: RunOptions, run_dir: Path,
        on_verdict: Callable[[Verdict], None] = lambda verdict: None,
        on_tick: Callable[[list[Worker]], None] = lambda workers: None) -> list[Verdict]:
    """Every property's verdict, in the order of `nodeids`.

    Ctrl-C ends the children and returns what was found, the properties
    that were running marked `interrupted` and those not started left out.
    """
    jobs = max(1, min(options.jobs, len(nodeids)))
    workers = [Worker(i, nodeids[i::jobs], options, run_dir) for i in range(jobs)]
    verdicts: dict[str, Verdict] = {}

    def take(new: list[Verdict]) -> None:
        for verdict in new:
            verdicts[verdict.nodeid] = verdict
            on_verdict(verdict)

    run_dir.mkdir(parents=True, exist_ok=True)
    try:
        for worker in workers:
            worker.start()
        while any(worker.running for worker in workers):
            for worker in workers:
                take(worker.poll())
            on_tick(workers)
            time.sleep(POLL_SECONDS)
    except KeyboardInterrupt:
        for worker in workers:
            worker.kill()
            take(worker.finished())
            current = worker.current() or {}
            if current.get("nodeid") in worker.remaining:
                take([Verdict(current["nodeid"], "interrupted", current.get("examples"),
                              reason="Ctrl-C")])
    finally:
        for worker in workers:
            worker.kill()
    return [verdicts[n] for n in nodeids if n in verdicts]
