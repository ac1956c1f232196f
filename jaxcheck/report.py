"""`jaxcheck report`: the conformance matrix, properties against SUTs, as Markdown and HTML.

The page an implementer sends to colleagues, so it is read from the top:

1. a summary, one row per system (named by its own name and version):
   how many properties it passed, failed, crashed or hung on and skipped,
   the known findings its failures show and how many are unclassified;
2. "Where the systems differ": only the properties some system neither
   passed nor skipped, each with every system's verdict, so no failure has
   to be looked for;
3. every property, grouped by family, each with the one-line description
   of what it checks (`properties.py`).

A cell is the verdict word, a link to each reproducer and to each finding
its failure shows; the example count and the reason are on demand (a
`title`, a `<details>`).  The HTML page is one self-contained file (inline
style, no script, nothing fetched) that fits five or more systems in 1280
pixels; its summary carries the Markdown's counts in
`data-sut`/`data-outcome` attributes, and tests/meta/test_jaxcheck_report.py
reads them, and measures the layout, in a real browser.  The data both
twins draw is `matrix.py`'s.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

from jaxcheck.findings import Finding
from jaxcheck.matrix import (
    KINDS,
    Cell,
    Known,
    Matrix,
    Row,
    first_of_its_family,
    first_of_its_property,
    plural,
)
from jaxcheck.record import now
from jaxcheck.runner import Verdict

COLOURS = {"passed": "#d8f0d8", "failed": "#f6c6c6", "skipped": "#eeeeee", "crashed": "#f0a8a8",
           "hung": "#f3d9a4", "interrupted": "#e0e0f0", "error": "#f0a8a8", "none": "#ffffff"}
DIFFER = "Where the systems differ"
LEGEND = ("*known*: each failure in the cell shows a finding of the findings; "
          "*unclassified*: one shows none, so it needs a look.")
# What the summary's last two columns mean: a reader must tell a feature the system
# lacks from one its shim has not mapped yet (tests/meta/test_declarations_true.py
# holds the shipped shims' declarations true on their systems).
DECLARES = ("*declares*: what the system lacks, or does another way with a finding saying why, "
            "as its shim declares it, so the properties that need it are skipped; "
            "*not mapped*: optional names of the contract its shim does not offer, "
            "which the system may have.")


def slug(sut: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", sut)


def _link(path: str, out: Path) -> str:
    return os.path.relpath(path, out)


def _differ_intro(matrix: Matrix) -> str:
    rows = matrix.differing()
    if not rows:
        return "Every system passed or skipped every property."
    counted = f"{len(rows)} of {plural(len(matrix.rows), 'property', 'properties')}"
    return (f"The {counted} that some system neither passed nor skipped (it failed, crashed, "
            "hung, or the run ended in an error or was stopped), with every system's verdict; "
            "a skip says which feature its system declares unsupported.  All properties follow.")


# ----------------------------------------------------------------------------- Markdown

def _md_cell(cell: Cell, out: Path, document: str) -> str:
    text = cell.words if cell.outcome in ("passed", "none") else f"**{cell.words}**"
    text += f" ({cell.detail})" if cell.detail and cell.verdict else ""
    text += "".join(f" [reproducer]({_link(p, out)})" for p in cell.reproducers)
    if cell.findings:
        text += " finding " + ", ".join(f"[{f.id}]({f.link(document)})" for f in cell.findings)
    if cell.kind == "unclassified":
        note = cell.unclassified_note
        text += " *unclassified*" + (f" ({note})" if note else "")
    return text


def _md_escaped(cell: str) -> str:
    return cell.replace("|", "\\|")


def _md_table(matrix: Matrix, rows: list[Row], out: Path, document: str,
              families: bool = False) -> list[str]:
    """A table of `rows`; with `families`, a bold row opens each family."""
    lines = ["| property | " + " | ".join(s.heading for s in matrix.systems) + " |",
             "|---|" + "---|" * len(matrix.systems)]
    for row, first, opens in zip(rows, first_of_its_property(rows), first_of_its_family(rows)):
        if families and opens:
            lines.append(f"| **{row.property.family}** |" + " |" * len(matrix.systems))
        label = f"`{row.property.function}{row.property.parameter}`"
        if first and row.property.description:
            label += f": {row.property.description}"
        cells = [label, *(_md_cell(cell, out, document) for cell in row.cells)]
        lines.append("| " + " | ".join(_md_escaped(c) for c in cells) + " |")
    return lines


def _summary_head(matrix: Matrix) -> tuple[list[str], list[str]]:
    """The summary's counted columns (outcomes, then kinds of failure), and all its columns."""
    counted = [*matrix.shown_outcomes(), *(KINDS if matrix.classified else ())]
    shown = ["findings shown"] if matrix.classified else []
    return counted, ["system", *counted, *shown, "declares", "not mapped"]


def _md_summary(matrix: Matrix, document: str) -> list[str]:
    counted, head = _summary_head(matrix)
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 3) + "---|---|"]
    for i, s in enumerate(matrix.systems):
        tally = matrix.tally(i)
        cells = [f"{s.name} {s.version}{s.lacks}".strip(), *(str(tally[c]) for c in counted)]
        if matrix.classified:
            cells.append(", ".join(f"[{f.id}]({f.link(document)})" for f in matrix.findings(i))
                         or "none")
        cells += [s.declarations, s.not_mapped]
        lines.append("| " + " | ".join(_md_escaped(c) for c in cells) + " |")
    return lines


def _md_findings(matrix: Matrix, document: str) -> list[str]:
    shown = matrix.shown()
    if not shown:
        return []
    return ["## Findings shown", "",
            *(f"* [{f.id}]({f.link(document)}) ({f.sut}): {f.title}; in {plural(n, 'cell')}"
              for f, n in shown.items())]


def when_ran(times: list[str | None]) -> str:
    """When the columns ran, for the page's first line: from the earliest of their
    records' times to the latest, or, where a record holds none (one written before
    records kept it), when the page is drawn."""
    if not times or None in times:
        return f"drawn {now()}"
    first, last = min(times), max(times)
    return f"run {first}" if first == last else f"run {first} to {last}"


def markdown(columns: dict[str, list[Verdict]], out: Path, profile: str, when: str,
             known: Known | None = None, document: str = "") -> str:
    matrix = Matrix(columns, known)
    lines = ["# Conformance matrix", "",
             f"Profile `{profile}`, {when}: "
             f"{plural(len(matrix.systems), 'system')}, "
             f"{plural(len(matrix.rows), 'property', 'properties')}.", "", "## Summary", "",
             *_md_summary(matrix, document), "", DECLARES, ""]
    if matrix.classified:
        lines += [LEGEND.replace("the findings", f"[the findings]({document})"), ""]
    lines += [f"## {DIFFER}", "", _differ_intro(matrix), ""]
    if matrix.differing():
        lines += [*_md_table(matrix, matrix.differing(), out, document, families=True), ""]
    lines += ["## All properties", ""]
    for family, rows in matrix.groups():
        lines += [f"### {family}", "", *_md_table(matrix, rows, out, document), ""]
    lines += _md_findings(matrix, document)
    return "\n".join(lines).rstrip("\n") + "\n"


# ----------------------------------------------------------------------------- HTML

_STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.2em 1.5em; color: #222; }
h1 { font-size: 1.6em; margin: 0 0 .2em; }
h2 { font-size: 1.25em; margin: 1.2em 0 .3em; }
p { margin: .3em 0; }
table { border-collapse: collapse; margin: .4em 0 1em; }
th, td { border: 1px solid #bbb; padding: 3px 6px; vertical-align: top; text-align: left; }
th { background: #f4f4f4; }
th small, td small { display: block; color: #555; font-weight: normal; }
#summary td.count { text-align: right; font-variant-numeric: tabular-nums; }
#summary td.zero { color: #aaa; }
#summary th.system small { display: inline; }
#summary td.list { overflow-wrap: anywhere; }
table.matrix { width: 100%; table-layout: fixed; }
table.matrix col.property { width: 30%; }
table.matrix thead th { position: sticky; top: 0; z-index: 1; }
th.sut, td.cell { overflow-wrap: anywhere; }
td.property code { font-size: 12.5px; }
tr.family th { background: #e3e8f2; font-size: 1.05em; }
tr.family th small { display: inline; margin-left: .5em; }
td.cell details > summary { cursor: pointer; }
td.cell a { white-space: nowrap; }
.unclassified { color: #a00; font-weight: bold; }
nav a { margin-right: .8em; white-space: nowrap; }
""" + "".join(f"td.{outcome} {{ background: {colour}; }}\n"
               for outcome, colour in COLOURS.items())


def _code(text: str) -> str:
    """A description's `names` as code, the rest escaped."""
    parts = html.escape(text).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def _finding(finding: Finding, document: str) -> str:
    e = html.escape
    return (f'<a class="finding" href="{e(finding.link(document))}" '
            f'title="{e(finding.id)}. {e(finding.title)}">{e(finding.id)}</a>')


def _html_cell(cell: Cell, out: Path, document: str) -> str:
    e = html.escape
    many = len(cell.reproducers) > 1
    links = [f'<a href="{e(_link(p, out))}">reproducer{f" {i}" if many else ""}</a>'
             for i, p in enumerate(cell.reproducers, start=1)]
    links += [_finding(f, document) for f in cell.findings]
    if cell.kind == "unclassified":
        note = cell.unclassified_note
        links.append(f'<i class="unclassified" title="{e(note)}">unclassified</i>')
    head = " ".join([f"<b>{e(cell.words)}</b>", *links])
    shown = (f"<details><summary>{head}</summary><small>{e(cell.detail)}</small></details>"
             if cell.verdict and cell.outcome != "passed" and cell.detail else head)
    return (f'<td class="cell {cell.outcome}" data-outcome="{cell.outcome}" '
            f'title="{e(cell.detail)}">{shown}</td>')


def _html_property(row: Row, first: bool) -> str:
    e = html.escape
    name = e(row.property.function + row.property.parameter).replace("_", "_<wbr>")
    described = (f"<small>{_code(row.property.description)}</small>"
                 if first and row.property.description else "")
    return f'<td class="property" title="{e(row.property.nodeid)}"><code>{name}</code>' \
           f"{described}</td>"


def _html_rows(rows: list[Row], out: Path, document: str) -> list[str]:
    return [f"<tr>{_html_property(row, first)}"
            + "".join(_html_cell(cell, out, document) for cell in row.cells) + "</tr>"
            for row, first in zip(rows, first_of_its_property(rows))]


def _family_id(family: str) -> str:
    return "family-" + re.sub(r"[^a-z0-9]+", "-", family.lower()).strip("-")


def _html_table(matrix: Matrix, body: list[str]) -> str:
    e = html.escape
    head = "".join(f'<th class="sut" title="{e(s.description)}">{e(s.name)}'
                   f"<small>{e(s.short_version)}</small></th>" for s in matrix.systems)
    return ('<table class="matrix"><colgroup><col class="property">'
            + "<col>" * len(matrix.systems) + "</colgroup>"
            f"<thead><tr><th>property</th>{head}</tr></thead>\n<tbody>\n"
            + "\n".join(body) + "\n</tbody></table>\n")


def _html_summary(matrix: Matrix, document: str) -> str:
    e = html.escape
    counted, head = _summary_head(matrix)
    rows = []
    for i, s in enumerate(matrix.systems):
        tally = matrix.tally(i)
        cells = [f'<th class="system" title="{e(s.description)}">{e(s.name)} '
                 f"<small>{e(s.version + s.lacks)}</small></th>"]
        cells += [f'<td class="count{" zero" * (not tally[c])}" data-sut="{i + 1}" '
                  f'data-outcome="{c}">{tally[c]}</td>' for c in counted]
        if matrix.classified:
            cells.append("<td>" + (", ".join(_finding(f, document) for f in matrix.findings(i))
                                   or "none") + "</td>")
        cells += [f'<td class="list"><small>{_names(s.declarations)}</small></td>',
                  f'<td class="list"><small>{_names(s.not_mapped)}</small></td>']
        rows.append("<tr>" + "".join(cells) + "</tr>")
    head_row = "".join(f"<th>{e(h)}</th>" for h in head)
    return f'<table id="summary"><tr>{head_row}</tr>\n' + "\n".join(rows) + "</table>\n"


def _names(listed: str) -> str:
    """Feature names escaped, each free to break after an underscore (a summary
    column of `shape_polymorphism` and `while_loop_reverse` must stay narrow)."""
    return html.escape(listed).replace("_", "_<wbr>")


def _html_findings(matrix: Matrix, document: str) -> str:
    e = html.escape
    shown = matrix.shown()
    if not shown:
        return ""
    items = "".join(f"<li>{_finding(f, document)} ({e(f.sut)}): {e(f.title)}; in "
                    f"{plural(n, 'cell')}</li>" for f, n in shown.items())
    return f"<h2>Findings shown</h2>\n<ul>{items}</ul>\n"


def _html_groups(matrix: Matrix, groups: list[tuple[str, list[Row]]], out: Path,
                 document: str, anchored: bool) -> list[str]:
    """Each family's heading row (with an anchor in the full matrix), then its rows."""
    body = []
    for family, rows in groups:
        failing = sum(row.wrong for row in rows)
        note = plural(len(rows), "property", "properties") + (
            f", {failing} with a failure" if failing and anchored else "")
        anchor = f' id="{_family_id(family)}"' if anchored else ""
        body.append(f'<tr class="family"{anchor}><th colspan="{len(matrix.systems) + 1}">'
                    f"{html.escape(family)}<small>{note}</small></th></tr>")
        body += _html_rows(rows, out, document)
    return body


def page(columns: dict[str, list[Verdict]], out: Path, profile: str, when: str,
         known: Known | None = None, document: str = "") -> str:
    e = html.escape
    matrix = Matrix(columns, known)
    legend = ("<p><small>" + e(DECLARES).replace("*declares*", "<i>declares</i>")
              .replace("*not mapped*", "<i>not mapped</i>") + "</small></p>\n")
    legend += "" if not matrix.classified else (
        "<p><small>" + e(LEGEND).replace("*known*", "<i>known</i>")
        .replace("*unclassified*", "<i>unclassified</i>")
        .replace("the findings", f'<a href="{e(document)}">the findings</a>')
        + "</small></p>\n")
    nav = " ".join(f'<a href="#{_family_id(f)}">{e(f)}</a>' for f, _ in matrix.groups())
    differing = matrix.groups(matrix.differing())
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>jaxcheck conformance"
            f"</title><style>{_STYLE}</style></head><body>\n<h1>Conformance matrix</h1>\n"
            f"<p>Profile <code>{e(profile)}</code>, {e(when)}: "
            f"{plural(len(matrix.systems), 'system')}, "
            f"{plural(len(matrix.rows), 'property', 'properties')}."
            f' <a href="#differ">{DIFFER}</a> · <a href="#all">All properties</a></p>\n'
            + _html_summary(matrix, document) + legend
            + f'<h2 id="differ">{DIFFER}</h2>\n<p>{e(_differ_intro(matrix))}</p>\n'
            + (_html_table(matrix, _html_groups(matrix, differing, out, document, False))
               if differing else "")
            + f'<h2 id="all">All properties</h2>\n<nav>{nav}</nav>\n'
            + _html_table(matrix, _html_groups(matrix, matrix.groups(), out, document, True))
            + _html_findings(matrix, document) + "</body></html>\n")


def write(columns: dict[str, list[Verdict]], out: Path, profile: str,
          known: Known | None = None, findings_path: Path | None = None,
          when: str | None = None) -> list[Path]:
    """The page as Markdown and HTML in `out`; `when` the columns ran (`when_ran`),
    by default when it is drawn."""
    out.mkdir(parents=True, exist_ok=True)
    md, page_path = out / "conformance.md", out / "conformance.html"
    document = _link(str(findings_path), out) if findings_path else ""
    when = when or when_ran([])
    md.write_text(markdown(columns, out, profile, when, known, document))
    page_path.write_text(page(columns, out, profile, when, known, document))
    return [md, page_path]
