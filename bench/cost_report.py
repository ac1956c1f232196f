"""Gradient cost report: grad work against forward work, as a picture and a table.

    python bench/cost_report.py --sut refimpl [--sut jax ...] [--out reports]

For each SUT, runs the ratio property of `tests/test_cost.py` under the `ci`
profile (the very programs it judges, each `Works` passed to the property's
`record_works`)
and the growth families of `oracles/cost.py` at n, 2n, 4n, 8n; writes
`reports/cost-<sut>.png` (log-log: work(grad loss) against work(loss), with
the lines 4x, the cheap gradient principle, and x) and `reports/cost-<sut>.md` (the distribution of
work(grad)/work(loss), work(jvp)/work(f), work(vjp)/work(f), and the growth
ratios per family).  Numbers go into docs/performance.md, "Gradient cost".
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hypothesis import settings  # noqa: E402

import conftest  # noqa: E402,F401  (registers the Hypothesis profiles)

# Hypothesis binds a test's settings when the test is defined: load ci first.
settings.load_profile("ci")

from oracles import cost  # noqa: E402
from oracles.cost_bounds import SLACK_FIXED  # noqa: E402
from oracles.sut import resolve  # noqa: E402

# The reference line: Griewank and Walther's cheap gradient principle.
PRINCIPLE = 4.0
from strategies.language.vocabulary import vocabulary_for  # noqa: E402
from tests import test_cost  # noqa: E402

SCALES = (1, 2, 4, 8)


def ci_works(sut) -> list[cost.Works]:
    """The Works of every program the ci profile draws for the ratio property."""
    works: list[cost.Works] = []
    try:
        test_cost.test_grad_and_jvp_work_within_constant_factors_of_f(
            sut=sut, vocabulary=vocabulary_for(sut.unsupported), record_works=works.append)
    except AssertionError as exc:
        print(f"note: the ratio property fails on {sut.name}: {exc}".splitlines()[0])
    return works


# Stop doubling a family once grad costs this many times the forward work: an
# exponential SUT would not return from the next size.
RUNAWAY = 50


def family_points(sut):
    """{family: [(n, work(loss), work(grad loss))]} at n, 2n, 4n, 8n (until a runaway)."""
    points = {}
    for name, family in cost.FAMILIES.items():
        points[name] = []
        for k in SCALES:
            forward, grad = cost.family_work(sut, family, family.n * k)
            points[name].append((family.n * k, forward, grad))
            if grad > RUNAWAY * forward:
                break
    return points


def _stats(values) -> str:
    v = np.asarray(values, dtype=float)
    return (f"{v.min():.2f} | {np.percentile(v, 25):.2f} | {np.median(v):.2f} | "
            f"{np.percentile(v, 75):.2f} | {v.max():.2f}")


def table(sut, works, points) -> str:
    w = {field: np.array([getattr(x, field) for x in works], float) for field in cost.Works._fields}
    needed = (w["grad"] - SLACK_FIXED - w["input_elements"]) / w["loss"]
    rows = [
        ("work(grad loss) / work(loss)", w["grad"] / w["loss"]),
        ("(work(grad loss) - D) / work(loss), D = 16 + gradient elements", needed),
        ("work(jvp f) / work(f)", w["jvp"] / w["f"]),
        ("work(vjp f) / work(f)", w["vjp"] / w["f"]),
    ]
    lines = [f"### {sut.describe()}", "",
             f"{len(works)} programs of the ci profile "
             "(tests/test_cost.py::test_grad_and_jvp_work_within_constant_factors_of_f).", "",
             "| ratio | min | 25% | median | 75% | max |", "|---|---|---|---|---|---|"]
    lines += [f"| {name} | {_stats(values)} |" for name, values in rows]
    lines += ["", "Growth of work(grad loss) from n to 2n:", "",
              "| family | " + " | ".join(f"{a}->{b}" for a, b in zip(SCALES, SCALES[1:]))
              + " (multiples of n) | n |", "|---|---|---|---|---|"]
    for name, pts in points.items():
        ratios = [b[2] / a[2] for a, b in zip(pts, pts[1:])]
        cells = [f"{r:.2f}" for r in ratios] + ["(stopped)"] * (len(SCALES) - 1 - len(ratios))
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {pts[0][0]} |")
    tracing = cost.tracing_growth(sut, test_cost.TRACING_N)
    lines += ["", f"Tracing: {tracing.describe()}", ""]
    return "\n".join(lines)


def picture(sut, works, points, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 5.2))
    ax.scatter([x.loss for x in works], [x.grad for x in works], s=14, alpha=0.6,
               label="ci programs", color="0.4")
    for name, pts in points.items():
        ax.plot([p[1] for p in pts], [p[2] for p in pts], marker="o", label=f"family {name}")
    top = max([x.loss for x in works] + [p[1] for pts in points.values() for p in pts])
    line = np.geomspace(1, top * 1.5, 50)
    ax.plot(line, PRINCIPLE * line, "k--", linewidth=1,
            label=f"{PRINCIPLE:g} x forward (cheap gradient principle)")
    ax.plot(line, line, "k:", linewidth=1, label="1 x forward")
    ax.set(xscale="log", yscale="log", xlabel="work(loss)", ylabel="work(grad loss)",
           title=f"Gradient cost: {sut.name}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sut", action="append", default=None,
                        help="SUT name (repeatable; default: refimpl)")
    parser.add_argument("--out", default=str(ROOT / "reports"))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in args.sut or ["refimpl"]:
        sut = resolve(name)
        if not sut.supports("make_jaxpr"):
            print(f"{name}: no make_jaxpr; the work model needs it (timing fallback only in tests)")
            continue
        works, points = ci_works(sut), family_points(sut)
        stem = name.replace(".", "-").replace(":", "-")
        picture(sut, works, points, out / f"cost-{stem}.png")
        text = table(sut, works, points)
        (out / f"cost-{stem}.md").write_text(text)
        print(text)
        print(f"wrote {out / f'cost-{stem}.png'} and {out / f'cost-{stem}.md'}")


if __name__ == "__main__":
    main()
