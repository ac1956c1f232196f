"""What a run prints: a live line per property, a status line, the closing table."""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from jaxcheck.runner import Verdict

# A verdict's mark in the live lines and the table, padded to one width; a failure,
# crash or hang that shows only known findings (`--known`) is marked KNOWN instead.
MARKS = {"passed": "ok", "failed": "FAIL", "skipped": "skip", "crashed": "CRASH",
         "hung": "HANG", "interrupted": "stop", "error": "ERROR"}
KNOWN = "known"


def mark(verdict: Verdict) -> str:
    return KNOWN if verdict.known else MARKS[verdict.outcome]


@dataclass(frozen=True)
class Running:
    """A property running now, as the status line shows it."""

    nodeid: str
    examples: int
    seconds: float
    failing: bool


def examples(verdict: Verdict) -> str:
    """Its examples, or 'once' for a test that is not a Hypothesis property (it ran
    once, as a plain test), or '-' where it never started."""
    if verdict.examples is None:
        return "once" if verdict.outcome in ("passed", "failed") else "-"
    return f"{verdict.examples:,}"


def relative(path: str) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return path


def live_line(verdict: Verdict) -> str:
    """One line as a property finishes."""
    count = examples(verdict)
    count = count if count in ("once", "-") else f"{count} example{'s' * (count != '1')}"
    line = f"  {mark(verdict):<5} {verdict.name}  ({count}, {verdict.seconds:.1f} s)"
    if verdict.outcome != "passed" and verdict.reason:
        line += f": {verdict.reason}"
    if verdict.outcome in ("crashed", "hung", "failed") and verdict.message:
        line += f"\n        {verdict.message}"
    if hint(verdict):
        line += f"\n        {hint(verdict)}"
    return line + "".join(f"\n        reproducer: {relative(p)}" for p in verdict.reproducers)


# The closing table fits this many columns (a terminal's 100, a CI log's width):
# the short columns first, the property last and cut to what is left, and each
# failure's message and reason on a line of its own below.  What is cut is
# whole in the run's verdicts.json.  Reproducer paths are never cut: a cut path
# cannot be opened.
WIDTH = 100
_COLUMNS = (("verdict", 7), ("examples", 8), ("seconds", 7))
_INDENT = sum(w for _, w in _COLUMNS) + 2 * len(_COLUMNS)


def cut(text: str, width: int, *, middle: bool = False) -> str:
    """`text` in at most `width` characters, its end elided, or its middle (a
    property's name ends in its parameters, which tell rows apart)."""
    if len(text) <= width:
        return text
    keep = width - 1
    tail = keep // 3 if middle else 0
    return text[:keep - tail] + "\u2026" + text[len(text) - tail:]


def closing_table(verdicts: list[Verdict]) -> str:
    room = WIDTH - _INDENT
    header = "  ".join(name.ljust(w) for name, w in _COLUMNS) + "  property"
    lines = [header, "  ".join("-" * w for _, w in _COLUMNS) + "  " + "-" * room]
    for v in verdicts:
        marked = mark(v) + "*" * bool(v.trouble)
        name = cut(v.name, room, middle=True)
        lines.append(f"{marked:<7}  {examples(v):>8}  {v.seconds:>7.1f}  {name}")
        details = [v.reason] if v.reason and v.outcome != "passed" else []
        if v.outcome in ("crashed", "hung", "failed") and v.message:
            details.append(v.message)
        details += [hint(v)] if hint(v) else []
        lines += [" " * _INDENT + cut(detail.splitlines()[0], room) for detail in details]
        lines += [f"    reproducer: {relative(p)}" for p in v.reproducers]
    return "\n".join(lines) + "\n" + summary(verdicts)


def summary(verdicts: list[Verdict]) -> str:
    """'N passed, N failed' (the form CI logs are read for), then the rest; known
    failures, crashes and hangs are counted as known, not under their outcome, so
    the counts say what the exit status says."""
    counts = Counter(KNOWN if v.known else v.outcome for v in verdicts)
    words = [f"{counts['passed']} passed", f"{counts['failed']} failed"]
    words += [f"{counts[o]} {o}" for o in (KNOWN, "skipped", "crashed", "hung", "interrupted",
                                           "error")
              if counts[o]]
    return ", ".join(words)


# How an SUT's raise reads in a failure (oracles/experiment.py): "SutRaised: NAME
# raised TYPE while computing TITLE: MESSAGE", then the features the example used.
# The title differs from property to property; where it holds ": " itself it
# ends " on NAME", and the SUT's message follows that.
_RAISED = re.compile(r"^[\w.]+: (\S+) raised (\w+)\b")
_USES = re.compile(r"The example uses ([\w, ]+): if the SUT")
# Numbers, and the dims of a shape (f64[4,4]), differ from example to example.
_NUMBERS = re.compile(r"-?\d+(\.\d+)?(e[-+]?\d+)?")


def error_kind(error: str) -> str:
    """One line that names a kind of error, the same for every example of one bug:
    the SUT's exception and its message, or the oracle's verdict, with
    the numbers and the computation's title (different in every example) left out."""
    first = error.splitlines()[0] if error else "?"
    raised = _RAISED.match(first)
    if raised:
        rest = first[raised.end():]
        on_sut = f" on {raised[1]}: "
        message = (rest.rsplit(on_sut, 1)[1] if on_sut in rest
                   else rest.partition(": ")[2])
        return f"raises {raised[2]}: {_NUMBERS.sub('N', message)}".rstrip(": ")
    kind, _, message = first.partition(": ")
    if kind.rsplit(".", 1)[-1] == "Mismatch":
        return "wrong values (Mismatch)"
    return f"{kind.rsplit('.', 1)[-1]}: {_NUMBERS.sub('N', message)}".rstrip(": ")


def hint(verdict: Verdict) -> str:
    """Where the SUT raised: the features the example used, one of which it may lack
    by design (the line of the failure that says so, made short)."""
    for failure in verdict.failures:
        used = _USES.search(failure.get("error", ""))
        if used:
            return f"uses {used[1]}: if the SUT lacks one by design, declare it"
    return ""


def groups(verdicts: list[Verdict]) -> str:
    """Each distinct kind of failure once, with the properties it failed, and where the
    SUT raised, the features every such example used: one of them, declared in
    `__sut_unsupported__`, turns the failures into skips if the SUT lacks it by
    design.  What a newcomer reads first: one line per bug, not per property."""
    kinds: dict[str, list[str]] = {}
    uses: dict[str, set[str]] = {}
    for v in verdicts:
        errors = [f["error"] for f in v.failures] or (
            [f"{v.outcome}: {v.reason}"] if v.outcome in ("failed", "crashed", "hung") else [])
        for error in errors:
            kind = error_kind(error)
            if v.name not in kinds.setdefault(kind, []):
                kinds[kind].append(v.name)
            used = _USES.search(error)
            if used:
                features = set(used[1].split(", "))
                uses[kind] = uses[kind] & features if kind in uses else features
    if not kinds:
        return ""
    lines = [f"\n\n{len(kinds)} distinct kind{'s' * (len(kinds) != 1)} of failure:"]
    for kind, names in sorted(kinds.items(), key=lambda item: -len(item[1])):
        lines.append(f"  {cut(kind, WIDTH - 2)}")
        shown = ", ".join(cut(n.rsplit("::", 1)[-1], 60, middle=True) for n in names[:3])
        lines.append(f"    in {len(names)} propert{'y' if len(names) == 1 else 'ies'}: "
                     f"{shown}{', ...' * (len(names) > 3)}")
        if uses.get(kind):
            lines.append("    if the SUT lacks one of these by design, declare it in "
                         f"__sut_unsupported__: {', '.join(sorted(uses[kind]))}")
    return "\n".join(lines)


def trouble(verdicts: list[Verdict]) -> str:
    """jaxcheck's own trouble during the run, each kind once, with the properties it
    met: never a verdict on the SUT, but never hidden either."""
    met: dict[str, list[str]] = {}
    for verdict in verdicts:
        for message in verdict.trouble:
            met.setdefault(message, []).append(verdict.name)
    if not met:
        return ""
    lines = [f"  - {message} (while {len(names)} propert{'y' if len(names) == 1 else 'ies'} "
             f"ran: {', '.join(names[:3])}{', ...' * (len(names) > 3)})"
             for message, names in met.items()]
    return "\n* jaxcheck's own trouble, not the SUT's:\n" + "\n".join(lines)


def unsaved(verdicts: list[Verdict]) -> str:
    """The reproducers that could not be written to disk, in full: the output is then
    the only place a failure found survives."""
    shown = [f"\n--- reproducer of {v.name} (not saved: see above) ---\n{text}"
             for v in verdicts for text in v.unsaved]
    return "".join(shown)


def status_line(elapsed: float, total: float | None, verdicts: list[Verdict],
                running: list[Running]) -> str:
    """A run's live status: time (of the hunt's total), examples, rate, properties done
    and failing, and each property running now with its examples, its seconds and
    whether it has failed (and is shrinking)."""
    done = sum(v.examples or 0 for v in verdicts)
    now = sum(r.examples for r in running)
    failures = sum(v.outcome in ("failed", "crashed", "hung") for v in verdicts)
    failures += sum(r.failing for r in running)
    rate = (done + now) / elapsed if elapsed > 0 else 0.0
    clock = _clock(elapsed) + (f" / {_clock(total)}" if total is not None else "")
    names = ", ".join(
        f"{Path(r.nodeid.split('::')[0]).stem}::{r.nodeid.split('::')[-1][:28]} "
        f"{r.examples} ex {r.seconds:.0f} s" + (" FAILED, shrinking" if r.failing else "")
        for r in running)
    return (f"[{clock}] {done + now:,} examples ({rate:.1f}/s), "
            f"{len(verdicts)} properties done, {failures} failing | {names}")


def _clock(seconds: float) -> str:
    return f"{int(seconds) // 60:02d}:{int(seconds) % 60:02d}"
