"""A child of the `jaxcheck` command lives no longer than the command, and takes what it started.

The command starts each child (a worker, the collection of the properties,
the probe that imports the SUT, a reproducer that `replay` runs) as the
leader of a process group of its own and ends that group when the child
ends (`runner.end_group`).  Killed by SIGKILL, the command can end nothing,
and an SUT's process, or a child that goes on drawing examples at full CPU,
would outlive it.  So each child guards itself, from before it imports the
SUT: `end_with_parent`.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import sys
import threading
import time
from pathlib import Path

from jaxcheck import reaper

# How often a child looks whether its parent is still there (a getppid call).
PARENT_CHECK_SECONDS = 0.5


def end_with_parent() -> None:
    """A daemon thread that ends this child's process group (itself, and anything the
    SUT started) once the parent is gone: killed, even by SIGKILL, the parent
    cannot end its children, and a child left behind would run at full CPU.  A
    child that ends first, its output pipe broken by the parent's death
    (jaxcheck/childlog.py), ends its group on the way out.

    A child that ends with its parent alive ends the rest of its group itself
    on the way out, what the parent does next (`runner.end_group`): a SIGKILL
    of the parent between the two would otherwise leave what the SUT started
    running, with no one left to end it.

    Nothing happens in a process that does not lead its group: the command
    starts every child in a session of its own, and a process started some
    other way must not end the group of whoever started it."""
    if os.getpgrp() != os.getpid():
        return
    parent = os.getppid()
    # What the SUT detaches from the group (a double fork and setsid) is adopted
    # by this child, not by init, and ended with the rest (jaxcheck/reaper.py).
    reaper.subreaper()

    def orphaned() -> bool:
        return os.getppid() != parent

    def watch():
        while not orphaned():
            time.sleep(PARENT_CHECK_SECONDS)
        with contextlib.suppress(OSError):
            reaper.end_descendants(os.getpid())
        os.killpg(os.getpgrp(), signal.SIGKILL)

    def on_exit():
        with contextlib.suppress(OSError):
            ended = reaper.end_descendants(os.getpid())
            if ended:
                print(f"jaxcheck: ended {len(ended)} process(es) the SUT detached from this "
                      f"child's group: {', '.join(ended[:3])}", file=sys.stderr, flush=True)
        if orphaned():
            os.killpg(os.getpgrp(), signal.SIGKILL)
        for pid in _rest_of_group():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)

    threading.Thread(target=watch, name="jaxcheck-parent-watch", daemon=True).start()
    atexit.register(on_exit)


# Seconds a child may take to end once its work is done: pytest's own ending
# takes well under one; past this, something of the SUT's holds it.
END_SECONDS = 10.0


def end_soon(status: int, tell, seconds: float = END_SECONDS) -> None:
    """End this child with `status` if it has not ended `seconds` from now, ending the
    rest of its group first, and `tell` (then stderr) what held it: its work is
    done, and a non-daemon thread the SUT started kept it alive (Python waits
    for every one before it exits), or an exit handler of the SUT's hung.

    Nothing happens in a process that does not lead its group (as
    `end_with_parent`)."""
    if os.getpgrp() != os.getpid():
        return

    def watch():
        time.sleep(seconds)
        held = [t.name for t in threading.enumerate()
                if not t.daemon and t is not threading.main_thread() and t.is_alive()]
        what = (f"the SUT left {len(held)} thread(s) running ({', '.join(held[:3])})" if held
                else "an exit handler of the SUT's (atexit) did not return")
        message = (f"the child's work was done, but it had not ended {seconds:g} s later: "
                   f"{what}; it was ended")
        with contextlib.suppress(Exception):
            tell(message)
        with contextlib.suppress(Exception):
            print(f"jaxcheck: {message}", file=sys.stderr, flush=True)
        with contextlib.suppress(OSError):
            reaper.end_descendants(os.getpid())
        for pid in _rest_of_group():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        os._exit(status)

    threading.Thread(target=watch, name="jaxcheck-end-watch", daemon=True).start()


def _rest_of_group() -> list[int]:
    """The other processes of the group this process leads, from Linux's /proc; none
    found without /proc (there the parent's ending of the group is all)."""
    group, me = os.getpgrp(), os.getpid()
    found = []
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else ():
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        # "pid (command) state ppid pgrp ...": the command may hold spaces and parentheses.
        if int(stat.rsplit(")", 1)[1].split()[2]) == group:
            found.append(int(entry.name))
    return found
