"""No password reaches the output: a database URL is printed with its password
redacted (jaxcheck/database.py, `redacted`), in the run's header, errors and
warnings, and a redis server that refuses the password says so."""

import pytest

from jaxcheck.database import redacted
from tests.meta.command import jaxcheck
from tests.meta.redis_server import RedisServer, missing

pytestmark = pytest.mark.meta

SECRET = "s3cret-Pa55"
USAGE = 2


@pytest.mark.parametrize("url, shown", [
    (f"redis://:{SECRET}@host:6379/0", "redis://:***@host:6379/0"),
    (f"redis://user:{SECRET}@host", "redis://user:***@host"),
    (f"redis://host:6379/0?password={SECRET}&db=1", "redis://host:6379/0?password=***&db=1"),
    (f"redis://:{SECRET}@[::1", "redis://:***@[::1"),
    ("redis://host:6379", "redis://host:6379"),
    ("some/dir", "some/dir"),
])
def test_a_password_is_redacted(url, shown):
    assert redacted(url) == shown


@pytest.fixture
def guarded_server():
    if missing():
        pytest.skip(missing())
    server = RedisServer(password=SECRET)
    server.start()
    try:
        yield server
    finally:
        server.kill()


def hunt(out, url: str):
    return jaxcheck("hunt", "--sut", "tests.shims.jvp_tangent_doubled", "--minutes", "0.05",
                    "--only", "test_jvp_matches", "--out", str(out), "--db", url)


def test_a_hunt_with_a_password_prints_none(tmp_path, guarded_server):
    run = hunt(tmp_path, guarded_server.url_with(SECRET))
    output = run.stdout + run.stderr
    assert run.returncode == 1, output
    assert ":***@127.0.0.1" in output and SECRET not in output, output
    logs = "".join(p.read_text(errors="replace") for p in tmp_path.rglob("*") if p.is_file())
    assert SECRET not in logs


@pytest.mark.parametrize("password, says", [
    ("wrong", "refused the password given"),
    (None, "wants a password"),
])
def test_an_authentication_failure_says_so(tmp_path, guarded_server, password, says):
    url = guarded_server.url_with(password) if password else guarded_server.url
    run = hunt(tmp_path, url)
    output = run.stdout + run.stderr
    assert run.returncode == USAGE, output
    assert says in output and "no redis server answers" not in output, output
    assert "Traceback" not in output and (password is None or password not in output), output


def test_a_malformed_url_prints_no_password(tmp_path):
    run = hunt(tmp_path, f"redis://:{SECRET}@[::1")
    assert run.returncode == USAGE and SECRET not in run.stdout + run.stderr, run.stderr
