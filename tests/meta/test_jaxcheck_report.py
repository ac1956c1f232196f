"""`jaxcheck report`: the Markdown matrix and its HTML twin say the same, in a real browser.

The HTML page is opened in headless Chromium (Debian's `chromium`, which
.ci/run installs); a screenshot is kept as an artifact under `reports/`,
and the counts read from the rendered DOM must equal the Markdown's.
Without Chromium the test is skipped saying so.
"""

import re
import shutil
import subprocess

import pytest

from tests.meta.command import ROOT, jaxcheck

pytestmark = pytest.mark.meta

ARTIFACTS = ROOT / "reports"

# A findings document with one finding, which the crashing shim's crash shows.
FINDINGS = """# Findings

### S1. grad segfaults

Signature (tests.shims.grad_segfaults): `SIGSEGV`
"""


def _markdown_counts(text: str) -> dict[tuple[str, str], int]:
    block = text.split("## Counts", 1)[1]
    counts = {}
    for line in block.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > 1 and cells[1].isdigit():
            for sut, value in enumerate(cells[1:], start=1):
                counts[(str(sut), cells[0])] = int(value)
    return counts


def _dom_counts(dom: str) -> dict[tuple[str, str], int]:
    cells = re.findall(r'<td class="count" data-sut="(\d+)" data-outcome="(\w+)">(\d+)</td>', dom)
    return {(sut, outcome): int(value) for sut, outcome, value in cells}


def test_the_html_report_renders_the_markdowns_counts(tmp_path):
    browser = shutil.which("chromium")
    if browser is None:
        pytest.skip("chromium is not installed (Debian package chromium)")
    out = tmp_path / "report"
    findings = tmp_path / "findings.md"
    findings.write_text(FINDINGS)
    run = jaxcheck("report", "--sut", "refimpl", "--sut", "tests.shims.grad_segfaults",
                   "--only", "test_grad_matches or test_jit_retraces_for_a_new_shape",
                   "--out", str(out), "--findings", str(findings))
    assert run.returncode == 0, run.stdout + run.stderr
    markdown = (out / "conformance.md").read_text()
    page = (out / "conformance.html").as_uri()
    headless = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
    dom = subprocess.run([*headless, "--dump-dom", page], capture_output=True, text=True,
                         timeout=120).stdout
    ARTIFACTS.mkdir(exist_ok=True)
    screenshot = ARTIFACTS / "conformance-report.png"
    subprocess.run([*headless, f"--screenshot={screenshot}", "--window-size=1400,900", page],
                   capture_output=True, timeout=120)
    assert screenshot.exists() and screenshot.stat().st_size > 0
    expected = _markdown_counts(markdown)
    assert expected[("1", "passed")] == 2 and expected[("2", "crashed")] == 1, markdown
    assert _dom_counts(dom) == expected, dom[-3000:]
    assert "http" not in (out / "conformance.html").read_text()  # nothing fetched
