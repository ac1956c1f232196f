"""`jaxcheck report`: the matrix reads at a glance, and its Markdown and HTML twins agree.

The page is what an implementer sends to colleagues, so it is tested as a
reader sees it: opened in headless Chromium (Debian's `chromium`, which
.ci/run installs) at 1280x800 over the DevTools protocol (tests/meta/browser.py),
five systems side by side, the summary and every system's column header must
be on the first screen with nothing to scroll sideways.  A screenshot of
each page is kept as an artifact under `reports/`.  Without Chromium those
tests are skipped saying so; the rest (counts, links, words) read the files.

The five-system matrix is built from verdicts written here, without running
any SUT: passes, failures with reproducers and findings, a crash, a hang,
an error, skips with long reasons, a cell never run.
"""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from jaxcheck import record, report
from jaxcheck.findings import Finding, Recognised, anchor
from jaxcheck.matrix import WRONG, system
from jaxcheck.runner import Verdict
from oracles.sut import Sut
from tests.meta import browser
from tests.meta.command import ROOT, jaxcheck

pytestmark = pytest.mark.meta

ARTIFACTS = ROOT / "reports"
WIDTH, HEIGHT = 1280, 800

# A findings document with one finding, which the crashing shim's crash shows.
FINDINGS = """# Findings

### S1. grad segfaults

Signature (tests.shims.grad_segfaults): `SIGSEGV`
"""

# Five systems as they describe themselves (Sut.describe), the last one with a long
# name and version, which the page must still fit.
SYSTEMS = [Sut("refimpl", None, "0.1.0", frozenset({"tie_convention", "while_loop_reverse"})),
           Sut("jax", None, "0.10.2", frozenset({"while_loop_reverse"})),
           Sut("suts.autograd", None, "autograd 1.9.1 (shim: vmap a loop, jit the identity)",
               frozenset({"jit_staging", "leak_check", "make_jaxpr", "shape_polymorphism"}),
               inferred=frozenset({"shape_polymorphism"})),
           Sut("suts.torch_func", None, "torch 2.13.0+cpu (torch.func)",
               frozenset({"jit_staging", "leak_check", "make_jaxpr"})),
           Sut("acme_autodiff.experimental_shims.reverse_mode", None,
               "acme-autodiff 0.3.0.dev20261126+g1234abcd (nightly, CPU only)", frozenset())]

GRAD = "tests/test_grad.py::test_grad_matches_finite_differences_and_reference"
WHILE = "tests/test_grad.py::test_grad_through_while_loop_matches_finite_differences"
VALUE = "tests/test_value.py::test_value_matches_numpy_and_reference"
COMMUTES = "tests/test_identities.py::test_jit_commutes_with[{}]"
GROWTH = "tests/test_cost.py::test_grad_work_grows_linearly[chain]"
LEAK = "tests/test_errors.py::test_a_leaked_tracer_raises_when_used"
TIE = "tests/test_conventions.py::test_derivative_at_a_kink_follows_the_convention[maximum_tie-jvp]"
VMAP = "tests/test_vmap.py::test_vmap_matches_loop_and_stack"

DECLARED = ("{} declares make_jaxpr unsupported (__sut_unsupported__): the counted-work cost "
            "properties are replaced by the timing fallback")
CONVENTION = ("refimpl declares tie_convention: it follows another convention for maximum at a "
              "tie than the contract's (docs/sut-api.md), which is not required of it")


def _findings(path: Path) -> dict[str, Finding]:
    titles = {"A2": "the vjp of broadcast_to cannot add leading dimensions",
              "T3": "grad of a compiled function fails on a non-leaf argument",
              "T11": "compile runs code compiled for an earlier identical function"}
    path.write_text("# Findings\n\n" + "".join(f"### {i}. {t}\n\n" for i, t in titles.items()))
    return {i: Finding(i, t, "x", re.compile("x"), anchor(f"{i}. {t}")) for i, t in titles.items()}


def _columns(out: Path, findings: dict[str, Finding]):
    """Five columns of verdicts and what the findings say of their failures."""
    def saved(sut: int, name: str) -> str:
        path = out / "conformance" / report.slug(SYSTEMS[sut].name) / f"repro_{name}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("# a reproducer\n")
        return str(path)

    def failed(sut, nodeid, outcome, shows, unexplained=(), reason="", reproducers=1):
        name = re.sub(r"\W", "_", nodeid)
        paths = [saved(sut, f"{name}_{i}") for i in range(reproducers)]
        found = Recognised([findings[f] for f in shows], list(unexplained))
        return Verdict(nodeid, outcome, 300, reason=reason, reproducers=paths), found

    cells = {
        VALUE: [Verdict(VALUE, "passed", 60)] * 4 + [Verdict(VALUE, "passed", 1)],
        GRAD: [Verdict(GRAD, "passed", 67)] * 2 + [
            failed(2, GRAD, "failed", ["A2"]),
            failed(3, GRAD, "failed", ["T3", "T11"], reproducers=2),
            failed(4, GRAD, "crashed", [], ["SIGSEGV"], reason="SIGSEGV")],
        WHILE: [Verdict(WHILE, "skipped", 1, reason=f"{s.name} declares while_loop_reverse "
                        "unsupported (__sut_unsupported__)") for s in SYSTEMS[:2]] + [
            failed(2, WHILE, "failed", ["A2"]),
            failed(3, WHILE, "hung", [], ["no answer"], reason="the SUT did not return in 60 s"),
            Verdict(WHILE, "passed", 70)],
        COMMUTES.format("jvp"): [Verdict(COMMUTES.format("jvp"), "passed", 69)] * 5,
        COMMUTES.format("grad"): [Verdict(COMMUTES.format("grad"), "passed", 68)] * 3 + [
            failed(3, COMMUTES.format("grad"), "failed", ["T11"], ["Mismatch: new"]),
            Verdict(COMMUTES.format("grad"), "passed", 68)],
        GROWTH: [Verdict(GROWTH, "passed")] * 2 + [
            Verdict(GROWTH, "skipped", reason=DECLARED.format(s.name)) for s in SYSTEMS[2:4]] + [
            Verdict(GROWTH, "passed")],
        LEAK: [Verdict(LEAK, "passed", 66)] * 4 + [
            Verdict(LEAK, "error", 3, reason="jaxcheck could not write its log")],
        TIE: [Verdict(TIE, "skipped", 1, reason=CONVENTION)] + [Verdict(TIE, "passed", 60)] * 4,
        VMAP: [Verdict(VMAP, "passed", 66)] * 4,  # never run on the fifth system
    }
    columns = {s.describe(): [] for s in SYSTEMS}
    known = {s.describe(): {} for s in SYSTEMS}
    for row in cells.values():
        for description, cell in zip(columns, row):
            verdict, found = cell if isinstance(cell, tuple) else (cell, None)
            columns[description].append(verdict)
            if found is not None:
                known[description][verdict.nodeid] = found
    return columns, known


@pytest.fixture(scope="module")
def five(tmp_path_factory) -> Path:
    """The report of five systems, written by `report.write`: its folder."""
    base = tmp_path_factory.mktemp("five")
    out = base / "report"
    findings = _findings(base / "findings.md")
    columns, known = _columns(out, findings)
    report.write(columns, out, "ci", known, base / "findings.md")
    return out


# ----------------------------------------------------------------------------- reading the files

class _Page(HTMLParser):
    """The links, the ids and the cells of an HTML page."""

    def __init__(self, text: str):
        super().__init__()
        self.hrefs, self.ids, self.cells, self._cell = [], set(), [], None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.ids.add(attrs.get("id"))
        if tag == "a" and "href" in attrs:
            self.hrefs.append(attrs["href"])
            if self._cell is not None:
                self._cell["links"].append((attrs.get("class"), attrs["href"]))
        if tag == "td" and "data-outcome" in attrs and "count" not in attrs.get("class", ""):
            self._cell = {"outcome": attrs["data-outcome"], "links": [], "unclassified": False}
            self.cells.append(self._cell)
        if tag == "i" and attrs.get("class") == "unclassified" and self._cell is not None:
            self._cell["unclassified"] = True

    def handle_endtag(self, tag):
        if tag == "td":
            self._cell = None


def _markdown_section(text: str, heading: str) -> str:
    return text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def _markdown_counts(text: str) -> dict[tuple[str, str], int]:
    """(system's row number, outcome or kind) -> count, from the summary table."""
    lines = [line for line in _markdown_section(text, "Summary").splitlines()
             if line.startswith("|")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    counts = {}
    for number, line in enumerate(lines[2:], start=1):
        cells = [c.strip() for c in line.strip("|").split("|")]
        counts |= {(str(number), name): int(value) for name, value in zip(head, cells)
                   if value.isdigit()}
    return counts


def _dom_counts(dom: str) -> dict[tuple[str, str], int]:
    cells = re.findall(r'<td class="count[^"]*" data-sut="(\d+)" data-outcome="(\w+)">(\d+)</td>',
                       dom)
    return {(sut, outcome): int(value) for sut, outcome, value in cells}


# ----------------------------------------------------------------------------- in the browser

def _open(page: Path, screenshot: str) -> dict:
    """The page's layout at 1280x800 as Chromium lays it out, and its DOM."""
    if browser.executable() is None:
        pytest.skip("chromium is not installed (Debian package chromium)")
    with browser.Browser(WIDTH, HEIGHT) as chromium:
        chromium.open(page.as_uri())
        ARTIFACTS.mkdir(exist_ok=True)
        chromium.screenshot(ARTIFACTS / screenshot)
        return chromium.evaluate("""({
            scrollWidth: document.documentElement.scrollWidth,
            innerWidth: innerWidth, innerHeight: innerHeight,
            headers: [...document.querySelector('table.matrix').querySelectorAll('th.sut')]
                .map(e => ({text: e.textContent, box: e.getBoundingClientRect().toJSON()})),
            summary: document.querySelector('#summary').getBoundingClientRect().toJSON(),
            dom: document.documentElement.outerHTML})""")


def test_five_systems_fit_the_first_screen_summary_and_headers_included(five):
    seen = _open(five / "conformance.html", "conformance-five-systems.png")
    assert seen["scrollWidth"] <= seen["innerWidth"] == WIDTH, "the page scrolls sideways"
    assert [h["text"] for h in seen["headers"]] == [f"{s.name}{system(s.describe()).short_version}"
                                                    for s in SYSTEMS]
    for header in seen["headers"]:
        box = header["box"]
        assert 0 <= box["left"] and box["right"] <= WIDTH and box["bottom"] <= HEIGHT, header
    assert seen["summary"]["bottom"] <= HEIGHT, seen["summary"]
    markdown = (five / "conformance.md").read_text()
    assert _dom_counts(seen["dom"]) == _markdown_counts(markdown)


def test_the_html_report_of_a_real_run_renders_the_markdowns_counts(tmp_path):
    if browser.executable() is None:
        pytest.skip("chromium is not installed (Debian package chromium)")
    out = tmp_path / "report"
    findings = tmp_path / "findings.md"
    findings.write_text(FINDINGS)
    run = jaxcheck("report", "--sut", "refimpl", "--sut", "tests.shims.grad_segfaults",
                   "--only", "test_grad_matches or test_jit_retraces_for_a_new_shape",
                   "--out", str(out), "--findings", str(findings))
    assert run.returncode == 0, run.stdout + run.stderr
    markdown = (out / "conformance.md").read_text()
    seen = _open(out / "conformance.html", "conformance-report.png")
    expected = _markdown_counts(markdown)
    assert expected[("1", "passed")] == 2 and expected[("2", "crashed")] == 1, markdown
    assert expected[("2", "known")] == 1, markdown
    assert _dom_counts(seen["dom"]) == expected, seen["dom"][-3000:]
    assert "http" not in (out / "conformance.html").read_text()  # nothing fetched


# ----------------------------------------------------------------------------- in the files

def test_every_link_resolves_and_every_failure_links_its_reproducer_and_finding(five):
    page = _Page((five / "conformance.html").read_text())
    markdown = re.findall(r"\]\(([^)]+)\)", (five / "conformance.md").read_text())
    for href in page.hrefs + markdown:
        target, _, fragment = href.partition("#")
        if target:
            assert (five / target).is_file(), f"{href} does not exist beside the page"
        else:
            assert fragment in page.ids, f"{href} names no element of the page"
    failures = [c for c in page.cells if c["outcome"] in WRONG and c["outcome"] != "error"]
    assert len(failures) == 2 * 6  # each failure twice: where they differ, and in the matrix
    for cell in failures:
        reproducers = [href for kind, href in cell["links"] if kind is None]
        findings = [href for kind, href in cell["links"] if kind == "finding"]
        assert reproducers and all("/repro_" in href for href in reproducers), cell
        assert findings or cell["unclassified"], cell
    # 6 failures, one with a second reproducer: 7 reproducers; 5 findings shown.
    assert sum(len(c["links"]) for c in failures) == 2 * (7 + 5)


def test_the_summary_comes_first_and_counts_each_systems_cells(five):
    markdown = (five / "conformance.md").read_text()
    assert (markdown.index("## Summary") < markdown.index(f"## {report.DIFFER}")
            < markdown.index("## All properties"))
    counts = _markdown_counts(markdown)
    assert {k: v for k, v in counts.items() if k[0] == "4"} == {
        ("4", "passed"): 5, ("4", "failed"): 2, ("4", "crashed"): 0, ("4", "hung"): 1,
        ("4", "skipped"): 1, ("4", "error"): 0, ("4", "known"): 1, ("4", "unclassified"): 2}
    assert counts[("5", "error")] == 1 and counts[("5", "passed")] == 6
    html = (five / "conformance.html").read_text()
    assert _dom_counts(html) == counts
    summary = html.split('<table id="summary">', 1)[1].split("</table>", 1)[0]
    assert all(s.name in summary for s in SYSTEMS) and "SUT 1" not in html + markdown


def test_where_the_systems_differ_lists_the_rows_with_a_failure_and_nothing_else(five):
    section = _markdown_section((five / "conformance.md").read_text(), report.DIFFER)
    listed = re.findall(r"^\| `([^`]+)`", section, flags=re.M)
    assert listed == ["test_grad_matches_finite_differences_and_reference",
                      "test_grad_through_while_loop_matches_finite_differences",
                      "test_jit_commutes_with[grad]", "test_a_leaked_tracer_raises_when_used"]


def test_rows_are_grouped_by_family_and_each_property_says_what_it_checks(five):
    markdown = (five / "conformance.md").read_text()
    families = re.findall(r"^### (.+)$", markdown, flags=re.M)
    assert families == ["Values", "Derivatives", "Identities", "Batching (vmap)",
                        "Conventions at kinks and domain edges", "Errors", "Cost"]
    assert ("`test_grad_matches_finite_differences_and_reference`: grad of a drawn program "
            "matches central finite differences and the reference.") in markdown
    html = (five / "conformance.html").read_text()
    assert "grad of a drawn program matches central finite differences" in html


def test_a_count_of_one_is_singular_in_both_twins(five):
    for page in ("conformance.md", "conformance.html"):
        text = (five / page).read_text()
        assert re.search(r"(?<![\d,])1 example\b", text), page
        assert not re.search(r"(?<![\d,])1 examples", text), page
        assert "60 examples" in text, page


@pytest.mark.parametrize("sut", SYSTEMS, ids=lambda s: s.name)
def test_a_system_is_named_from_its_own_description(sut):
    named = system(sut.describe())
    assert (named.name, named.version, set(named.unsupported)) == (
        sut.name, sut.version, set(sut.unsupported))


@pytest.mark.parametrize("sut", SYSTEMS, ids=lambda s: s.name)
def test_a_run_missing_shards_says_so_and_keeps_its_declarations(sut):
    joined = record.merged([record.Column(sut.name, sut.describe(), "ci", [], "2/4")])
    named = system(joined[0].description)
    assert (named.name, named.version, set(named.unsupported)) == (
        sut.name, sut.version, set(sut.unsupported))
    assert named.short_version.endswith(" [shards 1, 3, 4 of 4 missing]")


def test_the_summary_keeps_what_a_shim_declares_apart_from_what_it_leaves_unmapped(tmp_path):
    """A reader tells "the system lacks it" (declared) from "the shim has not mapped
    it" (the description's "lacks optional"), in both twins."""
    sut = Sut("suts.mine", None, "1.0", frozenset({"leak_check", "cbrt", "nanmean"}),
              inferred=frozenset({"nanmean"}))
    named = system(sut.describe())
    assert (named.declarations, named.not_mapped) == ("cbrt, leak_check", "nanmean")
    assert set(named.unsupported) == sut.unsupported
    columns = {sut.describe(): [Verdict(VALUE, "passed", 3)]}
    markdown = report.markdown(columns, tmp_path, "ci", "run now")
    assert "| declares | not mapped |" in markdown
    assert "| cbrt, leak_check | nanmean |" in markdown
    html = report.page(columns, tmp_path, "ci", "run now")
    assert ('<td class="list"><small>cbrt, leak_<wbr>check</small></td>'
            '<td class="list"><small>nanmean</small></td>') in html
    assert "<i>not mapped</i>: optional names of the contract its shim does not offer" in html
