"""A run as JUnit XML (`check --junit-xml PATH`), the form CI systems read test results in.

GitHub Actions' reporters, GitLab and Jenkins read the XML pytest's own
`--junitxml` writes (its default family, xunit2), so this writes that form
and nothing beyond it (tests/meta/test_jaxcheck_junit.py holds the two
alike): one `<testsuite>` in a `<testsuites>`, one `<testcase>` per
property, named as pytest names it (classname `tests.test_grad`, name the
function with its parameters), its seconds, and inside it

* `<failure>` for a property that failed, with its message, and the
  reproducers' paths, to be read in the CI's artifacts;
* `<error>` for one that crashed or hung, which is not a wrong answer but
  a process that never gave one; and for jaxcheck's own error;
* `<skipped>` for one skipped, with its reason; for a *known* failure
  (`--known`, jaxcheck/known.py), with type `jaxcheck.known` and the
  findings' ids, so a known bug is neither a red test nor silently green;
  and for one a stopped run never finished, saying so.
"""

from __future__ import annotations

import socket
import time
from pathlib import Path
from typing import NamedTuple
from xml.etree import ElementTree

from jaxcheck.runner import Verdict

SUITE = "jaxcheck"
KNOWN_TYPE = "jaxcheck.known"
# What each outcome is in JUnit's terms (the rest pass): a wrong answer, no answer, not run.
FAILURE, ERROR, SKIPPED = "failure", "error", "skipped"
ELEMENT = {"failed": FAILURE, "crashed": ERROR, "hung": ERROR, "error": ERROR,
           "skipped": SKIPPED, "interrupted": SKIPPED}


def testcase_name(nodeid: str) -> tuple[str, str]:
    """(classname, name) as pytest's junitxml makes them of a node id:
    `tests/test_grad.py::test_x[a]` is (`tests.test_grad`, `test_x[a]`)."""
    path, _, name = nodeid.partition("::")
    return path.removesuffix(".py").replace("/", "."), name.replace("::", ".")


class Result(NamedTuple):
    """The element inside a property's testcase."""

    tag: str
    attributes: dict[str, str]
    text: str


def _result(verdict: Verdict) -> Result | None:
    """What the verdict is in JUnit's terms, or None for a property that passed."""
    reproducers = "".join(f"\nreproducer: {path}" for path in verdict.reproducers)
    if verdict.known:
        message = f"known finding {', '.join(verdict.known)}: {verdict.outcome}"
        return Result(SKIPPED, {"type": KNOWN_TYPE, "message": message},
                      f"{verdict.message}{reproducers}".strip())
    tag = ELEMENT.get(verdict.outcome)
    if tag is None:
        return None
    if verdict.outcome == "interrupted":
        return Result(tag, {"type": "jaxcheck.interrupted",
                            "message": "not finished: the run was stopped"}, "")
    if verdict.outcome in ("crashed", "hung"):
        why = f" ({verdict.reason})" if verdict.reason else ""
        message = verdict.outcome + why + (f": {verdict.message}" if verdict.message else "")
    else:
        message = verdict.message or verdict.reason or verdict.outcome
    errors = "\n".join(f["error"] for f in verdict.failures)
    return Result(tag, {"message": message.splitlines()[0]}, f"{errors or message}{reproducers}")


def document(verdicts: list[Verdict], name: str = SUITE) -> ElementTree.ElementTree:
    """The run's verdicts as a JUnit XML tree."""
    tags = [result.tag for result in map(_result, verdicts) if result]
    counts = {tag: tags.count(tag) for tag in (FAILURE, ERROR, SKIPPED)}
    root = ElementTree.Element("testsuites", {"name": f"{name} tests"})
    suite = ElementTree.SubElement(root, "testsuite", {
        "name": name, "errors": str(counts[ERROR]), "failures": str(counts[FAILURE]),
        "skipped": str(counts[SKIPPED]), "tests": str(len(verdicts)),
        "time": f"{sum(v.seconds for v in verdicts):.3f}",
        "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "hostname": socket.gethostname()})
    for verdict in verdicts:
        classname, case_name = testcase_name(verdict.nodeid)
        case = ElementTree.SubElement(suite, "testcase", {
            "classname": classname, "name": case_name, "time": f"{verdict.seconds:.3f}"})
        result = _result(verdict)
        if result:
            ElementTree.SubElement(case, result.tag, result.attributes).text = result.text or None
    return ElementTree.ElementTree(root)


def write(path: Path, verdicts: list[Verdict], name: str = SUITE) -> Path:
    """Write the XML to `path` (its folder made), whole or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = path.with_name(path.name + ".partial")
    document(verdicts, name).write(staging, encoding="utf-8", xml_declaration=True)
    staging.replace(path)
    return path
