"""A `jaxcheck` run in the background, poked from outside: for the fault-injection tests.

tests/meta/test_faults.py and bench/faults.py start the command as a user
does (`python -m jaxcheck ...`), wait for what its record on disk says,
send it signals, and then look for what it left behind.  Every process a
run starts is found by two markers, unique to the run:

* the value of `JAXCHECK_SHIM_SLEEPER`, set in the run's environment: every
  process the run starts inherits it (the probe, collection, the child
  pytest runs), and tests/shims/jvp_doubled_slowly.py starts `sleep VALUE`
  on every call, a stand-in for what an SUT may start;
* the run's `--out` folder, on the command line of each child pytest
  (`--jaxcheck-worker=OUT/logs/...`).
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from jaxcheck import record
from tests.meta.command import ROOT, read_verdicts

# The SUT whose failure is found at once and shrinks for minutes (each jvp call
# takes 3 s), and the property that finds it; the property beside it never calls
# jvp, so the SUT is correct for it: a verdict other than passed is a false alarm.
SLOW_SHIM = "tests.shims.jvp_doubled_slowly"
FAILING = "test_jvp_matches_finite_differences_and_reference"
CORRECT = "test_jit_retraces_for_a_new_shape"
BOTH = f"{FAILING} or {CORRECT}"

SLEEPER = "JAXCHECK_SHIM_SLEEPER"

# Seconds a process the run started may take to go once the run has ended: a
# child notices its parent is gone within 0.5 s (jaxcheck/child.py), and a
# SIGKILL'd group is gone within milliseconds; on a loaded 2-core machine,
# ten times that.
SETTLE_SECONDS = 5.0

_count = itertools.count()


def sleeper_marker() -> str:
    """A `sleep` duration no one else uses: about 3 hours, made unique by this process's
    id and a counter."""
    return f"{10_000 + next(_count)}.{os.getpid()}"


@dataclass
class Background:
    """A run of the command, started and not yet waited for."""

    process: subprocess.Popen
    out: Path  # its --out
    home: Path  # where its output is kept
    marker: str  # its JAXCHECK_SHIM_SLEEPER
    status: int | None = None  # its exit status, once waited for

    @property
    def stdout(self) -> str:
        return (self.home / "stdout.txt").read_text(errors="replace")

    @property
    def stderr(self) -> str:
        return (self.home / "stderr.txt").read_text(errors="replace")

    def output(self) -> str:
        return self.stdout + self.stderr

    def send(self, signum: int) -> None:
        self.process.send_signal(signum)

    def wait(self, timeout: float = 120) -> int:
        """Its exit status (the shell's 128 + signal for a signal, as a user sees it);
        killed, with all it started, and a failure if it outlives `timeout`."""
        try:
            returncode = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"the run did not end within {timeout:g} s:\n"
                                 f"{self.output()[-3000:]}") from None
        self.status = 128 - returncode if returncode < 0 else returncode
        return self.status

    def kill(self) -> None:
        """End the run and every process carrying its markers (the clean-up of a test
        that failed half-way)."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for pid, _ in processes(self.markers):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    @property
    def markers(self) -> tuple[bytes, ...]:
        return (self.marker.encode(), str(self.out).encode())

    def verdicts(self) -> dict[str, dict] | None:
        """Its record as it is on disk now (the run is alone in its --out), by property
        name; None when there is none yet, or none that can be read."""
        paths = list(self.out.glob("logs/*/verdicts.json"))
        if not paths:
            return None
        try:
            return read_verdicts(paths[0])
        except record.RecordError:
            return None

    def until(self, ready: Callable[[], object], what: str, timeout: float = 120):
        """What `ready()` returns once it is true; a failure, saying `what` was awaited,
        if it is not within `timeout` or the run ends first."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.process.poll() is None:
            found = ready()
            if found:
                return found
            time.sleep(0.1)
        self.kill()
        raise AssertionError(f"waited for {what}; the record says {self.verdicts()}; "
                             f"the output:\n{self.output()[-3000:]}")

    def running(self) -> str | None:
        """The property a child says it runs now (its worker's current.json), if any."""
        for path in self.out.glob("logs/*/worker-*/current.json"):
            try:
                return json.loads(path.read_text())["nodeid"].rsplit("::", 1)[-1]
            except (OSError, ValueError, KeyError):
                pass
        return None

    def left_behind(self) -> list[str]:
        """The processes carrying the run's markers, once they had SETTLE_SECONDS to go."""
        return left_behind(self.markers)


def start(home: Path, *args: str, cwd: Path = ROOT, env: dict | None = None) -> Background:
    """`python -m jaxcheck ARGS` (which must give --out) in the background, from `cwd`,
    with this checkout's jaxcheck first on the path; its output kept in `home`."""
    home.mkdir(parents=True, exist_ok=True)
    marker = sleeper_marker()
    environment = {**os.environ, **(env or {}), SLEEPER: marker}
    environment["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT), environment.get("PYTHONPATH", "")) if p)
    with open(home / "stdout.txt", "w") as stdout, open(home / "stderr.txt", "w") as stderr:
        process = subprocess.Popen([sys.executable, "-m", "jaxcheck", *args], cwd=cwd,
                                   env=environment, stdout=stdout, stderr=stderr)
    out = cwd / args[args.index("--out") + 1]
    return Background(process, out.resolve(), home, marker)


def left_behind(markers: tuple[bytes, ...]) -> list[str]:
    """The processes carrying one of `markers`, once they had SETTLE_SECONDS to go."""
    deadline = time.monotonic() + SETTLE_SECONDS
    while (found := processes(markers)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return [f"{pid}: {command}" for pid, command in found]


def processes(markers: tuple[bytes, ...]) -> list[tuple[int, str]]:
    """(pid, command line) of every live process whose command line or environment
    holds one of `markers`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
            environment = (entry / "environ").read_bytes()
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if any(marker in command or marker in environment for marker in markers):
            found.append((int(entry.name), command.replace(b"\0", b" ").decode(errors="replace")))
    return found


def shrinking(verdicts: dict) -> bool:
    """The record holds a failure found and still shrinking."""
    return any(v["outcome"] == "failed" and v["reason"].startswith("still shrinking")
               for v in verdicts.values())


def kept(verdict: dict) -> list[str]:
    """What is wrong with a failed verdict's reproducers: none, or one not on disk."""
    if verdict["outcome"] != "failed":
        return [f"{verdict['nodeid']} is {verdict['outcome']}, not failed"]
    if not verdict["reproducers"]:
        return [f"{verdict['nodeid']} failed without a reproducer on disk"]
    return [f"reproducer {path} is not on disk" for path in verdict["reproducers"]
            if not Path(path).is_file()]


def fails_when_run(path: str) -> bool:
    """The reproducer at `path`, run with python from the checkout, exits non-zero.
    Runs of one SUT find the same first example: a script already run is not run again."""
    text = Path(path).read_text()
    if text not in _FAILS:
        run = subprocess.run([sys.executable, path], cwd=ROOT, capture_output=True, timeout=300)
        _FAILS[text] = run.returncode != 0
    return _FAILS[text]


_FAILS: dict[str, bool] = {}
