"""The checks of the `jaxcheck` command's arguments, run as argparse reads them.

A bad value must stop the command before it imports an SUT or starts a
child, with one line that says what was expected: a value found wrong
after a run has started costs the run, and one never looked at ends in a
traceback from deep inside it (`--minutes nan` reached the status line).
Each function here is an argparse `type`: it turns the text given into the
value, or refuses it with `argparse.ArgumentTypeError`, which argparse
prints after the usage as one line, "jaxcheck hunt: error: argument
--minutes: expected a positive number, got 'nan'", and exits 2.  jaxcheck/plugin.py
shares `sut_timeout`, so plain pytest refuses what the command refuses.
`tests/meta/test_jaxcheck_inputs.py` holds the table of bad inputs.
"""

from __future__ import annotations

import argparse
import math
from urllib.parse import urlsplit

from jaxcheck.database import redacted
from oracles.experiment import MAX_TIME_LIMIT
from oracles.sut import name_problem

# The longest --sut-timeout: the longest limit one SUT call can have, a day,
# far above any one call and far below where setitimer overflows
# (oracles/experiment.py).
MAX_SUT_TIMEOUT = MAX_TIME_LIMIT
# The shortest: no SUT call takes less (refimpl's smallest, a millisecond; a
# call's own bookkeeping, a fraction of one), so a shorter limit fails every
# call of a correct SUT as a hang (`--sut-timeout 0.000001` did).
MIN_SUT_TIMEOUT = 0.1

# Redis's port range (TCP's); 0 is no port one can connect to.
PORTS = range(1, 65536)

Refused = argparse.ArgumentTypeError


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return math.nan  # refused by every range check below, as nan itself is


def whole_number(text: str) -> int:
    """A count of at least 1: --jobs, --max-shrinks."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise Refused(f"expected a whole number of at least 1, got {text!r}")
    return value


def positive_number(text: str) -> float:
    """A finite amount above 0: hunt's --minutes, replay's --timeout (0 would end
    every replay at once, a passing reproducer read as a hang)."""
    value = _number(text)
    if not (0 < value < math.inf):
        raise Refused(f"expected a positive number, got {text!r}")
    return value


def seed(text: str) -> int:
    """--seed: Hypothesis's seed, a whole number from 0."""
    if not text.isdigit():
        raise Refused(f"expected a whole number from 0, such as 1, got {text!r}")
    return int(text)


def sut_timeout(text: str) -> float:
    """--sut-timeout: seconds from `MIN_SUT_TIMEOUT` to `MAX_SUT_TIMEOUT`, or 0 (no limit)."""
    value = _number(text)
    if not (value == 0 or MIN_SUT_TIMEOUT <= value <= MAX_SUT_TIMEOUT):
        raise Refused(f"expected seconds from 0 (no limit) to {MAX_SUT_TIMEOUT:g} (a day), "
                      f"none between 0 and {MIN_SUT_TIMEOUT:g}, got {text!r}")
    return value


# The most shares --shard may deal (a record's label is held to it too,
# jaxcheck/record.py): the suite has about 100 properties, and past them a share
# holds none; `--shard 1/100000000000 --balance` asked for a list of that many.
MAX_SHARDS = 1000


def shard(text: str) -> tuple[int, int]:
    """--shard K/N: the K-th of N shares of the properties, counted from 1."""
    index, _, count = text.partition("/")
    if not (index.isdigit() and count.isdigit() and 1 <= int(index) <= int(count) <= MAX_SHARDS):
        raise Refused(f"expected K/N with 1 <= K <= N <= {MAX_SHARDS}, such as 2/4, got "
                      f"{text[:40]!r}")
    return int(index), int(count)


def selection(text: str) -> str:
    """--only: a pytest -k expression; an empty one would select every property."""
    if not text.strip():
        raise Refused("expected a pytest -k expression naming properties, got an empty one")
    return text


def sut_name(text: str) -> str:
    """--sut: a name `oracles.sut.resolve` can import (whether it does is found later)."""
    problem = name_problem(text)
    if problem:
        raise Refused(problem)
    return text


def reference_name(text: str) -> str:
    """--reference: 'auto', 'none' (oracles.sut.reference_name), or an SUT name."""
    return text if text in ("auto", "none") else sut_name(text)


def check_database_spec(spec: str) -> str:
    """`--db` as given, when it names a database `jaxcheck.database.open_database`
    understands: a directory path, or `redis://HOST[:PORT][/DB]`.  Checked without
    connecting or creating anything, so that a typo is refused before a hunt
    starts; whether a server answers there is for opening to find."""
    if not spec.strip():
        raise Refused("expected a directory path or redis://HOST:PORT, got an empty one")
    if "://" not in spec:
        return spec
    shown = redacted(spec)  # a password is never printed (jaxcheck/database.py)
    try:
        url = urlsplit(spec)
    except ValueError as exc:  # an unclosed [ of an IPv6 host
        raise Refused(f"{shown!r}: not a URL ({exc})") from None
    if url.scheme != "redis":
        raise Refused(f"expected a directory path or redis://HOST:PORT, got {shown!r}")
    try:
        port = url.port
    except ValueError:
        port = 0
    if port is not None and port not in PORTS:
        raise Refused(f"{shown!r}: the port must be a whole number from 1 to 65535")
    if url.path.strip("/") and not url.path.strip("/").isdigit():
        raise Refused(f"{shown!r}: after the port comes a database number, as in "
                      "redis://HOST:PORT/0, or nothing")
    return spec
