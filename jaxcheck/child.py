"""The pytest plugin of a child run of the `jaxcheck` command: what the parent needs, kept safe.

`jaxcheck check` and `jaxcheck hunt` run the properties in child pytest
processes (`jaxcheck/runner.py`), so that a crash or a hang of the SUT ends
one child, not the run.  This plugin, loaded with `-p jaxcheck.child`, is
the child's half of it; without `--jaxcheck-worker` it does nothing.

Over the pipe to the parent (`--jaxcheck-channel`, jaxcheck/channel.py) it
says when each property starts, each failure *as soon as it is found* (its
reproducer saved first, before Hypothesis shrinks it, and again at most
every `PROVISIONAL_SECONDS` as shrinking finds smaller ones), jaxcheck's own
trouble, and each property's result (outcome, examples, the example that
first failed, skip reason, saved reproducers, the child's peak memory so
far).  An interruption at any moment therefore leaves a reproducer of every
failure found, and a pipe needs no disk.  In the worker directory it keeps:

* `inflight.py`: the script of the SUT call in progress (`oracles/inflight.py`);
* `current.json`: the property running and its examples so far, rewritten
  as each example starts (a small file, microseconds next to an example's
  milliseconds), so that a crash is blamed with the right example count,
  and a hunt can show its progress.

The child ends its own process group when the parent goes away (even by
SIGKILL), so no child, and nothing an SUT started, outlives the command
(jaxcheck/lifetime.py, from before conftest imports the SUT).

Under a deadline (`--jaxcheck-deadline`: a hunt, or `check --quick`) each
property gets an equal share of the time left when it starts. When it is
over, the next example that passes ends the property with `pytest.skip`,
which Hypothesis re-raises at once (the only early stop it offers), and the
plugin records the property as passed with its examples. The skip comes
after an example, never before one: an example that draws nothing where
earlier ones drew is, to Hypothesis, flaky data generation. A property that
has failed is never stopped: its shrinking runs to the end, except in a
bounded round (`--jaxcheck-overrun`: `check --quick`), where shrinking is
also cut by time, at the end of the property's share and half its overrun,
and no property starts after the deadline (the parent cuts a property that
runs past its bound, jaxcheck/runner.py). A hunt
(`--jaxcheck-fresh`) lifts the profile's example budget, and its profile
adds the example database (`--jaxcheck-db`, jaxcheck/database.py) to the
profile chosen, so a failure found anywhere is replayed first; a database
that fails is jaxcheck's trouble, reported, never the SUT's.  With known
findings (`--jaxcheck-known`, jaxcheck/known.py), a failing example that
shows one of the SUT's ends shrinking at once: it is no news.
"""

from __future__ import annotations

import json
import os
import re
import resource
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis.errors import UnsatisfiedAssumption
from hypothesis.internal.conjecture import engine

from jaxcheck.channel import FAILING, RESULT, START, TROUBLE, Sender
from jaxcheck.database import DB_ENV, Guarded, open_database
from jaxcheck.examples import wrapped
from jaxcheck.known import Baseline, known_failure
from jaxcheck.known import read as read_known
from jaxcheck.lifetime import end_soon, end_with_parent
from oracles import reproducer
from oracles.inflight import InFlight
from oracles.reproducer import FAILURE_KEY, call_script

# Examples a hunt allows each property: more than any time slice runs.
HUNT_EXAMPLES = 10**9

# A failure's message in the results is its first line, cut to this: the
# whole of it (and the reproducer) is in the child's log and the saved file.
MESSAGE_CHARACTERS = 300
# What of the whole failure report is kept for recognising known findings
# (jaxcheck/findings.py): every line that names an exception (a flaky failure's
# or an exception group's first line names none; their sub-exceptions do),
# then the report's end; 20,000 characters of each.
EVIDENCE_CHARACTERS = 20_000
_EXCEPTION_LINE = re.compile(r"^[\s|+E>]*([\w.]*(?:Error|Exception|Raised|Failure)\b.*)$",
                             re.MULTILINE)

HUNT_SKIP = "jaxcheck hunt: time slice over"

# While a failure shrinks, its newest failing example replaces the saved one at
# most this often: writing a reproducer takes about a millisecond, a shrink
# step from a millisecond to seconds, and an interruption then loses at most
# this much shrinking.
PROVISIONAL_SECONDS = 1.0

# Hypothesis's errors for a failing example that went otherwise when run again
# (`hypothesis.errors.Flaky`'s kinds).  jaxcheck's strategies depend on nothing
# but their draws, and a property draws again after each SUT call: after a
# failing example, this is the SUT not doing the same twice on one input.
_RAN_OTHERWISE = ("FlakyStrategyDefinition", "FlakyFailure", "Flaky")
_RAN_OTHERWISE_SAYS = ("the SUT failed an example, then did not do the same when Hypothesis ran "
                       "it again (the SUT is flaky; the first failure's reproducer is kept): ")
_FIRST_FAILURE_SAYS = "\nThe first failure: "


def pytest_addoption(parser):
    group = parser.getgroup("jaxcheck-child", "set by the jaxcheck command (jaxcheck/child.py)")
    group.addoption("--jaxcheck-worker", metavar="DIR", help="the worker directory")
    group.addoption("--jaxcheck-channel", type=int, metavar="FD",
                    help="the pipe to the parent (jaxcheck/channel.py)")
    group.addoption("--jaxcheck-deadline", type=float, metavar="EPOCH",
                    help="hunt until this time (seconds since the epoch)")
    group.addoption("--jaxcheck-fresh", action="store_true",
                    help="draw fresh examples until the deadline (a hunt): the profile's "
                         "example budget is lifted")
    group.addoption("--jaxcheck-db", metavar="PATH|URL",
                    help=f"the hunt's example database (the command gives it in ${DB_ENV})")
    group.addoption("--jaxcheck-overrun", type=float, metavar="SECONDS",
                    help="a bounded round (check --quick): shrinking is cut by time too, so a "
                         "property ends within its share plus this, and no property starts "
                         "after the deadline")
    group.addoption("--jaxcheck-known", metavar="PATH",
                    help="known findings (jaxcheck/known.py): a failure that shows one of the "
                         "SUT's is not shrunk")


@dataclass
class Tally:
    """One property's run, as it goes."""

    nodeid: str
    started: float = field(default_factory=time.time)
    examples: int | None = None
    first_failure: int | None = None
    first_failure_seconds: float | None = None
    slice_end: float = float("inf")
    sliced: bool = False
    outcome: str = "passed"
    reason: str = ""
    message: str = ""
    evidence: str = ""
    failures: list[dict] = field(default_factory=list)
    trouble: list[str] = field(default_factory=list)
    provisional: list[str] = field(default_factory=list)  # reproducers saved while shrinking
    provisional_at: float = 0.0
    provisional_error: str = ""  # the error of the failing example saved last

    def record(self) -> dict:
        return {"nodeid": self.nodeid, "outcome": self.outcome, "examples": self.examples,
                "first_failure": self.first_failure,
                "first_failure_seconds": self.first_failure_seconds, "reason": self.reason,
                "message": self.message, "evidence": self.evidence,
                # Each once: two bugs of one property may be saved to the same file.
                "reproducers": list(dict.fromkeys(path for failure in self.failures
                                                  for path in failure["reproducers"])),
                "failures": [{"error": f["error"], "reproducers": f["reproducers"]}
                             for f in self.failures],
                "unsaved": [text for f in self.failures for text in f.get("unsaved", [])],
                "trouble": self.trouble,
                "seconds": round(time.time() - self.started, 3),
                "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}


class Child:
    """The plugin's state in one child: the worker directory, the pipe to the parent,
    where reproducers go, the hunt's deadline, and the property running."""

    def __init__(self, directory: Path, channel: Sender, out: Path, deadline: float | None,
                 known: Baseline | None = None, overrun: float | None = None):
        self.directory = directory
        self.channel = channel
        self.out = out
        self.deadline = deadline
        self.known = known
        self.overrun = overrun
        self.shrinking_seconds = engine.MAX_SHRINKING_SECONDS
        self.tally: Tally | None = None
        self.trouble_told: set[str] = set()

    def trouble(self, message: str) -> None:
        """jaxcheck's own trouble: told to the parent once, kept with the property."""
        if self.tally is not None and message not in self.tally.trouble:
            self.tally.trouble.append(message)
        if message not in self.trouble_told:
            self.trouble_told.add(message)
            self.channel.send(TROUBLE, message=message)

    def progress(self) -> None:
        try:
            _write_json(self.directory / "current.json",
                        {"nodeid": self.tally.nodeid, "examples": self.tally.examples or 0,
                         "started": self.tally.started})
        except OSError:  # progress only: the parent counts from what it last read
            pass

    def counted(self, inner):
        """`inner` (a property's body under Hypothesis), counting its examples, saving
        each failure as it is found and, in a hunt, ending the property when its
        time slice is over."""
        tally = self.tally
        tally.examples = 0

        def body(*args, **kwargs):
            tally.examples += 1
            self.progress()
            try:
                result = inner(*args, **kwargs)
            except UnsatisfiedAssumption:
                raise
            except Exception as exc:
                if tally.first_failure is None:
                    tally.first_failure = tally.examples
                    tally.first_failure_seconds = round(time.time() - tally.started, 3)
                self.found(exc)
                raise
            if tally.first_failure is None and time.time() > tally.slice_end:
                tally.sliced = True
                pytest.skip(HUNT_SKIP)
            return result

        return body

    def found(self, exc: Exception) -> None:
        """A failing example: its reproducer on disk and the parent told, the first at
        once, later (smaller) ones at most every PROVISIONAL_SECONDS."""
        tally = self.tally
        now = time.time()
        if tally.provisional_at and now - tally.provisional_at < PROVISIONAL_SECONDS:
            return
        tally.provisional_at = now
        if self.overrun is not None:
            # A bounded round cuts shrinking by time as well as by count: it may take
            # what is left of the property's share and half its overrun, leaving the
            # other half for Hypothesis's last run of the shrunk example before the
            # parent ends the property (jaxcheck/runner.py).  The engine reads this
            # when shrinking starts, after the failures found while generating.
            engine.MAX_SHRINKING_SECONDS = max(0.0, tally.slice_end - now) + self.overrun / 2
        error, texts = next(reproducer.failures(exc))
        if self.known and known_failure("\n".join([error, *texts]), self.known.sut,
                                        list(self.known.findings)):
            # Hypothesis reports the smallest failure so far once its count of
            # successful shrinks reaches this, which it checks after every failing
            # example; the properties' plugin restores it after the property.
            engine.MAX_SHRINKS = 0
        saved, unsaved = self.save(texts, tally.nodeid.rsplit("::", 1)[-1])
        if unsaved:  # a full disk: the reproducers already saved stay, and stay named
            saved = list(dict.fromkeys(saved + tally.provisional))
        for old in set(tally.provisional) - set(saved):
            Path(old).unlink(missing_ok=True)
        tally.provisional, tally.provisional_error = saved, error
        self.channel.send(FAILING, nodeid=tally.nodeid, error=error, reproducers=saved,
                          unsaved=unsaved, examples=tally.examples,
                          first_failure=tally.first_failure,
                          first_failure_seconds=tally.first_failure_seconds)

    def save(self, texts: list[str], name: str) -> tuple[list[str], list[str]]:
        """The reproducers written to the reproducer folder, and the texts that could not
        be (a full disk), which the parent prints instead."""
        saved, unsaved = [], []
        for text in texts:
            try:
                saved.append(str(reproducer.save(text, name, self.out)))
            except OSError as exc:
                self.trouble(f"a reproducer could not be saved to {self.out} ({exc.strerror})")
                unsaved.append(text)
        return saved, unsaved

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item, nextitem):
        """In a bounded round past its deadline, no property starts: the session stops,
        and the parent names those left as not reached."""
        if self.overrun is not None and self.deadline is not None and time.time() > self.deadline:
            item.session.shouldstop = "jaxcheck: the round's time is up"
            return True
        return None

    @pytest.hookimpl
    def pytest_runtest_logstart(self, nodeid):
        self.tally = Tally(nodeid)
        self.channel.send(START, nodeid=nodeid, started=self.tally.started)
        self.progress()

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item):
        if self.deadline is not None:
            left = item.session.items[item.session.items.index(item):]
            self.tally.slice_end = time.time() + (self.deadline - time.time()) / len(left)
        with wrapped(item, self.counted):
            return (yield)

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report):
        tally = self.tally
        tally.failures += [failure for key, failure in report.user_properties
                           if key == FAILURE_KEY]
        if report.skipped and not tally.sliced:
            tally.outcome, tally.reason = "skipped", _skip_reason(report)
        elif report.failed:
            tally.outcome = "failed"
            crash = getattr(report.longrepr, "reprcrash", None)
            message = crash.message if crash else str(report.longrepr)
            tally.message = message.strip().splitlines()[0][:MESSAGE_CHARACTERS]
            tally.evidence = _evidence(str(report.longrepr))

    @pytest.hookimpl
    def pytest_runtest_logfinish(self, nodeid):
        tally = self.tally
        engine.MAX_SHRINKING_SECONDS = self.shrinking_seconds
        if tally.provisional:
            _keep_first_failure(tally)
        final = {path for failure in tally.failures for path in failure["reproducers"]}
        for failure in tally.failures:
            for message in failure.get("trouble", []):
                self.trouble(message)
        if final or not any(f.get("unsaved") for f in tally.failures):
            for old in set(tally.provisional) - final:  # shrinking replaced them
                Path(old).unlink(missing_ok=True)
        self.channel.send(RESULT, **tally.record())


def _keep_first_failure(tally: Tally) -> None:
    """After a failing example was saved, Hypothesis's own error for an example that
    went otherwise when run again says so in the SUT's words and, naming no example
    itself, keeps the saved one's reproducer and error: a known finding's signature
    is searched in that error (a state-dependent defect of the SUT is often what
    made it go otherwise, and its reproducer, run alone, may pass)."""
    for failure in tally.failures:
        if failure["error"].split(":", 1)[0] not in _RAN_OTHERWISE:
            continue
        first = _FIRST_FAILURE_SAYS + tally.provisional_error if tally.provisional_error else ""
        failure["error"] = _RAN_OTHERWISE_SAYS + failure["error"] + first
        if not failure["reproducers"] and not failure.get("unsaved"):
            failure["reproducers"] = list(tally.provisional)
    if tally.message.removeprefix("hypothesis.errors.").split(":", 1)[0] in _RAN_OTHERWISE:
        tally.message = (_RAN_OTHERWISE_SAYS + tally.message)[:MESSAGE_CHARACTERS]


def _evidence(text: str) -> str:
    lines = "\n".join(dict.fromkeys(_EXCEPTION_LINE.findall(text)))
    return lines[:EVIDENCE_CHARACTERS] + "\n" + text[-EVIDENCE_CHARACTERS:]


def _skip_reason(report) -> str:
    longrepr = report.longrepr
    return longrepr[2].removeprefix("Skipped: ") if isinstance(longrepr, tuple) else str(longrepr)


def _write_json(path: Path, value) -> None:
    staging = path.with_name(path.name + ".partial")
    staging.write_text(json.dumps(value))
    os.replace(staging, path)


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    """The child guards its lifetime before conftest imports the SUT, which may start
    processes or hang as it imports (`lifetime.end_with_parent`)."""
    end_with_parent()


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    """The child's work is done: if the SUT then keeps it alive (a non-daemon thread,
    an exit handler that hangs), it is ended soon, saying so (`lifetime.end_soon`)."""
    child = session.config.pluginmanager.get_plugin("jaxcheck-child-state")
    end_soon(int(exitstatus), child.trouble if child else print)


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    """After conftest has resolved the SUT and Hypothesis has loaded the profile."""
    worker = config.getoption("--jaxcheck-worker")
    if not worker:
        return
    directory = Path(worker)
    directory.mkdir(parents=True, exist_ok=True)
    channel = Sender(config.getoption("--jaxcheck-channel"))
    out = config.invocation_params.dir / config.getoption("--reproducers")
    known = config.getoption("--jaxcheck-known")
    child = Child(directory, channel, out, config.getoption("--jaxcheck-deadline"),
                  read_known(Path(known), config.jaxcheck_sut.name) if known else None,
                  config.getoption("--jaxcheck-overrun"))
    config.jaxcheck_sut = replace(config.jaxcheck_sut, in_flight=InFlight(
        directory / "inflight.py", call_script, on_trouble=child.trouble))
    if config.getoption("--jaxcheck-fresh"):
        hunt = {"max_examples": HUNT_EXAMPLES, "derandomize": False}
        db = config.getoption("--jaxcheck-db") or os.environ.get(DB_ENV)
        if db:
            hunt["database"] = Guarded(open_database(db), db, child.trouble)
        settings.register_profile("jaxcheck-hunt", **hunt)
        settings.load_profile("jaxcheck-hunt")
    config.pluginmanager.register(child, "jaxcheck-child-state")
