"""pytest plugin for bench/bench_catch.py: after how many examples, and how
many seconds, a property first failed.

Hypothesis's statistics count each phase's test cases, but with several
distinct bugs its generate phase runs on past the first failure to find the
others (measured: the fori_loop row failed first at example 131 and went on
to 256), so those counts overstate the time to find a bug.  Observability
sees each test case as it ends, in order.

    python -m pytest <property> --sut <shim> -p bench.first_failure

`first_failure` reads that line back from the run's output.
"""

from __future__ import annotations

import re
import time

from hypothesis.internal import observability

# Observability collects coverage per test case by default, which Hypothesis
# documents as slow on Python 3.11 and earlier; these figures do not need it
# (Hypothesis supports setting this attribute: see `_should_trace` in
# hypothesis/core.py).
observability.OBSERVABILITY_COLLECT_COVERAGE = False

MARK = "jaxcheck first failure:"
_LINE = re.compile(re.escape(MARK) + r" \S+ example (\d+) after ([\d.]+) s")
_first: dict[str, tuple[int, float]] = {}
_examples: dict[str, int] = {}


def _record(observation) -> None:
    if observation.type != "test_case":
        return
    name = observation.property
    _examples[name] = _examples.get(name, 0) + 1
    if observation.status == "failed" and name not in _first:
        _first[name] = (_examples[name], time.time() - observation.run_start)


def pytest_configure(config) -> None:
    observability.add_observability_callback(_record)


def pytest_terminal_summary(terminalreporter) -> None:
    for name, (examples, seconds) in _first.items():
        terminalreporter.write_line(f"{MARK} {name} example {examples} after {seconds:.2f} s")


def first_failure(output: str) -> tuple[int, float] | None:
    """(examples, seconds) to the first failure a run's output reports, None if none."""
    found = _LINE.search(output)
    return (int(found.group(1)), float(found.group(2))) if found else None
