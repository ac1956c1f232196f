"""What a child run tells the parent, over a pipe: events that must not depend on the disk.

A child (jaxcheck/child.py) reports each property's start, a failure the
moment it is found (before shrinking), jaxcheck's own trouble (a database
that went away, a file it could not write) and each property's result.
Files in the worker directory would serve while the disk has room; a pipe
serves when it does not, and when --out is on a filesystem that fills up
mid-run the parent still learns every verdict and can print what could not
be saved.  One JSON object a line; the parent reads without blocking.
"""

from __future__ import annotations

import json
import os

START, FAILING, TROUBLE, RESULT = "start", "failing", "trouble", "result"


class Sender:
    """The child's end: one JSON line per event, written whole."""

    def __init__(self, fd: int):
        self.fd = fd

    def send(self, event: str, **fields) -> None:
        data = (json.dumps({"event": event, **fields}) + "\n").encode()
        try:
            while data:  # a write to a pipe may be partial when the line is long
                data = data[os.write(self.fd, data):]
        except BrokenPipeError:  # the parent is gone: the child ends itself (child.py)
            pass


class Receiver:
    """The parent's end: the events that arrived since the last look."""

    def __init__(self, fd: int):
        self.fd = fd
        os.set_blocking(fd, False)
        self.partial = b""

    def events(self) -> list[dict]:
        chunks = []
        while True:
            try:
                chunk = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        lines = (self.partial + b"".join(chunks)).split(b"\n")
        self.partial = lines.pop()
        return [json.loads(line) for line in lines if line]

    def close(self) -> None:
        os.close(self.fd)
