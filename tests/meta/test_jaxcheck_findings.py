"""`jaxcheck/findings.py`: signatures read from a findings document recognise failures.

The report's links are only as good as this: a signature must match the
failures of its own SUT and no other, and a document that cannot be read
as findings must say where and why rather than link nothing silently.
"""

import pytest

from jaxcheck.child import _evidence
from jaxcheck.findings import FindingsError, anchor, read, recognise
from jaxcheck.runner import Verdict

pytestmark = pytest.mark.meta

DOCUMENT = """# Findings

## Some library

### A1. `np.where`'s rules ignore broadcasting

Signature (lib.shim): `non-broadcastable output operand`

### A2. A crash in vmap

Signature (lib.shim): `SIGSEGV(?s:.*)out_axes=-1`
"""


def test_signatures_are_read_under_their_headings(tmp_path):
    path = tmp_path / "findings.md"
    path.write_text(DOCUMENT)
    first, second = read(path)
    assert (first.id, first.sut, first.anchor) == ("A1", "lib.shim",
                                                    "a1-npwheres-rules-ignore-broadcasting")
    assert second.title == "A crash in vmap"


def test_a_failure_is_recognised_by_its_message_or_its_reproducer(tmp_path):
    path = tmp_path / "findings.md"
    path.write_text(DOCUMENT)
    findings = read(path)
    script = tmp_path / "repro.py"
    script.write_text("sut.vmap(f, in_axes=(0,), out_axes=-1)(x0)\n")
    raised = Verdict("t.py::a", "failed", message="ValueError: non-broadcastable output operand")
    crashed = Verdict("t.py::b", "crashed", reason="SIGSEGV", reproducers=[str(script)])
    passed = Verdict("t.py::c", "passed", message="non-broadcastable output operand")
    assert [f.id for f in recognise(raised, "lib.shim", findings).findings] == ["A1"]
    assert [f.id for f in recognise(crashed, "lib.shim", findings).findings] == ["A2"]
    assert recognise(passed, "lib.shim", findings).findings == []  # nothing to explain
    other = recognise(raised, "other.shim", findings)  # another SUT's finding
    assert (other.findings, other.kind) == ([], "unclassified")


def test_a_known_failure_does_not_vouch_for_an_unknown_one_beside_it(tmp_path):
    """A thorough run finds several failures in one property: each must show a
    finding on its own error and reproducers for the cell to count as known."""
    path = tmp_path / "findings.md"
    path.write_text(DOCUMENT)
    findings = read(path)
    known = {"error": "SutRaised: lib.shim raised ValueError while computing f(x): "
                      "non-broadcastable output operand", "reproducers": []}
    unknown = {"error": "SutRaised: lib.shim raised UserError while computing f(x): "
                        "Could not guard on data-dependent expression", "reproducers": []}
    both = Verdict("t.py::a", "failed", failures=[known, unknown],
                   message="non-broadcastable output operand")
    seen = recognise(both, "lib.shim", findings)
    assert [f.id for f in seen.findings] == ["A1"] and seen.kind == "unclassified"
    assert seen.unexplained == [unknown["error"]]
    alone = recognise(Verdict("t.py::a", "failed", failures=[known]), "lib.shim", findings)
    assert alone.kind == "known"


def test_a_reproducer_that_is_not_utf8_is_still_searched(tmp_path):
    """A crash reproducer holds what the SUT printed, in any encoding."""
    path = tmp_path / "findings.md"
    path.write_text(DOCUMENT)
    script = tmp_path / "repro.py"
    script.write_bytes("# caf\xe9\nsut.vmap(f, out_axes=-1)(x0)\n".encode("latin-1"))
    crashed = Verdict("t.py::b", "crashed", reason="SIGSEGV", reproducers=[str(script)])
    assert [f.id for f in recognise(crashed, "lib.shim", read(path)).findings] == ["A2"]


@pytest.mark.parametrize("text, says", [
    ("Signature (lib): `x`\n", "before any finding heading"),
    ("### A1. t\n\nSignature (lib): `(`\n", "is not a regular expression"),
    ("### A1. t\n\nno signature here\n", "has no `Signature"),
])
def test_a_document_that_is_not_findings_is_refused_saying_why(tmp_path, text, says):
    path = tmp_path / "findings.md"
    path.write_text(text)
    with pytest.raises(FindingsError, match=says.replace("(", r"\(")):
        read(path)


def test_a_folder_reads_as_the_union_of_its_files_each_finding_linking_its_own(tmp_path):
    """docs/findings/ keeps one file per system and an index without signatures."""
    folder = tmp_path / "findings"
    folder.mkdir()
    first, second = DOCUMENT.split("### A2.")
    (folder / "b.md").write_text("# B\n\n### A2." + second)
    (folder / "a.md").write_text(first)
    (folder / "README.md").write_text("# Findings\n\n* [A](a.md), [B](b.md)\n")
    (folder / "notes.txt").write_text("Signature (lib.shim): `(`\n")  # not a *.md file
    whole = tmp_path / "findings.md"
    whole.write_text(DOCUMENT)
    assert [(f.id, f.sut, f.pattern.pattern, f.anchor) for f in read(folder)] == \
        [(f.id, f.sut, f.pattern.pattern, f.anchor) for f in read(whole)]
    assert [f.link("findings") for f in read(folder)] == [
        "findings/a.md#a1-npwheres-rules-ignore-broadcasting", "findings/b.md#a2-a-crash-in-vmap"]
    assert read(whole)[1].link("findings.md") == "findings.md#a2-a-crash-in-vmap"


def test_a_folder_without_signatures_is_refused(tmp_path):
    (tmp_path / "README.md").write_text("# Findings\n\nNone yet.\n")
    with pytest.raises(FindingsError, match="a folder, holds no"):
        read(tmp_path)


def test_a_missing_document_is_refused(tmp_path):
    with pytest.raises(FindingsError, match="cannot read"):
        read(tmp_path / "absent.md")


def test_anchors_follow_githubs_rule():
    assert anchor("T3. `torch.func.grad` of a `torch.compile`d function") == \
        "t3-torchfuncgrad-of-a-torchcompiled-function"


def test_the_evidence_keeps_every_sub_exceptions_line_of_a_long_report():
    """A flaky or multiple failure names its errors only in its sub-exceptions,
    which a long report's end may have scrolled past."""
    report = ("  + Exception Group Traceback\n  | ValueError: operands could not be broadcast\n"
              + "  | filler\n" * 10_000)
    assert "ValueError: operands could not be broadcast" in _evidence(report)
