"""The example on disk before the SUT runs it, so a crash or a hang loses nothing.

A segfault or an `os._exit` in the SUT kills the process that called it,
and a call stuck in C code never returns to Python; neither leaves an
exception to attach a reproducer to.  But the example is fully known before
the call: under the `jaxcheck` command, every SUT call first writes a
script that makes exactly that call (`InFlight.path`), and removes it when
the call returns or raises.  A file still there after the process is gone
is the reproducer of the crash (`jaxcheck/runner.py` collects it).

A call that outlives the SUT's time limit ends the process at once
(`EXIT_HUNG`), its script left in place: shrinking through repeated
time-outs (one per shrink step) would cost a hundred limits per property
for a reproducer no smaller than the one in hand.  Plain pytest runs have no
`InFlight`, and a time-out stays an ordinary failure.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from oracles.errors import SutTimedOut

# The exit status of a process ended by a hung SUT call (any value pytest
# never uses: it exits 0-5).
EXIT_HUNG = 86


@dataclass(frozen=True)
class InFlight:
    """Where the script of the SUT call in progress is kept (one file per process),
    and how to write it: `script(experiment, sut_name)`, a reproducer that makes
    the call and prints what it returns (`oracles.reproducer.call_script`).  A
    script that cannot be written (a full disk) is jaxcheck's trouble, told to
    `on_trouble`: the call still runs, and only a crash in it would lack its
    reproducer."""

    path: Path
    script: Callable[[object, str], str]
    on_trouble: Callable[[str], None] = field(default=lambda message: None, compare=False)

    @contextlib.contextmanager
    def call(self, experiment, sut_name: str):
        """Keep the call's script on disk while the block makes the call."""
        staging = self.path.with_name(self.path.name + ".partial")
        try:
            staging.write_text(self.script(experiment, sut_name))
            os.replace(staging, self.path)  # a reader never sees half a script
        except OSError as exc:
            staging.unlink(missing_ok=True)
            self.on_trouble(f"the script of the SUT call in flight could not be written to "
                            f"{self.path} ({exc.strerror}): a crash now would have no "
                            "reproducer")
        try:
            yield
        except SutTimedOut as exc:
            os.write(2, f"\njaxcheck: {exc}; the example is saved, ending the run\n".encode())
            os._exit(EXIT_HUNG)
        finally:
            self.path.unlink(missing_ok=True)
