"""Known findings, read from a findings document, recognised in a report's failures.

A conformance matrix is only useful if a reader can tell a known bug of an
SUT from a new one.  The findings documents (`docs/findings/`, one file per
system, for the shims shipped here; a user keeps their own, a file or a
folder) are the one home of what each finding is; each finding's section
also says how its failures read, in a line

    Signature (suts.torch_func): `Guard failed on the same frame`

naming the SUT it belongs to and a regular expression.  `jaxcheck report
--findings PATH` searches a failed, crashed or hung cell's message and its
reproducers for the signatures of that SUT's findings, and links the cell
to each finding that matches; a failure that matches none is counted as
*unclassified*, the cells a maintainer still has to look at.

A signature recognises a finding; it does not prove one.  The findings
document says, for each, that its reproducers were run by hand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from jaxcheck import signatures
from jaxcheck.runner import Verdict

# A finding's heading: `### T3. What happens`, its id the text before the dot.
_HEADING = re.compile(r"^#{2,4} +([A-Za-z]+\d+)\. +(.+?) *$")
_SIGNATURE = re.compile(r"^Signature \(([^)]+)\): +`(.+)` *$")
# Outcomes a finding can explain.
EXPLAINABLE = ("failed", "crashed", "hung", "error")


class FindingsError(ValueError):
    """A findings document that cannot be read as one."""


@dataclass(frozen=True)
class Finding:
    id: str
    title: str
    sut: str
    pattern: re.Pattern
    anchor: str  # the heading's anchor, as GitHub and most Markdown renderers make it
    # The file of a findings folder the finding was read from, relative to the folder
    # ("" when a single file was read), so a link reaches the right page.
    page: str = ""

    def link(self, document: str) -> str:
        """The finding's address, given the address of the file or folder read."""
        return f"{document}/{self.page}#{self.anchor}" if self.page else f"{document}#{self.anchor}"


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    kept = re.sub(r"[^\w\- ]", "", heading.lower())
    return kept.replace(" ", "-")


def read(path: Path) -> list[Finding]:
    """Every `Signature (SUT): `regex`` line, under the finding heading above it, of a
    findings file, or of every `*.md` file of a findings folder (in name order; a file
    without signatures, such as the folder's index, is read and adds none)."""
    if path.is_dir():
        pages = sorted(path.glob("*.md"))
        found = [finding for page in pages for finding in _page(page, page.name)]
    else:
        found = _page(path, "")
    if not found:
        what = f"{path}, a folder, holds no *.md file that" if path.is_dir() else str(path)
        raise FindingsError(f"{what} has no `Signature (SUT): `regex`` line under a finding "
                            "heading, so no failure could be recognised")
    return found


def _page(path: Path, page: str) -> list[Finding]:
    """The findings of one file; `page` is its name within the folder read, or ""."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise FindingsError(f"cannot read the findings document {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise FindingsError(f"the findings document {path} is not UTF-8 text ({exc.reason} at "
                            f"byte {exc.start}); save it as UTF-8") from None
    found, heading = [], None
    for number, line in enumerate(lines, start=1):
        if match := _HEADING.match(line):
            heading = match
        elif match := _SIGNATURE.match(line):
            if heading is None:
                raise FindingsError(f"{path}:{number}: a signature before any finding heading "
                                    "(`### ID. title`)")
            try:
                pattern = signatures.compiled(match[2])
            except signatures.SignatureError as exc:
                raise FindingsError(f"{path}:{number}: the signature `{match[2][:200]}` "
                                    f"{exc}") from None
            title = heading[2]
            found.append(Finding(heading[1], title, match[1].strip(), pattern,
                                 anchor(f"{heading[1]}. {title}"), page))
    return found


@dataclass(frozen=True)
class Recognised:
    """What the findings say of one cell's failures."""

    findings: list[Finding]  # each finding some failure shows, once
    unexplained: list[str]  # the errors of the failures that show none

    @property
    def kind(self) -> str:
        """'unclassified' while any failure shows no finding, else 'known'."""
        return "unclassified" if self.unexplained or not self.findings else "known"


def _read(paths: list[str]) -> list[str]:
    """The reproducers' texts (one gone or unreadable is left out, a byte that is not
    UTF-8 replaced: a signature is searched in what can be read)."""
    texts = []
    for path in paths:
        try:
            texts.append(Path(path).read_text(encoding="utf-8", errors="replace"))
        except OSError:
            pass
    return texts


def _matching(text: str, sut: str, findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.sut == sut and signatures.search(f.pattern, text, f.id)]


def recognise(verdict: Verdict, sut: str, findings: list[Finding]) -> Recognised:
    """The findings of `sut` whose signatures the verdict's failures show.

    Each distinct failure (a thorough run finds several in one property) is
    searched alone, in its error and its own reproducers, so that one known
    failure cannot vouch for an unknown one beside it.  A crash or a hang,
    and a record without failures, are searched whole: message, reason, the
    end of the failure report, the reproducers.
    """
    if verdict.outcome not in EXPLAINABLE:
        return Recognised([], [])
    if not verdict.failures:
        text = "\n".join([verdict.message, verdict.reason, verdict.evidence,
                          *_read(verdict.reproducers)])
        found = _matching(text, sut, findings)
        return Recognised(found, [] if found else [verdict.message or verdict.reason])
    found: dict[Finding, None] = {}
    unexplained = []
    for failure in verdict.failures:
        text = "\n".join([failure["error"], *_read(failure["reproducers"])])
        matched = _matching(text, sut, findings)
        found.update(dict.fromkeys(matched))
        if not matched:
            unexplained.append(failure["error"].splitlines()[0])
    return Recognised(list(found), unexplained)
