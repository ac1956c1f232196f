"""Child processes forked from a warm interpreter, for meta-tests that start many.

The kill matrix runs one property per row as a user would, `python -m pytest
<property> --sut <shim>` in a child process of its own, and other meta-tests
run a shim's code in a fresh interpreter.  A fresh interpreter spent most of
a short row importing: a row whose property fails at once took 1.1 s as a
child `python -m pytest`, 0.6 s forked from an interpreter that had imported
Hypothesis, NumPy, JAX and pytest (docs/performance.md, "Where CI's time
goes").

The standard library's fork server is that interpreter: started once per
test process, it imports `WARM` and nothing else, and never runs JAX, so
forking it is safe (a process whose JAX has started its compile threads
forks a child whose first compile waits forever on a lock no thread will
release; any test in an xdist worker may have run JAX).  A child forked from
it has none of this process's state but what it is sent.

`pytest_run` is `python -m pytest ARGS` in `cwd`: a process of its own with
this process's environment, `cwd` first on `sys.path` (as `-m` puts it),
stdout and stderr apart, its exit handlers run, its exit status returned.
One difference: pytest rewrites the asserts of every module of a pytest
plugin's distribution as it imports them, Hypothesis's among them, and here
Hypothesis is imported already, which pytest notes in a warning (the rows run
with `-W ignore`).  None of jaxcheck's own modules is imported before pytest
starts, so each is rewritten or not as in a user's run.
"""

import atexit
import functools
import multiprocessing
import os
import subprocess
import sys
import tempfile
from multiprocessing import forkserver, resource_tracker
from pathlib import Path

import pytest

# What the fork server imports: most of what a child spends before its first
# example, and none of the checkout's modules (see above).
WARM = ("hypothesis", "numpy", "jax", "jax.numpy", "pytest")


@functools.cache
def context() -> multiprocessing.context.BaseContext:
    """The multiprocessing context whose processes are forked from the warm server
    (started at its first process, and ended by `stop`)."""
    forking = multiprocessing.get_context("forkserver")
    forking.set_forkserver_preload(list(WARM))
    return forking


def stop() -> None:
    """End the server and its resource tracker, if they run.  The meta-tests' session
    does it as it ends (tests/meta/conftest.py): left to this process's exit, they
    would be ended as processes left behind by jaxcheck's reaper, which a test
    that runs the command in-process makes this process run at its exit."""
    forkserver._forkserver._stop()
    resource_tracker._resource_tracker._stop()


def _pytest_main(args: list[str], cwd: str, stdout: str, stderr: str, env: dict) -> None:
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    sys.path.insert(0, cwd)
    for fd, path in ((1, stdout), (2, stderr)):
        target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(target, fd)
        os.close(target)
    code = int(pytest.main(args))
    sys.stdout.flush()
    sys.stderr.flush()
    atexit._run_exitfuncs()  # a forked process skips them, an interpreter exiting runs them
    os._exit(code)


def pytest_run(args: list[str], cwd: Path, timeout: float) -> subprocess.CompletedProcess:
    """`python -m pytest ARGS` in `cwd`, in a process forked from the warm server; its
    output as text.  Raises subprocess.TimeoutExpired, the process ended, after `timeout` s."""
    with tempfile.TemporaryDirectory() as captured:
        stdout, stderr = Path(captured, "stdout"), Path(captured, "stderr")
        child = context().Process(target=_pytest_main, args=(
            list(args), str(cwd), str(stdout), str(stderr), dict(os.environ)))
        child.start()
        child.join(timeout)
        if child.exitcode is None:
            child.kill()
            child.join()
            raise subprocess.TimeoutExpired(["pytest", *args], timeout)
        return subprocess.CompletedProcess(
            ["pytest", *args], child.exitcode,
            stdout.read_text(errors="replace") if stdout.exists() else "",
            stderr.read_text(errors="replace") if stderr.exists() else "")
