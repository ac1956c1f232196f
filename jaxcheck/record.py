"""A run's record: one SUT's verdicts, saved so that a report can be rebuilt from them.

`check` and `hunt` write one column to `verdicts.json` in their log folder,
`report` writes the list of its columns.  Each column names its SUT, how
the SUT described itself and the profile, so that `jaxcheck report --from`
can draw the matrix again (with a findings document that changed since, or
from `check` runs made one by one, a thorough run over hours) without
running anything.  Reproducer paths are kept relative to the record, so a
record committed beside its reproducers (docs/conformance/) reads the same
in any checkout; a report drawn from records elsewhere copies their
reproducers beside it (`gathered`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import reprlib
import shutil
import time
from collections import Counter
from dataclasses import MISSING, asdict, dataclass, fields, replace
from pathlib import Path

from jaxcheck import places
from jaxcheck.arguments import MAX_SHARDS
from jaxcheck.runner import OUTCOMES, Verdict

# How a record says when it was written: local time, to the minute.
TIME_FORMAT = "%Y-%m-%d %H:%M"


class RecordError(ValueError):
    """A file that is not a run's record: the message says what is wrong with it."""


@dataclass(frozen=True)
class Column:
    sut: str  # the name it was run under (--sut)
    description: str  # how it described itself: name, version, what it declares
    profile: str
    verdicts: list[Verdict]
    shard: str | None = None  # "K/N": the share of the properties it ran (check --shard)
    seed: int | None = None  # Hypothesis's seed (check --seed)
    # A shard's: which properties the shares were dealt from (`collection`).
    collection: str | None = None
    # When the run last wrote it (TIME_FORMAT): a finished run's end.  A page drawn
    # from records says when they ran, not when it was drawn.
    written: str | None = None

    def as_json(self, base: Path) -> dict:
        kept = {name: getattr(self, name) for name in ("shard", "seed", "collection", "written")
                if getattr(self, name) is not None}
        return {"sut": self.sut, "description": self.description, "profile": self.profile,
                **kept, "verdicts": [_paths(asdict(v), lambda p: os.path.relpath(p, base))
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
    staging = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        staging.write_text(json.dumps(data, indent=1))
        os.replace(staging, path)
    finally:
        staging.unlink(missing_ok=True)
    return path


def now() -> str:
    """The time a record written now holds (TIME_FORMAT)."""
    return time.strftime(TIME_FORMAT)


def _count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _paths_list(value) -> bool:
    return isinstance(value, list) and all(isinstance(p, str) for p in value)


def _failure_list(value) -> bool:
    return isinstance(value, list) and all(
        isinstance(f, dict) and isinstance(f.get("error"), str)
        and _paths_list(f.get("reproducers")) for f in value)


# What each kind of field a Verdict declares must hold in a record, by the type
# written on the field (runner.Verdict): a check, and what it says when it fails.
_KINDS = {
    "str": (lambda v: isinstance(v, str), "a string"),
    "int | None": (lambda v: v is None or _count(v), "a whole number or null"),
    "float": (_number, "a number"),
    "float | None": (lambda v: v is None or _number(v), "a number or null"),
    "list[str]": (_paths_list, "a list of paths"),
    "list[dict]": (_failure_list,
                   'a list of {"error": a string, "reproducers": a list of paths}'),
}
_VERDICT_FIELDS = {f.name: _KINDS[f.type] for f in fields(Verdict)}  # a new type: add a kind
_REQUIRED = [f.name for f in fields(Verdict) if f.default is MISSING
             and f.default_factory is MISSING]


def _verdict(item, where: str, move) -> Verdict:
    """The verdict a record holds as `item`, every field checked (a record is read
    long after it was written, and maybe edited by hand: a wrong field must be
    one line naming it, not a traceback from the report that meets it); its
    reproducer paths moved by `move`."""
    if not isinstance(item, dict):
        raise RecordError(f"{where} must be an object of a verdict's fields, got "
                          f"{reprlib.repr(item)}")
    for name in _REQUIRED:
        if name not in item:
            raise RecordError(f"{where}: {name!r} is missing")
    for name, (holds, kind) in _VERDICT_FIELDS.items():
        if name in item and not holds(item[name]):
            raise RecordError(f"{where}: {name!r} must be {kind}, got "
                              f"{reprlib.repr(item[name])}")
    if item["outcome"] not in OUTCOMES:
        raise RecordError(f"{where}: 'outcome' must be one of {', '.join(OUTCOMES)}, "
                          f"got {reprlib.repr(item['outcome'])}")
    return Verdict(**{k: v for k, v in _paths(item, move).items() if k in _VERDICT_FIELDS})


def _column(data, path: Path, where: str) -> Column:
    if not isinstance(data, dict) or not {"sut", "profile", "verdicts"} <= data.keys():
        raise RecordError(f"{where}: not a run's record (a column needs 'sut', 'profile' and "
                          "'verdicts'); give the verdicts.json a jaxcheck check, hunt or "
                          "report wrote")
    for name in ("sut", "profile", "description", "shard", "collection"):  # null: none kept
        if data.get(name) is not None and not isinstance(data[name], str):
            raise RecordError(f"{where}: {name!r} must be a string, got "
                              f"{reprlib.repr(data[name])}")
    if not isinstance(data["verdicts"], list):
        raise RecordError(f"{where}: 'verdicts' must be a list of verdicts, got "
                          f"{type(data['verdicts']).__name__}")
    base = path.parent.resolve()
    root = run_folder(path)

    def found(reproducer: str) -> str:
        return inside(reproducer, base, root, where)

    verdicts = [_verdict(item, f"{where}: verdict {i}", found)
                for i, item in enumerate(data["verdicts"])]
    shard = data.get("shard")
    if shard is not None and not ((label := _SHARD.fullmatch(shard))
                                  and 1 <= int(label[1]) <= int(label[2]) <= MAX_SHARDS):
        raise RecordError(f"{where}: 'shard' must read K/N, 1 <= K <= N <= {MAX_SHARDS}, got "
                          f"{reprlib.repr(shard)}")
    seed = data.get("seed")
    if seed is not None and not _count(seed):
        raise RecordError(f"{where}: 'seed' must be a whole number, got {reprlib.repr(seed)}")
    written = data.get("written")
    if written is not None and not _written(written):
        raise RecordError(f"{where}: 'written' must be a time as YYYY-MM-DD HH:MM, got "
                          f"{reprlib.repr(written)}")
    return Column(data["sut"], data.get("description") or data["sut"], data["profile"],
                  verdicts, data.get("shard"), seed, data.get("collection"), written)


def run_folder(record: Path) -> Path:
    """The folder a record's run wrote its reproducers to: `--out`, two above the
    record of a check or a hunt (in `logs/<run>/`, jaxcheck/places.py); a
    report's record's own folder (`conformance/`, its reproducers gathered
    beside it)."""
    folder = record.parent.resolve()
    return folder.parent.parent if folder.parent.name == places.LOGS else folder


def inside(reproducer, base: Path, root: Path, where: str) -> str:
    """`reproducer`, a path relative to the record's folder `base`, made whole, if it
    names a file of the run's folder `root`; a `RecordError` otherwise.

    A record is input: in a CI matrix it is another job's artifact, and a
    report copies the reproducers it names into the folder it publishes (a
    hand-edited record had it copy /etc/hostname).  So a reproducer path is
    relative, and lies inside the run's folder once every symlink is
    followed."""
    text = str(reproducer)
    if Path(text).is_absolute() or "\0" in text:
        raise RecordError(f"{where}: the reproducer {reprlib.repr(text)} is an absolute path: "
                          "a record names its reproducers relative to itself")
    whole = os.path.normpath(base / text)
    if not Path(whole).resolve().is_relative_to(root):
        raise RecordError(f"{where}: the reproducer {reprlib.repr(text)} lies outside the "
                          f"run's folder {root}: a record names only the reproducers its run "
                          "wrote there")
    return whole


def _written(value) -> bool:
    if not isinstance(value, str):
        return False
    try:
        time.strptime(value, TIME_FORMAT)
    except ValueError:
        return False
    return True


def gathered(column: Column, directory: Path) -> Column:
    """`column` with the reproducers it names copied into `directory`.

    A report drawn from the records of other runs (a CI matrix's downloaded
    shards, a temporary folder, another machine's) would otherwise link
    files that are gone once those are: the page, its record and every
    reproducer it links must be one folder that can be published or kept.
    A reproducer already in `directory`, or no longer on disk, keeps its path;
    one of the same name already copied (two shards' record of one file) is
    not copied again.
    """
    directory = directory.resolve()

    def move(path: str) -> str:
        source = Path(path)
        if not source.is_file() or source.resolve().is_relative_to(directory):
            return path
        directory.mkdir(parents=True, exist_ok=True)
        target = directory / source.name
        if not target.exists():
            shutil.copy2(source, target)
        return str(target)

    return replace(column, verdicts=[
        replace(v, **{k: w for k, w in _paths(asdict(v), move).items()
                      if k in ("reproducers", "failures")})
        for v in column.verdicts])


def absent(columns: list[Column]) -> list[str]:
    """The reproducers `columns` name that are not on disk (a report links them dead)."""
    return list(dict.fromkeys(path for column in columns for verdict in column.verdicts
                              for path in verdict.reproducers if not Path(path).is_file()))


def collection(nodeids: list[str], costs: dict[str, float] | None = None) -> str:
    """The properties a run's shares are dealt from, in their order, and the costs
    that balanced them (`check --balance`), in a few characters: shards dealt
    from different lists (another checkout, another `--only`) or by other costs
    would overlap and leave gaps, so they must not be joined."""
    digest = hashlib.sha256("\n".join(nodeids).encode()).hexdigest()[:16]
    dealt = f"{len(nodeids)} properties, sha256 {digest}"
    if costs is None:
        return dealt
    timed = hashlib.sha256(json.dumps(sorted(costs.items())).encode()).hexdigest()[:16]
    return f"{dealt}, balanced by {len(costs)} times, sha256 {timed}"


_SHARD = re.compile(r"(\d+)/(\d+)")
_DEALT = re.compile(r"(\d+) properties")  # a collection's start (`collection`)


def planned(collection: str | None) -> int | None:
    """How many properties a run set out to run, by its `collection`; None if unsaid."""
    count = _DEALT.match(collection or "")
    return int(count[1]) if count else None


def not_run(column: Column) -> str:
    """What an unsharded run that did not reach every property says at the end of its
    description ("" if it reached them all): ' [18 of 198 properties not run]'.  A
    run stopped by a signal, or a bounded round by its time, leaves the rest out."""
    count = planned(column.collection)
    run = len({v.nodeid for v in column.verdicts})
    note = f" [{count - run} of {count} properties not run]" if count else ""
    if column.shard or count is None or run >= count or column.description.endswith(note):
        return ""
    return note


def merged(columns: list[Column]) -> list[Column]:
    """The columns, the shards of one run (one SUT, as it described itself, one
    profile and one seed) joined into one column in the order of their shards; a
    shard given twice, or shards of different counts, is an error, and a run
    missing shards is said in the description."""
    groups: dict[tuple, list[Column]] = {}
    for column in columns:
        key = (column.description, column.profile, column.seed) if column.shard else id(column)
        groups.setdefault(key, []).append(column)
    joined = []
    for group in groups.values():
        if not group[0].shard:
            joined += [replace(c, description=c.description + not_run(c)) for c in group]
            continue
        shards = sorted((tuple(map(int, _SHARD.fullmatch(c.shard).groups())), c) for c in group)
        counts = {count for (_, count), _ in shards}
        indexes = [index for (index, _), _ in shards]
        if len(counts) > 1 or len(set(indexes)) < len(indexes):
            raise RecordError(f"the shards of {group[0].description} do not fit together "
                              f"({', '.join(c.shard for _, c in shards)}): give each of "
                              "K/N once, with one N")
        (count,) = counts
        dealt = {c.collection for _, c in shards} - {None}
        if len(dealt) > 1:
            raise RecordError(f"the shards of {group[0].description} were dealt from different "
                              f"properties ({'; '.join(sorted(dealt))}): run every shard from "
                              "one checkout, with one --only and one --balance")
        missing = sorted(set(range(1, count + 1)) - set(indexes))
        description = group[0].description + (
            f" [shards {', '.join(map(str, missing))} of {count} missing]" if missing else
            _properties_missing(shards, next(iter(dealt), None)))
        times = [c.written for _, c in shards]
        joined.append(Column(group[0].sut, description, group[0].profile,
                             [v for _, c in shards for v in c.verdicts], seed=group[0].seed,
                             collection=next(iter(dealt), None),
                             written=None if None in times else max(times)))
    return joined


def _properties_missing(shards: list[tuple[tuple[int, int], Column]],
                        dealt: str | None) -> str:
    """What a run whose every shard is here still lacks, said as the description's
    end ("" if nothing): shard labels are input, and a shard relabelled as
    another joined as complete with the other's properties missing.  A property
    in two shards is an error; the count dealt is the collection's."""
    held = Counter(v.nodeid for _, c in shards for v in c.verdicts)
    twice = sorted(nodeid for nodeid, times in held.items() if times > 1)
    if twice:
        raise RecordError(f"the shards {', '.join(c.shard for _, c in shards)} of "
                          f"{shards[0][1].description} both hold {twice[0]}"
                          f"{f' and {len(twice) - 1} more' if len(twice) > 1 else ''}: a "
                          "shard's record under another's label; give each shard's own record")
    count = _DEALT.match(dealt or "")
    if count and len(held) < int(count[1]):
        return f" [{int(count[1]) - len(held)} of {count[1]} properties missing]"
    return ""


def joined(paths: list[Path]) -> list[Column]:
    """The columns of the records at `paths`, the shards of each run `merged` into one."""
    return merged([column for path in paths for column in read(path)])


def one_run(paths: list[Path]) -> Column:
    """The one run the records at `paths` hold (a sharded run: its shards joined);
    records of several runs are an error."""
    columns = joined(paths)
    if len(columns) != 1:
        raise RecordError(f"the records hold {len(columns)} runs "
                          f"({'; '.join(c.description for c in columns)}): give the record "
                          "of one run, or each shard's of one sharded run")
    return columns[0]


def read(path: Path) -> list[Column]:
    """The columns of a record: one from `check` or `hunt`, several from `report`."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise RecordError(f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start}); give "
                          "the verdicts.json a jaxcheck check, hunt or report wrote") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not JSON ({exc})") from None
    if not isinstance(data, list):
        return [_column(data, path, str(path))]
    return [_column(item, path, f"{path}: column {i}") for i, item in enumerate(data)]
