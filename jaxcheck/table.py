"""What a run prints: a live line per property, a hunt's status line, the closing table."""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from jaxcheck.runner import Verdict

# A verdict's mark in the live lines and the table, padded to one width.
MARKS = {"passed": "ok", "failed": "FAIL", "skipped": "skip", "crashed": "CRASH",
         "hung": "HANG", "interrupted": "stop", "error": "ERROR"}


@dataclass(frozen=True)
class Running:
    """A property running now, as the status line shows it."""

    nodeid: str
    examples: int
    seconds: float
    failing: bool


def examples(verdict: Verdict) -> str:
    return "-" if verdict.examples is None else f"{verdict.examples:,}"


def relative(path: str) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return path


def live_line(verdict: Verdict) -> str:
    """One line as a property finishes."""
    line = (f"  {MARKS[verdict.outcome]:<5} {verdict.name}  ({examples(verdict)} examples, "
            f"{verdict.seconds:.1f} s)")
    if verdict.outcome != "passed" and verdict.reason:
        line += f": {verdict.reason}"
    if verdict.outcome in ("crashed", "hung", "failed") and verdict.message:
        line += f"\n        {verdict.message}"
    return line + "".join(f"\n        reproducer: {relative(p)}" for p in verdict.reproducers)


def closing_table(verdicts: list[Verdict]) -> str:
    rows = [("property", "examples", "verdict", "seconds", "reproducer")]
    for v in verdicts:
        rows.append((v.name, examples(v), v.describe() + " *" * bool(v.trouble),
                     f"{v.seconds:.1f}",
                     ", ".join(relative(p) for p in v.reproducers) or "-"))
    widths = [min(max(len(row[i]) for row in rows), 72) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines) + "\n" + summary(verdicts)


def summary(verdicts: list[Verdict]) -> str:
    """'N passed, N failed' (the form CI logs are read for), then the rest."""
    counts = Counter(v.outcome for v in verdicts)
    words = [f"{counts['passed']} passed", f"{counts['failed']} failed"]
    words += [f"{counts[o]} {o}" for o in ("skipped", "crashed", "hung", "interrupted", "error")
              if counts[o]]
    return ", ".join(words)


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
