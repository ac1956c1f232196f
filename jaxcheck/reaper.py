"""The command adopts what the SUT detaches, and ends it when the command ends.

Each child of the command leads a process group of its own, which the
command ends with the child (`runner.end_group`), and the child ends it
too on its way out (jaxcheck/lifetime.py).  A process that leaves its group
escapes both: the SUT's double fork and `setsid` (a daemon) left a process
that outlived `jaxcheck` and ignored SIGTERM.  Linux lets a process declare
itself a *child subreaper* (`prctl(PR_SET_CHILD_SUBREAPER)`, what systemd,
tini and Docker's init use): an orphan below it is then re-parented to it,
not to init, and stays in its tree of descendants, however it detached.

`adopt_orphans` makes the command one, at its start; when it ends, every
descendant still there (nothing of the command's own is, by then: its
children were ended with their groups) is ended with SIGKILL, which cannot
be ignored, and a line says how many and what they were.  Each child is a
subreaper too (jaxcheck/lifetime.py), and ends its own descendants as it
ends, or as soon as it finds the command gone: a command killed by SIGKILL
ends nothing itself.  Elsewhere (no `prctl`, no /proc) nothing changes, and
a detached process may outlive the command, as before.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import signal
import sys
from pathlib import Path

# linux/prctl.h
PR_SET_CHILD_SUBREAPER = 36
# What a line names of each process ended: its command line, cut to this.
COMMAND_CHARACTERS = 80


def subreaper() -> bool:
    """Make this process a child subreaper; whether the system allowed it."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def adopt_orphans() -> bool:
    """Make this process a child subreaper and end its descendants when it exits;
    whether the system allowed it."""
    if not subreaper():
        return False
    if os.getpid() not in _ADOPTING:  # once per process, however often the command runs
        _ADOPTING.add(os.getpid())
        atexit.register(_end_left_behind, os.getpid())
    return True


_ADOPTING: set[int] = set()


def descendants(root: int) -> list[int]:
    """The processes below `root` (children first), from Linux's /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        # "pid (command) state ppid ...": the command may hold spaces and parentheses.
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z":  # a zombie has ended already
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, frontier = [], [root]
    while frontier:
        below = [pid for parent in frontier for pid in children.get(parent, [])]
        found += below
        frontier = below
    return found


def _command(pid: int) -> str:
    try:
        line = (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ")
    except OSError:
        return "?"
    return line.decode(errors="replace").strip()[:COMMAND_CHARACTERS]


def end_descendants(root: int) -> list[str]:
    """SIGKILL every process below `root`; what each was."""
    ended: dict[int, str] = {}
    for _ in range(3):  # a process forking while it is ended leaves a child: look again
        found = [pid for pid in descendants(root) if pid not in ended]
        if not found:
            break
        for pid in found:
            what = f"{pid} ({_command(pid)})"
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
                ended[pid] = what
    for pid in ended:  # the ones adopted are this process's children now: reaped, not zombies
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(pid, 0)
    return list(ended.values())


def _end_left_behind(root: int) -> None:
    if os.getpid() != root:  # a forked child inherits the handler, not the duty
        return
    ended = end_descendants(root)
    if ended:
        print(f"jaxcheck: ended {len(ended)} process(es) still running below the command as it "
              f"ended (the SUT's, detached from their group): {', '.join(ended[:3])}"
              f"{' ...' if len(ended) > 3 else ''}", file=sys.stderr, flush=True)
