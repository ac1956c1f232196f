"""One computation on an SUT, held as source text so the reproducer is what ran.

An `Experiment` is a module source (the program `f`, any wrapper such as
`check` that applies a transformation, and exact constant literals), a call
expression, and the arrays that call takes.  `result_on(sut)` execs the
source with `sut` bound, evaluates the call and reads its result as one SUT
call (`call_on`): within `sut.timeout` seconds, its script kept on disk
meanwhile where `sut.in_flight` says (oracles/inflight.py), whatever it
raises the SUT's failure; the reproducer prints the same source and call.
Computing one experiment on the SUT and on a reference SUT is how the
reference oracle works
(`oracles/reference.py`).  `case_experiment` builds one from a drawn program
and the wrapper that applies a transformation to it.
"""

from __future__ import annotations

import contextlib
import hashlib
import linecache
import math
import re
import signal
import sys
import threading
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np

from oracles.errors import SutBadOutput, SutFailure, SutRaised, SutTimedOut
from oracles.frozen import JUDGE
from oracles.sut import Sut, features_in
from strategies import coverage
from strategies.language.render import render_function, render_module
from strategies.program import ProgramCase
from strategies.wrappers import Wrapper, named

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class Experiment:
    title: str
    source: str
    call: str
    inputs: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def in_float32(self) -> bool:
        """Whether the call computes in float32: some input is float32 (the
        contract's float32 part), so its tolerances are float32's."""
        return any(np.asarray(value).dtype == np.float32 for value in self.inputs.values())

    @property
    def features(self) -> list[str]:
        """The contract's features the call uses: its names, `float32` and
        `integer_arguments` where an input is one."""
        integers = any(np.asarray(value).dtype.kind in "iu" for value in self.inputs.values())
        return sorted([*features_in(self.source + self.call), *["float32"] * self.in_float32,
                       *["integer_arguments"] * integers])

    def result_on(self, sut: Sut, *, as_float64: bool = True) -> tuple[np.ndarray, ...]:
        """The call's result on `sut`, flattened to a tuple of float64 arrays (of
        the dtypes the SUT returned, without `as_float64`).

        Reading the result (`flatten`) is part of the call (`call_on`): JAX
        dispatches asynchronously and MLX computes lazily, so a result's
        computation may first run, and fail, as it is read.
        """
        __tracebackhide__ = True
        module = _program_module(self.source, sut.api)

        def compute():
            exec(compile(self.source, _filename(self.source), "exec"), module.__dict__)
            return eval(self.call, module.__dict__, dict(self.inputs))

        with module_named(module):
            return self.call_on(sut, compute, lambda result: flatten(
                result, f"{self.title} on {sut.name}", as_float64=as_float64))

    def call_on(self, sut: Sut, make: Callable[[], T],
                read: Callable[[T], R] = lambda result: result) -> R:
        """`read(make())`, made as this experiment's call on `sut`.

        Its script is on disk while it runs (where `sut.in_flight` says), it
        has the SUT's time limit, and whatever `make` or `read` raises is the
        SUT's failure (`SutRaised`), `SystemExit` included; a
        `KeyboardInterrupt` too under the `jaxcheck` command (`sut.in_flight`
        set), whose children run in their own session, out of a terminal's
        Ctrl-C: there it can only be the SUT's.  Under plain pytest it is the
        user's Ctrl-C, and interrupts the run.  `result_on` makes the call
        from the source; the cost oracle (oracles/cost.py) calls functions it
        loaded once, and counts or times the call alone.
        """
        __tracebackhide__ = True
        JUDGE.before_call()
        # Before anything judges the result, or what it raised, a change to the
        # oracle is the verdict, whatever the call did (oracles/frozen.py).
        try:
            result = self._call_on(sut, make, read)
        except KeyboardInterrupt:
            raise  # the user's Ctrl-C (`sut.in_flight` unset): nothing to judge
        except BaseException:
            JUDGE.after_call(sut.api, f"{self.title} on {sut.name}")
            raise
        JUDGE.after_call(sut.api, f"{self.title} on {sut.name}")
        return result

    def _call_on(self, sut: Sut, make: Callable[[], T], read: Callable[[T], R]) -> R:
        __tracebackhide__ = True
        guard = sut.in_flight.call(self, sut.name) if sut.in_flight else contextlib.nullcontext()
        with guard, _time_limit(sut.timeout, f"{self.title} on {sut.name}"):
            doing = "computing"
            try:
                result = make()
                doing = "reading its result of"
                return read(result)
            except SutFailure:
                raise
            except KeyboardInterrupt as exc:
                if not sut.in_flight:
                    raise
                failure = self._raised(sut, exc, doing)
            except (Exception, SystemExit) as exc:
                failure = self._raised(sut, exc, doing)
            raise failure  # outside `except`: without exc as context (SutRaised.kind_of)

    def _raised(self, sut: Sut, exc: BaseException, doing: str) -> SutRaised:
        """The SUT's `exc` as its failure, with the features the example uses."""
        detail = f"sys.exit({exc.code!r})" if isinstance(exc, SystemExit) else str(exc)
        failure = SutRaised.kind_of(exc)(
            f"{sut.name} raised {type(exc).__name__} while {doing} {self.title}"
            f"{': ' * bool(detail)}{detail}{_origin(exc)}"
            f"\nThe example uses {', '.join(self.features)}: "
            "if the SUT does not offer one of these by design, list it in "
            "__sut_unsupported__ (docs/sut-api.md) and the properties leave it out.")
        failure.__cause__ = exc
        return failure


# How many `raise ... from` links `_origin` follows, and how much of the last line
# it keeps: enough for a wrapped error's own message, not a whole NodeDef.
ORIGIN_DEPTH = 8
ORIGIN_CHARACTERS = 400


def _origin(exc: BaseException) -> str:
    """A line naming the error `exc` was raised from, if any: the last line of the
    innermost explicit cause (`raise ... from`), where systems that wrap an error
    keep what went wrong (TensorFlow's "Encountered an exception while
    vectorizing the jacobian computation" holds pfor's reason in its cause, whose
    message ends with it).  It goes into the failure's message, which is what
    a summary groups and a finding's signature is matched against."""
    cause, depth = exc.__cause__, 0
    while cause is not None and cause.__cause__ is not None and depth < ORIGIN_DEPTH:
        cause, depth = cause.__cause__, depth + 1
    if cause is None:
        return ""
    lines = [line.strip() for line in str(cause).splitlines() if line.strip()]
    last = lines[-1][:ORIGIN_CHARACTERS] if lines else ""
    if not _NAMED.match(last):  # TensorFlow's last line names its error type already
        last = f"{type(cause).__name__}{': ' * bool(last)}{last}"
    return f"\n(raised from {last})"


_NAMED = re.compile(r"[A-Za-z_][\w.]*(?:Error|Exception|Warning): ")


def case_experiment(case: ProgramCase, wrapper: Wrapper, title: str, *, inputs=None,
                    constants=None, function: str | None = None, also=()) -> Experiment:
    """The program, the wrapper and any constants as one module; `inputs` default to x0..

    `function` is the source of `f` when it is not `render_function(case.program)`
    (a program with Python control flow, say).  `also`: the other input sets the
    wrapper runs the program at (one jitted function called twice), for coverage.
    """
    own = named("x", case.args)
    inputs = inputs if inputs is not None else own
    if coverage.RECORDER is not None:
        # The program's inputs as this experiment passes them: a vmap's are its batch.
        coverage.RECORDER.note(case.program, wrapper.source,
                               [inputs.get(name, x) for name, x in own.items()])
        for args in also:
            coverage.RECORDER.note(case.program, wrapper.source, args)
    function = function if function is not None else render_function(case.program)
    source = render_module(function, wrapper.source, constants=constants)
    return Experiment(title, source, wrapper.call, inputs)


def _program_module(source: str, api) -> types.ModuleType:
    """A module for the program to run in, with `sut` bound: the reproducer runs as
    a real module too, and a compiler that looks a function's globals up by
    module name (torch.compile's dynamo does) must find them."""
    module = types.ModuleType(f"jaxcheck_program_{hashlib.sha1(source.encode()).hexdigest()[:12]}")
    module.sut = api
    return module


@contextlib.contextmanager
def module_named(module: types.ModuleType):
    """`module` in `sys.modules` while the call runs (and out of it after, so a
    long run does not keep every program)."""
    sys.modules[module.__name__] = module
    try:
        yield
    finally:
        if sys.modules.get(module.__name__) is module:
            del sys.modules[module.__name__]


def _filename(source: str) -> str:
    """A name for `source` under which tracebacks show its lines (via linecache).

    Keyed by the source's hash, so reruns of one program share one entry.
    """
    name = f"<jaxcheck program {hashlib.sha1(source.encode()).hexdigest()[:12]}>"
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    return name


# No array a generated program makes comes near this many elements (dims of
# at most 5, a few batch axes: thousands); a result that claims more is a bad
# output, not something to allocate (torch.func.vmap once returned a view of
# shape (34359738368, 4), and converting it asked NumPy for 1 TiB).
MAX_OUTPUT_ELEMENTS = 10**7


def _elements(result) -> int:
    try:
        return math.prod(int(d) for d in getattr(result, "shape", ()))
    except (TypeError, ValueError):  # no concrete shape: let the conversion judge it
        return 0


def flatten(result, what: str, *, as_float64: bool = True) -> tuple[np.ndarray, ...]:
    """Tuples, lists and dicts of array-likes, depth first, as float64 arrays (as
    returned, without `as_float64`).

    A dict's entries come in sorted key order, as JAX flattens pytrees.  A
    leaf must be real floating point (`real_leaf`).  What converting a leaf
    raises is left to the caller: for an SUT's result, the SUT raised it.
    """
    if isinstance(result, dict):
        result = [result[key] for key in sorted(result)]
    if isinstance(result, tuple | list):
        return tuple(leaf for item in result for leaf in flatten(item, what,
                                                                 as_float64=as_float64))
    elements = _elements(result)
    if elements > MAX_OUTPUT_ELEMENTS:
        raise SutBadOutput(f"got an output of shape {tuple(result.shape)} ({elements:,} "
                           f"elements), more than any array the program makes [{what}]")
    leaf = real_leaf(result, np.asarray(result), what)
    return (leaf.astype(np.float64) if as_float64 else leaf,)


# ml_dtypes' floating types (bfloat16, float8_*, ...), which NumPy files as kind
# "V"; a structured or opaque "V" dtype has other names.
_NARROW_FLOATS = ("bfloat16", "float8_", "float6_", "float4_")


def real_leaf(result, array: np.ndarray, what: str) -> np.ndarray:
    """`array` (`result` converted), if it is real floating point.

    The contract's outputs are real floating point.  Converting anything else
    to float64 hid what came back: a complex result lost its imaginary part,
    and integers, booleans and objects passed as numbers.  A float16 or
    float32 leaf is accepted, its precision judged by the comparisons.  A
    Python int is exact and no SUT's array is one: it is a count a wrapper
    returns (the runs of `f`, a staged dimension, tests/test_dynamic_shapes.py).
    """
    dtype = array.dtype
    if dtype.kind == "f" or type(result) is int or (
            dtype.kind == "V" and dtype.names is None and dtype.name.startswith(_NARROW_FLOATS)):
        return array
    kind = {"c": "complex", "i": "integer", "u": "unsigned integer", "b": "boolean",
            "O": "Python object"}.get(dtype.kind, "non-numeric") + " values"
    if dtype.kind == "c":
        kind += f", imaginary parts up to {np.max(np.abs(array.imag), initial=0.0):.3g}"
    came = type(result).__name__ + (f" of dtype {dtype}" if hasattr(result, "dtype") else "")
    raise SutBadOutput(f"got {came} ({kind}), but should be real floating point (float64) "
                       f"[{what}]")


# The longest time limit one call may have: a day.  A call on a generated
# program takes milliseconds to minutes (the default limit is 60 s), so a
# longer limit is a slip, not a choice; and `signal.setitimer` refuses a
# limit past about 9e9 s on this platform (OverflowError; ValueError for NaN).
# The command's --sut-timeout and plain pytest's refuse more (jaxcheck/arguments.py).
MAX_TIME_LIMIT = 24 * 3600.0


def check_time_limit(seconds: float) -> None:
    """A ValueError unless `seconds` is a finite number of seconds up to `MAX_TIME_LIMIT`
    (0 or less: no limit)."""
    if not (math.isfinite(seconds) and seconds <= MAX_TIME_LIMIT):
        raise ValueError(f"a time limit of {seconds!r} s: a limit must be a finite number of "
                         f"seconds, at most {MAX_TIME_LIMIT:g} (a day), or 0 for none")


@contextlib.contextmanager
def _time_limit(seconds: float, what: str):
    """Raise SutTimedOut in the main thread after `seconds` (no-op elsewhere; 0: no limit).

    A limit `check_time_limit` refuses is the caller's mistake, a ValueError
    before the SUT runs: passed on to the timer, it raised from inside the
    call and read as the SUT failing.
    """
    check_time_limit(seconds)
    if seconds <= 0 or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise SutTimedOut(f"{what} did not return within {seconds:g} s (--sut-timeout)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)

