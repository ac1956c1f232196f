"""SIGINT, SIGTERM and SIGHUP, handled alike by every command: stop, keep what was found, say so.

Ctrl-C at a terminal, a CI runner's SIGTERM and a closed terminal's SIGHUP
all mean "stop now".  Python turns only the first into an exception; the
other two would kill the parent where it stands, leaving its children
running and no table written.  While `handled()` is in force each of the
three raises `Interrupted` (a `KeyboardInterrupt`, so code that already
stops on Ctrl-C stops on all three), once: a second signal while the
command writes what it found is noted and does not cut that short, and a
third ends the process at once, as a user who presses Ctrl-C three times
means.  The exit status is the shell's convention, 128 + the signal's
number: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP.
"""

from __future__ import annotations

import contextlib
import os
import signal

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

# After the first signal the command is writing what it found; the signal
# after this many more ends it at once.
PATIENCE = 1


def quiet() -> None:
    """Until `handled` takes the signals over, and once it hands them back, a signal
    has nothing to keep (the command is loading, or has written all it found): it
    ends the process at once with one line and the same status, where Python would
    print a traceback out of whatever import the Ctrl-C cut short."""
    for signum in SIGNALS:
        signal.signal(signum, _quit)


def _quit(signum, frame):
    os.write(2, f"jaxcheck: {signal.Signals(signum).name}: stopped\n".encode())
    os._exit(128 + signum)


class Interrupted(KeyboardInterrupt):
    """A run stopped by `signum`."""

    def __init__(self, signum: int = signal.SIGINT):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def exit_status(exc: BaseException) -> int:
    """128 + the signal that stopped the run (130 for a plain KeyboardInterrupt)."""
    return 128 + getattr(exc, "signum", signal.SIGINT)


class _Handler:
    def __init__(self, on_last):
        self.received: list[int] = []
        self.on_last = on_last

    def __call__(self, signum, frame):
        self.received.append(signum)
        if len(self.received) == 1:
            raise Interrupted(signum)
        if len(self.received) <= 1 + PATIENCE:
            # os.write, not print: the handler may have interrupted a print.
            os.write(2, f"\njaxcheck: {signal.Signals(signum).name} again: writing what was "
                        "found; once more to quit without it\n".encode())
            return
        self.on_last()
        os._exit(128 + signum)


@contextlib.contextmanager
def handled(on_last=lambda: None):
    """Within the block, the three signals raise `Interrupted` (the first) or are noted
    (the next); the last one calls `on_last` (end the children) and exits."""
    handler = _Handler(on_last)
    previous = {signum: signal.signal(signum, handler) for signum in SIGNALS}
    try:
        yield handler
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old)
