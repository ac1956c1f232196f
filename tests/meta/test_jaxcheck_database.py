"""`--db redis://HOST:PORT`: a failure one hunt finds is the first example the next replays.

Against a real `redis-server` on loopback, started and stopped here
(tests/meta/redis_server.py); without it, or without the `redis` client
package, the test is skipped saying which is missing.
"""

import re

import pytest

from tests.meta.command import jaxcheck, verdicts
from tests.meta.redis_server import RedisServer, missing

pytestmark = pytest.mark.meta

PROPERTY = "test_jvp_matches_finite_differences_and_reference"


@pytest.fixture
def redis_url():
    if missing():
        pytest.skip(missing())
    server = RedisServer()
    server.start()
    try:
        yield server.url
    finally:
        server.kill()


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
