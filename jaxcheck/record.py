"""A run's record: one SUT's verdicts, saved so that a report can be rebuilt from them.

`check` and `hunt` write one column to `verdicts.json` in their log folder,
`report` writes the list of its columns.  Each column names its SUT, how
the SUT described itself and the profile, so that `jaxcheck report --from`
can draw the matrix again (with a findings document that changed since, or
from `check` runs made one by one, a thorough run over hours) without
running anything.  Reproducer paths are kept relative to the record, so a
record committed beside its reproducers (docs/conformance/) reads the same
in any checkout.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from jaxcheck.runner import Verdict


class RecordError(ValueError):
    """A file that is not a run's record: the message says what is wrong with it."""


@dataclass(frozen=True)
class Column:
    sut: str  # the name it was run under (--sut)
    description: str  # how it described itself: name, version, what it declares
    profile: str
    verdicts: list[Verdict]

    def as_json(self, base: Path) -> dict:
        return {"sut": self.sut, "description": self.description, "profile": self.profile,
                "verdicts": [_paths(asdict(v), lambda p: os.path.relpath(p, base))
                             for v in self.verdicts]}


def _paths(verdict: dict, move) -> dict:
    """`verdict` (as JSON) with `move` applied to each reproducer path in it."""
    verdict["reproducers"] = [move(p) for p in verdict.get("reproducers", [])]
    for failure in verdict.get("failures", []):
        failure["reproducers"] = [move(p) for p in failure["reproducers"]]
    return verdict


def write(path: Path, columns: Column | list[Column]) -> Path:
    """The record at `path`, replaced whole or not at all: a run rewrites it as it finds
    failures, and a full disk or a SIGKILL mid-write must leave the last one, not half
    of the next."""
    base = path.parent.resolve()
    data = (columns.as_json(base) if isinstance(columns, Column)
            else [c.as_json(base) for c in columns])
    staging = path.with_name(f".{path.name}.partial")
    try:
        staging.write_text(json.dumps(data, indent=1))
        os.replace(staging, path)
    finally:
        staging.unlink(missing_ok=True)
    return path


_VERDICT_FIELDS = {f.name for f in fields(Verdict)}


def _column(data, path: Path) -> Column:
    if not isinstance(data, dict) or not {"sut", "profile", "verdicts"} <= data.keys():
        raise RecordError(f"{path}: not a run's record (a column needs 'sut', 'profile' and "
                          "'verdicts'); give the verdicts.json a jaxcheck check, hunt or "
                          "report wrote")
    base = path.parent.resolve()

    def found(reproducer: str) -> str:
        return os.path.normpath(base / reproducer)

    try:
        verdicts = [Verdict(**{k: v for k, v in _paths(item, found).items()
                               if k in _VERDICT_FIELDS})
                    for item in data["verdicts"]]
    except TypeError as exc:
        raise RecordError(f"{path}: a verdict in it cannot be read ({exc})") from None
    return Column(data["sut"], data.get("description") or data["sut"], data["profile"],
                  verdicts)


def read(path: Path) -> list[Column]:
    """The columns of a record: one from `check` or `hunt`, several from `report`."""
    try:
        data = json.loads(path.read_text())
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not JSON ({exc})") from None
    return [_column(item, path) for item in (data if isinstance(data, list) else [data])]
