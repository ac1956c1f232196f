"""A child's output, copied into its log by the parent: a log that cannot be written ends no child.

A child pytest run prints its progress and its failure reports; were its
output the log file itself, a full disk under `--out` would make pytest's
next print raise, and the child would die with the properties it had yet to
report (a correct SUT's properties "crashed").  So the child writes into a
pipe, and the parent copies what arrives into the log as it polls: a write
that fails costs lines of the log, said once as jaxcheck's trouble, and
nothing else.  The pipe holds what the child wrote before it died (a
segfault's trace included) until the parent reads it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

# Bytes read from the pipe at a time.
CHUNK = 1 << 16


class ChildLog:
    """The parent's end of a child's output, and the log file it is copied to."""

    def __init__(self, fd: int, path: Path, trouble: Callable[[str], None]):
        self.fd, self.path, self.trouble = fd, path, trouble
        os.set_blocking(fd, False)
        self.file = None
        try:
            self.file = open(path, "wb")
        except OSError as exc:
            self._lost(exc)

    def _lost(self, exc: OSError) -> None:
        self.trouble(f"the child's log {self.path} could not be written ({exc.strerror}); "
                     "what it printed is lost, its verdicts are not")
        if self.file is not None:
            try:
                self.file.close()
            except OSError:  # the close flushes what could not be written
                pass
        self.file = None

    def copy(self) -> None:
        """Copy what the child printed since the last look (all of it, without waiting)."""
        while True:
            try:
                chunk = os.read(self.fd, CHUNK)
            except BlockingIOError:
                return
            if not chunk:
                return
            if self.file is not None:
                try:
                    self.file.write(chunk)
                    self.file.flush()
                except OSError as exc:
                    self._lost(exc)

    def close(self) -> None:
        """The rest of the output, then the pipe and the file closed."""
        self.copy()
        os.close(self.fd)
        if self.file is not None:
            try:
                self.file.close()
            except OSError as exc:
                self._lost(exc)
