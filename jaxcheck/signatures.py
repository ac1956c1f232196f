"""Findings' signatures, regular expressions from a file, compiled and matched within bounds.

A findings file is input: in a CI matrix it comes from another job, or a
user's repository.  Python's `re` compiles and matches whatever it is
given: a signature of 1,000 nested groups ended `report` with a
`RecursionError`, a repetition count of `a{4294967296}` with an
`OverflowError`, and one that backtracks catastrophically (`(a+)+$` on a
long run of `a`) hung it.  So a signature is

* refused when it is read (`compiled`, a `SignatureError` naming what is
  wrong) if it is longer than `MAX_LENGTH`, nests groups deeper than
  `MAX_DEPTH`, or counts a repetition past `MAX_COUNT`, all found by a scan
  of its text before `re` parses it (whose parser recurses once per group);
  anything `re` itself cannot compile is refused in the same words;
* matched within `MATCH_SECONDS` (`search`, where a signal can interrupt
  `re`: the main thread); one that takes longer is refused for the rest of
  the run, told once on stderr, naming it, and matches nothing: the failure
  it was searched in counts as unclassified, which is what a maintainer
  looks at, never as known.
"""

from __future__ import annotations

import re
import signal
import sys
import threading
import time

# Longer than any signature of the findings shipped (the longest is 160
# characters) by more than ten times.
MAX_LENGTH = 2000
# Groups within groups: the findings shipped nest 2 deep; `re` recursed past
# Python's limit near 1,000.
MAX_DEPTH = 20
# `{m,n}`: the findings shipped count to 200 (`.{0,200}?`); `re` refuses past
# 4294967295 with an OverflowError, and compiles large counts slowly.
MAX_COUNT = 10_000
# One search of one signature in one failure's text: the findings shipped take
# milliseconds on the largest texts kept (20,000 characters of evidence and
# the reproducers).
MATCH_SECONDS = 2.0

_COUNT = re.compile(r"\{(\d*)(?:,(\d*))?\}")


class SignatureError(ValueError):
    """A signature refused: what is wrong with it, in a phrase that follows it."""


def _scan(text: str) -> tuple[int, list[str]]:
    """The deepest nesting of groups in `text`, and the bodies of its `{...}`
    repetition counts, escapes and character classes left out."""
    depth = deepest = 0
    counts, i, in_class = [], 0, False
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
            i += 1 + (text[i + 1:i + 2] == "^")
            i += text[i:i + 1] == "]"  # `[]...]`: a ] first in a class is one of its own
            continue
        elif char == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif char == ")":
            depth = max(depth - 1, 0)
        elif char == "{" and (count := _COUNT.match(text, i)):
            counts.append(count[0])
            i = count.end()
            continue
        i += 1
    return deepest, counts


def compiled(text: str) -> re.Pattern:
    """`text` compiled, or a `SignatureError` saying why it is refused."""
    if len(text) > MAX_LENGTH:
        raise SignatureError(f"is {len(text)} characters long, past the {MAX_LENGTH} a "
                             "signature may have")
    depth, counts = _scan(text)
    if depth > MAX_DEPTH:
        raise SignatureError(f"nests groups {depth} deep, past the {MAX_DEPTH} a signature "
                             "may nest")
    for count in counts:
        numbers = [int(n) for n in re.findall(r"\d+", count)]
        if any(n > MAX_COUNT for n in numbers):
            raise SignatureError(f"repeats {count}, past the count of {MAX_COUNT} a signature "
                                 "may give")
    try:
        return re.compile(text)
    except re.error as exc:
        raise SignatureError(f"is not a regular expression: {exc}") from None
    except (RecursionError, OverflowError, MemoryError, ValueError) as exc:
        raise SignatureError(f"cannot be compiled ({type(exc).__name__}: {exc})") from None


class _TooSlow(Exception):
    pass


# Signatures refused as they were matched, this run: never searched again.
_REFUSED: set[str] = set()


def search(pattern: re.Pattern, text: str, name: str = "") -> bool:
    """Whether `pattern` is found in `text`, within `MATCH_SECONDS` (in the main
    thread; elsewhere no signal can interrupt it, and the bounds of `compiled`
    are all).  A signature that takes longer is refused for the rest of the run,
    said once on stderr with `name` (its finding), and found nowhere."""
    if pattern.pattern in _REFUSED:
        return False
    if threading.current_thread() is not threading.main_thread():
        return pattern.search(text) is not None
    try:
        with _limit(MATCH_SECONDS):
            return pattern.search(text) is not None
    except _TooSlow:
        _REFUSED.add(pattern.pattern)
        print(f"jaxcheck: the signature `{pattern.pattern}`{f' of {name}' * bool(name)} "
              f"took more than {MATCH_SECONDS:g} s on a failure's {len(text):,} characters "
              "(it backtracks catastrophically) and is refused: it matches nothing in this "
              "run; rewrite it", file=sys.stderr)
        return False


class _limit:
    """SIGALRM after `seconds`, raising `_TooSlow`; a timer already running (an
    SUT call's time limit, oracles/experiment.py) is put back as it was, less
    the time spent here."""

    def __init__(self, seconds: float):
        self.seconds = seconds

    def __enter__(self):
        def expire(signum, frame):
            raise _TooSlow

        self.started = time.monotonic()
        self.previous = signal.signal(signal.SIGALRM, expire)
        self.running = signal.setitimer(signal.ITIMER_REAL, self.seconds)

    def __exit__(self, *exc_info):
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.previous)
        delay, interval = self.running
        if delay:
            left = delay - (time.monotonic() - self.started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-6), interval)
        return False
