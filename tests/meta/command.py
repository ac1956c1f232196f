"""Running the `jaxcheck` command as a user does, for the meta-tests of the tool."""

import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest

from jaxcheck import record

ROOT = Path(__file__).resolve().parents[2]

# The tests that spend most of their time waiting on the command (a time limit
# running out, an SUT slowed by sleeps, a child held alive for its grace
# period): one xdist group, so that they run one after another on one worker
# while the other keeps its core busy.  Dealt apart, both workers met them at
# once (they sit together in collection order), and CI's two cores were 35 %
# busy for 80 s.
MOSTLY_WAITING = pytest.mark.xdist_group("mostly waiting on the command")


def jaxcheck(*args: str, cwd: Path = ROOT, timeout: float = 600) -> subprocess.CompletedProcess:
    """`python -m jaxcheck ARGS` in `cwd`; its output as text."""
    return subprocess.run([sys.executable, "-m", "jaxcheck", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)


def verdicts(out: Path) -> dict[str, dict]:
    """The verdicts of the newest run that wrote under `out`, by property name (its
    reproducer paths made whole: the record keeps them relative to itself)."""
    return read_verdicts(max(out.glob("logs/*/verdicts.json"), key=lambda p: p.stat().st_mtime))


def read_verdicts(path: Path) -> dict[str, dict]:
    """The verdicts of the record at `path`, by property name."""
    return {v.nodeid.rsplit("::", 1)[-1]: asdict(v) for v in record.read(path)[0].verdicts}
