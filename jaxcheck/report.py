"""`jaxcheck report`: the conformance matrix, properties against SUTs, as Markdown and HTML.

Each cell is one property's verdict on one SUT, with its example count and
a link to the reproducer; a closing block counts each verdict per SUT.  The
HTML page is one self-contained file (inline style, no script, nothing
fetched), and carries the same counts as the Markdown in
`data-sut`/`data-outcome` attributes, so a test can read them from the
rendered page (tests/meta/test_jaxcheck_report.py).

Given a findings document (`jaxcheck/findings.py`), a cell that failed
links the known findings its failure shows, or says it is unclassified,
and the counts say how many failures of each SUT each kind are.
"""

from __future__ import annotations

import html
import os
import re
import time
from collections import Counter
from pathlib import Path

from jaxcheck.findings import EXPLAINABLE, Finding, Recognised
from jaxcheck.runner import Verdict

OUTCOMES = ("passed", "failed", "skipped", "crashed", "hung", "interrupted", "error")
# What a failed or crashed cell is, given the findings (_explained).
KINDS = ("known", "unclassified")
# How a verdict reads in a cell.
WORDS = {"passed": "pass", "failed": "FAIL", "skipped": "skip", "crashed": "CRASH",
         "hung": "HANG", "interrupted": "stopped", "error": "ERROR"}
COLOURS = {"passed": "#d8f0d8", "failed": "#f6c6c6", "skipped": "#eeeeee", "crashed": "#f0a8a8",
           "hung": "#f3d9a4", "interrupted": "#e0e0f0", "error": "#f0a8a8"}


# What the matrix knows of each cell's failures: column -> node id -> what was recognised.
Known = dict[str, dict[str, Recognised]]


def slug(sut: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", sut)


def counts(verdicts: list[Verdict]) -> Counter:
    return Counter(v.outcome for v in verdicts)


def _rows(columns: dict[str, list[Verdict]]) -> list[str]:
    seen: dict[str, None] = {}
    for verdicts in columns.values():
        seen.update((v.nodeid, None) for v in verdicts)
    return list(seen)


def _cell_text(verdict: Verdict | None) -> tuple[str, str]:
    """(words, detail) of a cell: 'pass', '60 examples'."""
    if verdict is None:
        return "-", "not run"
    detail = "" if verdict.examples is None else f"{verdict.examples:,} examples"
    if verdict.reason and verdict.outcome != "passed":
        detail = f"{detail}; {verdict.reason}" if detail else verdict.reason
    return WORDS[verdict.outcome], detail


def _link(path: str, out: Path) -> str:
    return os.path.relpath(path, out)


def _explained(verdict: Verdict | None, found: Recognised | None) -> str:
    """'known' (every failure shows a finding), 'unclassified', or '' (nothing to explain)."""
    if verdict is None or found is None or verdict.outcome not in EXPLAINABLE:
        return ""
    return found.kind


def _unclassified_note(found: Recognised) -> str:
    """How many of the cell's failures show no finding, where others do."""
    return f" ({len(found.unexplained)} of its failures)" if found.findings else ""


def markdown(columns: dict[str, list[Verdict]], out: Path, profile: str,
             known: Known | None = None, document: str = "") -> str:
    names = list(columns)
    by_sut = [{v.nodeid: v for v in verdicts} for verdicts in columns.values()]
    lines = ["# Conformance matrix", "",
             f"Profile `{profile}`, {time.strftime('%Y-%m-%d %H:%M')}. Columns:", ""]
    lines += [f"{i + 1}. {name}" for i, name in enumerate(names)]
    lines += ["", "| property | " + " | ".join(f"SUT {i + 1}" for i in range(len(names))) + " |",
              "|---|" + "---|" * len(names)]
    for nodeid in _rows(columns):
        cells = []
        for name, verdicts in zip(names, by_sut):
            verdict = verdicts.get(nodeid)
            words, detail = _cell_text(verdict)
            cell = f"**{words}**" if verdict and verdict.outcome != "passed" else words
            cell += f" ({detail})" if detail else ""
            cell += "".join(f" [reproducer]({_link(p, out)})"
                            for p in (verdict.reproducers if verdict else []))
            found = known.get(name, {}).get(nodeid) if known is not None else None
            kind = _explained(verdict, found)
            if kind and found.findings:
                cell += " finding " + ", ".join(f"[{f.id}]({f.link(document)})"
                                                for f in found.findings)
            if kind == "unclassified":
                cell += " *unclassified*" + _unclassified_note(found)
            cells.append(cell.replace("|", "\\|"))
        lines.append(f"| `{nodeid.split('/', 1)[-1]}` | " + " | ".join(cells) + " |")
    lines += ["", "## Counts", "", "| verdict | " + " | ".join(f"SUT {i + 1}"
                                                               for i in range(len(names))) + " |",
              "|---|" + "---:|" * len(names)]
    totals = [counts(verdicts) for verdicts in columns.values()]
    lines += [f"| {outcome} | " + " | ".join(str(c[outcome]) for c in totals) + " |"
              for outcome in OUTCOMES]
    if known is not None:
        lines += [f"| {kind} | " + " | ".join(str(c[kind]) for c in _kinds(columns, known))
                  + " |" for kind in KINDS]
        lines += ["", f"*known*: each failure in the cell shows a finding of [the findings]"
                  f"({document}); *unclassified*: one shows none, so it needs a look.", "",
                  *_finding_list(known, document)]
    return "\n".join(lines) + "\n"


def _kinds(columns: dict[str, list[Verdict]], known: Known) -> list[Counter]:
    """Per column, how many failures show a known finding and how many none."""
    return [Counter(_explained(v, known.get(name, {}).get(v.nodeid)) for v in verdicts)
            for name, verdicts in columns.items()]


def _finding_list(known: Known, document: str) -> list[str]:
    """The findings the matrix links, each once, with the cells that show it."""
    cells: dict[Finding, list[str]] = {}
    for by_node in known.values():
        for nodeid, found in by_node.items():
            for finding in found.findings:
                cells.setdefault(finding, []).append(nodeid.split("::", 1)[-1])
    if not cells:
        return []
    lines = ["## Findings shown", ""]
    lines += [f"* [{f.id}]({f.link(document)}) ({f.sut}): {f.title}; in {len(shown)} "
              f"cell{'s' * (len(shown) != 1)}" for f, shown in cells.items()]
    return lines


_STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #bbb; padding: 4px 8px; vertical-align: top; }
th { background: #f4f4f4; text-align: left; }
td.property { font-family: monospace; }
td small, th small { color: #555; display: block; font-weight: normal; }
"""


def page(columns: dict[str, list[Verdict]], out: Path, profile: str,
         known: Known | None = None, document: str = "") -> str:
    e = html.escape
    names = list(columns)
    by_sut = [{v.nodeid: v for v in verdicts} for verdicts in columns.values()]
    head = "".join(f"<th>SUT {i + 1}<small>{e(name)}</small></th>" for i, name in enumerate(names))
    rows = []
    for nodeid in _rows(columns):
        cells = []
        for name, verdicts in zip(names, by_sut):
            verdict = verdicts.get(nodeid)
            words, detail = _cell_text(verdict)
            outcome = verdict.outcome if verdict else "none"
            links = "".join(f' <a href="{e(_link(p, out))}">reproducer</a>'
                            for p in (verdict.reproducers if verdict else []))
            found = known.get(name, {}).get(nodeid) if known is not None else None
            kind = _explained(verdict, found)
            if kind and found.findings:
                links += " finding " + ", ".join(
                    f'<a class="finding" href="{e(f.link(document))}">{e(f.id)}</a>'
                    for f in found.findings)
            if kind == "unclassified":
                links += (' <i class="unclassified">unclassified</i>'
                          + e(_unclassified_note(found)))
            cells.append(f'<td class="cell" data-outcome="{outcome}" '
                         f'style="background:{COLOURS.get(outcome, "#fff")}">'
                         f"<b>{e(words)}</b>{links}<small>{e(detail)}</small></td>")
        rows.append(f'<tr><td class="property">{e(nodeid.split("/", 1)[-1])}</td>'
                    + "".join(cells) + "</tr>")
    totals = [counts(verdicts) for verdicts in columns.values()]
    count_rows = "".join(
        f"<tr><th>{outcome}</th>" + "".join(
            f'<td class="count" data-sut="{i + 1}" data-outcome="{outcome}">{c[outcome]}</td>'
            for i, c in enumerate(totals)) + "</tr>"
        for outcome in OUTCOMES)
    if known is not None:
        count_rows += "".join(
            f"<tr><th>{kind}</th>" + "".join(
                f'<td class="count" data-sut="{i + 1}" data-outcome="{kind}">{c[kind]}</td>'
                for i, c in enumerate(_kinds(columns, known))) + "</tr>"
            for kind in KINDS)
    legend = "" if known is None else (
        f'<p><i>known</i>: each failure in the cell shows a finding of <a href="{e(document)}">'
        "the findings</a>; <i>unclassified</i>: one shows none, so it needs a look.</p>\n")
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>jaxcheck conformance"
            f"</title><style>{_STYLE}</style></head><body>\n<h1>Conformance matrix</h1>\n"
            f"<p>Profile <code>{e(profile)}</code>, {time.strftime('%Y-%m-%d %H:%M')}.</p>\n"
            f"<table><tr><th>property</th>{head}</tr>\n" + "\n".join(rows) + "</table>\n"
            f"<h2>Counts</h2>\n<table id=\"counts\"><tr><th>verdict</th>{head}</tr>"
            f"{count_rows}</table>\n{legend}</body></html>\n")


def write(columns: dict[str, list[Verdict]], out: Path, profile: str,
          known: Known | None = None, findings_path: Path | None = None) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    md, page_path = out / "conformance.md", out / "conformance.html"
    document = _link(str(findings_path), out) if findings_path else ""
    md.write_text(markdown(columns, out, profile, known, document))
    page_path.write_text(page(columns, out, profile, known, document))
    return [md, page_path]
