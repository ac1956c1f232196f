"""No process outlives the run, whatever the SUT does (tests/lifetime/).

The `jaxcheck` command runs a correct SUT that detaches a process ignoring
SIGTERM (double fork, `setsid`), one that keeps a non-daemon thread, one
whose exit handler hangs, and one whose import never finishes; each run must
end by itself with the right exit status (a run that did not would end this
test by its time-out), say what it cut short, and leave no process of the
SUT's behind (jaxcheck/reaper.py, jaxcheck/lifetime.py, jaxcheck/probe.py).
"""

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from jaxcheck.lifetime import PARENT_CHECK_SECONDS
from tests.meta.command import MOSTLY_WAITING, ROOT

pytestmark = [pytest.mark.meta, MOSTLY_WAITING]

ONLY = ("--only", "test_jvp_matches_finite_differences_and_reference", "--jobs", "1")


def alive(pid: int) -> bool:
    """Whether `pid` is a process that has not ended (a zombie has)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


# The runs the module starts at once, by SUT module (tests/lifetime/):
# its options, and whether its processes write their pids down.
RUNS = {
    "detaching": (ONLY, True),
    "thread_keeping": (ONLY, False),
    "atexit_hanging": (ONLY, False),
    "import_hanging": (("--sut-timeout", "5"), False),
}


@dataclass
class Run:
    """One `jaxcheck check` started in the background, and where it writes."""

    process: subprocess.Popen
    folder: Path

    @property
    def out(self) -> Path:
        return self.folder / "out"

    @property
    def pids(self) -> Path:
        return self.folder / "pids"

    def finished(self) -> subprocess.CompletedProcess:
        """Its exit status and output, once it ends by itself (a run that did not
        would end this test by the time-out)."""
        self.process.wait(timeout=300)
        return subprocess.CompletedProcess(
            self.process.args, self.process.returncode,
            (self.folder / "stdout.txt").read_text(), (self.folder / "stderr.txt").read_text())


@pytest.fixture(scope="module", autouse=True)
def runs(tmp_path_factory) -> dict[str, Run]:
    """Every run of RUNS, started at once as the module's first test begins.  Each
    spends most of its time waiting (a child held for its grace period, an import
    given IMPORT_FLOOR seconds): one after another they took 87 s of a CI worker.
    The tests that drive a run of their own come first, and run meanwhile."""
    started = {}
    for sut, (options, writes_pids) in RUNS.items():
        folder = tmp_path_factory.mktemp(sut)
        env = {**os.environ, "JAXCHECK_TEST_PIDS": str(folder / "pids")} if writes_pids else None
        with open(folder / "stdout.txt", "w") as stdout, open(folder / "stderr.txt", "w") as stderr:
            process = subprocess.Popen(
                [sys.executable, "-m", "jaxcheck", "check", "--sut", f"tests.lifetime.{sut}",
                 *options, "--out", str(folder / "out")],
                cwd=ROOT, env=env, stdout=stdout, stderr=stderr, text=True)
        started[sut] = Run(process, folder)
    yield started
    for run in started.values():  # not to outlive the tests if one failed
        if run.process.poll() is None:
            run.process.kill()
            run.process.wait()


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs Linux's /proc")
def test_a_command_killed_leaves_nothing_the_sut_detached(tmp_path):
    """SIGKILL of the command while a worker runs: each child adopted what the SUT
    detached under it, and ends it as it ends or finds the command gone."""
    pids = tmp_path / "pids"
    env = {**os.environ, "JAXCHECK_TEST_PIDS": str(pids)}
    command = subprocess.Popen(
        [sys.executable, "-m", "jaxcheck", "check", "--sut", "tests.lifetime.detaching", *ONLY,
         "--out", str(tmp_path / "out")], cwd=ROOT, env=env, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 240  # the probe's, the collection's, then a worker's
    while time.monotonic() < deadline and (
            not pids.exists() or len(pids.read_text().split()) < 3):
        time.sleep(0.2)
    command.kill()
    command.wait()
    started = [int(line) for line in pids.read_text().split()]
    time.sleep(3 * PARENT_CHECK_SECONDS + 1)  # a child looks for its parent this often
    left = [pid for pid in started if alive(pid)]
    for pid in left:  # not to outlive this test if it fails
        os.kill(pid, signal.SIGKILL)
    assert len(started) >= 3 and not left, (started, left)


def test_one_ctrl_c_while_a_child_the_sut_keeps_alive_ends_is_exit_130(tmp_path):
    out = tmp_path / "out"
    with open(tmp_path / "stdout.txt", "w") as stdout:
        command = subprocess.Popen(
            [sys.executable, "-m", "jaxcheck", "check", "--sut", "tests.lifetime.thread_keeping",
             *ONLY, "--out", str(out)], cwd=ROOT, start_new_session=True, stdout=stdout,
            stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 240
    # The property's verdict is in: its child is done, and held by the SUT's thread.
    while time.monotonic() < deadline and not any(
            '"outcome": "passed"' in p.read_text() for p in out.glob("logs/*/verdicts.json")):
        time.sleep(0.2)
    command.send_signal(signal.SIGINT)
    assert command.wait(timeout=120) == 130, (tmp_path / "stdout.txt").read_text()


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs Linux's /proc")
def test_a_detached_process_is_ended_with_the_run(runs):
    run = runs["detaching"]
    result = run.finished()
    assert result.returncode == 0, result.stdout + result.stderr
    started = [int(line) for line in run.pids.read_text().split()]
    assert started, "the SUT started no process"  # the probe's, the collection's, a worker's
    assert not [pid for pid in started if alive(pid)], started
    logs = "".join(p.read_text(errors="replace") for p in run.out.glob("logs/*/*/*.log"))
    assert "process(es) the SUT detached" in logs, logs[-2000:]


@pytest.mark.parametrize("sut, held", [("thread_keeping", "the SUT left 1 thread(s) running"),
                                       ("atexit_hanging", "an exit handler of the SUT's")])
def test_a_child_the_sut_keeps_alive_is_ended_saying_why(runs, sut, held):
    run = runs[sut]
    result = run.finished()
    assert result.returncode == 0, result.stdout + result.stderr
    logs = "".join(p.read_text(errors="replace") for p in run.out.glob("logs/*/worker-*/*.log"))
    assert held in logs and "it was ended" in logs, logs[-2000:]
    # and at the terminal, in the closing list of jaxcheck's own trouble, with the
    # property the child had finished last
    assert "jaxcheck's own trouble" in result.stdout and held in result.stdout, result.stdout


def test_an_import_that_never_ends_is_exit_2(runs):
    result = runs["import_hanging"].finished()
    assert result.returncode == 2, result.stdout + result.stderr
    assert "it hangs at import" in result.stderr and "Traceback" not in result.stderr
