"""Where a run writes, made sure of before any work starts, and never shared by accident.

A reproducer folder or database directory that cannot be written would
lose every failure a run finds, so it is refused up front, with what to do.
Each run's log folder is new and its own: named by command, SUT and time
for the reader, and made unique by `mkdtemp` (created atomically), so two
runs started in the same second into one `--out` never read each other's
results.
"""

from __future__ import annotations

import re
import tempfile
import time
from pathlib import Path


class PlaceError(ValueError):
    """A directory the run cannot use: the message says which option, why and what to do."""


def writable_directory(path: Path, option: str) -> Path:
    """`path`, created if need be, once a file has been written in it; else PlaceError."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".jaxcheck-probe-"):
            pass
    except FileExistsError:
        raise PlaceError(f"{option} {path}: it exists and is not a directory") from None
    except NotADirectoryError:
        raise PlaceError(f"{option} {path}: a part of it is a file, not a directory") from None
    except OSError as exc:
        raise PlaceError(f"{option} {path}: cannot write there ({exc.strerror}); "
                         "give a directory you can write") from None
    return path.resolve()


# The folder under `--out` that holds each run's log folder (its record among them).
LOGS = "logs"


def slug(sut: str) -> str:
    """The SUT's name as its runs' log folders carry it: `mypkg.shim`, `a_b` for `a:b`."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", sut)


def new_run_dir(out: Path, command: str, sut: str) -> Path:
    """A new folder of its own under `out/logs`: `check-mypkg.shim-20260101-120000-k3j2x9`."""
    logs = out.resolve() / LOGS
    stamp = time.strftime("%Y%m%d-%H%M%S")
    prefix = f"{command}-{slug(sut)}-{stamp}-"
    try:
        logs.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=prefix, dir=logs))
    except OSError as exc:
        raise PlaceError(f"--out {out}: cannot make the run's log folder in {logs} "
                         f"({exc.strerror})") from None
