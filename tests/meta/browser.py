"""Headless Chromium over the DevTools protocol on a pipe, with the standard library only.

A test of a page's layout must measure it where it is laid out, in a real
browser; `--dump-dom` gives the text, not the boxes.  With
`--remote-debugging-pipe`, Chromium reads commands from its file descriptor
3 and writes answers and events to 4, each one JSON message ended by a NUL
byte: enough to open a page at a given size, evaluate an expression in it
and take a screenshot, without a client library (the ones on PyPI download
a browser of their own, and this machine has no network).
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Nothing fetched, nothing synced: the machine has no network.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-first-run")
# Seconds one answer may take: Chromium starts in 1-5 s on a busy 2-core machine.
ANSWER_TIMEOUT = 120.0
# The child's ends of the pipes are moved at or above this descriptor first, so that
# putting them on 3 and 4 cannot overwrite one with the other.
HIGH_FD = 10
# Puts the two descriptors it is given on 3 and 4 and becomes Chromium: a program of
# its own rather than a `preexec_fn`, which is unsafe in a process with threads.
_ON_3_AND_4 = ("import os, sys; os.dup2(int(sys.argv[1]), 3); os.dup2(int(sys.argv[2]), 4); "
               "os.execv(sys.argv[3], sys.argv[3:])")


class BrowserError(RuntimeError):
    """Chromium refused a command, closed the pipe, or did not answer in time."""


def executable() -> str | None:
    return shutil.which("chromium")


class Browser:
    """One headless Chromium, one page at a time; a context manager that ends it."""

    def __init__(self, width: int, height: int):
        self.width, self.height = width, height
        commands, answers = os.pipe(), os.pipe()
        theirs = [fcntl.fcntl(fd, fcntl.F_DUPFD, HIGH_FD) for fd in (commands[0], answers[1])]
        for fd in (commands[0], answers[1]):
            os.close(fd)
        self._profile = tempfile.TemporaryDirectory()
        self.process = subprocess.Popen(
            [sys.executable, "-c", _ON_3_AND_4, *map(str, theirs), executable(), *FLAGS,
             f"--user-data-dir={self._profile.name}", "--remote-debugging-pipe",
             f"--window-size={width},{height}"],
            pass_fds=theirs, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for fd in theirs:
            os.close(fd)
        self._send, self._receive = commands[1], answers[0]
        self._buffer, self._events, self._last = b"", [], 0
        self.session = None

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc) -> None:
        try:
            self.command("Browser.close")
        except (BrowserError, OSError):
            pass
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._send)
        os.close(self._receive)
        self._profile.cleanup()

    def command(self, method: str, **params) -> dict:
        self._last += 1
        message = {"id": self._last, "method": method, "params": params}
        if self.session and not method.startswith(("Target.", "Browser.")):
            message["sessionId"] = self.session
        os.write(self._send, json.dumps(message).encode() + b"\0")
        answer = self._until(lambda m: m.get("id") == self._last)
        if "error" in answer:
            raise BrowserError(f"{method}: {answer['error'].get('message')}")
        return answer.get("result", {})

    def open(self, url: str) -> None:
        """A new page of the browser's size, at `url`, once its load event fired."""
        target = self.command("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.command("Target.attachToTarget", targetId=target,
                                    flatten=True)["sessionId"]
        self.command("Emulation.setDeviceMetricsOverride", width=self.width,
                     height=self.height, deviceScaleFactor=1, mobile=False)
        self.command("Page.enable")
        self.command("Page.navigate", url=url)
        self._until(lambda m: m.get("method") == "Page.loadEventFired"
                    and m.get("sessionId") == self.session)

    def evaluate(self, expression: str):
        result = self.command("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression[:60]}...: {result['exceptionDetails']['text']}")
        return result["result"].get("value")

    def screenshot(self, path: Path) -> Path:
        path.write_bytes(base64.b64decode(self.command("Page.captureScreenshot",
                                                       format="png")["data"]))
        return path

    def _until(self, wanted) -> dict:
        for i, event in enumerate(self._events):
            if wanted(event):
                return self._events.pop(i)
        deadline = time.monotonic() + ANSWER_TIMEOUT
        while True:
            message = self._next(deadline)
            if wanted(message):
                return message
            if "id" not in message:
                self._events.append(message)

    def _next(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            left = max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self._receive], [], [], left)
            chunk = os.read(self._receive, 1 << 16) if ready else None
            if chunk is None:
                raise BrowserError(f"chromium did not answer within {ANSWER_TIMEOUT:g} s")
            if not chunk:
                raise BrowserError("chromium closed its pipe (exited?)")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)
