"""Resolve a system under test (SUT) by name and check it against the contract.

The contract is `docs/sut-api.md`: top-level transformations, a
`numpy` namespace and a `lax` namespace.  Names are module paths (resolved
with `importlib.import_module`, never `exec`), optionally `module:attribute`,
plus two aliases (`refimpl`, `jax`); refimpl and the shims shipped in
`suts/` are found where jaxcheck is installed (oracles/names.py).  Every
problem is reported as one `SutError` whose message says what is wrong and
what to do; the properties' plugin turns it into a usage error.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from typing import NamedTuple

from oracles.frozen import JUDGE, NAMED
from oracles.inflight import InFlight
from oracles.names import canonical, module_path
from oracles.tolerance import MAX_DECLARED_ERROR, Tolerance, declared
from strategies.language.conventions import FEATURES as CONVENTION_FEATURES
from strategies.language.opspec import CONTRACT_LAX, CONTRACT_NUMPY, OPTIONAL_LAX, OPTIONAL_NUMPY
from strategies.language.transformations import DERIVED, REVERSE, TRANSFORMATIONS

# The default SUT: the reference implementation, which passes the whole suite.
DEFAULT_SUT = "refimpl"

# The reference for each SUT under `--reference auto`.  refimpl is checked
# against JAX, and everything else against refimpl: the suite holds refimpl to
# JAX (CI runs both ways), so it judges as strictly, and it stages a program
# in about a millisecond where JAX compiles for a tenth of a second, which
# every third-party SUT would otherwise pay for on top of its own
# (docs/performance.md, "refimpl against JAX").
AUTO_REFERENCE = {"refimpl": "jax"}

# Seconds one SUT call may take before it is reported as hung.  The first call
# of a JAX computation on a new shape compiles (up to a few seconds); a minute
# is far above that and far below a CI budget.  `--sut-timeout` overrides it.
DEFAULT_TIMEOUT = 60.0

# What an SUT provides, by namespace ("" for its top level): the contract's
# names, as the broken shims and the meta-tests read them.  The transformations
# are the rows of strategies/language/transformations.py, and the `numpy` names (and
# `lax`'s operations) those of the language's operation table
# (strategies/language/opspec.py), row by row.
# Besides the transformations, the top level offers the wrappers of user-defined
# rules and rematerialisation (`custom_jvp`, `custom_vjp`, `checkpoint`), which
# constructs of strategies/language/constructs.py use, as they use `lax.stop_gradient`
# (their rows' features).
WRAPPERS = ("custom_jvp", "custom_vjp", "checkpoint")
CONTRACT = {
    "": (*TRANSFORMATIONS, *WRAPPERS),
    "numpy": list(CONTRACT_NUMPY),
    "lax": ("cond", "fori_loop", "scan", "while_loop", "stop_gradient", *CONTRACT_LAX),
}

# The contract's names an SUT may lack without declaring them (the derived
# transformations, the wrappers, `stop_gradient` and the operation table's
# optional rows): jaxcheck sets them unsupported for it, as it does for the
# optional parts below, and the run's header says which it left out.
# Names join the contract this way, so that a shim that worked still works.
OPTIONAL_NAMES = {"": (*DERIVED, *WRAPPERS), "numpy": OPTIONAL_NUMPY,
                  "lax": ("stop_gradient", *OPTIONAL_LAX)}

# The SUT's own top-level attributes the contract names: functions, then namespaces.
ATTRIBUTES = (*CONTRACT[""], *(namespace for namespace in CONTRACT if namespace))

# Features an SUT may declare in `__sut_unsupported__` beyond the names above.
# while_loop_reverse: reverse-mode differentiation (grad, vjp) through
# lax.while_loop, whose trip count is unknown until it runs.  jit_staging: jit
# traces f with abstract values, so a Python branch on a traced value raises
# (a jit that runs f as it is, autograd's, cannot).  leak_check: a tracer
# that escapes its transformation raises when used after it (autograd's boxes
# keep working).  float32: float32 inputs give a float32 computation, and
# float32 with float64 promotes to float64 (tests/test_dtypes.py; a float32
# example of tests/test_stacks.py in two): an SUT that computes in float64
# only declares it.  integer_arguments: a function may take an integer array
# that grad's argnums leaves out and vmap maps (tests/test_dtypes.py).
#
# Conventions at kinks and domain edges (docs/sut-api.md; the table is
# strategies/language/conventions.py, each row with what it fixes): an SUT that
# follows another convention than JAX's declares the row's feature, and
# tests/test_conventions.py skips that row.
EXTRA_FEATURES = ("integer_pow", "make_jaxpr", "while_loop_reverse", "jit_staging",
                  "leak_check", "float32", "integer_arguments", *CONVENTION_FEATURES,
                  "shape_polymorphism")

# shape_polymorphism: staging with symbolic dimensions, as `jax.export` does
# (docs/sut-api.md, "Shape-polymorphic staging"): an optional part, set for
# an SUT without `export.export`, `export.symbolic_shape` and
# `ShapeDtypeStruct`, whose properties (tests/test_dynamic_shapes.py) then skip.
SHAPE_POLYMORPHISM = ("export.export", "export.symbolic_shape", "ShapeDtypeStruct")

# What an alias is known not to offer, declared for it since it cannot declare
# it itself: JAX raises on reverse mode through while_loop, by design; its
# logaddexp and logaddexp2 give a wrong jvp of grad inside lax.scan where their
# operands tie (docs/findings/jax.md, J1), its hypot a second derivative of 0
# where |x| == |y| (J3), and vmap of grad through a cond branch that takes the
# var of a convolve (or correlate) a NaN where the gradient is finite (J4), so
# none of them is checked on JAX, and JAX as the reference abstains on the
# examples that use them.
DECLARED = {"jax": frozenset({"while_loop_reverse", "logaddexp", "logaddexp2", "hypot",
                              "convolve", "correlate"})}


class SutError(Exception):
    """The SUT cannot be used as named: the message says why and what to do."""


class Accuracy(NamedTuple):
    """An operation an SUT computes less accurately than float64 rounding, as it
    declares in `__sut_accuracy__`: each call, derivative rules included, errs
    by at most `error` (1 + |value|), for the reason `why`."""

    error: float
    why: str


def name_problem(name: str) -> str | None:
    """What is wrong with `name` as an SUT name, found before anything is imported
    (`importlib` would say it with a traceback of its own, or read `../x` as a
    relative import); None for a dotted module path, optionally `:attribute`."""
    module, colon, attribute = name.partition(":")
    if all(part.isidentifier() for part in module.split(".")) and (
            not colon or attribute.isidentifier()):
        return None
    return (f"{name!r} is not a module path: use 'refimpl', 'jax', a dotted module path "
            "such as mypkg.shim, or module:attribute")


@dataclass(frozen=True)
class Sut:
    """A resolved SUT: the object to call, what it says about itself, how long
    one call on it may take (`timeout` seconds; 0: no limit), and where each
    call's script is kept while it runs (`in_flight`, under the `jaxcheck`
    command: oracles/inflight.py).

    `unsupported` is every feature it lacks; `inferred`, those of them jaxcheck
    set because the SUT lacks an optional part of the contract (`make_jaxpr`,
    `shape_polymorphism`) without declaring it, so that a skip says which."""

    name: str
    api: object
    version: str
    unsupported: frozenset[str] = field(default_factory=frozenset)
    timeout: float = DEFAULT_TIMEOUT
    in_flight: InFlight | None = None
    inferred: frozenset[str] = field(default_factory=frozenset)
    accuracy: tuple[tuple[str, Accuracy], ...] = ()

    def supports(self, feature: str) -> bool:
        return feature not in self.unsupported

    def tolerance_for(self, source: str, tolerance: Tolerance) -> Tolerance:
        """`tolerance` for an example of this source: widened where it uses an
        operation this SUT declares less accurate (`oracles/tolerance.py`)."""
        if not self.accuracy:  # every example of nearly every SUT: no source to scan
            return tolerance
        used = set(features_in(source))
        named = [(name, accuracy) for name, accuracy in self.accuracy if name in used]
        if not named:
            return tolerance
        what = "; ".join(f"{self.name} declares {name} accurate to {a.error:g} ({a.why})"
                         for name, a in named)
        return declared(tolerance, max(a.error for _, a in named), what)

    def lacking(self, features: list[str]) -> str:
        """Why a test that needs `features` (each unsupported here) is skipped."""
        declared = [f for f in features if f not in self.inferred]
        inferred = [f for f in features if f in self.inferred]
        reasons = []
        if declared:
            reasons.append(f"{self.name} declares {', '.join(declared)} unsupported "
                           "(__sut_unsupported__)")
        if inferred:
            reasons.append(f"{self.name} has no {', '.join(inferred)} (the contract's "
                           "optional part: docs/sut-api.md)")
        return "; ".join(reasons)

    def left_out(self) -> str | None:
        """What jaxcheck set unsupported for this SUT without its declaring it
        (optional names and parts it lacks), for the run's header; None if nothing."""
        if not self.inferred:
            return None
        return (f"{self.name} lacks {', '.join(sorted(self.inferred))}: optional in the "
                "contract (docs/sut-api.md), so what needs them is skipped")

    def describe(self) -> str:
        """"NAME VERSION (declares unsupported: A, B)", " (lacks optional: C)" for
        what jaxcheck set for it, " (declares accuracy: exp 1e-06)" for what it
        computes less accurately (`jaxcheck/matrix.py` reads it back from records)."""
        declared = ", ".join(sorted(self.unsupported - self.inferred)) or "nothing"
        lacking = f" (lacks optional: {', '.join(sorted(self.inferred))})" * bool(self.inferred)
        accuracy = ", ".join(f"{name} {a.error:g}" for name, a in self.accuracy)
        accuracy = f" (declares accuracy: {accuracy})" * bool(accuracy)
        return f"{self.name} {self.version} (declares unsupported: {declared}){lacking}{accuracy}"


def reference_name(sut: str, reference: str) -> str:
    """The name of the reference SUT that `--reference reference` means for `sut`."""
    return AUTO_REFERENCE.get(sut, "refimpl") if reference == "auto" else reference


_USES = re.compile(r"\b(?:sut\.lax|sut\.numpy|jnp|sut)\.(\w+)")


def features_in(source: str) -> list[str]:
    """The contract's features a rendered example uses (its `sut.*`, `jnp.*` and
    `sut.lax.*` names), with `while_loop_reverse` where it differentiates in
    reverse mode around a while loop: the names an SUT that lacks one of them
    lists in `__sut_unsupported__`."""
    names = {dotted.rsplit(".", 1)[-1] for dotted in contract_names()}
    used = {name for name in _USES.findall(source) if name in names}
    if "while_loop" in used and used & REVERSE:
        used.add("while_loop_reverse")
    return sorted(used)


def contract_names() -> list[str]:
    return [f"{ns}.{name}" if ns else name for ns, names in CONTRACT.items() for name in names]


def _import(name: str, option: str):
    problem = name_problem(name)
    if problem:
        raise SutError(f"{option} {problem}")
    module_name, _, attribute = module_path(name).partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise SutError(
            f"{option} {name}: could not import module {module_name!r} ({exc}). "
            "Use 'refimpl', 'jax', an importable module path, or module:attribute."
        ) from None
    except Exception as exc:  # the SUT's own import-time code failed
        raise SutError(
            f"{option} {name}: importing {module_name!r} raised {type(exc).__name__}: {exc}"
        ) from None
    if not attribute:
        return module
    try:
        return getattr(module, attribute)
    except AttributeError:
        raise SutError(
            f"{option} {name}: module {module_name!r} has no attribute {attribute!r}"
        ) from None


def _prepare_jax(api) -> None:
    """The contract is float64; JAX must be told before it creates any array."""
    api.config.update("jax_enable_x64", True)


PREPARE = {"jax": _prepare_jax}


def _lookup(api, dotted: str):
    target = api
    for part in dotted.split("."):
        target = getattr(target, part, None)
    return target


def _optional(dotted: str) -> bool:
    """A name's namespace is its first part (`numpy.linalg.solve`: `numpy`'s
    `linalg.solve`); a top-level name has none."""
    namespace, _, name = dotted.partition(".") if "." in dotted else ("", "", dotted)
    return name in OPTIONAL_NAMES.get(namespace, ())


def missing_names(api, unsupported=frozenset()) -> list[str]:
    """Required contract names that `api` lacks and has not declared unsupported."""
    return [
        dotted for dotted in contract_names()
        if dotted.rsplit(".", 1)[-1] not in unsupported and not _optional(dotted)
        and not callable(_lookup(api, dotted))
    ]


# The kinds of collection `__sut_unsupported__` may be (a string is a sequence
# of letters, a dict's keys would pass unnoticed, anything else is a mistake).
COLLECTIONS = (list, tuple, set, frozenset)


def _unsupported(name: str, api, option: str = "--sut") -> frozenset[str]:
    declared = getattr(api, "__sut_unsupported__", ())
    if not isinstance(declared, COLLECTIONS) or not all(isinstance(f, str) for f in declared):
        raise SutError(f"{option} {name}: __sut_unsupported__ must be a list, tuple or set of "
                       f"feature names, got {declared!r}")
    unknown = sorted(set(declared) - known_features())
    if unknown:
        raise SutError(f"{option} {name}: __sut_unsupported__ names unknown features "
                       f"{unknown}; known features: {sorted(known_features())}")
    return frozenset(declared)


def known_features() -> frozenset[str]:
    """The features an SUT may declare unsupported and a test may need: the contract's
    names (each function's last part) and `EXTRA_FEATURES`."""
    return frozenset(dotted.rsplit(".", 1)[-1] for dotted in contract_names()) | set(
        EXTRA_FEATURES)


def misnamed_needs(test: str, features) -> str | None:
    """What is wrong with `test`'s `@pytest.mark.needs(*features)`, or None: a feature
    no SUT can declare would never skip it, so a misspelt one is an error at collection."""
    unknown = sorted(set(features) - known_features())
    if not unknown:
        return None
    return (f"{test}: needs{tuple(features)!r} names unknown features {unknown}; "
            f"known features: {sorted(known_features())}")


def _accuracy(name: str, api, option: str = "--sut") -> tuple[tuple[str, Accuracy], ...]:
    """`__sut_accuracy__`, checked: {operation: (relative error, reason)}, each
    operation a `numpy` name of the contract, each error in (0, MAX_DECLARED_ERROR]."""
    table = getattr(api, "__sut_accuracy__", {})
    where = f"{option} {name}: __sut_accuracy__"
    if not isinstance(table, dict):
        raise SutError(f"{where} must be a dict {{operation: (relative error, reason)}}, "
                       f"got {table!r}")
    unknown = sorted(str(op) for op in table if op not in CONTRACT["numpy"])
    if unknown:
        raise SutError(f"{where} names {unknown}, which are not operations of the contract; "
                       f"they are: {', '.join(CONTRACT['numpy'])}")
    rows = []
    for op, value in sorted(table.items()):
        ok = (isinstance(value, tuple) and len(value) == 2
              and isinstance(value[0], (int, float)) and not isinstance(value[0], bool)
              and isinstance(value[1], str) and value[1].strip())
        if not ok:
            raise SutError(f"{where}[{op!r}] must be (relative error, reason), a number and a "
                           f"sentence, got {value!r}")
        if not 0 < value[0] <= MAX_DECLARED_ERROR:
            raise SutError(
                f"{where}[{op!r}] declares an error of {value[0]!r}: it must be above 0 and at "
                f"most {MAX_DECLARED_ERROR:g}, past which a wrong derivative rule could hide in "
                "it (oracles/tolerance.py); declare the operation unsupported instead")
        rows.append((op, Accuracy(float(value[0]), value[1].strip())))
    return tuple(rows)


def _optional_parts_lacking(api) -> frozenset[str]:
    """The contract's optional names and parts (docs/sut-api.md) that `api` does not
    offer."""
    lacking = {dotted.rsplit(".", 1)[-1] for dotted in contract_names()
               if _optional(dotted) and not callable(_lookup(api, dotted))}
    if not callable(getattr(api, "make_jaxpr", None)):
        lacking.add("make_jaxpr")
    if not all(callable(_lookup(api, dotted)) for dotted in SHAPE_POLYMORPHISM):
        lacking.add("shape_polymorphism")
    return frozenset(lacking)


def resolve(name: str, timeout: float = DEFAULT_TIMEOUT, option: str = "--sut") -> Sut:
    """Import the SUT called `name`, prepare it, and check the contract; each call
    on it may take `timeout` seconds.  `option` is the command-line option that
    named it (`--sut`, `--reference`), which each error message names."""
    name = canonical(name)
    if option == "--sut":
        JUDGE.freeze()  # before the SUT's import can change the oracle (oracles/frozen.py)
    before = set(JUDGE.changes())  # a meta-test's own change to the oracle is not the SUT's
    api = _import(name, option)
    if option == "--reference":
        JUDGE.add_reference(api)
    changed = [change for change in JUDGE.changes() if change not in before]
    if changed:
        raise SutError(f"{option} {name}: importing it changed what jaxcheck judges with "
                       f"({'; '.join(changed[:NAMED])}); jaxcheck cannot judge an SUT "
                       "that does: it must leave NumPy, the standard library and jaxcheck's "
                       "modules as it found them (oracles/frozen.py)")
    try:
        return _checked(name, api, timeout, option)
    except SutError:
        raise
    except Exception as exc:  # the SUT's own code, run as its names are read
        raise SutError(f"{option} {name}: reading its names raised {type(exc).__name__}: {exc} "
                       "(a module __getattr__, or a __version__ or other attribute, that "
                       "raises); reading a name it lacks must raise AttributeError") from None


def _checked(name: str, api, timeout: float, option: str) -> Sut:
    """The imported `api` prepared and checked against the contract, as a `Sut`."""
    PREPARE.get(name, lambda api: None)(api)
    declared = _unsupported(name, api, option) | DECLARED.get(name, frozenset())
    missing = missing_names(api, declared)
    if missing:
        raise SutError(
            f"{option} {name}: the SUT lacks {', '.join(missing)}. Provide them (see "
            "docs/sut-api.md) or list them in __sut_unsupported__ to skip what needs them."
        )
    version = str(getattr(api, "__version__", None) or "(no __version__)")
    inferred = _optional_parts_lacking(api) - declared
    return Sut(name, api, version, declared | inferred, timeout, inferred=inferred,
               accuracy=_accuracy(name, api, option))


def from_module(name: str, api, version: str = "test") -> Sut:
    """A `Sut` for an object already in hand (meta-tests use this for broken shims)."""
    return Sut(name, api, version, _unsupported(name, api), accuracy=_accuracy(name, api))

