"""What the oracle judges with, frozen before the SUT is imported and checked after each SUT call.

The SUT runs in the oracle's process, so it can change what the oracle
judges with: `numpy.all = lambda *a, **k: True`, at import or in a call,
made every comparison pass, and with it a wrong `jvp`.  A verdict must not
depend on the SUT's good manners, and real libraries do patch NumPy.

Two designs keep the verdict out of the SUT's reach.  One judges in a
process the SUT never ran in, results crossing a pipe as plain data; but
nearly all of jaxcheck is oracle (NumPy's meaning of each program, finite
differences, the reference, Hypothesis drawing and shrinking), and every
SUT call, the cost oracle's timed ones among them, would cross the pipe,
its program and its arrays both ways.  The other, this module, freezes what
the oracle uses before the SUT is imported (`JUDGE.freeze`, from
`oracles.sut.resolve`, which refuses an SUT whose import changed it) and
checks after every call on the SUT that nothing of it changed
(`JUDGE.after_call`, from `Experiment.call_on`): a change is a verdict of
its own kind, `OracleChanged`, naming what changed, with the reproducer of
the call after which it was found; what changed is put back at once, so no
oracle computes with it.  A check costs about a millisecond, a tenth of an
example or less (bench/bench_frozen.py).

What is frozen, each attribute held to be the same object it was:

* every attribute of NumPy and each of its submodules loaded (`numpy.all`,
  and `numpy._core.fromnumeric`'s helpers behind it), `numpy.testing`,
  `math`, `cmath`, `builtins`, `operator`, `functools`;
* jaxcheck's own modules (`oracles`, `strategies`, `jaxcheck`, the
  properties `tests.test_*`), where no new name may appear
  either (a global `abs` in `oracles.compare` would shadow the builtin),
  and the attributes of the classes they define;
* the code, defaults and keyword defaults of every Python function among
  them (NumPy's `allclose` is a dispatcher around one);
* the functions, classes and modules of the reference SUT's package
  (`add_reference`): not its data, which it changes as it runs (refimpl's
  current interpreter);
* that each of these modules is still the one `sys.modules` holds.

A module of these packages imported later (the properties, at collection)
is frozen when the next SUT call starts, before the SUT runs.

What an in-process guard cannot see: state changed in place (a dict's
entries, an array's elements), a change made from a thread of the SUT's
own between its calls (found at its next call, after an oracle may have
used it), the harness (Hypothesis, pytest), and an SUT set on defeating the
guard itself (`JUDGE`'s own state, or its code through `ctypes`): only a
judge in a process of its own is out of reach of that.  Python itself
refuses to change its built-in types (`float.__eq__`,
`numpy.ndarray.__sub__`).  The SUT's own modules are not frozen: they are
its to change.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Mapping
from functools import partial
from itertools import chain
from operator import attrgetter, call, is_, itemgetter
from typing import NamedTuple

# Loaded here, so that it is frozen with the rest: NumPy loads it only when first
# used, and an SUT that imported it first could change it before it was frozen.
import numpy.testing  # noqa: F401

from oracles.errors import OracleChanged
from oracles.names import LIBRARY

# Frozen whole, data included.
WHOLE = ("numpy", "math", "cmath", "builtins", "operator", "functools")
# jaxcheck's own: frozen whole, and no new name may appear in them.  Not `conftest`:
# the properties' wiring is jaxcheck.plugin, and `conftest` is whichever conftest.py
# pytest imported last under that name (a user's own, or a meta-test's project's).
OWN = ("oracles", "strategies")
# The properties of tests/ (not the broken or tampering SUTs beside them).
PROPERTIES = "tests.test_"
# The `jaxcheck` package is the command's, and its own too, but for the SUTs
# and tests an installed jaxcheck keeps inside it.
NOT_OWN = ("refimpl", "suts", "tests", "bench")
# Frozen for their code: the functions, classes and modules they hold (the
# reference's package joins them: `add_reference`).  Hypothesis and pytest are
# the harness, not the oracle, and are left out: with them a check read 4,300
# more attributes and took a third longer.
CODE: tuple[str, ...] = ()
# Names that change as a run goes, by design, in any module: the interpreter's
# last value (`_`), a module's registry of the warnings it gave.
VOLATILE = frozenset({"_", "__warningregistry__"})
# Attributes that change as a run goes, by design: the coverage recorder, set
# once the options are read (and by the meta-tests that record coverage).
VOLATILE_ATTRIBUTES = frozenset({"strategies.coverage.RECORDER"})
# How many changes a verdict names (the rest are counted).
NAMED = 5

_GONE = object()  # a frozen name no longer there
_code, _defaults, _kwdefaults = (attrgetter(name) for name in
                                 ("__code__", "__defaults__", "__kwdefaults__"))


class _Namespace(NamedTuple):
    """One module's or class's attributes, as frozen."""

    where: str
    owner: object  # the module or class (setattr restores it), or the dict itself
    namespace: Mapping
    names: tuple[str, ...]
    values: tuple
    closed: bool  # no name may be added
    size: int

    def changes(self) -> list[str]:
        found = []
        for name, value in zip(self.names, self.values):
            if name not in self.namespace:
                found.append(f"{self.where}.{name} was deleted")
            elif self.namespace[name] is not value:
                found.append(f"{self.where}.{name} was replaced by "
                             f"{describe(self.namespace[name])}")
        if self.closed:
            found += [f"{self.where}.{name} was added" for name in self._added()]
        return found

    def _added(self) -> list[str]:
        return [name for name, value in list(self.namespace.items())
                if name not in self.names and not _volatile(self.where, name)
                and not _submodule(self.where, name, value)]

    def restore(self) -> None:
        """Every frozen name as it was; a name added to a closed namespace gone."""
        put, drop = ((self.owner.__setitem__, self.owner.__delitem__)
                     if isinstance(self.owner, dict) else
                     (partial(setattr, self.owner), partial(delattr, self.owner)))
        for name, value in zip(self.names, self.values):
            if self.namespace.get(name, _GONE) is not value:
                put(name, value)
        for name in self._added() if self.closed else ():
            drop(name)


class _Function(NamedTuple):
    """A Python function, with its code and defaults as frozen."""

    where: str
    function: types.FunctionType
    code: types.CodeType
    defaults: tuple | None
    kwdefaults: dict | None

    def changes(self) -> list[str]:
        f = self.function
        same = (f.__code__ is self.code and f.__defaults__ is self.defaults
                and f.__kwdefaults__ is self.kwdefaults)
        return [] if same else [f"the code or defaults of {self.where} were replaced"]

    def restore(self) -> None:
        f = self.function
        f.__code__, f.__defaults__, f.__kwdefaults__ = self.code, self.defaults, self.kwdefaults


class _Flat(NamedTuple):
    """Everything frozen, laid out for one pass in C per kind (a check runs after
    every SUT call: a loop in Python over 14,000 attributes took 1.6 ms, this
    takes a tenth of it; bench/bench_frozen.py).

    `getters[i](namespaces[i])` reads namespace i's frozen names, as a tuple
    (a namespace of one name is read twice over, so that it is a tuple too);
    `values` is every namespace's frozen values in that order."""

    getters: tuple
    namespaces: tuple
    values: tuple
    closed: tuple
    sizes: tuple
    functions: tuple
    codes: tuple
    defaults: tuple
    kwdefaults: tuple

    def unchanged(self) -> bool:
        try:
            now = chain.from_iterable(map(call, self.getters, self.namespaces))
            return (all(map(is_, now, self.values))
                    and tuple(map(len, self.closed)) == self.sizes
                    and all(map(is_, map(_code, self.functions), self.codes))
                    and all(map(is_, map(_defaults, self.functions), self.defaults))
                    and all(map(is_, map(_kwdefaults, self.functions), self.kwdefaults)))
        except KeyError:  # a frozen name deleted
            return False


def _flat(namespaces: list[_Namespace], functions: list[_Function]) -> _Flat:
    read = [n for n in namespaces if n.names]
    closed = [n for n in namespaces if n.closed]
    return _Flat(
        tuple(itemgetter(*n.names) if len(n.names) > 1 else itemgetter(n.names[0], n.names[0])
              for n in read),
        tuple(n.namespace for n in read),
        tuple(v for n in read for v in (n.values if len(n.names) > 1 else n.values * 2)),
        tuple(n.namespace for n in closed), tuple(n.size for n in closed),
        *(tuple(getattr(f, field) for f in functions)
          for field in ("function", "code", "defaults", "kwdefaults")))


def describe(value) -> str:
    """A value in a verdict: what it is and where it comes from, no address (the
    verdict is the same text in every run)."""
    name = getattr(value, "__qualname__", None) or getattr(value, "__name__", None)
    module = getattr(value, "__module__", None)
    kind = type(value).__name__
    if name:
        return f"{kind} {name}" + (f" from {module}" if module else "")
    return f"a {kind}"


def _package(name: str) -> str:
    return name.partition(".")[0]


def _local(name: str) -> str:
    """A module's name as in a clone (`jaxcheck.refimpl.core` installed: `refimpl.core`)."""
    return name.removeprefix(LIBRARY) if LIBRARY else name


def _kind(name: str, references: frozenset[str]) -> str | None:
    """How the module called `name` is frozen: whole, own, code, or not (None)."""
    local = _local(name)
    if (_package(local) in OWN or local.startswith(PROPERTIES) or local == "tests"
            or (_package(name) == "jaxcheck" and _package(local) not in NOT_OWN)):
        return "own"
    if _package(name) in WHOLE:
        return "whole"
    if _package(name) in CODE or _package(local) in references:
        return "code"
    return None


def _volatile(where: str, name: str) -> bool:
    return name in VOLATILE or f"{_local(where)}.{name}" in VOLATILE_ATTRIBUTES


def _submodule(where: str, name: str, value) -> bool:
    """Whether `value`, found as `where.name`, is that submodule, which importing it
    puts on its package: an import, not a change."""
    return isinstance(value, types.ModuleType) and value.__name__ == f"{where}.{name}"


def _frozen_items(name: str, module: types.ModuleType, kind: str) -> dict:
    items = {k: v for k, v in vars(module).items() if not _volatile(name, k)}
    if kind == "code":
        items = {k: v for k, v in items.items()
                 if isinstance(v, type | types.ModuleType | types.FunctionType
                               | types.BuiltinFunctionType) or callable(v)}
    return items


def _namespace(where: str, owner, items: dict, closed: bool) -> _Namespace:
    namespace = owner if isinstance(owner, dict) else vars(owner)
    return _Namespace(where, owner, namespace, tuple(items), tuple(items.values()), closed,
                      len(namespace))


class Frozen:
    """The oracle's modules as frozen, and the check that they still are."""

    def __init__(self):
        self.frozen = False
        self.references: frozenset[str] = frozenset()
        self.reference_apis: list = []  # trusted: no check after their calls
        self.namespaces: list[_Namespace] = []
        self.functions: dict[int, _Function] = {}
        self.modules: dict[str, types.ModuleType] = {}
        self.seen_modules = 0
        self.flat = _flat([], [])  # nothing frozen yet
        self.first: OracleChanged | None = None  # the first change found
        self.told = False  # whether it was raised yet

    def add_reference(self, api) -> None:
        """Freeze the reference SUT's package too (at once, if already frozen)."""
        name = getattr(api, "__name__", None) or type(api).__module__
        self.references |= {_package(_local(name))}
        self.reference_apis.append(api)
        if self.frozen:
            self.adopt()

    def freeze(self) -> None:
        """Freeze the oracle's modules loaded now: once, before the first SUT is imported."""
        if self.frozen:
            return
        self.frozen = True
        self.adopt()

    def adopt(self) -> None:
        """Freeze the modules of the frozen packages that were not loaded when last looked."""
        self.seen_modules = len(sys.modules)
        for name, module in list(sys.modules.items()):
            kind = _kind(name, self.references)
            if kind and name not in self.modules and isinstance(module, types.ModuleType):
                self._freeze_module(name, module, kind)
        self._lay_out()

    def _lay_out(self) -> None:
        self.flat = _flat(self._all_namespaces(), list(self.functions.values()))

    def _all_namespaces(self) -> list[_Namespace]:
        """The modules' and classes' namespaces, and `sys.modules` for the modules."""
        return [*self.namespaces, _namespace("sys.modules", sys.modules, self.modules, False)]

    def _freeze_module(self, name: str, module: types.ModuleType, kind: str) -> None:
        self.modules[name] = module
        items = _frozen_items(name, module, kind)
        self.namespaces.append(_namespace(name, module, items, kind == "own"))
        if kind != "code" or _package(_local(name)) in self.references:
            for key, value in items.items():
                self._freeze_function(f"{name}.{key}", value)
                self._freeze_function(f"{name}.{key}", getattr(value, "_implementation", None))
        if kind != "own":
            return
        for key, value in items.items():
            if isinstance(value, type) and value.__module__ == name:
                attributes = {k: v for k, v in vars(value).items() if k not in VOLATILE}
                self.namespaces.append(_namespace(f"{name}.{key}", value, attributes, True))
                for attribute, f in attributes.items():
                    self._freeze_function(f"{name}.{key}.{attribute}", f)

    def _freeze_function(self, where: str, f) -> None:
        if isinstance(f, types.FunctionType) and id(f) not in self.functions:
            self.functions[id(f)] = _Function(where, f, f.__code__, f.__defaults__,
                                              f.__kwdefaults__)

    def before_call(self) -> None:
        """Freeze what was imported since the last call (the properties, at
        collection), before the SUT runs again."""
        if self.frozen and len(sys.modules) != self.seen_modules:
            self.adopt()

    def changes(self) -> list[str]:
        """What changed since it was frozen; empty if nothing did."""
        if not self.frozen or self.flat.unchanged():
            return []
        found = []
        for group in (*self._all_namespaces(), *self.functions.values()):
            found += group.changes()
        if not found:
            # A name Python adds by itself (a warning's registry) is no change: the
            # namespaces it grew are taken at their new size, and the next check is fast.
            self.namespaces = [n._replace(size=len(n.namespace)) for n in self.namespaces]
            self._lay_out()
        return found

    def after_call(self, api, what: str) -> None:
        """`check`, after a call on `api`, unless `api` is the reference: it changes
        nothing, and a change found after it was the SUT's, which the SUT's next
        call finds (a check costs a millisecond: bench/bench_frozen.py)."""
        if not any(api is reference for reference in self.reference_apis):
            self.check(what)

    def check(self, what: str) -> None:
        """Raise `OracleChanged` if anything frozen changed, or ever did; `what` is
        the call or comparison just made.

        What changed is put back at once, so that nothing after computes with
        it: Hypothesis, replaying the example, draws it as it did the first
        time, with NumPy as frozen (a check as each example started failed
        before it drew, and Hypothesis took the example for a flaky one).  The
        verdict stays: every later check fails with the first change's
        message and the reproducers attached to it (`attached` adds them as it
        passes): the SUT call after which it was found, which makes the change
        again when run, and whose script says so (oracles/reproducer.py)."""
        found = self.changes()
        if found:
            for group in (*self._all_namespaces(), *self.functions.values()):
                group.restore()
            if self.first is None:
                self.first = OracleChanged(verdict(found, what))
                self.told = False
        if self.first is None:
            return
        failure = self.first if not self.told else OracleChanged(*self.first.args)
        if self.told:
            for note in getattr(self.first, "__notes__", ()):
                failure.add_note(note)
        self.told = True
        raise failure  # one place: Hypothesis tells failures apart by where they are raised


def verdict(changes: list[str], what: str) -> str:
    """The message of an `OracleChanged`: what changed, and why it is the SUT's failure."""
    named = "; ".join(changes[:NAMED])
    more = f" (and {len(changes) - NAMED} more)" * (len(changes) > NAMED)
    return (f"the SUT changed the oracle: {named}{more} [found after {what}; changed as the "
            "SUT was imported or in one of its calls up to this one]\n"
            "jaxcheck judges with NumPy, the standard library and its own modules in the "
            "SUT's process, froze them before the SUT was imported, and trusts no verdict "
            "made with them changed: an SUT must leave them as it found them "
            "(oracles/frozen.py).")


# The one frozen judge of this process.
JUDGE = Frozen()
