"""`jaxcheck replay`: run saved reproducers, each in its own process, and say which still fail.

A reproducer (oracles/reproducer.py) exits 0 when the SUT now agrees with
the oracle (or refuses, where it must), non-zero on a mismatch; one saved
from a crash crashes again, one saved from a hang does not return (it is
stopped after `timeout` seconds).  Each runs in its own process, so one
crash ends only its own replay.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from jaxcheck.runner import child_env
from oracles.reproducer import HEADER

# Seconds a replay may take: a reproducer is one example, which takes well
# under a second once compiled; a minute leaves room for a first compile.
REPLAY_TIMEOUT = 60.0


@dataclass(frozen=True)
class Replay:
    path: Path
    outcome: str  # "now passes", "still fails", "not a reproducer"
    detail: str = ""

    @property
    def still_fails(self) -> bool:
        return self.outcome == "still fails"


def gather(paths: list[str]) -> tuple[list[Path], list[Replay]]:
    """The reproducers named (files, or folders searched for `*.py`), and one
    `not a reproducer` entry for each path that is none."""
    found, bad = [], []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found += [p for p in sorted(path.rglob("*.py")) if _is_reproducer(p)]
        elif not path.exists():
            bad.append(Replay(path, "not a reproducer", "no such file or folder"))
        elif _is_reproducer(path):
            found.append(path)
        else:
            bad.append(Replay(path, "not a reproducer",
                              f"it does not begin with {HEADER!r}; jaxcheck writes "
                              "reproducers under counterexamples/ or --out"))
    return found, bad


def _is_reproducer(path: Path) -> bool:
    try:
        with open(path, encoding="utf-8") as file:
            return file.read(len(HEADER)) == HEADER
    except (OSError, UnicodeDecodeError):
        return False


def replay(path: Path, timeout: float = REPLAY_TIMEOUT) -> Replay:
    try:
        run = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                             timeout=timeout, env=child_env())
    except subprocess.TimeoutExpired:
        return Replay(path, "still fails", f"hangs: no return within {timeout:g} s")
    if run.returncode == 0:
        return Replay(path, "now passes")
    if run.returncode < 0:
        return Replay(path, "still fails", f"crashes: {signal.Signals(-run.returncode).name}")
    lines = [line.strip() for line in (run.stdout + run.stderr).splitlines() if line.strip()]
    if any(line.startswith("SyntaxError") for line in lines):
        return Replay(path, "not a reproducer", lines[-1])
    return Replay(path, "still fails", " | ".join(lines[-3:])[-400:])
