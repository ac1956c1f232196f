"""Faults injected into real runs of the `jaxcheck` command: what is found is never lost.

Each schedule starts the command as a user does (tests/meta/faults.py),
breaks something at a chosen moment (a signal while a found failure
shrinks, a dead database, a full disk, an SUT that misbehaves at import,
two runs at once), and then asserts all of what the command promises:

* nothing found is lost: the run's verdicts.json says the failing property
  *failed*, with a reproducer on disk that, run with python, fails;
* no process is left behind (neither a child pytest nor what the SUT
  started: every process carrying the run's markers is gone);
* the exit status is the right one (128 + the signal when one cut the run
  short, 2 for a usage error);
* a correct SUT, or a property the SUT passes, is never failed.

The signalled runs check tests/shims/jvp_doubled_slowly.py, whose failure is
found at its first example and then shrinks on 3-second calls, a window of
ten seconds or more to strike in.  `--reference none` keeps JAX out, and one
child (`--jobs 1`) is enough.  Runs that do not wait on each other start
together, in three module fixtures (struck, side by side, the redis hunts),
and each test then reads its own run: the schedules cost the time of their
slowest, not of them all, on CI's two cores.
"""

import errno
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from jaxcheck import probe, record
from jaxcheck.channel import Receiver, Sender
from jaxcheck.child import Child, Tally
from jaxcheck.runner import Verdict
from oracles import reproducer
from oracles.sut import SutError
from tests.meta.command import ROOT, jaxcheck, read_verdicts
from tests.meta.faults import (
    BOTH,
    CORRECT,
    FAILING,
    SLOW_SHIM,
    Background,
    fails_when_run,
    kept,
    left_behind,
    processes,
    shrinking,
    sleeper_marker,
    start,
)
from tests.meta.redis_server import RedisServer, missing

pytestmark = pytest.mark.meta

# One worker for the tests of each module fixture, so that each fixture's runs
# start once (`--dist loadgroup`); the three fixtures may run side by side.
STRUCK = pytest.mark.xdist_group("faults struck")
SIDE_BY_SIDE = pytest.mark.xdist_group("faults side by side")
REDIS_HUNTS = pytest.mark.xdist_group("faults redis")

SLOW_CHECK = ("check", "--sut", SLOW_SHIM, "--reference", "none", "--jobs", "1", "--only", BOTH)

# What each run of the slow SUT gets the moment its record says its failure shrinks:
# the signals sent, one after the other, and whether its disk is filled first.
STRIKES = {"SIGINT": (signal.SIGINT,), "SIGTERM": (signal.SIGTERM,),
           "SIGHUP": (signal.SIGHUP,), "SIGINT twice": (signal.SIGINT, signal.SIGINT),
           "SIGKILL": (signal.SIGKILL,), "disk fills": (signal.SIGINT,)}

# Seconds between the two signals of "SIGINT twice": the second lands while the
# command stops the children and writes the table and the record.
SECOND_SIGNAL_SECONDS = 0.02

# Bytes of the filesystem filled in the full-disk schedules: room for a run's
# first writes (folders, a small record), not for much more.
TMPFS_SIZE = "256k"


def mount_tmpfs(path: Path, *options: str) -> str | None:
    """A small tmpfs at `path`; else why there is none (mounting takes root, which CI
    has)."""
    path.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o",
                              ",".join((f"size={TMPFS_SIZE}", *options)), "tmpfs", str(path)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        return f"cannot mount a tmpfs here (mounting needs root): {mounted.stderr.strip()}"
    return None


def unmount(path: Path) -> None:
    subprocess.run(["umount", "-l", str(path)], capture_output=True)


def fill(path: Path) -> None:
    """Write into `path` until its filesystem is full."""
    try:
        with open(path / "filler", "ab") as filler:
            while True:
                filler.write(b"\0" * 4096)
                filler.flush()
    except OSError:
        pass


@dataclass
class Struck:
    """A run struck while its failure shrank, and the processes it left (looked for as
    soon as it ended)."""

    run: Background
    left: list[str]


def strike(run: Background, name: str) -> Struck:
    if name == "disk fills":
        fill(run.out.parent)
    for signum in STRIKES[name]:
        run.send(signum)
        time.sleep(SECOND_SIGNAL_SECONDS)
    run.wait()
    return Struck(run, run.left_behind())


@pytest.fixture(scope="module")
def struck(tmp_path_factory):
    """The slow SUT's runs, one per schedule, started at once (their start-ups overlap),
    each struck the moment its record says its failure shrinks (a window of about ten
    seconds); a run that ended before is left out, and its test says so."""
    home = tmp_path_factory.mktemp("shrinking")
    disk = home / "disk"
    unusable = mount_tmpfs(disk)
    outs = {name: home / name / "out" for name in STRIKES}
    if unusable is None:
        outs["disk fills"] = disk / "out"
    else:
        del outs["disk fills"]
    runs = {name: start(home / name, *SLOW_CHECK, "--out", str(out))
            for name, out in outs.items()}
    try:
        done, deadline = {}, time.monotonic() + 300
        while len(done) < len(runs) and time.monotonic() < deadline:
            for name, run in runs.items():
                found = run.verdicts()
                if name not in done and found is not None and shrinking(found):
                    done[name] = strike(run, name)
                elif name not in done and run.process.poll() is not None:
                    done[name] = run
            time.sleep(0.1)
        yield {"disk fills": unusable, **done}
    finally:
        for run in runs.values():
            run.kill()
        unmount(disk)


def struck_run(struck: dict, name: str) -> Struck:
    found = struck.get(name)
    if isinstance(found, str):
        pytest.skip(found)
    assert found is not None, "the run was not seen shrinking within the time allowed"
    assert isinstance(found, Struck), (
        f"the run ended before its failure was seen shrinking: {found.output()[-3000:]}")
    return found


def assert_found_and_kept(run: Background, found: dict) -> None:
    """The failure is failed with a reproducer on disk that fails, and the property the
    SUT passes is passed."""
    assert not kept(found[FAILING]), (kept(found[FAILING]), run.output()[-3000:])
    assert fails_when_run(found[FAILING]["reproducers"][0]), found[FAILING]
    assert found[CORRECT]["outcome"] == "passed", found[CORRECT]


@STRUCK
@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM", "SIGHUP", "SIGINT twice"])
def test_a_signal_while_a_failure_shrinks_keeps_it_and_ends_everything(struck, name):
    struck = struck_run(struck, name)
    run = struck.run
    assert run.status == 128 + STRIKES[name][0], run.output()[-3000:]
    found = run.verdicts()
    assert_found_and_kept(run, found)
    assert found[FAILING]["reason"].startswith("stopped while shrinking"), found[FAILING]
    assert "1 passed, 1 failed" in run.stdout, run.output()[-3000:]
    assert "Traceback" not in run.output(), run.output()[-3000:]
    assert struck.left == []


@STRUCK
def test_sigkill_while_a_failure_shrinks_leaves_its_record_and_nothing_running(struck):
    struck = struck_run(struck, "SIGKILL")
    run = struck.run
    assert run.status == 128 + signal.SIGKILL
    found = run.verdicts()
    assert_found_and_kept(run, found)
    assert found[FAILING]["reason"].startswith("still shrinking"), found[FAILING]
    assert struck.left == []


@STRUCK
def test_a_disk_that_fills_while_a_failure_shrinks_keeps_the_record_and_reproducer(struck):
    struck = struck_run(struck, "disk fills")
    run = struck.run
    assert run.status == 128 + signal.SIGINT, run.output()[-3000:]
    assert "Traceback" not in run.output(), run.output()[-3000:]
    assert_found_and_kept(run, run.verdicts())  # as last written, before the disk filled
    assert "1 passed, 1 failed" in run.stdout, run.output()[-3000:]
    assert "could not be written (No space left on device)" in run.stderr, run.stderr
    assert struck.left == []


# A Ctrl-C while the command is still loading (about a second of imports, before it
# takes the signals over): nothing to keep, and no traceback from the import it cut.

LOADING_SECONDS = 0.3  # Python itself starts in a twentieth of that


def test_a_sigint_while_the_command_loads_is_one_line_and_exit_130(tmp_path):
    run = start(tmp_path / "run", "check", "--sut", "refimpl", "--out", str(tmp_path / "out"))
    time.sleep(LOADING_SECONDS)
    run.send(signal.SIGINT)
    assert run.wait() == 128 + signal.SIGINT, run.output()[-3000:]
    assert run.stdout == "" and len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert "SIGINT" in run.stderr, run.stderr
    assert run.left_behind() == []


# Runs side by side, each to its end: two checks into one --out, two hunts on one
# --db directory, a full disk, a user's own directory, SUTs that end the process at
# import.

FAST_SHIM = "tests.shims.jvp_tangent_doubled"

# SUTs that end the process at import, each a module written to a folder on
# PYTHONPATH: its source, and what the one line says it did.
MISBEHAVING = {
    "exits": ("import sys\nsys.exit(3)\n", "ended the process with exit status 3"),
    "ends_the_process": ("import os\nos._exit(7)\n", "ended the process with exit status 7"),
    "segfaults": ("import ctypes\nctypes.string_at(0)\n", "crashed (SIGSEGV)"),
}

RAISING = "raise RuntimeError('the user\\'s own {} was imported')\n"


def users_project(path: Path) -> Path:
    """A user's directory with its own `tests` package, whose conftest.py raises, and a
    `strategies.py` that raises: names jaxcheck's own packages have."""
    (path / "tests").mkdir(parents=True)
    (path / "tests" / "__init__.py").write_text("")
    (path / "tests" / "conftest.py").write_text(RAISING.format("tests/conftest.py"))
    (path / "strategies.py").write_text(RAISING.format("strategies.py"))
    return path


@pytest.fixture(scope="module")
def side_by_side(tmp_path_factory):
    """Every run of these schedules, started at once and waited for; a full disk's run
    is replaced by why there is none, where no tmpfs can be mounted."""
    home = tmp_path_factory.mktemp("side by side")
    runs: dict[str, Background | str] = {}
    for i in range(2):
        runs[f"check {i}"] = start(home / f"check {i}", "check", "--sut", "refimpl",
                                   "--reference", "none", "--jobs", "1", "--only", CORRECT,
                                   "--out", str(home / "one out"))
        runs[f"hunt {i}"] = start(home / f"hunt {i}", "hunt", "--sut", FAST_SHIM,
                                  "--reference", "none", "--jobs", "1", "--minutes", "0.1",
                                  "--only", BOTH, "--out", str(home / f"hunt {i}" / "out"),
                                  "--db", str(home / "one db"))
    runs["user's directory"] = start(home / "user", "check", "--sut", "refimpl",
                                     "--reference", "none", "--jobs", "1", "--only", CORRECT,
                                     "--out", str(home / "user" / "out"),
                                     cwd=users_project(home / "project"))
    suts = home / "suts"
    suts.mkdir()
    for what, (source, _) in MISBEHAVING.items():
        (suts / f"sut_that_{what}.py").write_text(source)
        runs[what] = start(home / what, "check", "--sut", f"sut_that_{what}", "--reference",
                           "none", "--out", str(home / what / "out"),
                           env={"PYTHONPATH": str(suts)})
    disk = home / "disk"
    unusable = mount_tmpfs(disk)
    if unusable:
        runs["full disk"] = unusable
    else:
        fill(disk)
        runs["full disk"] = start(home / "full disk", "check", "--sut", FAST_SHIM,
                                  "--reference", "none", "--jobs", "1", "--max-shrinks", "5",
                                  "--only", BOTH, "--out", str(disk / "out"))
    try:
        for run in runs.values():
            if isinstance(run, Background):
                run.wait(300)
        yield runs
    finally:
        for run in runs.values():
            if isinstance(run, Background):
                run.kill()
        unmount(disk)


@SIDE_BY_SIDE
def test_two_checks_into_one_out_keep_their_own_verdicts(side_by_side):
    runs = [side_by_side["check 0"], side_by_side["check 1"]]
    assert [run.status for run in runs] == [0, 0], [run.output()[-3000:] for run in runs]
    folders = {re.search(r"  logs: (.+)/$", run.stdout, flags=re.MULTILINE).group(1)
               for run in runs}
    records = list(runs[0].out.glob("logs/*/verdicts.json"))
    assert len(folders) == 2 and len(records) == 2, (folders, records)
    for path in records:
        verdicts = read_verdicts(path)
        assert verdicts[CORRECT]["outcome"] == "passed", verdicts
    for run in runs:
        assert "1 passed, 0 failed" in run.stdout, run.output()[-3000:]
        assert run.left_behind() == []


@SIDE_BY_SIDE
def test_two_hunts_on_one_database_directory_both_find_the_failure(side_by_side):
    for run in (side_by_side["hunt 0"], side_by_side["hunt 1"]):
        assert run.status == 1, run.output()[-3000:]
        assert "Traceback" not in run.output(), run.output()[-3000:]
        assert_found_and_kept(run, run.verdicts())
        assert run.left_behind() == []


UNSAVED = re.compile(r"^--- reproducer of (\S+) \(not saved: see above\) ---\n(.*?)(?=^--- |\Z)",
                     flags=re.MULTILINE | re.DOTALL)


@SIDE_BY_SIDE
def test_a_full_disk_is_jaxchecks_trouble_and_the_reproducer_is_printed(side_by_side,
                                                                        tmp_path):
    run = side_by_side["full disk"]
    if isinstance(run, str):
        pytest.skip(run)
    output = run.output()
    assert run.status == 1, output[-3000:]
    assert "Traceback" not in output, output[-3000:]
    assert "1 passed, 1 failed" in run.stdout, output[-3000:]
    assert "jaxcheck's own trouble, not the SUT's" in run.stdout, output[-3000:]
    printed = dict(UNSAVED.findall(run.stdout))
    script = tmp_path / "printed.py"
    script.write_text(printed[f"test_jvp.py::{FAILING}"])
    assert fails_when_run(str(script)), printed
    assert run.left_behind() == []


@SIDE_BY_SIDE
@pytest.mark.parametrize("what", MISBEHAVING)
def test_an_sut_that_ends_the_process_at_import_is_one_line_and_exit_2(side_by_side, what):
    run = side_by_side[what]
    assert run.status == 2, run.output()[-3000:]
    assert run.stdout == "" and len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert f"importing --sut sut_that_{what} {MISBEHAVING[what][1]}" in run.stderr, run.stderr
    assert run.left_behind() == []


@SIDE_BY_SIDE
def test_a_users_tests_package_and_strategies_module_do_not_stand_in(side_by_side):
    run = side_by_side["user's directory"]
    assert run.status == 0, run.output()[-3000:]
    assert run.verdicts()[CORRECT]["outcome"] == "passed"
    assert run.left_behind() == []


# A redis database that goes away mid-hunt, each hunt on its own server, killed once
# the hunt has found it answering and before the first property looks into it: a
# correct SUT's, whose server is started again soon after, and a failing SUT's, whose
# server stays dead.

# Seconds the first server stays dead once a property has started: its first look
# into the database (before its first example) falls in them.
DEAD_SECONDS = 2.0

DATABASE_TROUBLE = "jaxcheck's own trouble, not the SUT's:\n  - example database redis://"


@pytest.fixture(scope="module")
def redis_hunts(tmp_path_factory):
    if missing():
        pytest.skip(missing())
    home = tmp_path_factory.mktemp("redis")
    servers = {"restarted": RedisServer(), "dead": RedisServer()}
    for server in servers.values():
        server.start()
    runs = {"restarted": start(home / "restarted", "hunt", "--sut", "refimpl", "--reference",
                               "none", "--jobs", "1", "--minutes", "0.3", "--only", BOTH,
                               "--out", str(home / "restarted" / "out"),
                               "--db", servers["restarted"].url),
            "dead": start(home / "dead", "hunt", "--sut", FAST_SHIM, "--reference", "none",
                          "--jobs", "1", "--minutes", "0.1", "--only", BOTH,
                          "--out", str(home / "dead" / "out"), "--db", servers["dead"].url)}
    try:
        for name, run in runs.items():  # the header comes after the database was tried
            run.until(lambda run=run: "  reproducers: " in run.stdout, "the run's header")
            servers[name].kill()
        runs["restarted"].until(runs["restarted"].running, "a property to start")
        time.sleep(DEAD_SECONDS)
        servers["restarted"].start()
        for run in runs.values():
            run.wait(300)
        yield runs
    finally:
        for name, run in runs.items():
            run.kill()
            servers[name].kill()


@REDIS_HUNTS
def test_a_redis_server_killed_and_restarted_mid_hunt_fails_no_property(redis_hunts):
    run = redis_hunts["restarted"]
    assert run.status == 0, run.output()[-3000:]
    assert {v["outcome"] for v in run.verdicts().values()} == {"passed"}, run.verdicts()
    assert DATABASE_TROUBLE in run.stdout, run.output()[-3000:]
    assert run.left_behind() == []


@REDIS_HUNTS
def test_a_failure_found_while_the_redis_server_is_dead_is_reported(redis_hunts):
    run = redis_hunts["dead"]
    assert run.status == 1, run.output()[-3000:]
    assert_found_and_kept(run, run.verdicts())
    assert DATABASE_TROUBLE in run.stdout, run.output()[-3000:]
    assert run.left_behind() == []


# Places that cannot be written, refused before any work.

@pytest.fixture
def read_only(tmp_path):
    """A directory no one can write to, root included: a read-only tmpfs (root ignores
    permission bits), or, for anyone else, a directory without write permission."""
    path = tmp_path / "read-only"
    if os.geteuid() != 0:
        path.mkdir()
        path.chmod(0o555)
        yield path
        path.chmod(0o755)
        return
    unusable = mount_tmpfs(path, "ro")
    if unusable:
        pytest.skip(unusable)
    try:
        yield path
    finally:
        unmount(path)


def assert_one_line_usage_error(run, *words: str) -> None:
    assert run.returncode == 2, run.stdout + run.stderr
    assert run.stdout == "" and len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert all(word in run.stderr for word in words), run.stderr


def test_a_read_only_out_is_refused_before_any_work(read_only):
    run = jaxcheck("check", "--sut", "refimpl", "--reference", "none", "--only", CORRECT,
                   "--out", str(read_only / "out"))
    assert_one_line_usage_error(run, "--out", "cannot write there")


def test_a_read_only_db_is_refused_before_any_work(read_only, tmp_path):
    run = jaxcheck("hunt", "--sut", "refimpl", "--reference", "none", "--only", CORRECT,
                   "--minutes", "0.1", "--db", str(read_only / "db"),
                   "--out", str(tmp_path / "out"))
    assert_one_line_usage_error(run, "--db", "cannot write there")


def test_an_out_that_is_a_file_is_refused_before_any_work(tmp_path):
    (tmp_path / "file").write_text("")
    run = jaxcheck("check", "--sut", "refimpl", "--reference", "none", "--only", CORRECT,
                   "--out", str(tmp_path / "file"))
    assert_one_line_usage_error(run, "--out", "is not a directory")


# A disk that fills mid-run, where it meets the two writers: the child, saving a smaller
# reproducer while it shrinks, and the parent, rewriting its record.

def failing_example(name: str) -> Exception:
    """A failure as a property raises it: its reproducer attached as a note."""
    failure = Exception(f"the {name} example fails")
    failure.add_note(f"{reproducer.HEADER}: the {name} example\"\"\"\nraise SystemExit(1)\n")
    return failure


def test_a_reproducer_on_disk_is_kept_when_a_smaller_one_cannot_be_saved(tmp_path,
                                                                         monkeypatch):
    read_end, write_end = os.pipe()
    events = Receiver(read_end)
    child = Child(tmp_path / "worker", Sender(write_end), tmp_path / "out", deadline=None)
    child.tally = Tally(f"tests/test_jvp.py::{FAILING}")
    child.found(failing_example("first"))
    first = events.events()[-1]["reproducers"]

    def disk_full(*args):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(reproducer, "save", disk_full)
    child.tally.provisional_at = 0.0  # as if the next failing example came a second later
    child.found(failing_example("smaller"))
    told = events.events()
    last = [event for event in told if event["event"] == "failing"][-1]
    assert first and all(Path(path).is_file() for path in first), first
    assert last["reproducers"] == first, last
    assert "the smaller example" in last["unsaved"][0], last
    assert any("could not be saved" in event.get("message", "") for event in told), told


def test_a_record_that_grows_on_a_full_disk_keeps_its_last_version(tmp_path):
    # A failure found is recorded; the disk fills, its next reproducer is not saved,
    # and the record, now holding that reproducer's text, outgrows the room it had.
    disk = tmp_path / "disk"
    unusable = mount_tmpfs(disk)
    if unusable:
        pytest.skip(unusable)
    try:
        path = disk / "verdicts.json"
        found = Verdict(f"tests/test_jvp.py::{FAILING}", "failed", 1, reason="still shrinking",
                        reproducers=[str(disk / "repro.py")])
        record.write(path, record.Column(FAST_SHIM, FAST_SHIM, "ci", [found]))
        fill(disk)
        grown = replace(found, unsaved=["x = 1\n" * 2000])
        with pytest.raises(OSError):
            record.write(path, record.Column(FAST_SHIM, FAST_SHIM, "ci", [grown]))
        assert record.read(path)[0].verdicts == [found]
    finally:
        unmount(disk)


# An SUT that never finishes importing: the probe's time limit (five minutes) is
# too long for a test, so `probe.describe` runs here with a short one.

def test_an_sut_that_hangs_at_import_is_ended_with_what_it_started(tmp_path, monkeypatch):
    marker = sleeper_marker()
    (tmp_path / "sut_that_hangs.py").write_text(
        f"import subprocess, time\nsubprocess.Popen(['sleep', '{marker}'])\ntime.sleep(10**6)\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    # 3 s: the module imports two standard modules, a tenth of a second on a busy machine.
    with pytest.raises(SutError, match="did not finish within 3 s: it hangs at import"):
        probe.describe([("--sut", "sut_that_hangs")], timeout=3)
    assert left_behind((marker.encode(), b"sut_that_hangs")) == []


def test_a_child_that_ends_ends_what_the_sut_started_with_its_parent_alive():
    """The command ends a child's group once the child has ended; a SIGKILL of the
    command between the two would leave what the SUT started with no one to end it,
    so the child ends it itself on its way out.  Here its parent never does."""
    marker = sleeper_marker()
    script = ("import subprocess\nfrom jaxcheck import lifetime\nlifetime.end_with_parent()\n"
              f"subprocess.Popen(['sleep', '{marker}'])\n")
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, start_new_session=True,
                   check=True, timeout=60)
    left = left_behind((marker.encode(),))
    for line in left:  # not to outlive this test if it fails
        os.kill(int(line.split(":")[0]), signal.SIGKILL)
    assert left == []


# The children that import the SUT outside a property, each as the command starts
# it: the probe, the collection of the properties (conftest imports it), and a
# reproducer that `replay` runs.
IMPORTING_CHILDREN = {
    "probe": "from jaxcheck import probe\nprobe.describe([('--sut', {sut!r})])\n",
    "collection": "from jaxcheck import runner\nrunner.collect(runner.RunOptions({sut!r}))\n",
    "replay": "from pathlib import Path\nfrom jaxcheck import replay\n"
              "replay.replay(Path({reproducer!r}))\n",
}


@pytest.mark.parametrize("child", IMPORTING_CHILDREN)
def test_a_command_killed_while_the_sut_imports_leaves_nothing_it_started(tmp_path, child):
    """SIGKILL of the command, its child importing an SUT that has started a process
    and hangs: the child sees its parent gone and ends its group."""
    marker = sleeper_marker()
    sut = "sut_that_hangs_" + marker.replace(".", "_")
    (tmp_path / f"{sut}.py").write_text(
        f"import subprocess, time\nsubprocess.Popen(['sleep', '{marker}'])\ntime.sleep(10**6)\n")
    reproducer = tmp_path / f"repro_{sut}.py"  # its process found by the SUT's name too
    reproducer.write_text(f"import {sut}\n")
    parent = IMPORTING_CHILDREN[child].format(sut=sut, reproducer=str(reproducer))
    command = subprocess.Popen(
        [sys.executable, "-c", parent], cwd=ROOT,
        env={**os.environ, "PYTHONPATH": os.pathsep.join((str(ROOT), str(tmp_path)))},
        start_new_session=True)
    deadline = time.monotonic() + 60  # collection imports pytest, jaxcheck and NumPy first
    while not processes((marker.encode(),)) and time.monotonic() < deadline:
        time.sleep(0.1)
    command.kill()
    command.wait()
    left = left_behind((marker.encode(), sut.encode()))
    for line in left:  # not to outlive this test if it fails
        os.kill(int(line.split(":")[0]), signal.SIGKILL)
    assert left == []
