"""A real `redis-server` on loopback for the meta-tests of `--db redis://HOST:PORT`.

Debian's `redis-server` (which .ci/run installs) and the `redis` client
package; without either, `missing()` says which, and the tests skip saying
so.  A server can be killed and started again on the same port, as a
crashed and restarted database is met by a hunt in progress.
"""

from __future__ import annotations

import importlib.util
import shutil
import socket
import subprocess
import time

# Seconds a starting server may take to listen: a few milliseconds alone, up to
# a second on a loaded machine.
LISTEN_SECONDS = 10.0


def missing() -> str | None:
    """Why no server can be run here, or None."""
    if shutil.which("redis-server") is None:
        return "redis-server is not installed (Debian package redis-server)"
    if importlib.util.find_spec("redis") is None:
        return "the redis client is not installed: pip install 'jaxcheck[redis]'"
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    """A server on a free loopback port, without persistence (nothing is written to disk)."""

    def __init__(self, password: str | None = None):
        self.port = _free_port()
        self.password = password  # one the server requires of its clients, if given
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        """Its URL, without the password (`url_with`)."""
        return f"redis://127.0.0.1:{self.port}"

    def url_with(self, password: str) -> str:
        return f"redis://:{password}@127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [shutil.which("redis-server"), "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no",
             *(["--requirepass", self.password] if self.password else [])],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + LISTEN_SECONDS
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                if time.monotonic() > deadline:
                    self.kill()
                    raise RuntimeError(f"redis-server did not listen on port {self.port} "
                                       f"within {LISTEN_SECONDS:g} s") from None
                time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL, as a crash: no goodbye to the clients."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
