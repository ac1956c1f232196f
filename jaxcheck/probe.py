"""Resolve SUTs in a child process first, so an SUT that misbehaves at import ends only the child.

Importing an SUT runs its code: one that calls `sys.exit` or `os._exit`,
segfaults, or never finishes importing would take the `jaxcheck` command
down with it, silently, with the SUT's status.  The command never imports an
SUT itself: `describe` resolves the names in a child (`python -m
jaxcheck.probe OPTION NAME ...`), under a time limit, and turns each way the
child can end into one line that says what the SUT did.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
from pathlib import Path

from jaxcheck import reaper
from jaxcheck.lifetime import end_with_parent
from jaxcheck.runner import INSTALLED, ROOT, RunError, run_quietly
from oracles.sut import SutError, resolve

# Seconds importing the SUTs of one run may take: JAX imports in 1-3 s, torch
# in up to 20 s from a cold disk; ten times that is a hang.
IMPORT_TIMEOUT = 300.0

# The least time an import may take under a short --sut-timeout: JAX imports in
# 1-3 s, torch in up to 20 s from a cold disk.
IMPORT_FLOOR = 30.0


def import_limit(sut_timeout: float) -> float:
    """Seconds importing the SUTs may take under `--sut-timeout`: that limit, but
    at least `IMPORT_FLOOR`; `IMPORT_TIMEOUT` with none (0)."""
    return max(sut_timeout, IMPORT_FLOOR) if sut_timeout > 0 else IMPORT_TIMEOUT


# The line the child prints its answer on, among whatever the SUT prints.
MARK = "jaxcheck-probe: "


def describe(named: list[tuple[str, str]], timeout: float = IMPORT_TIMEOUT) -> list[str]:
    """How each (option, name) describes itself once resolved ("none" stays "none"),
    or a SutError that says what went wrong importing it."""
    wanted = [(option, name) for option, name in named if name != "none"]
    args = [part for pair in wanted for part in pair]
    what = " and ".join(f"{option} {name}" for option, name in wanted)
    try:
        child = run_quietly([sys.executable, "-m", "jaxcheck.probe", *args], timeout,
                            f"importing {what}")
    except RunError as exc:
        raise SutError(f"{exc}: it hangs at import (the limit follows --sut-timeout, at "
                       f"least {IMPORT_FLOOR:g} s)") from None
    answers = [json.loads(line.removeprefix(MARK)) for line in child.stdout.splitlines()
               if line.startswith(MARK)]
    if answers and "error" in answers[-1]:
        raise SutError(answers[-1]["error"] + "".join(map(_clash, (n for _, n in wanted))))
    if child.returncode == 0 and answers:
        found = iter(answers[-1]["descriptions"])
        return ["none" if name == "none" else next(found) for _, name in named]
    tail = (child.stderr.strip() or child.stdout.strip())[-1500:]
    if child.returncode < 0:
        ended = f"crashed ({signal.Signals(-child.returncode).name})"
    else:
        ended = f"ended the process with exit status {child.returncode} (sys.exit or os._exit)"
    raise SutError(f"importing {what} {ended}: fix the module so that importing it "
                   f"returns" + (f"; its output:\n{tail}" if tail else ""))


def _clash(name: str) -> str:
    """What to say when the SUT's package has the name of one of a clone's packages, which
    come first on a child's path (runner.child_env): the one clash that cannot be avoided
    there.  Installed, jaxcheck's packages are inside `jaxcheck`, and nothing clashes."""
    top = name.partition(":")[0].split(".")[0]
    here = Path.cwd()
    if INSTALLED or not top or here == ROOT or not (ROOT / top).exists():
        return ""
    if not ((here / top).is_dir() or (here / f"{top}.py").exists()):
        return ""
    return (f" ({top!r} in {here} has the name of jaxcheck's own {top!r}, which comes first "
            f"on the path: give your module another name)")


def main(args: list[str]) -> int:
    end_with_parent()  # an SUT that starts a process as it imports
    descriptions = []
    for option, name in zip(args[::2], args[1::2]):
        try:
            descriptions.append(resolve(name, option=option).describe())
        except SutError as exc:
            print(MARK + json.dumps({"error": str(exc)}), flush=True)
            return 2
    print(MARK + json.dumps({"descriptions": descriptions}), flush=True)
    return 0


if __name__ == "__main__":
    # The answer is printed: end now, not after the SUT's threads and exit handlers,
    # which Python waits for (a hanging atexit made the check hang, silently).
    status = main(sys.argv[1:])
    sys.stdout.flush()
    with contextlib.suppress(OSError):  # what the SUT detached, adopted here (lifetime.py)
        reaper.end_descendants(os.getpid())
    os._exit(status)
