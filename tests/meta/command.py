"""Running the `jaxcheck` command as a user does, for the meta-tests of the tool."""

import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

from jaxcheck import record

ROOT = Path(__file__).resolve().parents[2]


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
