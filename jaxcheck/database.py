"""`--db`: where found failures are kept, so that every later run replays them first.

A path is a directory, Hypothesis's own `DirectoryBasedExampleDatabase`; a
`redis://HOST:PORT` URL is its `RedisExampleDatabase`, which lets hunts on
many machines share what they find.  Redis support is an extra
(`pip install 'jaxcheck[redis]'`): without it, a redis URL is one clear error.
"""

from __future__ import annotations

from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase

# Where a hunt keeps its examples unless told otherwise (relative to the
# directory it runs in): Hypothesis's own default place.
DEFAULT_DB = ".hypothesis/examples"


class DatabaseError(ValueError):
    """`--db` names no database that can be used; the message says why and what to do."""


def open_database(spec: str) -> ExampleDatabase:
    if spec.startswith("redis://"):
        return _redis(spec)
    if "://" in spec:
        raise DatabaseError(f"--db {spec}: only a directory path or a redis://HOST:PORT URL "
                            "is understood")
    return DirectoryBasedExampleDatabase(spec)


def _redis(url: str) -> ExampleDatabase:
    try:  # an optional dependency, imported only when asked for
        import redis
        from hypothesis.extra.redis import RedisExampleDatabase
    except ImportError as exc:
        raise DatabaseError(f"--db {url}: redis support is not installed ({exc}); "
                            "install it with: pip install 'jaxcheck[redis]'") from None
    client = redis.Redis.from_url(url)
    try:
        client.ping()
    except redis.RedisError as exc:
        raise DatabaseError(f"--db {url}: no redis server answers there ({exc})") from None
    return RedisExampleDatabase(client)
