"""`check --junit-xml` writes what CI systems read: the XML pytest's own `--junitxml` writes.

GitHub Actions' reporters, GitLab and Jenkins read pytest's form, so
jaxcheck's document is held to it: pytest runs a small file of its own
(a pass, a failure, a skip, an error in setup) with `--junitxml`, and every
element jaxcheck writes, with every attribute, must be one pytest writes in
the same place.  A JUnit reader that CI tools are built on (junitparser)
then reads jaxcheck's document back, each property with its result.
"""

import subprocess
import sys
from xml.etree import ElementTree

import pytest

from jaxcheck import junit
from jaxcheck.runner import Verdict

pytestmark = pytest.mark.meta

PYTESTS = '''
import pytest

@pytest.fixture
def broken():
    raise RuntimeError("setup failed")

def test_passes():
    pass

def test_fails():
    assert 1 == 2, "wrong"

def test_skips():
    pytest.skip("not here")

def test_errors(broken):
    pass
'''

VERDICTS = [
    Verdict("tests/test_value.py::test_value_matches", "passed", 60, 1.5),
    Verdict("tests/test_grad.py::test_grad_matches", "failed", 80, 2.25, message="Mismatch: x",
            failures=[{"error": "oracles.errors.Mismatch: x", "reproducers": ["/r/a.py"]}],
            reproducers=["/r/a.py"]),
    Verdict("tests/test_jvp.py::test_jvp[sin]", "crashed", 3, 0.5, reason="SIGSEGV",
            reproducers=["/r/b.py"]),
    Verdict("tests/test_jit.py::test_jit", "hung", 1, 60.0, reason="no answer in 60 s"),
    Verdict("tests/test_vmap.py::test_vmap", "skipped", reason="the SUT lacks vmap"),
    Verdict("tests/test_cells.py::test_cells[exp]", "failed", 12, 0.7, message="Mismatch: y",
            known=["T3"]),
    Verdict("tests/test_stacks.py::test_stacks", "interrupted", 5, 0.1),
]


def _shape(element: ElementTree.Element, parent: str = "") -> set[tuple[str, str, str]]:
    """(parent tag, tag, attribute) for every attribute of every element under `element`,
    and (parent, tag, '') for each element."""
    found = {(parent, element.tag, "")} | {(parent, element.tag, a) for a in element.attrib}
    for child in element:
        found |= _shape(child, element.tag)
    return found


@pytest.fixture(scope="module")
def pytests_own(tmp_path_factory) -> ElementTree.Element:
    base = tmp_path_factory.mktemp("pytests_own")
    (base / "test_sample.py").write_text(PYTESTS)
    subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-c", "/dev/null",
                    "--rootdir", str(base), "--junitxml", str(base / "pytest.xml"),
                    str(base / "test_sample.py")], capture_output=True, cwd=base, timeout=120)
    return ElementTree.parse(base / "pytest.xml").getroot()


def test_jaxcheck_writes_only_elements_and_attributes_pytest_writes_there(tmp_path,
                                                                           pytests_own):
    ours = ElementTree.parse(junit.write(tmp_path / "j.xml", VERDICTS)).getroot()
    assert _shape(ours) - _shape(pytests_own) == set()
    assert ours.tag == pytests_own.tag == "testsuites"


def test_each_property_is_a_testcase_with_its_result():
    suite = junit.document(VERDICTS).getroot().find("testsuite")
    assert {k: suite.attrib[k] for k in ("tests", "failures", "errors", "skipped")} == {
        "tests": "7", "failures": "1", "errors": "2", "skipped": "3"}
    cases = {c.attrib["name"]: c for c in suite.iter("testcase")}
    assert cases["test_jvp[sin]"].attrib["classname"] == "tests.test_jvp"
    assert [e.tag for e in cases["test_grad_matches"]] == ["failure"]
    assert "reproducer: /r/a.py" in cases["test_grad_matches"][0].text
    assert cases["test_jvp[sin]"][0].tag == "error"
    assert cases["test_jvp[sin]"][0].attrib["message"] == "crashed (SIGSEGV)"
    known = cases["test_cells[exp]"][0]
    assert (known.tag, known.attrib["type"]) == ("skipped", junit.KNOWN_TYPE)
    assert known.attrib["message"].startswith("known finding T3")
    assert list(cases["test_value_matches"]) == []


def test_a_junit_reader_reads_it_back(tmp_path):
    junitparser = pytest.importorskip(
        "junitparser", reason="junitparser, the JUnit XML reader, is not installed here "
                              "(tox installs it)")
    xml = junitparser.JUnitXml.fromfile(str(junit.write(tmp_path / "j.xml", VERDICTS)))
    (suite,) = list(xml)
    results = {case.name: [type(r).__name__ for r in case.result] for case in suite}
    assert results == {"test_value_matches": [], "test_grad_matches": ["Failure"],
                       "test_jvp[sin]": ["Error"], "test_jit": ["Error"],
                       "test_vmap": ["Skipped"], "test_cells[exp]": ["Skipped"],
                       "test_stacks": ["Skipped"]}
    assert suite.tests == 7 and suite.failures == 1 and suite.errors == 2
