"""The complexity oracle: how much work a staged program does, and how that grows.

Method.  `work(ir)` reads the IR an SUT exposes through `make_jaxpr` (an
object with `.eqns`, or `.jaxpr.eqns` as in JAX) and sums, over equations,
the number of elements each one produces.  Two kinds of primitive are counted
by what they really do: `dot_general` (matmul, dot) by multiply-adds (output
size times the contracted size), reductions by the elements they read.
Higher-order equations count their sub-programs instead of their outputs:
`scan` its body times `length` (each trip also reading its constants and
carry, and then what it writes out), `cond` its costliest branch, everything else
(`pjit`/`jit`, `custom_jvp_call`, `remat`, `closed_call`, ...) the sum of the
sub-programs found in its params.  A `while` loop's trip count is not in the
IR; it counts as one trip of its condition and body, so growth in trip count
is measured through `scan` (`fori_loop` with Python bounds stages to a scan in
JAX and refimpl alike).  The model is the same for every SUT and for `f`,
`jvp f`, `vjp f` and `grad f`: one ruler, so ratios compare like with like.

Growth.  `FAMILIES` are programs parameterised by n, rendered as source over
the SUT's API (so they run on any SUT): straight chains, the sharing chain
`z = a * (z + z)`, fan-out/fan-in, a loop of n trips, an input of n elements.
`growth(sut, family, n)` stages `grad` at n and 2n and returns the ratio of
the two work counts; `timed_growth` is the fallback for SUTs without
`make_jaxpr` (the fastest of repeated wall-clock times, one process, generous
thresholds).
`tracing_growth` counts the Python calls made while staging n and 2n
equations: a deterministic measure of tracing work.

Constant factors.  `check_constant_factors(sut, case)` holds grad and jvp of
a generated program within the factors and slack of `oracles/cost_bounds.py`
(where every bound is given with its reason), and can report each `Works` it
measures to a caller's `record`.

Every call on the SUT here (`make_jaxpr`, a timed `grad`) is made as an
experiment's call (`Experiment.call_on`), as every other oracle's: within the
SUT's time limit, its script on disk while it runs, a failure with a
reproducer; only the call itself is counted or timed.

The properties are in `tests/test_cost.py`; `tests/meta/test_cost_catches.py`
shows broken SUTs failing them; `bench/cost_report.py` draws the picture.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import NamedTuple

import numpy as np

from oracles.cost_bounds import SLACK_FIXED, grad_factor, jvp_factor
from oracles.errors import SutFailure
from oracles.experiment import Experiment
from strategies import wrappers
from strategies.language.render import PRELUDE, load, render_function, render_module
from strategies.language.transformations import GRAD, JVP, VJP
from strategies.wrappers import named

REDUCTIONS = frozenset({"reduce_sum", "reduce_max", "reduce_min", "reduce_prod", "reduce_and",
                        "reduce_or", "argmax", "argmin", "cumsum", "cumprod", "cummax",
                        "cumlogsumexp", "reduce_precision_sum"})


class CostTooHigh(SutFailure):
    """A transformation's work exceeds its bound, or grows faster than linearly."""


# ----------------------------------------------------------------------------- the model

def equations(ir) -> list:
    """The equations of a staged program: `.eqns`, or `.jaxpr.eqns` (JAX's ClosedJaxpr)."""
    eqns = getattr(ir, "eqns", None)
    if eqns is None:
        eqns = getattr(getattr(ir, "jaxpr", None), "eqns", None)
    if eqns is None:
        raise SutFailure(f"make_jaxpr returned {type(ir).__name__}, which has no .eqns "
                         "(nor .jaxpr.eqns); see docs/sut-api.md")
    return list(eqns)


def _is_program(value) -> bool:
    return hasattr(value, "eqns") or hasattr(getattr(value, "jaxpr", None), "eqns")


def sub_programs(eqn) -> list:
    """The programs inside an equation's params (bare, or in tuples and lists)."""
    found = []
    for value in eqn.params.values():
        items = value if isinstance(value, tuple | list) else (value,)
        found.extend(item for item in items if _is_program(item))
    return found


def _size(atom) -> int:
    return int(np.prod(atom.aval.shape, dtype=np.int64))


def _dot_general(eqn) -> int:
    (contracting, _), _ = eqn.params["dimension_numbers"]
    shape = eqn.invars[0].aval.shape
    return sum(map(_size, eqn.outvars)) * int(np.prod([shape[a] for a in contracting],
                                                      dtype=np.int64))


def _scan(eqn) -> int:
    """Its body `length` times, each trip also reading the loop's constants and carry,
    and the elements it writes out (its stacked outputs and final carry).  A body
    that only passes values along still moves them, and reverse mode pays for that
    movement an element at a time: each trip of the reversed loop adds into the
    cotangents of the constants and the carry (JAX's and refimpl's alike)."""
    read = eqn.invars[:int(eqn.params["num_consts"]) + int(eqn.params["num_carry"])]
    trip = work(eqn.params["jaxpr"]) + sum(map(_size, read))
    return int(eqn.params["length"]) * trip + sum(map(_size, eqn.outvars))


def _cond(eqn) -> int:
    return max((work(branch) for branch in eqn.params["branches"]), default=0)


def _reduction(eqn) -> int:
    return sum(_size(v) for v in eqn.invars)


RULES = {"dot_general": _dot_general, "scan": _scan, "cond": _cond}
RULES |= {name: _reduction for name in REDUCTIONS}


def eqn_work(eqn) -> int:
    """One equation's work: its rule, else its sub-programs, else the elements it produces."""
    rule = RULES.get(eqn.primitive.name)
    if rule is not None:
        return rule(eqn)
    inner = sub_programs(eqn)
    if inner:
        return sum(work(p) for p in inner)
    return sum(_size(v) for v in eqn.outvars)


def work(ir) -> int:
    """Elements produced (multiply-adds for dot_general, elements read for reductions)."""
    return sum(eqn_work(eqn) for eqn in equations(ir))


def count_equations(ir) -> int:
    """Equations, sub-programs included (a loop body counts once)."""
    return sum(1 + sum(count_equations(p) for p in sub_programs(e)) for e in equations(ir))


# ----------------------------------------------------------------------------- staging

def stage(sut, source: str, call: str, inputs: dict, what: str):
    """`make_jaxpr` of the call's function on the SUT: `call` is `name(args..)`.

    Made as an experiment's call (`Experiment.call_on`): within the SUT's time
    limit, its script on disk while it runs, a failure the SUT's with a
    reproducer, as every other SUT call.
    """
    __tracebackhide__ = True
    name, _, rest = call.partition("(")
    fun = load(source, sut.api, name)
    args = [inputs[a.strip()] for a in rest.rstrip(")").split(",") if a.strip()]
    exp = Experiment(f"make_jaxpr of {what}", source, f"sut.make_jaxpr({name})({rest}", inputs)
    return exp.call_on(sut, partial(_staged, sut.api, fun, *args))


# ----------------------------------------------------------------------------- families

class Family(NamedTuple):
    """A program parameterised by n: the source of `loss(x, a)` and the inputs at n.

    `n` is the size the work-counting property doubles; `timed_n` the size the
    timing fallback starts from (bigger, so that real work outweighs fixed
    overheads; smaller for `sharing`, where a broken SUT needs 2**n steps).
    """

    name: str
    source: object  # n -> source text of loss(x, a)
    inputs: object  # n -> (x, a)
    meaning: str
    n: int
    timed_n: int


def _chain(n: int) -> str:
    body = "".join("    z = jnp.sin(z) * a\n" for _ in range(n))
    return f"def loss(x, a):\n    z = x\n{body}    return jnp.sum(z)\n"


def _sharing(n: int) -> str:
    body = "".join("    z = a * (z + z)\n" for _ in range(n))
    return f"def loss(x, a):\n    z = x\n{body}    return jnp.sum(z)\n"


def _fan(n: int) -> str:
    out = "".join(f"    y{k} = jnp.sin(x * {k + 1}.0) * a\n" for k in range(n))
    total = " + ".join(f"y{k}" for k in range(n))
    return f"def loss(x, a):\n{out}    return jnp.sum({total})\n"


def _loop(n: int) -> str:
    return ("def loss(x, a):\n"
            f"    z = sut.lax.fori_loop(0, {n}, lambda i, z: jnp.sin(z) * a, x)\n"
            "    return jnp.sum(z)\n")


def _size_source(n: int) -> str:
    return "def loss(x, a):\n    return jnp.sum(jnp.sin(x) * x + jnp.exp(a * x))\n"


def _small(n: int):
    return np.linspace(0.1, 0.9, 3), np.full(3, 0.5)


def _wide(n: int):
    return np.linspace(0.1, 0.9, n), np.full(n, 0.5)


FAMILIES = {
    "chain": Family("chain", _chain, _small, "z = sin(z) * a, n times", 8, 25),
    "sharing": Family("sharing", _sharing, _small, "z = a * (z + z), n times (2**n paths)", 5, 3),
    "fan": Family("fan", _fan, _small, "n branches sin(x * k) * a, summed (fan-out, fan-in)",
                  8, 16),
    "loop": Family("loop", _loop, _small, "fori_loop of n trips of z = sin(z) * a", 8, 25),
    "input_size": Family("input_size", _size_source, _wide, "a fixed program on n elements",
                         8, 512),
}


def family_source(family: Family, n: int) -> str:
    grad = GRAD.call("loss", "argnums=(0, 1)")
    return PRELUDE + "\n" + family.source(n) + (
        f"\n\ndef grad_loss(x, a):\n    return {grad}(x, a)\n")


def family_work(sut, family: Family, n: int) -> tuple[int, int]:
    """(work of loss, work of grad loss) for the family at size n."""
    source = family_source(family, n)
    x, a = family.inputs(n)
    inputs = {"x": x, "a": a}
    forward = stage(sut, source, "loss(x, a)", inputs, f"the {family.name} family at n={n}")
    backward = stage(sut, source, "grad_loss(x, a)", inputs,
                     f"grad of the {family.name} family at n={n}")
    return work(forward), work(backward)


class Growth(NamedTuple):
    family: str
    meaning: str
    sizes: tuple[int, int]
    forward: tuple[float, float]
    grad: tuple[float, float]
    unit: str
    forward_unit: str

    @property
    def ratio(self) -> float:
        return self.grad[1] / self.grad[0]

    def describe(self) -> str:
        (n, m), (g0, g1), (f0, f1) = self.sizes, self.grad, self.forward
        return (f"family {self.family!r} ({self.meaning}), n={n} -> {m}: {self.unit} "
                f"{g0:g} -> {g1:g}, growth ratio {self.ratio:.2f} "
                f"({self.forward_unit} {f0:g} -> {f1:g})")


def growth(sut, family_name: str, n: int | None = None) -> Growth:
    """Work of grad at n (default: the family's) and 2n, counted in the SUT's own IR."""
    family = FAMILIES[family_name]
    n = n or family.n
    (f0, g0), (f1, g1) = family_work(sut, family, n), family_work(sut, family, 2 * n)
    return Growth(family_name, family.meaning, (n, 2 * n), (f0, f1), (g0, g1), "work(grad loss)",
                  "work(loss)")


def assert_linear_growth(result: Growth, bound: float, sut_name: str) -> None:
    __tracebackhide__ = True
    if not result.ratio <= bound:
        raise CostTooHigh(
            f"growth ratio {result.ratio:.2f}, but should be at most {bound:g} (linear) "
            f"[{sut_name}: {result.describe()}]")


def assert_bounded(name: str, transformed: int, forward: int, factor: float, slack: float,
                   what: str) -> None:
    __tracebackhide__ = True
    if not transformed <= factor * forward + slack:
        raise CostTooHigh(
            f"work({name}) = {transformed}, but should be at most {factor:g} * work(f) + "
            f"{slack:g} = {factor * forward + slack:g} (work(f) = {forward}, ratio "
            f"{transformed / max(forward, 1):.2f}) [{what}]")


# ----------------------------------------------------------------------------- timing fallback

def fastest_seconds(sut, calls, repeats: int) -> list[float]:
    """For each `(experiment, fun, args)`, the fastest of `repeats` runs of `fun(*args)`
    in the process's CPU seconds, taken in turns; each run is the experiment's
    call on `sut` (`Experiment.call_on`), the clock read inside it.

    CPU time, not wall time: on a shared machine a process waits for a core,
    and wall time counts the wait (the conformance run, at a load of 12 on 2
    cores, once saw a linear SUT's ratio at 8.15 by the wall clock).  Runs
    alternate between the calls, so what load still costs (caches, context
    switches) falls on both sizes alike; the fastest run is the one least
    disturbed (timeit's advice), which is what a growth ratio should compare.
    """
    for exp, fun, args in calls:
        exp.call_on(sut, partial(fun, *args))  # warm-up: caches, compilation
    best = [float("inf")] * len(calls)
    for _ in range(repeats):
        for k, (exp, fun, args) in enumerate(calls):
            best[k] = min(best[k], exp.call_on(sut, partial(_process_seconds, fun, args)))
    return best


def _process_seconds(fun, args) -> float:
    start = time.process_time()
    np.asarray(fun(*args))
    return time.process_time() - start


def _grad_experiment(family: Family, n: int) -> Experiment:
    x, a = family.inputs(n)
    return Experiment(f"grad of the {family.name} family at n={n}", family_source(family, n),
                      "grad_loss(x, a)", {"x": x, "a": a})


def timed_growth(sut, family_name: str, factor: int, repeats: int,
                 bound: float = float("inf"), rounds: int = 1) -> Growth:
    """Fastest seconds of grad at the family's `timed_n` and factor times it, in this
    process; while their ratio exceeds `bound`, up to `rounds` rounds of `repeats`
    runs, the fastest over all of them kept (oracles/cost_bounds.py, TIMING_ROUNDS)."""
    family = FAMILIES[family_name]
    n = family.timed_n
    sizes = (n, factor * n)
    calls = [(_grad_experiment(family, size), load(family_source(family, size), sut.api,
                                                   "grad_loss"), family.inputs(size))
             for size in sizes]

    def measured(seconds) -> Growth:
        return Growth(family_name, family.meaning, sizes, (float(n), float(factor * n)),
                      tuple(seconds), "fastest seconds of grad loss", "n")

    result = measured(fastest_seconds(sut, calls, repeats))
    for _ in range(rounds - 1):
        if result.ratio <= bound:
            break
        result = measured(map(min, result.grad, fastest_seconds(sut, calls, repeats)))
    return result


# ----------------------------------------------------------------------------- tracing

def _chain_of(n: int) -> str:
    body = "".join("    z = jnp.sin(z) * x\n" for _ in range(n))
    return f"{PRELUDE}\ndef f(x):\n    z = x\n{body}    return z\n"


def python_calls(fun, *args) -> tuple[int, object]:
    """Python function calls (and C calls) made while running `fun(*args)`, and its result:
    a deterministic measure of work."""
    calls = [0]

    def count(frame, event, arg):
        if event in ("call", "c_call"):
            calls[0] += 1

    previous = sys.getprofile()
    sys.setprofile(count)
    try:
        result = fun(*args)
    finally:
        sys.setprofile(previous)
    return calls[0], result


def _staged(api, fun, *args):
    return api.make_jaxpr(fun)(*args)


def _staged_counting(api, fun, *args) -> tuple[int, object]:
    """`_staged`, with the Python calls its staging makes (`make_jaxpr(fun)` itself is
    not counted)."""
    return python_calls(api.make_jaxpr(fun), *args)


def tracing_growth(sut, n: int) -> Growth:
    """Python calls spent staging the equations added from n to 2n links, and from 2n to 4n.

    Taking differences removes the fixed cost of a `make_jaxpr` call, which would
    otherwise hide a quadratic term at small n.  Each size is staged once to warm
    one-time caches, then counted on a fresh function object (so a cache keyed by
    the function, as JAX's is, cannot answer instead of the tracer).
    """
    x = np.linspace(0.1, 0.9, 3)
    counts, sizes = [], []
    for size in (n, 2 * n, 4 * n):
        source = _chain_of(size)
        exp = Experiment(f"make_jaxpr of a chain of {size} links", source,
                         "sut.make_jaxpr(f)(x)", {"x": x})
        exp.call_on(sut, partial(_staged, sut.api, load(source, sut.api, "f"), x))
        calls, staged = exp.call_on(sut, partial(_staged_counting, sut.api,
                                                 load(source, sut.api, "f"), x))
        counts.append(calls)
        sizes.append(count_equations(staged))
    added = (counts[1] - counts[0], counts[2] - counts[1])
    return Growth("tracing", f"make_jaxpr of z = sin(z) * x, n links; calls to stage links "
                  f"{n + 1}..{2 * n}, then {2 * n + 1}..{4 * n}",
                  (2 * n, 4 * n), (sizes[1], sizes[2]), added,
                  "Python calls for the added links", "equations staged")


# ----------------------------------------------------------------------------- generated programs

class Works(NamedTuple):
    """Work of a generated program `f`, its scalar `loss`, and their transformations."""

    f: int
    loss: int
    jvp: int
    vjp: int
    grad: int
    input_elements: int
    output_elements: int


def _names(prefix: str, count: int) -> list[str]:
    return [f"{prefix}{i}" for i in range(count)]


def transformations_source(program) -> str:
    """`jvp_f`, `vjp_f` (pullback applied) and `grad_loss` (every argument) over `f`, `loss`."""
    xs, ts, us = (_names(p, len(v)) for p, v in (("x", program.inputs), ("t", program.inputs),
                                                 ("u", program.outputs)))
    x, t, u = ", ".join(xs), ", ".join(ts), ", ".join(us)
    cotangent = us[0] if len(us) == 1 else f"({u},)"
    grad = GRAD.call("loss", f"argnums={tuple(range(len(xs)))!r}")
    return (f"def jvp_f({x}, {t}):\n    return {JVP.call('f', f'({x},)', f'({t},)')}\n\n\n"
            f"def vjp_f({x}, {u}):\n    out, pullback = {VJP.call('f', x)}\n"
            f"    return out, pullback({cotangent})\n\n\n"
            f"def grad_loss({x}):\n    return {grad}({x})\n")


def program_source(case) -> str:
    constants = {f"w{k}": np.full(out.shape, 0.5) for k, out in enumerate(case.program.outputs)}
    return render_module(render_function(case.program), wrappers.loss(case.program),
                         transformations_source(case.program), constants=constants)


def program_works(sut, case) -> Works:
    """The same cost model applied to f, loss, jvp f, vjp f and grad loss."""
    program, source = case.program, program_source(case)
    inputs = named("x", case.args)
    inputs |= {f"t{i}": np.ones_like(x) for i, x in enumerate(case.args)}
    outputs = [np.ones(out.shape) for out in program.outputs]
    inputs |= {f"u{k}": u for k, u in enumerate(outputs)}
    xs, ts = _names("x", len(case.args)), _names("t", len(case.args))
    us = _names("u", len(outputs))

    def measure(name, args):
        call = f"{name}({', '.join(args)})"
        return work(stage(sut, source, call, inputs, call))

    return Works(measure("f", xs), measure("loss", xs), measure("jvp_f", xs + ts),
                 measure("vjp_f", xs + us), measure("grad_loss", xs),
                 sum(x.size for x in case.args), sum(u.size for u in outputs))


@contextlib.contextmanager
def program_noted(case):
    """On `CostTooHigh`, add the program, its loss and the transformations staged as a note."""
    try:
        yield
    except CostTooHigh as exc:
        exc.add_note("the program, its loss and the transformations staged:\n"
                     + program_source(case))
        raise


def check_constant_factors(sut, case, record: Callable[[Works], object] | None = None) -> None:
    """work(grad loss) and work(jvp f) within their constant factors of work(loss) and work(f).

    `record`, if given, receives the `Works` measured, before any verdict:
    `bench/cost_report.py` tabulates the very programs the property judges.
    """
    __tracebackhide__ = True
    works = program_works(sut, case)
    if record is not None:
        record(works)
    what = f"{sut.name}, {len(case.program.eqns)}-equation program"
    with program_noted(case):
        assert_bounded("grad loss", works.grad, works.loss, grad_factor(sut.name),
                       SLACK_FIXED + works.input_elements,
                       f"{what}; f = loss, slack = {SLACK_FIXED} + gradient elements")
        assert_bounded("jvp f", works.jvp, works.f, jvp_factor(sut.name),
                       SLACK_FIXED + works.output_elements,
                       f"{what}; slack = {SLACK_FIXED} + tangent elements")
