"""What a real system's shim declares unsupported, why, and whether the system offers it.

A shim's `__sut_unsupported__` switches properties off, so a declaration
that is not true hides a system's behaviour from the page: the feature is
shown as lacking where the system computes it, or a defect is silenced
without a finding.  This module reads each declaration's reason (the comment
on its line, or the comment lines above it, in the shim's source) and tries
each declared or unmapped operation on the system itself, without the shim:

* an operation row of the language (`strategies/language/opspec.py`) is
  called as its simplest one-equation program (`cell_cases`, the smallest
  example Hypothesis finds), in call syntax, with `jnp` bound to the
  system's own NumPy-like namespace (`autograd.numpy`, `mlx.core`, ...),
  then differentiated at that point by the system's own reverse and forward
  modes;
* a wrapper or derived transformation (`custom_jvp`, `checkpoint`, `jacfwd`,
  ...) by a probe written for that system (`System.probes`), which uses the
  system's own function for it and raises `Lacking` where it has none.

A try ends in one of three verdicts: the system lacks the name (`lacks`),
something raises on the way (`raises`: the value, or every derivative), or
it computes the value and a derivative (`computes`).  A declaration is true
where the verdict is not `computes`, or where its reason cites a finding of
the system's page (`docs/findings/`) that explains it.  An operation the
shim leaves unmapped (the run header's "lacks optional") must not compute:
the shim should map it.  Only the verdict is judged, not the value: a
system that computes an operation wrongly still offers it, and the suite,
not a declaration, is what should say so.

A declared convention at a kink (`clip_convention`, ...) is checked through
the shim instead, since the convention is the system's behaviour at a
point: with the declaration taken away, the contract's row for it
(`strategies/language/conventions.py`) must fail (`deviation`).
"""

from __future__ import annotations

import io
import re
import tokenize
import types
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

from oracles.conventions import check_convention
from oracles.sut import resolve
from strategies.cell_cases import cell_cases, cells
from strategies.language.conventions import CONVENTIONS
from strategies.language.inputs import directions
from strategies.language.opspec import CALL, OPS
from strategies.language.render import render_function

ROOT = Path(__file__).resolve().parents[2]
FINDINGS = ROOT / "docs" / "findings"
LACKS, RAISES, COMPUTES = "lacks", "raises", "computes"
# A finding's id as a reason cites it: a capital letter and its number (A3, T25, M17).
_CITED = re.compile(r"\b([A-Z]+\d+)\b")


class Lacking(Exception):
    """The system has no function for what a probe asked."""


@dataclass(frozen=True)
class Verdict:
    feature: str
    outcome: str  # LACKS, RAISES or COMPUTES
    detail: str  # what was missing, what raised, or what computed


# ----------------------------------------------------------------------------- reasons

def reasons(path: Path) -> dict[str, str]:
    """Each name `__sut_unsupported__` lists in the source at `path`, with its reason:
    the comment after it on its line, else the block of comment lines last seen above
    it (one block is the reason of every name that follows it, up to the next)."""
    tokens = list(tokenize.generate_tokens(io.StringIO(path.read_text()).readline))
    start = next((i for i, t in enumerate(tokens)
                  if t.type == tokenize.NAME and t.string == "__sut_unsupported__"), None)
    if start is None:
        return {}
    found: dict[str, str] = {}
    pending: list[str] = []  # comment lines since the last name
    block, line_names, depth = "", [], 0
    for token in tokens[start + 1:]:
        if token.type == tokenize.OP and token.string in "([{":
            depth += 1
        elif token.type == tokenize.OP and token.string in ")]}":
            depth -= 1
            if depth == 0:
                break
        elif token.type == tokenize.COMMENT:
            text = token.string.lstrip("#").strip()
            if line_names and token.start[0] == line_names[0][1]:  # after names, on their line
                found.update((name, text) for name, _ in line_names)
            else:
                pending.append(text)
        elif token.type == tokenize.STRING and depth:
            if pending:
                block, pending = " ".join(pending), []
            name = token.string.strip("\"'")
            found[name] = block
            if not line_names or line_names[0][1] != token.start[0]:
                line_names = []
            line_names.append((name, token.start[0]))
    return found


def headings(page: str) -> set[str]:
    """The finding ids of a page of `docs/findings/` (`### A3. ...`)."""
    text = (FINDINGS / page).read_text()
    return set(re.findall(r"^#{2,4} +([A-Z]+\d+)\. ", text, re.MULTILINE))


def cited(reason: str, page: str) -> list[str]:
    """The findings of `page` that `reason` cites."""
    known = headings(page)
    return [i for i in _CITED.findall(reason) if i in known]


# ----------------------------------------------------------------------------- systems

class _Offered:
    """A system's namespace as programs read it: a missing name raises `Lacking`,
    and a function takes NumPy arrays, made the system's by `convert`."""

    def __init__(self, target, convert, prefix: str = ""):
        self._target, self._convert, self._prefix = target, convert, prefix

    def __getattr__(self, name: str):
        try:
            value = getattr(self._target, name)
        except AttributeError:
            raise Lacking(f"{self._prefix}{name}") from None
        if isinstance(value, types.ModuleType) or not callable(value):  # a namespace
            return _Offered(value, self._convert, f"{self._prefix}{name}.")
        convert = self._convert
        return lambda *args, **kwargs: value(*map(convert, args), **kwargs)


@dataclass(frozen=True)
class System:
    """How to try the language on one system without its shim."""

    shim: str  # the shim's module
    library: str  # what must import for the system to be tried
    install: str  # how to install it, for a skip
    page: str  # its findings page under docs/findings/
    numpy: Callable[[], object]  # its NumPy-like namespace
    convert: Callable[[np.ndarray], object]  # a NumPy array as the system's array
    # (f, args): f's value and a derivative at args, by reverse mode, then forward
    # mode: each a callable that raises where the system cannot.
    modes: Callable[[Callable, tuple], tuple[Callable, ...]]
    probes: dict[str, Callable[[], None]] = field(default_factory=dict)
    lax: Callable[[], object] | None = None

    @property
    def path(self) -> Path:
        return ROOT / (self.shim.replace(".", "/") + ".py")


def _case_source(op: str) -> tuple[str, tuple]:
    """The simplest one-equation program of `op`, in call syntax, and its inputs."""
    ranks = cells([op])[0][1]
    case = find(cell_cases(op, ranks), lambda c: True,
                settings=settings(database=None, max_examples=50,
                                  suppress_health_check=list(HealthCheck)))
    program = replace(case.program,
                      eqns=tuple(replace(e, syntax=CALL) for e in case.program.eqns))
    return render_function(program), tuple(case.args)


def try_operation(system: System, op: str) -> Verdict:
    """`op`'s row called on `system` itself: its value, then a derivative."""
    source, args = _case_source(op)
    namespace = _Offered(system.numpy(), system.convert)
    lax = _Offered(system.lax() if system.lax else types.SimpleNamespace(), system.convert,
                   "lax.")
    scope = {"jnp": namespace, "np": np, "sut": types.SimpleNamespace(numpy=namespace, lax=lax)}
    exec(compile(source, f"<{op} on {system.library}>", "exec"), scope)
    return _tried(op, lambda: system.modes(scope["f"], args), source)


def try_feature(system: System, feature: str) -> Verdict:
    """A wrapper or derived transformation, by `system`'s probe for it."""
    probe = system.probes.get(feature)
    if probe is None:
        return Verdict(feature, COMPUTES, f"no probe of {feature} on {system.library}: write one "
                       "in tests/meta/declarations.py (System.probes)")
    return _tried(feature, lambda: (probe,), "")


def _tried(feature: str, steps: Callable[[], tuple[Callable, ...]], source: str) -> Verdict:
    """Run the value, then each derivative: `computes` where the value and one of
    the derivatives ran."""
    try:
        value, *derivatives = steps()
        value()
    except Lacking as missing:
        return Verdict(feature, LACKS, f"no {missing}")
    except Exception as exc:  # noqa: BLE001 - any error is the system refusing
        return Verdict(feature, RAISES, f"{type(exc).__name__}: {str(exc)[:200]}")
    errors = []
    for derivative in derivatives:
        try:
            derivative()
            return Verdict(feature, COMPUTES, source.strip() or feature)
        except Exception as exc:  # noqa: BLE001
            errors.append(f"{type(exc).__name__}: {str(exc)[:200]}")
    if not derivatives:
        return Verdict(feature, COMPUTES, source.strip() or feature)
    return Verdict(feature, RAISES, "; ".join(errors))


def operations() -> dict[str, str]:
    """Each feature name of an operation row (`solve` for `linalg.solve`), with the
    row that calls it; a row is tried whole."""
    return {name.rsplit(".", 1)[-1]: op for op, spec in OPS.items() for name in spec.contract
            if cells([op])}


def judge(system: System, declared: dict[str, str], unmapped: set[str]) -> list[str]:
    """What is false: a declaration with no reason, a declared feature the system
    computes with no cited finding, an unmapped one it computes."""
    problems = [f"{system.shim} declares {name} with no reason (a comment on its line, or "
                "above it)" for name, reason in sorted(declared.items()) if not reason]
    rows = operations()
    tried: dict[str, Verdict] = {}
    for feature in sorted({*declared, *unmapped}):
        if feature in rows:
            op = rows[feature]
            verdict = tried.get(op) or try_operation(system, op)
            tried[op] = verdict
        elif feature in system.probes or feature in UNPROBED_WRAPPERS:
            verdict = try_feature(system, feature)
        else:
            continue  # not an operation nor a transformation: a convention, staging, ...
        if verdict.outcome != COMPUTES:
            continue
        if feature in unmapped:
            problems.append(f"{system.shim} leaves {feature} unmapped, but {system.library} "
                            f"computes it: map it ({verdict.detail})")
        elif not cited(declared[feature], system.page):
            problems.append(f"{system.shim} declares {feature} unsupported, but "
                            f"{system.library} computes it ({verdict.detail}), and its reason "
                            f"cites no finding of docs/findings/{system.page}: "
                            f"{declared[feature]!r}")
    return problems


# The wrappers and derived transformations a shim may declare or leave unmapped;
# each system has a probe for those it was found to declare or lack, and a new one
# without a probe is reported as computing until one is written.
UNPROBED_WRAPPERS = ("custom_jvp", "custom_vjp", "checkpoint", "jacfwd", "jacrev", "hessian",
                     "linearize", "stop_gradient")


# ----------------------------------------------------------------------------- autograd

def _autograd_modes(f, args):
    import autograd
    import autograd.numpy as anp

    def reverse():
        for i in range(len(args)):
            autograd.grad(lambda *xs: anp.sum(f(*xs)), i)(*args)

    def forward():
        for i in range(len(args)):
            autograd.make_jvp(f, i)(*args)(np.ones_like(args[i]))

    return (lambda: f(*args)), reverse, forward


def _autograd_checkpoint():
    """`autograd.checkpoint`: the value, its gradient and its forward mode (JAX's
    checkpoint has both modes)."""
    import autograd
    import autograd.numpy as anp

    x = np.array([0.5, 1.0])
    remat = autograd.checkpoint(lambda y: anp.sin(y) * y)
    remat(x)
    autograd.grad(lambda y: anp.sum(remat(y)))(x)
    autograd.make_jvp(remat)(x)(np.ones(2))


def _autograd_numpy():
    import autograd.numpy as anp
    return anp


AUTOGRAD = System("suts.autograd", "autograd", "pip install 'autograd~=1.9'", "autograd.md",
                  _autograd_numpy, lambda x: x, _autograd_modes,
                  probes={"checkpoint": _autograd_checkpoint})


# ----------------------------------------------------------------------------- torch.func

def _numpy_value(x) -> bool:
    """An array or a scalar of NumPy's (a 0-d input may come as a NumPy scalar)."""
    return isinstance(x, (np.ndarray, np.generic))


def _torch_tensor(x):
    import torch
    if not _numpy_value(x):
        return x
    return torch.as_tensor(x, dtype=torch.float64) if np.asarray(x).dtype.kind == "f" else \
        torch.as_tensor(x)


def _torch_modes(f, args):
    import torch
    import torch.func as tf

    tensors = tuple(_torch_tensor(a) for a in args)

    def reverse():
        for i in range(len(tensors)):
            tf.grad(lambda *xs: f(*xs).sum(), argnums=i)(*tensors)

    def forward():
        for i in range(len(tensors)):
            def of_one(x, i=i):
                return f(*tensors[:i], x, *tensors[i + 1:])
            tf.jvp(of_one, (tensors[i],), (torch.ones_like(tensors[i]),))

    return (lambda: f(*tensors)), reverse, forward


def _torch_checkpoint():
    """`torch.utils.checkpoint.checkpoint` (non-reentrant) under `torch.func.grad`."""
    import torch
    import torch.func as tf
    from torch.utils.checkpoint import checkpoint

    x = torch.tensor([0.5, 1.0], dtype=torch.float64)
    checkpoint(torch.sin, x, use_reentrant=False)
    tf.grad(lambda y: checkpoint(torch.sin, y, use_reentrant=False).sum())(x)


def _torch_custom_vjp():
    """An `autograd.Function` with `backward` only (JAX's custom_vjp gives no forward
    rule): its value, its gradient, and forward mode over that gradient, which the
    contract asks of a custom_vjp (JAX differentiates the backward pass)."""
    import torch
    import torch.func as tf

    class Sine(torch.autograd.Function):
        @staticmethod
        def forward(x):
            return torch.sin(x)

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * torch.cos(x)

    x = torch.tensor([0.5, 1.0], dtype=torch.float64)
    gradient = tf.grad(lambda y: Sine.apply(y).sum())
    gradient(x)
    tf.jvp(gradient, (x,), (torch.ones_like(x),))


class _Either:
    """Names looked up in `first`, then in `second`."""

    def __init__(self, first, second):
        self._first, self._second = first, second

    def __getattr__(self, name: str):
        try:
            return getattr(self._first, name)
        except AttributeError:
            return getattr(self._second, name)


def _torch_numpy():
    """torch's functions with NumPy's signatures: the shim's `numpy` maps each one
    (torch names and arguments differ: `dim` for `axis`), and adds nothing that
    differentiates; a name it does not map is looked up in `torch` itself."""
    import torch

    import suts.torch_func as shim
    return _Either(shim.numpy, torch)


TORCH = System("suts.torch_func", "torch", "pip install torch==2.13.0", "torch_func.md",
               _torch_numpy, _torch_tensor, _torch_modes,
               probes={"checkpoint": _torch_checkpoint, "custom_vjp": _torch_custom_vjp})


# ----------------------------------------------------------------------------- MLX

def _mlx_array(x):
    import mlx.core as mx
    return mx.array(x) if _numpy_value(x) else x


def _mlx_modes(f, args):
    import mlx.core as mx

    arrays = [_mlx_array(a) for a in args]

    def value():
        mx.eval(f(*arrays))

    def reverse():
        for i in range(len(arrays)):
            mx.eval(mx.grad(lambda *xs: mx.sum(f(*xs)), argnums=i)(*arrays))

    def forward():
        for i in range(len(arrays)):
            def of_one(x, i=i):
                return f(*arrays[:i], x, *arrays[i + 1:])
            mx.eval(mx.jvp(of_one, [arrays[i]], [mx.ones_like(arrays[i])]))

    return value, reverse, forward


def _mlx_numpy():
    import mlx.core as mx
    return mx


def _lacks(what: str) -> Callable[[], None]:
    def probe():
        raise Lacking(what)
    return probe


MLX = System("suts.mlx", "mlx.core", "pip install 'mlx[cpu]==0.32.4'", "mlx.md",
             _mlx_numpy, _mlx_array, _mlx_modes,
             probes={name: _lacks(f"mlx.core.{name}")
                     for name in ("jacfwd", "jacrev", "hessian", "linearize")})


# ----------------------------------------------------------------------------- TensorFlow

def _tf_numpy():
    import tensorflow.experimental.numpy as tnp
    return tnp


def _tf_tensor(x):
    import tensorflow as tf
    return tf.constant(x) if _numpy_value(x) else x


def _tf_modes(f, args):
    import tensorflow as tf

    tensors = [_tf_tensor(a) for a in args]

    def reverse():
        with tf.GradientTape() as tape:
            for t in tensors:
                tape.watch(t)
            total = tf.reduce_sum(f(*tensors))
        gradients = tape.gradient(total, tensors)
        if all(g is None for g in gradients):
            raise LookupError("GradientTape gave no gradient (None for every input)")

    def forward():
        for i, t in enumerate(tensors):
            with tf.autodiff.ForwardAccumulator(t, tf.ones_like(t)) as accumulator:
                out = f(*tensors[:i], t, *tensors[i + 1:])
            if accumulator.jvp(out) is None:
                raise LookupError("ForwardAccumulator gave no tangent (None)")

    return (lambda: f(*tensors)), reverse, forward


TENSORFLOW = System("suts.tensorflow", "tensorflow", "pip install tensorflow-cpu==2.21.0",
                    "tensorflow.md", _tf_numpy, _tf_tensor, _tf_modes)

SYSTEMS = (AUTOGRAD, TORCH, MLX, TENSORFLOW)


def shim_parts(system: System) -> tuple[dict[str, str], set[str]]:
    """The shim's declarations with their reasons, and what it leaves unmapped (the
    optional names jaxcheck sets unsupported for it)."""
    sut = resolve(system.shim)
    written = reasons(system.path)
    declared = {name: written.get(name, "") for name in sut.unsupported - sut.inferred}
    return declared, set(sut.inferred)


# ----------------------------------------------------------------------------- conventions

# Examples tried per row and mode for a deviation from the contract's convention: a
# row's inputs put every element on its kink or edge or near it, so a system that
# follows another convention shows it in the first few.
CONVENTION_EXAMPLES = 30


def deviation(shim: str, feature: str) -> str | None:
    """Where the shim, its declaration of the convention `feature` taken away, departs
    from the contract's convention (the first row and mode whose check fails, and
    why), or None: then the declaration is not needed."""
    sut = resolve(shim)
    sut = replace(sut, unsupported=sut.unsupported - {feature})
    for row in (r for r in CONVENTIONS.values() if r.feature == feature):
        for mode in ("jvp", "vjp"):
            cases = st.composite(row.inputs)().flatmap(lambda inputs, mode=mode, row=row: (
                directions([x.shape for x in inputs] if mode == "jvp"
                           else [y.shape for y in row.value(*inputs)])
                .map(lambda along, inputs=inputs: (inputs, along))))
            failures: list[str] = []

            def fails(case, row=row, mode=mode, failures=failures):
                try:
                    with np.errstate(all="ignore"):
                        check_convention(sut, None, row, mode, case[0], case[1], False)
                except Exception as exc:  # noqa: BLE001 - a mismatch or the SUT raising
                    failures.append(f"{type(exc).__name__}: {str(exc)[:160]}")
                    return True
                return False

            try:
                find(cases, fails, settings=settings(database=None,
                                                     max_examples=CONVENTION_EXAMPLES,
                                                     suppress_health_check=list(HealthCheck)))
            except NoSuchExample:
                continue
            return f"{row.name} under {mode}: {failures[0]}"
    return None


def conventions_declared(declared: dict[str, str]) -> list[str]:
    """The convention features among `declared`."""
    return sorted({row.feature for row in CONVENTIONS.values() if row.feature} & set(declared))
