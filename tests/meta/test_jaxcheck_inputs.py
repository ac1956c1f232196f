"""Every bad input to the `jaxcheck` command is one line and exit 2, before any work starts.

A bad value found after a run has started costs the run (a report that
checks every column, then refuses a repeated one), and one jaxcheck never
looked at ends in a traceback from its own code.  Each row of `CASES` is a
bad command line: it must exit 2 with a single error line that names the
option and says what was expected, print no traceback, and start no child
process (every row runs in-process with child processes forbidden; the rows
marked `process` run once more as a user runs them, `python -m jaxcheck`).
"""

import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass

import pytest

from jaxcheck.cli import main
from tests.meta.command import ROOT

pytestmark = pytest.mark.meta

# A verdict and a record a check run writes, each broken one field at a time below.
VERDICT = {"nodeid": "tests/test_jvp.py::test_jvp", "outcome": "failed", "examples": 3,
           "seconds": 1.5, "reason": "", "reproducers": ["r.py"],
           "failures": [{"error": "Mismatch: boom", "reproducers": ["r.py"]}]}
RECORD = {"sut": "lib.shim", "description": "lib.shim 1.0", "profile": "ci",
          "verdicts": [VERDICT]}


def _record(**changes) -> dict:
    return {**RECORD, **changes}


def _verdict(**changes) -> dict:
    return _record(verdicts=[{**VERDICT, **changes}])


def _without_error() -> dict:
    return _verdict(failures=[{"reproducers": ["r.py"]}])


# Files the rows name, written into the directory each test runs in.
FILES = {
    "good.json": _record(),
    "same.json": _record(),
    "verdicts_not_a_list.json": _record(verdicts={"0": VERDICT}),
    "verdict_not_an_object.json": _record(verdicts=["passed"]),
    "examples_a_string.json": _verdict(examples="many"),
    "reproducers_not_strings.json": _verdict(reproducers=[3]),
    "reproducers_a_string.json": _verdict(reproducers="r.py"),
    "unknown_outcome.json": _verdict(outcome="exploded"),
    "seconds_a_string.json": _verdict(seconds="fast"),
    "failure_a_string.json": _verdict(failures=["Mismatch: boom"]),
    "failure_without_error.json": _without_error(),
    "failure_reproducers_a_string.json": _verdict(failures=[{"error": "e", "reproducers": "r"}]),
    "sut_a_number.json": _record(sut=5),
    "other_sut.json": _record(sut="other", description="other 2.0"),
    "profile_a_list.json": _record(profile=["ci"]),
    "nodeid_missing.json": _record(verdicts=[{"outcome": "passed"}]),
}
SHIMS = {  # SUT modules, each bad in one way
    "unsupported_five.py": "__sut_unsupported__ = 5\n",
    "unsupported_none.py": "__sut_unsupported__ = None\n",
}
FINDINGS = "### S1. A crash\n\nSignature (lib.shim): `boom`\n"


@dataclass(frozen=True)
class Case:
    args: tuple[str, ...]
    option: str  # the option the error line must name
    says: str  # and what else it must say
    process: bool = False  # also run as `python -m jaxcheck`

    @property
    def id(self) -> str:
        return " ".join(repr(a) if not a or " " in a else a for a in self.args)


CASES = [
    Case(("hunt", "--minutes", "nan"), "--minutes", "expected a positive number", process=True),
    Case(("hunt", "--minutes", "inf"), "--minutes", "expected a positive number, got 'inf'"),
    Case(("hunt", "--minutes", "0"), "--minutes", "expected a positive number, got '0'"),
    Case(("hunt", "--minutes", "-2"), "--minutes", "expected a positive number"),
    Case(("replay", "--timeout", "nan", "good.py"), "--timeout", "expected a positive number"),
    Case(("replay", "--timeout", "inf", "good.py"), "--timeout", "expected a positive number"),
    Case(("replay", "--timeout", "0", "good.py"), "--timeout", "expected a positive number",
         process=True),
    Case(("replay", "--timeout", "-1", "good.py"), "--timeout", "expected a positive number"),
    Case(("replay", "good.py", "missing.py"), "missing.py", "no such file or folder"),
    Case(("replay", "good.py", "findings.md"), "findings.md", "is not a reproducer"),
    Case(("check", "--sut-timeout", "-1"), "--sut-timeout", "expected seconds from 0"),
    Case(("check", "--sut-timeout", "inf"), "--sut-timeout", "(no limit) to 86400"),
    Case(("check", "--sut-timeout", "nan"), "--sut-timeout", "got 'nan'"),
    Case(("check", "--sut-timeout", "1e10"), "--sut-timeout", "got '1e10'"),
    Case(("check", "--sut-timeout", "0.000001"), "--sut-timeout", "none between 0 and 0.1"),
    Case(("check", "--quick", "--profile", "thorough"), "--quick", "not both"),
    Case(("hunt", "--minutes", "1", "--db", ""), "--db", "expected a directory path or redis"),
    Case(("hunt", "--minutes", "1", "--db", " "), "--db", "got an empty one"),
    Case(("hunt", "--minutes", "1", "--db", "redis://127.0.0.1:notaport"), "--db",
         "the port must be a whole number from 1 to 65535", process=True),
    Case(("hunt", "--minutes", "1", "--db", "redis://host:99999"), "--db", "from 1 to 65535"),
    Case(("hunt", "--minutes", "1", "--db", "redis://host:0"), "--db", "from 1 to 65535"),
    Case(("hunt", "--minutes", "1", "--db", "redis://host:6379/zero"), "--db",
         "database number"),
    Case(("hunt", "--minutes", "1", "--db", "http://host/db"), "--db",
         "expected a directory path or redis://HOST:PORT"),
    Case(("check", "--only", ""), "--only", "got an empty one"),
    Case(("check", "--only", "  "), "--only", "got an empty one"),
    Case(("report", "--sut", "refimpl", "--sut", "refimpl"), "--sut",
         "--sut refimpl is given twice"),
    Case(("report", "--from", "good.json", "--from", "./good.json"), "--from",
         "is given twice"),
    Case(("report", "--from", "good.json", "--from", "same.json"), "--from",
         "two columns of the records describe lib.shim 1.0"),
    Case(("check", "--jobs", "abc"), "--jobs", "expected a whole number of at least 1, got 'abc'",
         process=True),
    Case(("check", "--jobs", "0"), "--jobs", "expected a whole number of at least 1, got '0'"),
    Case(("check", "--max-shrinks", "1.5"), "--max-shrinks", "expected a whole number"),
    Case(("check", "--shard", "0/2"), "--shard", "expected K/N with 1 <= K <= N"),
    Case(("check", "--shard", "3/2"), "--shard", "expected K/N with 1 <= K <= N"),
    Case(("check", "--shard", "2"), "--shard", "expected K/N with 1 <= K <= N"),
    Case(("check", "--balance", "good.json", "--balance", "./good.json"), "--balance",
         "is given twice"),
    Case(("check", "--balance", "missing.json"), "--balance", "cannot read missing.json"),
    Case(("check", "--balance", "seconds_a_string.json"), "--balance",
         "verdict 0: 'seconds' must be a number, got 'fast'"),
    Case(("check", "--balance", "good.json", "--balance", "other_sut.json"), "--balance",
         "the records hold 2 runs (lib.shim 1.0; other 2.0): give the record of one run"),
    Case(("check", "--seed", "-1"), "--seed", "expected a whole number from 0"),
    Case(("check", "--seed", "0x1"), "--seed", "expected a whole number from 0"),
    Case(("check", "--seed", "1"), "--seed", "the profile ci is derandomized"),
    Case(("check", "--reference", "../x"), "--reference", "'../x' is not a module path"),
    Case(("report", "--sut", "refimpl", "--reference", "nosuchmodule"), "--reference",
         "could not import module 'nosuchmodule'"),
    Case(("report", "--sut", "refimpl", "--sut", "nosuchmodule"), "--sut nosuchmodule",
         "could not import module 'nosuchmodule'"),
    Case(("check", "--sut", "../x"), "--sut", "'../x' is not a module path: use 'refimpl', "
         "'jax', a dotted module path such as mypkg.shim, or module:attribute", process=True),
    Case(("check", "--sut", ""), "--sut", "'' is not a module path"),
    Case(("check", "--sut", "a..b"), "--sut", "'a..b' is not a module path"),
    Case(("check", "--sut", "mod:"), "--sut", "'mod:' is not a module path"),
    Case(("check", "--sut", "mod:a:b"), "--sut", "'mod:a:b' is not a module path"),
    Case(("check", "--sut", "unsupported_five"), "--sut unsupported_five",
         "__sut_unsupported__ must be a list, tuple or set of feature names, got 5"),
    Case(("check", "--sut", "unsupported_none"), "--sut unsupported_none",
         "must be a list, tuple or set of feature names, got None"),
    Case(("report", "--from", "verdicts_not_a_list.json"), "verdicts_not_a_list.json",
         "'verdicts' must be a list of verdicts"),
    Case(("report", "--from", "verdict_not_an_object.json"), "verdict_not_an_object.json",
         "verdict 0 must be an object"),
    Case(("report", "--from", "examples_a_string.json"), "examples_a_string.json",
         "verdict 0: 'examples' must be a whole number or null, got 'many'"),
    Case(("report", "--from", "reproducers_not_strings.json"), "reproducers_not_strings.json",
         "verdict 0: 'reproducers' must be a list of paths"),
    Case(("report", "--from", "reproducers_a_string.json"), "reproducers_a_string.json",
         "verdict 0: 'reproducers' must be a list of paths, got 'r.py'"),
    Case(("report", "--from", "unknown_outcome.json"), "unknown_outcome.json",
         "verdict 0: 'outcome' must be one of passed, failed"),
    Case(("report", "--from", "seconds_a_string.json"), "seconds_a_string.json",
         "verdict 0: 'seconds' must be a number, got 'fast'"),
    Case(("report", "--from", "failure_a_string.json"), "failure_a_string.json",
         "verdict 0: 'failures' must be a list of"),
    Case(("report", "--from", "failure_without_error.json", "--findings", "findings.md"),
         "failure_without_error.json", "verdict 0: 'failures' must be a list of"),
    Case(("report", "--from", "failure_reproducers_a_string.json"),
         "failure_reproducers_a_string.json", "verdict 0: 'failures' must be a list of"),
    Case(("report", "--from", "sut_a_number.json"), "sut_a_number.json",
         "'sut' must be a string, got 5"),
    Case(("report", "--from", "profile_a_list.json"), "profile_a_list.json",
         "'profile' must be a string"),
    Case(("report", "--from", "nodeid_missing.json"), "nodeid_missing.json",
         "verdict 0: 'nodeid' is missing"),
    Case(("report", "--from", "latin1.json"), "latin1.json", "is not UTF-8 text"),
    Case(("report", "--from", "good.json", "--findings", "latin1.md"), "latin1.md",
         "is not UTF-8 text"),
]


@pytest.fixture
def inputs(tmp_path, monkeypatch):
    """The directory each row runs in, with the files the rows name; child processes
    forbidden but the one that imports the SUTs (a bad input must be refused before
    any work starts), and sys.path as it was."""
    for name, data in FILES.items():
        (tmp_path / name).write_text(json.dumps(data))
    for name, text in SHIMS.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "findings.md").write_text(FINDINGS)
    (tmp_path / "latin1.json").write_bytes(json.dumps(RECORD).replace("1.0", "1.0 \xe9")
                                           .encode("latin-1"))
    (tmp_path / "latin1.md").write_bytes(FINDINGS.replace("A crash", "Un \xe9chec")
                                         .encode("latin-1"))
    (tmp_path / "good.py").write_text('"""jaxcheck reproducer: nothing."""\n')
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))

    popen = subprocess.Popen

    def no_work(*args, **kwargs):
        command = args[0] if args else kwargs.get("args")
        if "jaxcheck.probe" in command:  # SUT names resolve in a child (jaxcheck/probe.py)
            return popen(*args, **kwargs)
        raise AssertionError(f"a child process was started: {command}")

    monkeypatch.setattr(subprocess, "Popen", no_work)
    return tmp_path


def _error_lines(stderr: str, command: str) -> list[str]:
    """The lines of `stderr` that are jaxcheck's errors (argparse's usage lines aside)."""
    return [line for line in stderr.splitlines() if line.startswith(f"jaxcheck {command}")]


def _check(case: Case, code, stdout: str, stderr: str) -> None:
    printed = stdout + stderr
    assert code == 2, printed
    assert "Traceback" not in printed, printed
    lines = _error_lines(stderr, case.args[0])
    assert len(lines) == 1, printed
    assert case.option in lines[0] and case.says in lines[0], lines[0]


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_a_bad_input_is_one_line_and_exit_2_before_any_work(case, inputs, capsys):
    try:
        code = main(list(case.args))
    except SystemExit as exc:  # argparse's refusal
        code = exc.code
    printed = capsys.readouterr()
    _check(case, code, printed.out, printed.err)


IN_A_PROCESS = [case for case in CASES if case.process]


@pytest.mark.parametrize("case", IN_A_PROCESS, ids=[case.id for case in IN_A_PROCESS])
def test_a_bad_input_is_refused_the_same_by_the_command(case, tmp_path):
    """As a user meets it.  A row that is not refused would start a run: its process
    group is ended after a minute, far above the few seconds a refusal takes."""
    (tmp_path / "good.py").write_text('"""jaxcheck reproducer: nothing."""\n')
    args = [os.path.join(tmp_path, a) if a.endswith(".py") else a for a in case.args]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-m", "jaxcheck", *args], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
    _check(case, process.returncode, stdout, stderr)
