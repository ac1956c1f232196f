"""`--db redis://HOST:PORT`: a failure one hunt finds is the first example the next replays.

Against a real `redis-server` on loopback, started and stopped here
(Debian's `redis-server`, which .ci/run installs); without it, or without
the `redis` client package, the test is skipped saying which is missing.
"""

import importlib.util
import re
import shutil
import socket
import subprocess
import time

import pytest

from tests.meta.command import jaxcheck, verdicts

pytestmark = pytest.mark.meta

PROPERTY = "test_jvp_matches_finite_differences_and_reference"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def redis_url():
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed (Debian package redis-server)")
    if importlib.util.find_spec("redis") is None:
        pytest.skip("the redis client is not installed: pip install 'jaxcheck[redis]'")
    port = _free_port()
    process = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1",
                                "--save", "", "--appendonly", "no"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:  # bounded: ten seconds for the server to listen
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"redis-server did not listen on port {port} within 10 s")
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_a_failure_found_by_one_hunt_is_replayed_first_by_the_next(tmp_path, redis_url):
    runs = []
    for name in ("first", "second"):
        out = tmp_path / name
        run = jaxcheck("hunt", "--sut", "tests.shims.jvp_tangent_doubled", "--minutes", "0.1",
                       "--only", "test_jvp_matches", "--out", str(out), "--db", redis_url)
        assert run.returncode == 1, run.stdout + run.stderr
        runs.append((out, verdicts(out)[PROPERTY]))
    (_, first), (second_out, second) = runs
    assert second["first_failure"] == 1, second
    names = [{p.rsplit("/", 1)[1] for p in run["reproducers"]} for run in (first, second)]
    assert names[0] == names[1], names
    # Hypothesis's own account: every failure the first hunt saved, replayed first.
    log = next(second_out.glob("logs/*/worker-0/pytest-1.log")).read_text()
    reuse = log.split("during reuse phase", 1)[1].split("\n\n", 1)[0]
    # Hypothesis words it "0 passing, 2 failing" in some releases, "0 passing examples,
    # 2 failing examples" in others (6.155.2).
    assert re.search(rf"0 passing( examples)?, {len(names[0])} failing", reuse), log[-3000:]
