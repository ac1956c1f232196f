"""The kill matrix: every property against every broken SUT, in the `ci` profile.

A verification suite is worth the bugs it catches, so its power is measured
the way mutation testing measures a test suite: each shim of `tests/broken/`
is one realistic bug (a mutant), and every property runs against it as a
user's `jaxcheck check --sut tests.broken.<bug>` would (child processes,
the `ci` profile, no stop at the first failing property).  For each broken
SUT and property it records whether the property caught the bug, the
example and the seconds (from the property's start) of the first
counterexample, and the size of the shrunk reproducer: the equations of its
`f` and the transformation layers (`sut.jvp(`, `sut.grad(`, ...) in the
script.  It writes `docs/power.md`:

* per broken SUT: its family, the properties that catch it, the quickest
  (time and examples to the first counterexample), the smallest reproducer;
* the matrix itself, broken SUTs against properties;
* per property: the bugs it catches, and those only it catches;
* the fragile spots: bugs that one property alone catches.

The matrix pass does not shrink (`--max-shrinks=0`): whether a property
catches a bug, and after how many examples and seconds, does not depend on
shrinking, and shrinking every failure of 45 bugs times 50 properties would
take hours.  The size of the reproducer is then measured once per bug, on
the property that caught it first, rerun alone with shrinking bounded at
`--max-shrinks` successful shrinks (default 100, as the meta-test's bounded
rows; `bench/bench_catch.py` measures the full shrink).  One broken SUT's
results are kept under `--work` with a fingerprint of the suite's sources
and the shim's, so a rerun measures only what changed.

    python bench/power.py                      # every broken SUT, then docs/power.md
    python bench/power.py --only vmap_ --jobs 1
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import re
import statistics
import sys
import time
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.report import machine, publish_page, revision, section  # noqa: E402
from jaxcheck.runner import RunOptions, collect, run  # noqa: E402
from oracles.reproducer import equations  # noqa: E402
from tests.meta.test_broken_suts import ESCAPES  # noqa: E402
from tests.meta.test_broken_witnesses import SHIMS  # noqa: E402

DOC = ROOT / "docs" / "power.md"
TITLE = "# Bug-finding power: the kill matrix"
# The page's first section, every broken SUT as every push checks it, which
# `python bench/bench_catch.py --as-pushed` writes in minutes: kept when this
# script redraws the rest.
AS_PUSHED = "as-pushed"
# What the suite's verdicts depend on, for the cache's fingerprint.
SOURCES = ("conftest.py", "jaxcheck", "oracles", "refimpl", "strategies", "tests/test_*.py",
           "tests/broken/__init__.py", "tests/broken/over_jax.py")
CAUGHT = ("failed", "crashed", "hung", "error")
_LAYER = re.compile(r"\bsut\.(jvp|vjp|grad|vmap|jit)\(")


def broken_suts(only: str | None) -> list[str]:
    """The broken SUTs whose name contains any of the comma-separated `only` (all: None)."""
    names = SHIMS
    parts = None if only is None else only.split(",")
    return [n for n in names if parts is None or any(part in n for part in parts)]


def fingerprint(shim: str) -> str:
    digest = hashlib.sha1()
    paths = [ROOT / "tests" / "broken" / f"{shim}.py"]
    for pattern in SOURCES:
        matched = sorted(ROOT.glob(pattern))
        paths += [p for m in matched for p in ([m] if m.is_file() else sorted(m.rglob("*.py")))]
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def reproducer_size(paths: list[str]) -> tuple[int, int] | None:
    """(equations of f, transformation layers) of the smallest saved reproducer."""
    sizes = []
    for path in paths:
        try:
            script = Path(path).read_text()
        except OSError:
            continue
        sizes.append((equations(script) or 0, len(_LAYER.findall(script))))
    return min(sizes, default=None)


def measure(shim: str, work: Path, jobs: int, max_shrinks: int,
            properties: str | None = None) -> dict:
    """Every property's verdict on one broken SUT, and the shrunk size of the quickest
    catch, from the cache if nothing changed."""
    record = work / f"{shim}.json"
    key = fingerprint(shim)
    if record.exists():
        cached = json.loads(record.read_text())
        if (cached.get("fingerprint") == key and cached.get("max_shrinks") == max_shrinks
                and cached.get("properties") == properties):
            return cached
    out = work / shim
    options = RunOptions(sut=f"tests.broken.{shim}", profile="ci", jobs=jobs, out=out / "matrix",
                         max_shrinks=0)
    started = time.time()
    verdicts = run(collect(options, properties), options, out / "matrix" / "logs")
    result = {"shim": shim, "fingerprint": key, "commit": revision(), "max_shrinks": max_shrinks,
              "properties": properties,
              "verdicts": [dict(asdict(v), evidence="") for v in verdicts], "shrunk": None}
    first = quickest(caught_by(result))
    if first is not None:
        options = RunOptions(sut=f"tests.broken.{shim}", profile="ci", jobs=1,
                             out=out / "shrunk", max_shrinks=max_shrinks)
        shrunk = run([first["nodeid"]], options, out / "shrunk" / "logs")[0]
        result["shrunk"] = {"nodeid": shrunk.nodeid, "outcome": shrunk.outcome,
                            "size": reproducer_size(shrunk.reproducers),
                            "reproducers": shrunk.reproducers}
    result["seconds"] = round(time.time() - started, 1)
    record.write_text(json.dumps(result, indent=1))
    return result


def short(nodeid: str) -> str:
    return nodeid.split("::", 1)[-1].removeprefix("test_")


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def prop_of(nodeid: str) -> str:
    """The property a verdict belongs to: its test function, without the parameter (a
    parametrized property is one column of the matrix, caught where any row catches)."""
    return nodeid.split("[", 1)[0]


def family(shim: str) -> str:
    return getattr(importlib.import_module(f"tests.broken.{shim}"), "FAMILY", "?")


def caught_by(result: dict) -> list[dict]:
    return [v for v in result["verdicts"] if v["outcome"] in CAUGHT]


def quickest(kills: list[dict]) -> dict | None:
    timed = [v for v in kills if v.get("first_failure_seconds") is not None]
    return min(timed or kills, key=lambda v: v.get("first_failure_seconds") or v["seconds"],
               default=None)


# A property's mark in the matrix, from the outcomes of its rows: the first that any
# row has, in this order (caught beats passed beats skipped).
MARKS = (("failed", "X"), ("error", "X"), ("crashed", "C"), ("hung", "H"), ("passed", "."),
         ("skipped", "s"))


def mark(outcomes: set[str]) -> str:
    return next((m for outcome, m in MARKS if outcome in outcomes), "-")


def summary(results: list[dict], without: str | None = None) -> dict:
    """Kills, time to the first counterexample and fragile spots, from every property's
    verdicts but those of the property `without` (its short name); under "killers",
    each SUT's catching verdicts."""
    kept = [dict(r, verdicts=[v for v in r["verdicts"] if short(prop_of(v["nodeid"])) != without])
            for r in results]
    killers = {r["shim"]: caught_by(r) for r in kept}
    firsts = [quickest(k) for k in killers.values() if k]
    return {"killers": killers, "caught": [s for s, k in killers.items() if k],
            "missed": [s for s, k in killers.items() if not k],
            "seconds": [v.get("first_failure_seconds") or v["seconds"] for v in firsts],
            "fragile": [s for s, k in killers.items()
                        if len({prop_of(v["nodeid"]) for v in k}) == 1]}


def document(results: list[dict], command: str, ablate: tuple[str, ...] = ()) -> str:
    properties = list(dict.fromkeys(prop_of(v["nodeid"]) for r in results for v in r["verdicts"]))
    number = {p: i + 1 for i, p in enumerate(properties)}
    whole = summary(results)
    killers = whole["killers"]
    killing = {shim: set(map(prop_of, (v["nodeid"] for v in k))) for shim, k in killers.items()}
    caught, seconds, fragile = whole["caught"], whole["seconds"], whole["fragile"]
    sizes = [r["shrunk"]["size"][0] for r in results
             if r.get("shrunk") and r["shrunk"].get("size")]
    median_size = statistics.median(sizes) if sizes else None
    lines = [TITLE, "", "## Every property against every broken SUT", "",
             f"{len(results)} broken SUTs (`tests/broken/`), each one realistic bug, against "
             f"{len(properties)} properties in the `ci` profile, every property run (no stop "
             "at the first failure, no shrinking); the property that caught a bug first is "
             "then rerun alone, shrinking stopped after "
             f"{results[0]['max_shrinks'] if results else '-'} successful shrinks, for the "
             "size of its reproducer.  A parametrized property counts once: it catches a "
             "bug where any of its rows does.", "",
             f"* caught: **{len(caught)} of {len(results)}**"
             + (f"; not caught: {', '.join(whole['missed'])}" if whole["missed"] else ""),
             *[f"  * `{shim}` is an equivalent mutant: {ESCAPES[shim]} (the meta-test's "
               "`ESCAPES`)" for shim in whole["missed"] if shim in ESCAPES],
             ]
    if seconds:
        lines += [f"* time to the first counterexample (the quickest property, from its "
                  f"start): median {statistics.median(seconds):.1f} s, worst "
                  f"{max(seconds):.1f} s",
                  f"* the quickest catch's reproducer, shrunk: median "
                  f"{median_size:g} equation{'' if median_size == 1 else 's'}, largest "
                  f"{max(sizes)}"
                  if sizes else "* no reproducer with a program"]
    lines += [f"* caught by one property only (fragile): {len(fragile)}"
              + (f": {', '.join(fragile)}" if fragile else ""), "",
              "### Per broken SUT", "",
              "| broken SUT | family | properties that catch it | quickest | first "
              "counterexample | its reproducer, shrunk |", "|---|---|---:|---|---|---|"]
    for result in results:
        first = quickest(killers[result["shim"]])
        shrunk = result.get("shrunk") or {}
        size = shrunk.get("size")
        when = "-" if first is None else (
            f"example {first.get('first_failure') or '?'}, "
            f"{first.get('first_failure_seconds') or first['seconds']:.1f} s")
        lines.append(f"| `{result['shim']}` | {family(result['shim'])} | "
                     f"{len(killing[result['shim']])} | "
                     f"{'-' if first is None else short(first['nodeid'])} | {when} | "
                     + ("-" if size is None else f"{plural(size[0], 'equation')}, "
                                                 f"{plural(size[1], 'layer')}")
                     + " |")
    lines += ["", "### The matrix", "",
              "X: the property caught the bug (C: crashed, H: hung); .: passed; s: skipped.", "",
              "| broken SUT | " + " | ".join(str(number[p]) for p in properties) + " |",
              "|---|" + "---|" * len(properties)]
    for result in results:
        by: dict[str, set[str]] = {}
        for v in result["verdicts"]:
            by.setdefault(prop_of(v["nodeid"]), set()).add(v["outcome"])
        lines.append(f"| `{result['shim']}` | "
                     + " | ".join(mark(by.get(p, set())) for p in properties) + " |")
    lines += ["", "### Per property", "", "| # | property | catches | only it catches |",
              "|---:|---|---:|---|"]
    for prop in properties:
        catches = [s for s, props in killing.items() if prop in props]
        alone = [s for s in catches if len(killing[s]) == 1]
        lines.append(f"| {number[prop]} | `{short(prop)}` | {len(catches)} | "
                     + (", ".join(f"`{s}`" for s in alone) or "-") + " |")
    for name in ablate:
        less = summary(results, without=name)
        timing = (f"median {statistics.median(less['seconds']):.1f} s, worst "
                  f"{max(less['seconds']):.1f} s" if less["seconds"] else "-")
        lines += ["", f"### Without `{name}`", "",
                  "The same run, its verdicts left out: what the suite catches without it.", "",
                  f"* caught: {len(less['caught'])} of {len(results)}"
                  + (f"; not caught: {', '.join(f'`{s}`' for s in less['missed'])}"
                     if less["missed"] else ""),
                  f"* time to the first counterexample: {timing}",
                  f"* caught by one property only: {len(less['fragile'])}"]
    lines += ["", "### How this was measured", "",
              f"`{command}` at {', '.join(sorted({r.get('commit', '?') for r in results}))} "
              f"on {machine()}, {time.strftime('%Y-%m-%d')}; "
              f"{sum(r['seconds'] for r in results) / 60:.0f} min of runs "
              "(a rerun reuses each broken SUT's results while its fingerprint holds).  "
              "The runs share jaxcheck's XLA compilation cache on disk "
              "(`jaxcheck/runner.child_env`), so their times depend on what earlier runs "
              "left in it."]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="the broken SUTs whose module name contains this "
                                       "(or any of several, comma-separated)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--properties", metavar="EXPR",
                        help="only the properties that match this pytest -k expression "
                             "(an A/B of a generator change on the properties it touches)")
    parser.add_argument("--max-shrinks", type=int, default=100)
    parser.add_argument("--work", type=Path, default=ROOT / ".power")
    parser.add_argument("--no-write", action="store_true", help="print, leave docs/power.md")
    parser.add_argument("--ablate", action="append", default=[], metavar="PROPERTY",
                        help="also summarise the run without this property (its name "
                             "without test_), to measure what it adds; repeatable")
    parser.add_argument("--measured-only", action="store_true",
                        help="document the broken SUTs already measured under --work, "
                             "run nothing (the page says how many are left out)")
    args = parser.parse_args()
    args.work.mkdir(exist_ok=True)
    shims = broken_suts(args.only)
    results = []
    for i, shim in enumerate(shims, start=1):
        if args.measured_only:
            record = args.work / f"{shim}.json"
            if record.exists():
                results.append(json.loads(record.read_text()))
            continue
        print(f"[{i}/{len(shims)}] {shim} ...", end=" ", flush=True)
        result = measure(shim, args.work, args.jobs, args.max_shrinks, args.properties)
        print(f"caught by {len(caught_by(result))} ({result['seconds']:.0f} s)", flush=True)
        results.append(result)
    # The command that measured: a page rendered from the cache names the runs' command.
    shown = [a for a in sys.argv[1:] if a != "--measured-only"]
    text = document(results, "python bench/power.py " + " ".join(shown),
                    tuple(args.ablate))
    if len(results) < len(shims):
        left = sorted(set(shims) - {r["shim"] for r in results})
        text += (f"\nNot measured yet ({len(left)} of {len(shims)}): "
                 + ", ".join(f"`{s}`" for s in left) + ".\n")
    kept = section(AS_PUSHED, DOC)
    if kept:
        text = text.replace(TITLE + "\n", f"{TITLE}\n\n{kept}\n", 1)
    publish_page(DOC, text, write=not args.no_write)


if __name__ == "__main__":
    main()
