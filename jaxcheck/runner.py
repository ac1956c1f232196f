"""Run properties in child pytest processes, so that a bad SUT ends one example, not the run.

Each of `jobs` workers is a child `pytest` over its share of the
properties, with the plugin `jaxcheck.child`, which tells the parent what
happens over a pipe (jaxcheck/channel.py) and keeps the script of the SUT
call in flight in the worker's directory; what the child prints reaches its
log through the parent (jaxcheck/childlog.py).  The parent turns that into
`Verdict`s:

* a property the child finished: passed, failed or skipped, as pytest said;
* a failure is known the moment it is found, before it is shrunk: the child
  saves its reproducer and says so, and if the run is stopped while it
  shrinks, the property is still *failed*, with that reproducer;
* the child died (a signal, `os._exit`): the property it was running
  *crashed*; the script of the SUT call in flight is its reproducer;
* the SUT did not return within `--sut-timeout`: the child ends itself
  (`oracles.inflight.EXIT_HUNG`), or, if the call is stuck where Python
  cannot interrupt it, the parent kills it once the in-flight script is
  `WATCHDOG_FACTOR` time-outs old: the property *hung*.

* in a bounded round (`check --quick`, `RunOptions.overrun`), a property
  past its bound is ended by the parent: failed with the failure found so
  far, or *interrupted* ("cut") if it had not failed; after the deadline no
  child starts, and the properties left are the run's `not_reached`.

After a crash or a hang, a new child takes the worker's remaining
properties; a hanging property costs one time-out plus a child's start-up,
not a hundred time-outs of shrinking.  Every child is the leader of its own
process group, and the group is ended when the child ends, so nothing the
SUT started outlives its property, and nothing at all outlives the run
(each child ends its group itself if the parent dies: jaxcheck/lifetime.py).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import oracles
from jaxcheck.channel import FAILING, RESULT, START, TROUBLE, Receiver
from jaxcheck.childlog import ChildLog
from jaxcheck.database import DB_ENV
from oracles import inflight, reproducer
from oracles.sut import DEFAULT_TIMEOUT

# The folder that holds the properties (tests/) beside oracles/: a clone's top,
# or the installed package, where the wheel put them (backend/jaxcheck_build.py).
ROOT = Path(oracles.__file__).resolve().parents[1]
# The folder on the path from which the library imports by the names it has:
# the clone's top (`oracles`), or site-packages (`jaxcheck.oracles`).
IMPORT_ROOT = Path(oracles.__file__).resolve().parents[oracles.__name__.count(".") + 1]
# Installed, jaxcheck adds one name to the path, its own, and none of a clone's.
INSTALLED = IMPORT_ROOT != ROOT

# The properties: tests/ without jaxcheck's own self-tests (a wheel has none).
PROPERTIES = "tests"
SELF_TESTS = ("tests/meta", "tests/refimpl", "tests/installed")

# A call stuck where SIGALRM cannot reach it (C code holding the GIL) is
# killed by the parent when its script is this many time-outs old: the
# child's own alarm gets the first time-out, the watchdog the second.
WATCHDOG_FACTOR = 2.0

# Seconds between two looks at the workers: a live line appears within
# this, and the parent costs nothing measurable.
POLL_SECONDS = 0.2

# Seconds collecting the properties may take: it imports the SUT, the
# reference and every test module (10-20 s with JAX on a busy 2-core
# machine); far more means something hangs.
COLLECT_TIMEOUT = 600.0

# The reason of a property a bounded round ended before it was judged: it runs
# again first in the next round (`check --quick`).
CUT = "cut: the round's time was up before it was judged"

# pytest's exit codes that mean the child ran as a test run should
# (0: all passed, 1: some failed); any other ending is examined.
PYTEST_RAN = {0, 1}

# The process groups of the children alive now: what a third Ctrl-C ends
# on its way out (jaxcheck/interrupt.py), when nothing else gets to.
LIVE_GROUPS: set[int] = set()


@dataclass(frozen=True)
class RunOptions:
    """How to run the properties: the SUT, its reference, the Hypothesis profile,
    the time limit of one SUT call, parallel workers, where reproducers go,
    a deadline each property gets a share of the time to (a hunt, `check
    --quick`), and for a hunt fresh examples and the example database."""

    sut: str
    reference: str = "auto"
    profile: str = "ci"
    timeout: float = DEFAULT_TIMEOUT
    jobs: int = 1
    out: Path = Path(reproducer.DIRECTORY)
    deadline: float | None = None
    fresh: bool = False  # draw fresh examples until the deadline (a hunt)
    db: str | None = None
    max_shrinks: int | None = None  # successful shrinks before a failure is reported
    # Known findings (`--known`, jaxcheck/known.py): a failure that shows one of the
    # SUT's is not shrunk again, unless `shrink_known`.
    known: Path | None = None
    shrink_known: bool = False
    seed: int | None = None  # Hypothesis's seed for every property (a profile not derandomized)
    # A bounded round (`check --quick`): seconds a property may run past its share of
    # the deadline (shrinking included) before the parent ends it, and after the
    # deadline no property starts.  None: a property's share bounds its search only.
    overrun: float | None = None


# Every outcome a property can have, in the order a summary counts them:
# `interrupted` where the run was stopped before it ended, `error` never the
# SUT's doing (kept so older records read).
OUTCOMES = ("passed", "failed", "crashed", "hung", "skipped", "interrupted", "error")


@dataclass
class Verdict:
    """One property's result on one SUT."""

    nodeid: str
    outcome: str  # one of OUTCOMES
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
    # jaxcheck's own trouble while the property ran (a database gone, a file it
    # could not write): never the SUT's, and never a reason to fail it.
    trouble: list[str] = field(default_factory=list)
    # Reproducers that could not be written to disk, as text, so the run can
    # still show them.
    unsaved: list[str] = field(default_factory=list)
    # The ids of the known findings its failures show, where every one shows one
    # (`--known`, jaxcheck/known.py): a failure that is no news.
    known: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.nodeid.split("/", 1)[-1]

    def describe(self) -> str:
        return f"{self.outcome}: {self.reason}" if self.reason else self.outcome

    @classmethod
    def from_record(cls, record: dict) -> Verdict:
        return cls(**{key: record[key] for key in cls.__dataclass_fields__ if key in record})


@dataclass
class Run:
    """What a run found: every verdict so far, and the signal that stopped it, if one did."""

    verdicts: list[Verdict]
    signum: int | None = None
    not_reached: list[str] = field(default_factory=list)  # a bounded round's time was up

    @property
    def interrupted(self) -> bool:
        return self.signum is not None


class RunError(Exception):
    """The properties could not be run at all: the message says why."""


# JAX's compilation cache on disk, for every run of the suite (plain pytest through
# conftest.py, jaxcheck's children and replays here) unless the user sets it: each
# example wraps its program in new functions, so JAX's in-memory cache misses, while
# the same small programs recur across examples, seeds and runs.  JAX writes only
# compiles of at least 1 s by default, and ours take about 0.1 s.  tests/test_cells.py's
# per-operation rows on refimpl, `ci`: 382 s without it, 387 s cold, 270 s warm
# (docs/performance.md): writing costs 1 %, a warm cache saves 30 %.
XLA_CACHE = {"JAX_COMPILATION_CACHE_DIR": str(Path.home() / ".cache" / "jaxcheck" / "xla"),
             "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0"}


# What a user's environment may say to every pytest run, and a child must not hear:
# the user's options and plugins are for their own tests, not for the properties.
PYTEST_ENV = ("PYTEST_ADDOPTS", "PYTEST_PLUGINS")


def child_env() -> dict[str, str]:
    """The environment of a child: a clone's top first, then the user's directory
    (where their SUT imports from), and JAX's compilation cache (`XLA_CACHE`).

    A clone comes first, and `PYTHONSAFEPATH` keeps `python -m` from
    putting the working directory before it, so that a user's own `tests/`
    package or `strategies.py` (most projects have a `tests/`) never stands in
    for jaxcheck's.  Installed, the library is `jaxcheck.*` in site-packages,
    and nothing of a user's has its names."""
    env = {**XLA_CACHE, **os.environ}
    paths = [*([] if INSTALLED else [str(ROOT)]), os.getcwd(), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(p for p in paths if p))
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONSAFEPATH"] = "1"
    for name in PYTEST_ENV:
        env.pop(name, None)
    return env


def pytest_command(options: RunOptions, *args: str) -> list[str]:
    """`python -m pytest` with jaxcheck's configuration alone, wherever it is run from:
    no configuration file (`-c` the null device, so none of the user's is found),
    the rootdir and the conftest search bounded by ROOT, the properties' plugin."""
    command = [sys.executable, "-m", "pytest", "-c", os.devnull,
               "--rootdir", str(ROOT), "--confcutdir", str(ROOT), "-p", "no:cacheprovider",
               "-p", "jaxcheck.plugin",
               "--sut", options.sut, "--reference", options.reference,
               "--hypothesis-profile", options.profile, "--sut-timeout", f"{options.timeout:g}"]
    if options.seed is not None:
        command.append(f"--hypothesis-seed={options.seed}")
    return command + list(args)


def end_group(pid: int) -> None:
    """SIGKILL the process group `pid` leads: the child and anything it started."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):  # already gone
        pass
    LIVE_GROUPS.discard(pid)


def end_all() -> None:
    for pid in list(LIVE_GROUPS):
        end_group(pid)


def run_quietly(command: list[str], timeout: float, what: str) -> subprocess.CompletedProcess:
    """`command` in its own process group, its output captured, ended (with all it
    started) on a time-out or an interruption."""
    # Files, not pipes: a process the SUT detaches keeps its copy of the child's
    # output open, and a pipe read to its end waited for that process too.
    with (tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr,
          subprocess.Popen(command, stdout=stdout, stderr=stderr, env=child_env(),
                           start_new_session=True) as process):
        LIVE_GROUPS.add(process.pid)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise RunError(f"{what} did not finish within {timeout:g} s") from None
        finally:
            end_group(process.pid)
        out, err = (_text(f) for f in (stdout, stderr))
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def _text(file) -> str:
    file.seek(0)
    return file.read().decode(errors="replace")


def collect(options: RunOptions, select: str | None = None) -> list[str]:
    """The node ids of the properties (never the self-tests), optionally `-k select`.
    The child has the plugin `jaxcheck.child` for its guard (jaxcheck/lifetime.py):
    conftest imports the SUT."""
    args = ["--collect-only", "-q", "-p", "jaxcheck.child", str(ROOT / PROPERTIES),
            *(f"--ignore={ROOT / path}" for path in SELF_TESTS)]
    if select:
        args += ["-k", select]
    found = run_quietly(pytest_command(options, *args), COLLECT_TIMEOUT,
                        "collecting the properties")
    ids = [line for line in found.stdout.splitlines() if "::" in line]
    if found.returncode not in (0, 5) or not ids:
        detail = (found.stderr.strip() or found.stdout.strip())[-2000:]
        what = (f"no property matches -k {select!r}" if found.returncode == 5
                else "collection failed")
        raise RunError(f"{what}:\n{detail}")
    return ids


def shard(nodeids: list[str], index: int, count: int,
          costs: dict[str, float] | None = None) -> list[str]:
    """The `index`-th (from 1) of `count` shares of `nodeids`: every count-th property
    in collection order.  The order is the same on every machine of one checkout,
    so the shares never overlap and together are all; and a module's rows (a
    parametrized property's, the per-operation cells) spread over every share, so
    the shares take about equal time.  Given `costs` (an earlier run's seconds by
    property), the shares are `balanced` instead."""
    if costs is not None:
        return balanced(nodeids, count, costs)[index - 1]
    return nodeids[index - 1::count]


def deal(nodeids: list[str], jobs: int, costs: dict[str, float] | None = None
         ) -> list[list[str]]:
    """The properties each of `jobs` workers runs, one after another: every
    jobs-th in order, so that a module's rows spread over the workers as they
    spread over the shards; `balanced` by `costs` when given."""
    if costs is not None:
        return balanced(nodeids, jobs, costs)
    return [nodeids[i::jobs] for i in range(jobs)]


def balanced(nodeids: list[str], count: int, costs: dict[str, float]) -> list[list[str]]:
    """`count` shares of `nodeids` whose costs add up to about the same: each property,
    the costliest first, goes to the share with the least so far (longest
    processing time first), and each share keeps collection order.

    Dealing every N-th property ignores that one property takes 6 minutes and the
    next 1 second: a thorough JAX shard's two workers took 44 and 29 min, where
    these costs give 36 and 36 (docs/performance.md).  Only the costs and the
    order decide (ties go to the earlier property and the lower share), never a
    clock, so every machine given one record deals alike, and which properties
    share a process does not depend on timing.  A property the costs lack (new
    since that run) costs their mean; among shares of equal cost (skipped
    properties cost 0) the one with fewer properties takes the next."""
    known = [costs[n] for n in nodeids if n in costs]
    fallback = sum(known) / len(known) if known else 1.0
    cost = [costs.get(n, fallback) for n in nodeids]
    loads, places = [0.0] * count, [[] for _ in range(count)]
    for i in sorted(range(len(nodeids)), key=lambda i: (-cost[i], i)):
        least = min(range(count), key=lambda k: (loads[k], len(places[k]), k))
        loads[least] += cost[i]
        places[least].append(i)
    return [[nodeids[i] for i in sorted(share)] for share in places]


class Worker:
    """One child pytest process over a share of the properties, restarted after a
    crash or a hang with the properties it had not run."""

    def __init__(self, index: int, nodeids: list[str], options: RunOptions, run_dir: Path):
        self.options = options
        self.directory = run_dir / f"worker-{index}"
        self.directory.mkdir(parents=True, exist_ok=True)
        self.remaining = list(nodeids)
        self.process: subprocess.Popen | None = None
        self.receiver: Receiver | None = None
        self.output: ChildLog | None = None  # what the child prints, copied to self.log
        self.starts = 0
        self.running_nodeid: str | None = None  # the property the child said it started
        self.started = time.time()
        self.failing: dict[str, dict] = {}  # node id -> the failure found, while it shrinks
        self.trouble: list[str] = []  # jaxcheck's own, while the current property runs
        self.finished: Verdict | None = None  # the property the child finished last
        self.stopping = False
        self._killed_by_watchdog = False
        self.hard_end = float("inf")  # when the running property is cut (`overrun`)
        self._cut = False
        # The properties a bounded round never started: its time was up.
        self.not_reached: list[str] = []

    @property
    def log(self) -> Path:
        return self.directory / f"pytest-{self.starts}.log"

    @property
    def running(self) -> bool:
        return self.process is not None

    def start(self) -> None:
        self.starts += 1
        self.running_nodeid, self.finished = None, None
        for stale in ("current.json", "inflight.py"):
            (self.directory / stale).unlink(missing_ok=True)
        read_end, write_end = os.pipe()
        args = ["-q", "--hypothesis-show-statistics", f"--reproducers={self.options.out}",
                "-p", "jaxcheck.child",
                f"--jaxcheck-worker={self.directory}", f"--jaxcheck-channel={write_end}"]
        if self.options.deadline is not None:
            args.append(f"--jaxcheck-deadline={self.options.deadline}")
        if self.options.overrun is not None:
            args.append(f"--jaxcheck-overrun={self.options.overrun}")
        if self.options.fresh:
            args.append("--jaxcheck-fresh")
        if self.options.max_shrinks is not None:
            args.append(f"--max-shrinks={self.options.max_shrinks}")
        if self.options.known is not None and not self.options.shrink_known:
            args.append(f"--jaxcheck-known={self.options.known}")
        ids = [str(ROOT / nodeid) for nodeid in self.remaining]
        output_end, printing_end = os.pipe()
        try:
            self.process = subprocess.Popen(pytest_command(self.options, *args, *ids),
                                            stdout=printing_end, stderr=subprocess.STDOUT,
                                            env=child_env() | ({DB_ENV: self.options.db}
                                                               if self.options.db else {}),
                                            start_new_session=True,
                                            pass_fds=(write_end,))
        finally:
            os.close(write_end)
            os.close(printing_end)
        LIVE_GROUPS.add(self.process.pid)
        self.receiver = Receiver(read_end)
        self.output = ChildLog(output_end, self.log, self._trouble)

    def current(self) -> dict | None:
        """The running property and its examples so far (best effort: a file)."""
        try:
            current = json.loads((self.directory / "current.json").read_text())
        except (OSError, ValueError):
            return None
        return current if current.get("nodeid") == self.running_nodeid else None

    def _take_events(self) -> list[Verdict]:
        """Verdicts among the events the child sent since the last look."""
        verdicts = []
        for event in self.receiver.events() if self.receiver else []:
            kind = event.pop("event")
            if kind == START:
                self.running_nodeid, self.started = event["nodeid"], event["started"]
                self.hard_end = self._hard_end()
            elif kind == FAILING:
                if event["nodeid"] not in self.failing:  # shrinking starts: cut at its share
                    self.hard_end = min(self.hard_end, self._hard_end(failed=True))
                self.failing[event["nodeid"]] = event
            elif kind == TROUBLE:
                self._trouble(event["message"])
            elif kind == RESULT:
                verdict = self.finished = Verdict.from_record(event)
                self.failing.pop(verdict.nodeid, None)
                self.running_nodeid, self.trouble = None, []
                if verdict.nodeid in self.remaining:
                    self.remaining.remove(verdict.nodeid)
                verdicts.append(verdict)
        return verdicts

    def _trouble(self, message: str) -> None:
        """Keep jaxcheck's own trouble with the property that met it: the running one,
        or, between properties, the one the child finished last (a child the SUT
        holds alive after its last property is ended then, and says so)."""
        if self.running_nodeid is None and self.finished is not None:
            if message not in self.finished.trouble:
                self.finished.trouble.append(message)
        else:
            self.trouble.append(message)

    def poll(self) -> list[Verdict]:
        """New verdicts; restarts the child after a crash or a hang."""
        if self.process is None:
            return []
        self._watchdog()
        self._past_its_share()
        returncode = self.process.poll()
        self.output.copy()
        verdicts = self._take_events()
        if returncode is None:
            return verdicts
        verdicts += self._take_events()  # what it sent as it ended
        self._ended()
        if self.remaining and not (self.running_nodeid is None and self.time_up()):
            verdicts.append(self._ended_early(returncode))
        if self.remaining and self.time_up():
            self.not_reached, self.remaining = self.remaining, []
        if self.remaining and not self.stopping:
            self.start()
        return verdicts

    def time_up(self) -> bool:
        """Whether a bounded round's deadline has passed: no property starts after it."""
        return self.options.overrun is not None and time.time() > self.options.deadline

    def _hard_end(self, failed: bool = False) -> float:
        """When the running property is cut, in a bounded round: `overrun` past the
        deadline while it searches (the child ends a passing property after the first
        example past its share, but one example of a slow SUT may outlast a share,
        and a judged property is what a round is for); once it has failed, `overrun`
        past the end of its share or now, whichever is later (the child cuts its
        shrinking there: its share is the time to the deadline over the properties
        left when it started, this one included, jaxcheck/child.py)."""
        if self.options.overrun is None:
            return float("inf")
        if not failed:
            return self.options.deadline + self.options.overrun
        left = max(1, len(self.remaining))
        share = max(0.0, self.options.deadline - self.started) / left
        return max(self.started + share, time.time()) + self.options.overrun

    def _past_its_share(self) -> None:
        """End the child whose property ran past its hard end (`overrun`)."""
        if self.running_nodeid is not None and time.time() > self.hard_end and not self._cut:
            self._cut = True
            self.kill()

    def _ended(self) -> None:
        end_group(self.process.pid)  # what the SUT started, if the child left it
        self.process = None
        if self.receiver:
            self.receiver.close()
            self.receiver = None
        if self.output:
            self.output.close()
            self.output = None

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
        """End the child's whole process group (the child may be gone, and what it
        started still running)."""
        if self.process is not None:
            end_group(self.process.pid)
            self.process.wait()

    def stop(self) -> list[Verdict]:
        """End the child now (the run was interrupted) and return what it had found:
        its finished properties, and the one it was running as failed (with the
        failure found so far) or interrupted."""
        self.stopping = True
        self.kill()
        return self.poll()

    def provisional(self) -> list[Verdict]:
        """The failures found and still shrinking, as verdicts: what a record written
        now must hold in case the run never gets further."""
        return [self._failed_while_shrinking(nodeid, "still shrinking")
                for nodeid in self.failing]

    def _failed_while_shrinking(self, nodeid: str, why: str) -> Verdict:
        found = self.failing[nodeid]
        return Verdict(nodeid, "failed", found.get("examples"),
                       round(time.time() - self.started, 3),
                       f"{why}: the reproducer is the first failing example, not the smallest",
                       found["reproducers"],
                       [{"error": found["error"], "reproducers": found["reproducers"]}],
                       found.get("first_failure"), found.get("first_failure_seconds"),
                       found["error"].splitlines()[0], trouble=list(self.trouble),
                       unsaved=found.get("unsaved", []))

    def _ended_early(self, returncode: int) -> Verdict:
        """The verdict on the property the child was running when it ended."""
        nodeid = self.running_nodeid
        if nodeid not in self.remaining:  # it died before starting a property
            if (returncode not in PYTEST_RAN and nodeid is None and self.starts == 1
                    and not self.stopping):
                tail = _tail(self.log)
                self.remaining = []
                raise RunError(f"the child pytest run ended with exit status {returncode} "
                               f"before running any property:\n{tail}")
            nodeid = self.remaining[0]
        self.remaining.remove(nodeid)
        current = self.current() or {}
        examples = current.get("examples")
        hung = returncode == inflight.EXIT_HUNG or self._killed_by_watchdog
        self._killed_by_watchdog = False
        cut, self._cut = self._cut and not hung, False
        if cut and nodeid in self.failing:
            return self._failed_while_shrinking(nodeid, "cut at the end of its share of the "
                                                        "round")
        if cut:
            return Verdict(nodeid, "interrupted", examples,
                           round(time.time() - self.started, 3), CUT,
                           trouble=list(self.trouble))
        if self.stopping and not hung:
            if nodeid in self.failing:
                return self._failed_while_shrinking(nodeid, "stopped while shrinking")
            return Verdict(nodeid, "interrupted", examples,
                           round(time.time() - self.started, 3), "stopped",
                           trouble=list(self.trouble))
        if hung:
            outcome, reason = "hung", f"no return within {self.options.timeout:g} s"
        elif returncode < 0:
            outcome, reason = "crashed", signal.Signals(-returncode).name
        else:
            outcome, reason = "crashed", f"exit status {returncode}"
        saved = self._save_in_flight(nodeid, outcome)
        if not saved:
            reason += ", outside an example's SUT call: no reproducer"
        failures = [{"error": f"{outcome}: {reason}", "reproducers": saved}]
        earlier = self.failing.pop(nodeid, None)
        if earlier:  # a failure found before the crash, while shrinking it
            failures.append({"error": earlier["error"], "reproducers": earlier["reproducers"]})
        return Verdict(nodeid, outcome, examples, round(time.time() - self.started, 3),
                       reason, saved + (earlier["reproducers"] if earlier else []),
                       failures if earlier else [],
                       message=f"the child's output: {self.log}", trouble=list(self.trouble),
                       unsaved=earlier.get("unsaved", []) if earlier else [])

    def _save_in_flight(self, nodeid: str, outcome: str) -> list[str]:
        script = self.directory / "inflight.py"
        try:
            text = script.read_text()
        except FileNotFoundError:
            return []
        name = nodeid.rsplit("::", 1)[-1] + f"-{outcome}"
        try:
            path = reproducer.save(text, name, self.options.out)
        except OSError as exc:
            self.trouble.append(f"the reproducer of the {outcome} call could not be saved to "
                                f"{self.options.out} ({exc.strerror}); it is kept at {script}")
            return []
        script.unlink()
        return [str(path)]


def _tail(log: Path) -> str:
    try:
        return log.read_text()[-3000:]
    except OSError:
        return "(its log could not be read)"


def run(nodeids: list[str], options: RunOptions, run_dir: Path,
        costs: dict[str, float] | None = None,
        on_verdict: Callable[[Verdict], None] = lambda verdict: None,
        on_tick: Callable[[list[Worker]], None] = lambda workers: None,
        on_change: Callable[[list[Verdict]], None] = lambda verdicts: None) -> Run:
    """Every property's verdict, in the order of `nodeids`.

    `on_change` gets the verdicts so far, failures still shrinking included,
    whenever they change: the caller keeps its record on disk with it.  An
    interruption (jaxcheck/interrupt.py) ends the children and returns what was
    found: a property that was running is failed if it had failed, else
    interrupted; those not started are left out.  `costs` (seconds by property)
    deal the properties to the workers `balanced`, else every J-th.
    """
    jobs = max(1, min(options.jobs, len(nodeids)))
    run_dir.mkdir(parents=True, exist_ok=True)
    workers = [Worker(i, share, options, run_dir)
               for i, share in enumerate(deal(nodeids, jobs, costs))]
    verdicts: dict[str, Verdict] = {}
    shrinking: set[tuple] = set()
    signum = None

    def take(new: list[Verdict]) -> None:
        for verdict in new:
            verdicts[verdict.nodeid] = verdict
            on_verdict(verdict)

    def so_far() -> list[Verdict]:
        found = {**{v.nodeid: v for w in workers for v in w.provisional()}, **verdicts}
        return [found[n] for n in nodeids if n in found]

    try:
        for worker in workers:
            worker.start()
        while any(worker.running for worker in workers):
            before = len(verdicts)
            for worker in workers:
                take(worker.poll())
            now_shrinking = {(n, e["reproducers"][0] if e["reproducers"] else "")
                             for w in workers for n, e in w.failing.items()}
            if len(verdicts) != before or now_shrinking != shrinking:
                shrinking = now_shrinking
                on_change(so_far())
            on_tick(workers)
            time.sleep(POLL_SECONDS)
    except KeyboardInterrupt as exc:
        signum = getattr(exc, "signum", signal.SIGINT)
        for worker in workers:
            take(worker.stop())
    finally:
        for worker in workers:
            worker.kill()
    result = Run([verdicts[n] for n in nodeids if n in verdicts], signum,
                 [n for w in workers for n in w.not_reached])
    on_change(result.verdicts)
    return result
