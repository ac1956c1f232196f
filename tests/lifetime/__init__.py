"""SUTs that try to outlive the run: correct refimpl, each with one way of staying alive.

`tests/meta/test_lifetime.py` runs the `jaxcheck` command on each and holds
it to end by itself, with the right exit status and a line saying what it
cut short, and no process of the SUT's left behind (jaxcheck/reaper.py,
jaxcheck/lifetime.py, the probe's time limit).  A process an SUT starts
writes its pid to the file `$JAXCHECK_TEST_PIDS` names, one a line, so that
the test can look for it after the run.
"""

from __future__ import annotations

import os

import refimpl

# refimpl's contract names, for each SUT here to re-export.
CONTRACT = {name: getattr(refimpl, name) for name in [*refimpl.__all__, "__sut_unsupported__"]}


def note_pid() -> None:
    """This process's pid, added to the file `$JAXCHECK_TEST_PIDS` names (if set)."""
    path = os.environ.get("JAXCHECK_TEST_PIDS")
    if path:
        with open(path, "a") as pids:
            pids.write(f"{os.getpid()}\n")
