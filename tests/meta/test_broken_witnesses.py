"""Every broken shim's smallest input really shows its bug, and its docstring says which.

Each module of `tests/broken/` carries `FAMILY` (a key of
`tests.broken.FAMILIES`) and `WITNESS` (a `tests.broken.Witness`), and its
docstring shows both.  Here the witness call runs on the shim and on refimpl,
the correct reference, and the two must differ as `Witness.shows` says: in
value, by refimpl refusing what the shim returns (or the other way round), or,
for a cost-only bug, by the shim's grad work growing super-linearly on a
family of `oracles.cost` where refimpl's grows linearly.  No Hypothesis: one
call per shim, seconds for all of them.

Several shims replace a rule in refimpl's own tables when imported, so no shim
is imported in this process: each runs in a fresh child of its own, which sends
back what the shim's module says and what its witness gave, and refimpl (never
touched here) answers in this process.
"""

import ast
from pathlib import Path

import numpy as np
import pytest

import refimpl
from oracles import cost
from oracles.cost_bounds import GROWTH_LINEAR
from oracles.sut import ATTRIBUTES, resolve
from tests.broken import FAMILIES, SHOWS
from tests.meta import warm

BROKEN = Path(__file__).resolve().parents[1] / "broken"
# The shims; `__init__` and `over_jax` are what shims are built from.
SHIMS = sorted(p.stem for p in BROKEN.glob("*.py") if p.stem not in ("__init__", "over_jax"))
NAMES = (*ATTRIBUTES, "export", "ShapeDtypeStruct")
# A float32 step inside a float64 computation errs by about 1e-8 relative: the
# comparison must be finer than that, and coarser than rounding (1e-16).
RTOL, ATOL = 1e-10, 1e-12


def leaves(tree) -> list:
    """The arrays of a result, in JAX's order (a dict's entries by sorted key)."""
    if isinstance(tree, tuple | list):
        return [leaf for child in tree for leaf in leaves(child)]
    if isinstance(tree, dict):
        return [leaf for key in sorted(tree) for leaf in leaves(tree[key])]
    return [np.asarray(tree)]


def outcome(api, call: str):
    """The leaves `call` returns on `api`, or the name of the exception it raises."""
    try:
        names = {name: getattr(api, name, None) for name in NAMES}  # a toy may lack some
        return leaves(eval(call, names | {"np": np}))
    except Exception as exc:  # what a refusal looks like differs between SUTs
        return type(exc).__name__


def squeeze(text: str) -> str:
    """`text` with every run of white space one blank (a docstring wraps a long call)."""
    return " ".join(text.split())


def differ(a: list, b: list) -> bool:
    return len(a) != len(b) or any(
        x.shape != y.shape or not np.allclose(x, y, rtol=RTOL, atol=ATOL) for x, y in zip(a, b))


def shim_report(shim: str) -> dict:
    """What the shim's module says and what its witness gives on the shim (in a child)."""
    name = f"tests.broken.{shim}"
    sut = resolve(name)
    module, witness = sut.api, sut.api.WITNESS
    got = (cost.growth(sut, witness.call).ratio if witness.shows == "cost"
           else outcome(module, witness.call))
    return {"doc": module.__doc__, "family": module.FAMILY, "witness": tuple(witness),
            "got": got}


def _answer(fun, *args):
    """`fun(*args)`, or what it raised, as a picklable pair."""
    try:
        return "ok", fun(*args)
    except BaseException as exc:  # noqa: B036  (reported to the parent, not lost)
        return "raised", repr(exc)


def in_child(fun, *args):
    """`fun(*args)` in a fresh process of its own (tests/meta/warm.py); it returns a
    picklable value."""
    with warm.context().Pool(1) as pool:
        status, value = pool.apply(_answer, (fun, *args))
    assert status == "ok", f"reading the shim raised {value}"
    return value


@pytest.mark.meta
@pytest.mark.parametrize("shim", SHIMS)
def test_the_smallest_input_shows_the_bug(shim):
    report = in_child(shim_report, shim)
    call, shows = report["witness"]
    doc, family = report["doc"], report["family"]
    assert family in FAMILIES, f"FAMILY = {family!r} is not one of {sorted(FAMILIES)}"
    assert shows in SHOWS, f"Witness.shows = {shows!r} is not one of {SHOWS}"
    assert f"Family: {family}." in doc, f"the docstring does not say 'Family: {family}.'"
    assert squeeze(f"Smallest input: `{call}`") in squeeze(doc), (
        "the docstring does not show the witness call")
    got = report["got"]
    if shows == "cost":
        linear = cost.growth(resolve("refimpl"), call).ratio
        assert got > GROWTH_LINEAR >= linear, (
            f"grad work on family {call!r} grows by {got:.2f} on the shim and {linear:.2f} on "
            f"refimpl; the shim's should exceed {GROWTH_LINEAR}, refimpl's not")
        return
    want = outcome(refimpl, call)
    shim_raised, reference_raised = isinstance(got, str), isinstance(want, str)
    if shows in ("value", "dtype"):
        assert not shim_raised and not reference_raised, (got, want)
        assert differ(got, want) == (shows == "value"), f"the shim gives {got}, refimpl {want}"
        if shows == "dtype":
            dtypes = [[x.dtype.name for x in leaves] for leaves in (got, want)]
            assert dtypes[0] != dtypes[1], f"the shim gives refimpl's dtypes {dtypes[1]}"
    elif shows == "refusal":
        assert reference_raised and not shim_raised, f"refimpl: {want}; the shim: {got}"
    else:
        assert shim_raised and not reference_raised, f"the shim: {got}; refimpl: {want}"


def private_imports(path: Path) -> list[str]:
    """`module.name` for every `_`-prefixed (not dunder) name `path` imports from refimpl."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "refimpl":
            found += [f"{node.module}.{alias.name}" for alias in node.names
                      if alias.name.startswith("_") and not alias.name.endswith("__")]
    return found


@pytest.mark.meta
def test_no_shim_imports_a_private_refimpl_name():
    """A shim builds its bug from refimpl's public helpers (`jvp.defjvp`,
    `vmap.defelementwise`, ...): a private name may change under it unannounced."""
    found = {path.name: private_imports(path) for path in sorted(BROKEN.glob("*.py"))}
    offenders = {name: names for name, names in found.items() if names}
    assert not offenders, f"tests/broken imports private refimpl names: {offenders}"
