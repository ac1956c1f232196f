"""Benchmark: what the frozen oracle (oracles/frozen.py) costs.

Two figures:

* one check (`JUDGE.changes`, made after every SUT call and every
  comparison) in a process that holds what a property run holds: the
  properties' plugin, the jvp property, refimpl as the reference;
* examples per second of a property run with the checks, and with them
  switched off (`Frozen.changes` returning nothing: this script's own patch,
  which no run of jaxcheck can make before the SUT is imported), under the
  `ci` profile, each the best of `--repeat` runs, in a child process each.

Run from the repository root:

    python bench/bench_frozen.py [--repeat 3] [--sut refimpl --reference none]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROPERTIES = ("tests/test_jvp.py::test_jvp_matches_finite_differences_and_reference",
              "tests/test_grad.py::test_grad_matches_finite_differences_and_reference")

# A child: runs one property under pytest, counts the examples its body ran and the
# seconds they took, and prints them as JSON.
CHILD = """
import json, sys, time
import pytest
from jaxcheck.examples import wrapped
from oracles.frozen import Frozen

if sys.argv[1] == "off":
    Frozen.changes = lambda self: []

class Count:
    examples, seconds = 0, 0.0

    def wrap(self, inner):
        def body(*args, **kwargs):
            self.examples += 1
            return inner(*args, **kwargs)
        return body

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item):
        start = time.perf_counter()
        try:
            with wrapped(item, self.wrap):
                return (yield)
        finally:
            self.seconds += time.perf_counter() - start

count = Count()
status = pytest.main([*sys.argv[2:], "-q", "-p", "no:cacheprovider"], plugins=[count])
print(json.dumps({"status": int(status), "examples": count.examples, "seconds": count.seconds}))
"""

CHECK = """
import json, time
import jaxcheck.plugin, tests.test_jvp, refimpl
from oracles.frozen import JUDGE
JUDGE.add_reference(refimpl)
JUDGE.freeze()
rounds = 300
start = time.perf_counter()
for _ in range(rounds):
    JUDGE.changes()
seconds = (time.perf_counter() - start) / rounds
print(json.dumps({"microseconds": seconds * 1e6, "modules": len(JUDGE.modules),
                  "attributes": len(JUDGE.flat.values), "functions": len(JUDGE.functions)}))
"""


def child(source: str, *args: str) -> dict:
    run = subprocess.run([sys.executable, "-c", source, *args], cwd=ROOT, capture_output=True,
                         text=True, check=False)
    return json.loads(run.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sut", default="refimpl")
    parser.add_argument("--reference", default="none")
    options = parser.parse_args()
    check = child(CHECK)
    print(f"one check: {check['microseconds']:.0f} us over {check['attributes']} attributes "
          f"of {check['modules']} modules and {check['functions']} functions")
    for prop in PROPERTIES:
        rates = {}
        for mode in ("on", "off"):
            best = 0.0
            for _ in range(options.repeat):
                got = child(CHILD, mode, prop, "--hypothesis-profile=ci", "--sut", options.sut,
                            "--reference", options.reference)
                best = max(best, got["examples"] / got["seconds"])
            rates[mode] = best
        print(f"{prop.rsplit('::', 1)[1]}: {rates['on']:.1f} examples/s frozen, "
              f"{rates['off']:.1f} unchecked ({rates['on'] / rates['off'] - 1:+.1%})")
    print(time.strftime("%Y-%m-%d"), f"--sut {options.sut} --reference {options.reference}")


if __name__ == "__main__":
    main()
