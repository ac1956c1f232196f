"""What a run prints: a live line per property, a status line, the closing table."""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from jaxcheck import diagnosis
from jaxcheck.diagnosis import Diagnosis
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


def message(verdict: Verdict) -> str:
    """A failure's message in one line: where the SUT raised, its exception and the
    informative end of its message (an XLA error's last line says what went wrong);
    else the first line of what the property reported."""
    if verdict.outcome not in ("crashed", "hung", "failed"):
        return ""
    raised = diagnosis.headline(verdict.failures[0]["error"]) if verdict.failures else None
    return raised or verdict.message


def live_line(verdict: Verdict, sut: str = "") -> str:
    """One line as a property finishes (`sut` names the shim, whose own frames the
    advice tells apart from the system's)."""
    count = examples(verdict)
    count = count if count in ("once", "-") else f"{count} example{'s' * (count != '1')}"
    line = f"  {mark(verdict):<5} {verdict.name}  ({count}, {verdict.seconds:.1f} s)"
    if verdict.outcome != "passed" and verdict.reason:
        line += f": {verdict.reason}"
    if message(verdict):
        line += f"\n        {message(verdict)}"
    advice = hint(verdict, sut)
    if advice:
        line += f"\n        {advice}"
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


def closing_table(verdicts: list[Verdict], sut: str = "", planned: int | None = None) -> str:
    room = WIDTH - _INDENT
    header = "  ".join(name.ljust(w) for name, w in _COLUMNS) + "  property"
    lines = [header, "  ".join("-" * w for _, w in _COLUMNS) + "  " + "-" * room]
    for v in verdicts:
        marked = mark(v) + "*" * bool(v.trouble)
        name = cut(v.name, room, middle=True)
        lines.append(f"{marked:<7}  {examples(v):>8}  {v.seconds:>7.1f}  {name}")
        details = [v.reason] if v.reason and v.outcome != "passed" else []
        details += [text for text in (message(v), hint(v, sut)) if text]
        lines += [" " * _INDENT + cut(detail.splitlines()[0], room, middle=True)
                  for detail in details]
        lines += [f"    reproducer: {relative(p)}" for p in v.reproducers]
    return "\n".join(lines) + "\n" + summary(verdicts, planned)


def summary(verdicts: list[Verdict], planned: int | None = None) -> str:
    """'N passed, N failed' (the form CI logs are read for), then the rest; known
    failures, crashes and hangs are counted as known, not under their outcome, so
    the counts say what the exit status says.  Of a run that set out to run `planned`
    properties and has fewer verdicts (stopped by a signal, or a round by its time),
    the count it did not run too."""
    counts = Counter(KNOWN if v.known else v.outcome for v in verdicts)
    words = [f"{counts['passed']} passed", f"{counts['failed']} failed"]
    words += [f"{counts[o]} {o}" for o in (KNOWN, "skipped", "crashed", "hung", "interrupted",
                                           "error")
              if counts[o]]
    missing = (planned or 0) - len(verdicts)
    return ", ".join(words + [f"{missing} not run"] * (missing > 0))


def diagnoses(verdict: Verdict, sut: str = "") -> list[Diagnosis]:
    """Each failure of `verdict` diagnosed (jaxcheck/diagnosis.py); a crash or a hang
    without a failure's error is one, by its reason."""
    failures = verdict.failures or (
        [{"error": f"{verdict.outcome}: {verdict.reason}", "reproducers": verdict.reproducers}]
        if verdict.outcome in ("failed", "crashed", "hung") else [])
    return [diagnosis.diagnose(f["error"], verdict.nodeid, f["reproducers"], verdict.evidence,
                               sut) for f in failures]


def _advice(found: Diagnosis, uses: frozenset[str], messages: list[str]) -> str:
    return found.advice or (diagnosis.declaration(uses, messages) if found.declarable else "")


def hint(verdict: Verdict, sut: str = "") -> str:
    """What to do about the property's first failure, where the summary has a word
    for it: a convention to declare, the shim to fix, a likely defect, the smallest
    declaration that would explain a raise."""
    for found in diagnoses(verdict, sut):
        errors = [f["error"] for f in verdict.failures[:1]]
        advice = _advice(found, found.uses, errors)
        if advice:
            return advice
    return ""


def groups(verdicts: list[Verdict], sut: str = "") -> str:
    """Each cause of failure once (jaxcheck/diagnosis.py: a convention, the shim's
    mapping of a name, a likely defect, a raise, wrong values with an operation under
    a mode), with the properties it failed and what to do.  What a newcomer reads
    first: one line per bug, not per property, its message as the SUT wrote it."""
    kinds: dict[tuple, list] = {}
    for v in verdicts:
        for found, failure in zip(diagnoses(v, sut), v.failures or [{"error": ""}]):
            first, names, uses, messages = kinds.setdefault(
                found.key, [found, [], found.uses, []])
            if v.name not in names:
                names.append(v.name)
            kinds[found.key][2] = uses & found.uses
            messages.append(failure["error"])
    if not kinds:
        return ""
    lines = [f"\n\n{len(kinds)} distinct kind{'s' * (len(kinds) != 1)} of failure:"]
    for found, names, uses, messages in sorted(kinds.values(), key=lambda kind: -len(kind[1])):
        lines.append(f"  {cut(found.title, WIDTH - 2, middle=True)}")
        shown = ", ".join(cut(n.rsplit("::", 1)[-1], 60, middle=True) for n in names[:3])
        lines.append(f"    in {len(names)} propert{'y' if len(names) == 1 else 'ies'}: "
                     f"{shown}{', ...' * (len(names) > 3)}")
        advice = _advice(found, uses, messages)
        if advice:
            lines.append(f"    {advice}")
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
