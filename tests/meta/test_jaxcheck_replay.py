"""`jaxcheck replay`: each saved reproducer is judged by what it did, and the counts add up.

A reproducer passes only when it ran to its end and said the SUT agrees: a
crash reproducer whose SUT now ends the process with `os._exit(0)` still
crashes, and one that cannot run at all (it does not compile, or its SUT
module does not import) is neither passing nor failing but its own outcome,
which fails the replay.  The reproducers here are written by
oracles/reproducer.py itself, for a one-function SUT whose behaviour the
test picks (`REPLAY_SUT`), so the markers replay looks for are the ones the
scripts print.
"""

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from jaxcheck import replay
from jaxcheck.cli import main
from oracles import reproducer
from oracles.compare import assert_close
from oracles.errors import Mismatch
from oracles.experiment import Experiment
from oracles.reproducer import Expectation
from oracles.tolerance import EXACT
from tests.meta.command import ROOT

pytestmark = pytest.mark.meta

# The SUT the reproducers import: it returns, raises, ends the process, or
# meets a missing module inside the call, as REPLAY_SUT says.
SUT = '''import os


def jvp(f, primals, tangents):
    how = os.environ["REPLAY_SUT"]
    if how == "exit":
        os._exit(0)
    if how == "raise":
        raise ValueError("refused")
    if how == "missing":
        import no_such_dependency  # noqa: F401
    return f(*primals), 2.0 * tangents[0]
'''
EXPERIMENT = Experiment("jvp(f)", "import numpy as np\n\n\ndef f(x0):\n    return 2.0 * x0\n",
                        "sut.jvp(f, (x0,), (x0,))", {"x0": np.array([1.5])})
RIGHT = Expectation((np.array([3.0]), np.array([3.0])), "the test", EXACT)

# Each kind of reproducer, and what the SUT does where it passes.
KINDS = {  # by the name jaxcheck.replay gives the kind
    "judged": (lambda name: reproducer.script(EXPERIMENT, name, RIGHT), "return"),
    "refusal": (lambda name: reproducer.refusal_script(EXPERIMENT, name, "it must"), "raise"),
    "returns": (lambda name: reproducer.returns_script(EXPERIMENT, name, "it must"), "return"),
    "call": (lambda name: reproducer.call_script(EXPERIMENT, name), "return"),
    "dtype": (lambda name: reproducer.dtype_script(EXPERIMENT, name, (np.float64, np.float64),
                                                   "it must"), "return"),
}


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A directory with the SUT module `replay_sut` in it, replay run from there."""
    (tmp_path / "replay_sut.py").write_text(SUT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    return tmp_path


def _saved(directory: Path, text: str, name: str = "repro_t-crashed-00000000.py") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("kind", KINDS)
def test_a_reproducer_passes_only_when_it_ran_to_its_end(kind, here, monkeypatch):
    build, passing = KINDS[kind]
    path = _saved(here / "saved", build("replay_sut"))
    assert replay.kind(path.read_text()).name == kind
    monkeypatch.setenv("REPLAY_SUT", passing)
    assert replay.replay(path).outcome == "now passes"
    monkeypatch.setenv("REPLAY_SUT", "exit")  # the SUT ends the process, status 0
    ended = replay.replay(path)
    assert (ended.outcome, ended.detail.split(":")[0]) == ("still fails", "crashes"), ended


def test_every_reproducer_kept_on_disk_is_of_a_kind_replay_knows():
    """Old reproducers (docs/conformance/, tests/regressions/) are judged by their end."""
    kept = [*(ROOT / "docs" / "conformance").rglob("repro_*.py"),
            *(ROOT / "tests" / "regressions").glob("repro_*.py")]
    assert len(kept) > 30
    unknown = [p for p in kept if replay.kind(p.read_text()) is None]
    assert not unknown, unknown


def _cannot_run(here: Path) -> list[tuple[Path, str]]:
    """Reproducers that cannot run, each with what its line must say."""
    script = KINDS["judged"][0]("replay_sut")
    (here / "raises_on_import.py").write_text("raise RuntimeError('broken at import')\n")
    (here / "lacks_a_dependency.py").write_text("import no_such_dependency  # noqa: F401\n")
    latin1 = here / "repro_latin1.py"
    latin1.write_bytes((script + "# caf\xe9\n").encode("latin-1"))
    return [
        (_saved(here, script + "\n)\n", "repro_syntax.py"), "it does not compile: SyntaxError"),
        (_saved(here, script + "\0\n", "repro_nul.py"), "null bytes"),
        (latin1, "can't decode byte 0xe9"),
        (_saved(here, reproducer.script(EXPERIMENT, "raises_on_import", RIGHT),
                "repro_import.py"),
         "its SUT module 'raises_on_import' does not import: RuntimeError: broken at import"),
        (_saved(here, reproducer.script(EXPERIMENT, "lacks_a_dependency", RIGHT),
                "repro_dependency.py"),
         "its SUT module 'lacks_a_dependency' does not import: ModuleNotFoundError: No module "
         "named 'no_such_dependency'"),
    ]


def test_a_reproducer_that_cannot_run_is_counted_and_fails_the_replay(here, monkeypatch,
                                                                       capsys):
    monkeypatch.setenv("REPLAY_SUT", "return")
    broken = _cannot_run(here)
    passing = _saved(here, KINDS["judged"][0]("replay_sut"), "repro_ok.py")
    code = main(["replay", *(str(path) for path, _ in broken), str(passing)])
    printed = capsys.readouterr().out
    assert code == 1, printed
    for path, says in broken:
        line = next(line for line in printed.splitlines() if path.name in line)
        assert line.startswith("cannot run") and says in line, line
    assert "1 passed, 0 failed, 5 cannot run" in printed, printed


def test_a_sut_that_does_not_import_from_here_is_told_where_to_run(here, monkeypatch):
    monkeypatch.setenv("REPLAY_SUT", "return")
    path = _saved(here / "saved", KINDS["judged"][0]("replay_sut"))
    monkeypatch.chdir(here / "saved")  # replay_sut.py is one directory up
    away = replay.replay(path)
    assert away.outcome == "cannot run", away
    assert away.detail == (
        "its SUT module 'replay_sut' does not import from here (ModuleNotFoundError); run "
        "jaxcheck replay from the directory the SUT imports from, or add it to PYTHONPATH")
    monkeypatch.chdir(here)
    monkeypatch.setenv("REPLAY_SUT", "missing")  # a missing module inside the call
    inside = replay.replay(path)
    assert inside.outcome == "still fails", inside
    assert "No module named 'no_such_dependency'" in inside.detail, inside


@pytest.mark.parametrize("expected, shows", [
    ((3.0, -3.0), "output 1: expected [-3.0], actual [3.0], max abs error 6, max rel error 2, "
                  "1.5e+07 times the tolerance | MISMATCH"),
    ((-3.0, 4.0), "output 0: expected [-3.0], actual [3.0], max abs error 6, max rel error 2, "
                  "1.5e+07 times the tolerance | MISMATCH"),
], ids=["the second of two", "the first of two"])
def test_a_mismatch_shows_the_first_output_out_of_tolerance_and_the_verdict(
        here, monkeypatch, expected, shows):
    monkeypatch.setenv("REPLAY_SUT", "return")  # it returns (3.0, 3.0)
    expectation = Expectation(tuple(np.array([e]) for e in expected), "the test", EXACT)
    path = _saved(here, reproducer.script(EXPERIMENT, "replay_sut", expectation))
    result = replay.replay(path)
    assert (result.outcome, result.detail) == ("still fails", shows)


@pytest.mark.parametrize("expected", [0.0, 2.0, -3.0], ids=["zero", "two", "minus three"])
def test_replay_says_the_relative_error_check_says(here, monkeypatch, expected):
    """One comparison, one relative error: the failure's message under `check` and the
    reproducer's line under `replay` (the SUT returns 3.0 where `expected` is due)."""
    monkeypatch.setenv("REPLAY_SUT", "return")
    with pytest.raises(Mismatch) as raised:
        assert_close((np.array([3.0]),), (np.array([expected]),), EXACT, "the test")
    in_check = re.search(r"rel error (\S+)\)", str(raised.value))[1]
    expectation = Expectation((np.array([expected]), np.array([3.0])), "the test", EXACT)
    detail = replay.replay(_saved(here, reproducer.script(EXPERIMENT, "replay_sut",
                                                          expectation))).detail
    assert re.search(r"max rel error (\S+),", detail)[1] == in_check, (detail, in_check)
    assert (in_check == "inf") == (expected == 0.0), in_check


HANGS = '''"""jaxcheck reproducer: a call that hangs, with a process of its own."""
import subprocess
import sys
import time

child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
with open(sys.argv[0] + ".pid", "w") as file:
    file.write(str(child.pid))
time.sleep(600)
'''


def _alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")


def _pid_of(path: Path, process: subprocess.Popen | None = None) -> int:
    """The grandchild's pid, once the reproducer has written it (bounded: a minute)."""
    pid_file = Path(f"{path}.pid")
    for _ in range(600):
        if pid_file.exists() and pid_file.read_text():
            return int(pid_file.read_text())
        assert process is None or process.poll() is None, process.communicate()
        time.sleep(0.1)
    raise AssertionError(f"{path} wrote no pid within a minute")


def test_a_time_out_ends_the_reproducers_whole_process_group(here):
    path = _saved(here, HANGS, "repro_hangs.py")
    result = replay.replay(path, timeout=3)
    assert (result.outcome, result.detail) == ("still fails", "hangs: no return within 3 s")
    pid = _pid_of(path)
    for _ in range(100):  # bounded: ten seconds for the killed grandchild to be reaped
        if not _alive(pid):
            break
        time.sleep(0.1)
    assert not _alive(pid), f"the reproducer's own child {pid} outlived the time-out"


def test_an_interrupted_replay_prints_what_it_has_and_ends_the_running_group(here):
    ok = _saved(here, KINDS["returns"][0]("replay_sut"), "repro_a_ok.py")
    hangs = _saved(here, HANGS, "repro_b_hangs.py")
    after = _saved(here, KINDS["returns"][0]("replay_sut"), "repro_c_after.py")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REPLAY_SUT": "return"}
    process = subprocess.Popen([sys.executable, "-m", "jaxcheck", "replay", str(ok), str(hangs),
                                str(after)], cwd=here, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        pid = _pid_of(hangs, process)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, stdout + stderr
    assert "Traceback" not in stdout + stderr
    assert f"now passes       {ok.name}" in stdout, stdout
    assert "1 passed, 0 failed, 0 cannot run, 2 not run (interrupted)" in stdout, stdout
    assert after.name not in stdout
    for _ in range(100):  # bounded: ten seconds for the killed grandchild to be reaped
        if not _alive(pid):
            break
        time.sleep(0.1)
    assert not _alive(pid), f"the running reproducer's child {pid} outlived Ctrl-C"


class Terminated(KeyboardInterrupt):
    """What cli.main makes of SIGTERM: an interruption that knows its signal."""

    signum = signal.SIGTERM


def test_a_replay_stopped_by_a_signal_exits_128_plus_its_number(here, monkeypatch, capsys):
    monkeypatch.setenv("REPLAY_SUT", "return")
    paths = [_saved(here, KINDS["returns"][0]("replay_sut"), f"repro_{i}.py") for i in range(3)]
    real = replay.replay

    def stopped_at_the_second(path, timeout=replay.REPLAY_TIMEOUT):
        if path == paths[1]:
            raise Terminated()
        return real(path, timeout)

    monkeypatch.setattr(replay, "replay", stopped_at_the_second)
    assert main(["replay", *map(str, paths)]) == 143
    printed = capsys.readouterr().out
    assert "1 passed, 0 failed, 0 cannot run, 2 not run (interrupted)" in printed, printed
