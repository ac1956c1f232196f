"""Running the `jaxcheck` command as a user does, for the meta-tests of the tool."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def jaxcheck(*args: str, cwd: Path = ROOT, timeout: float = 600) -> subprocess.CompletedProcess:
    """`python -m jaxcheck ARGS` in `cwd`; its output as text."""
    return subprocess.run([sys.executable, "-m", "jaxcheck", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)


def verdicts(out: Path) -> dict[str, dict]:
    """The verdicts of the newest run that wrote under `out`, by property name."""
    record = max(out.glob("logs/*/verdicts.json"), key=lambda p: p.stat().st_mtime)
    return {v["nodeid"].rsplit("::", 1)[-1]: v
            for v in json.loads(record.read_text())["verdicts"]}
