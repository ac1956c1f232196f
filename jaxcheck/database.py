"""`--db`: where found failures are kept, so that every later run replays them first.

A path is a directory, Hypothesis's own `DirectoryBasedExampleDatabase`; a
`redis://HOST:PORT` URL is its `RedisExampleDatabase`, which lets hunts on
many machines share what they find.  Redis support is an extra
(`pip install 'jaxcheck[redis]'`): without it, a redis URL is one clear error.

A database that cannot be used at the start is a usage error (`check_usable`).
One that fails during a run is jaxcheck's trouble, never the SUT's: `Guarded`
turns each failing call into a warning and a skipped save or an empty fetch,
so the property's verdict is the SUT's alone, and every failure still
reaches `--out` as a reproducer.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase

from jaxcheck.places import PlaceError, writable_directory

# Where a hunt keeps its examples unless told otherwise (relative to the
# directory it runs in): Hypothesis's own default place.
DEFAULT_DB = ".hypothesis/examples"

# Seconds a redis call may wait on the network: a live server on a LAN
# answers in milliseconds; a server that went away must not stall every
# example for the client's default of no limit.
REDIS_SECONDS = 5.0

# After a failing call, the database is left alone this long before it is
# tried again (a restarted redis comes back within it).
RETRY_SECONDS = 5.0


def redacted(spec: str) -> str:
    """`spec` as it may be printed: a URL's password (`redis://:PASSWORD@HOST`, or a
    `password=` in its query) replaced by `***`, as redis-py's own repr of a
    connection does.  The URL is printed in the run's header, in errors and in
    warnings, so in every CI log; a path, or a URL without a password, as given."""
    scheme, found, rest = spec.partition("://")
    if not found:
        return spec
    end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    netloc, tail = rest[:end], rest[end:]
    userinfo, at, host = netloc.rpartition("@")
    if at and ":" in userinfo:
        netloc = f"{userinfo.partition(':')[0]}:***@{host}"
    tail = _PASSWORD_QUERY.sub(r"\1***", tail)
    return f"{scheme}://{netloc}{tail}"


# `password=...` in a URL's query (redis-py reads it there too).
_PASSWORD_QUERY = re.compile(r"([?&]password=)[^&#]*", re.IGNORECASE)


# How the command hands a hunt's --db to its children: in their environment, not
# on their command line, which any user of the machine can read (`ps`).
DB_ENV = "JAXCHECK_DB"


class DatabaseError(ValueError):
    """`--db` names no database that can be used; the message says why and what to do."""


def open_database(spec: str, *, answering: bool = False) -> ExampleDatabase:
    """The database `spec` names; with `answering`, a redis server must answer now.
    Only the start-up check asks that: a child that opens the database mid-run,
    while the server is away, must not die of it (`Guarded` meets it as trouble,
    and uses the server again once it is back)."""
    if not spec.strip():
        raise DatabaseError("--db is empty: give a directory or a redis://HOST:PORT URL")
    if spec.startswith("redis://"):
        return _redis(spec, answering)
    if "://" in spec:
        raise DatabaseError(f"--db {redacted(spec)}: only a directory path or a "
                            "redis://HOST:PORT URL is understood")
    return DirectoryBasedExampleDatabase(spec)


def check_usable(spec: str) -> None:
    """Refuse, before any work, a database the run could not write: a redis server
    that does not answer, a directory that is a file or cannot be written."""
    open_database(spec, answering=True)
    if "://" not in spec:
        try:
            writable_directory(Path(spec), "--db")
        except PlaceError as exc:
            raise DatabaseError(str(exc)) from None


def _redis(url: str, answering: bool) -> ExampleDatabase:
    try:  # an optional dependency, imported only when asked for
        import redis
        from hypothesis.extra.redis import RedisExampleDatabase
    except ImportError as exc:
        raise DatabaseError(f"--db {redacted(url)}: redis support is not installed ({exc}); "
                            "install it with: pip install 'jaxcheck[redis]'") from None
    try:
        client = redis.Redis.from_url(url, socket_timeout=REDIS_SECONDS,
                                      socket_connect_timeout=REDIS_SECONDS)
        if answering:
            client.ping()
    except ValueError as exc:
        raise DatabaseError(f"--db {redacted(url)}: not a redis URL ({exc})") from None
    except redis.AuthenticationError:
        given = "refused the password given" if ":" in url.partition("://")[2].rpartition(
            "@")[0] else "wants a password"
        raise DatabaseError(f"--db {redacted(url)}: the redis server there {given}: give "
                            "the right one in the URL, redis://:PASSWORD@HOST:PORT") from None
    except redis.RedisError as exc:
        raise DatabaseError(f"--db {redacted(url)}: no redis server answers there "
                            f"({exc})") from None
    return RedisExampleDatabase(client)


class Guarded(ExampleDatabase):
    """`inner`, with every failing call reported to `trouble` (once per kind of error)
    and absorbed: a save is skipped, a fetch finds nothing, and the database is
    left alone for RETRY_SECONDS before the next try."""

    def __init__(self, inner: ExampleDatabase, spec: str, trouble: Callable[[str], None]):
        super().__init__()
        self.inner, self.spec, self.trouble = inner, redacted(spec), trouble
        self.resting_until = 0.0

    def _call(self, call: Callable, default=None):
        if time.monotonic() < self.resting_until:
            return default
        try:
            return call()
        except Exception as exc:  # any failure of the database is jaxcheck's, never the SUT's
            self.resting_until = time.monotonic() + RETRY_SECONDS
            self.trouble(f"example database {self.spec} failed ({type(exc).__name__}: "
                         f"{exc}); examples found meanwhile are not kept in it, but every "
                         "failure still has its reproducer in the reproducer folder")
            return default

    def save(self, key: bytes, value: bytes) -> None:
        self._call(lambda: self.inner.save(key, value))

    def delete(self, key: bytes, value: bytes) -> None:
        self._call(lambda: self.inner.delete(key, value))

    def move(self, src: bytes, dest: bytes, value: bytes) -> None:
        self._call(lambda: self.inner.move(src, dest, value))

    def fetch(self, key: bytes) -> Iterable[bytes]:
        return self._call(lambda: list(self.inner.fetch(key)), default=[])
