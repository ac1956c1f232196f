"""Every ordered pair of transformations around every construct and family of operations.

A rule can be right under each transformation alone and wrong where two
meet: a custom_jvp rule dropped when the derivative is taken inside `jit`,
a checkpoint's captured values detached when `grad` is taken of its
`vmap`, a cond batched with its operands' tangents cut.  Per-construct
rows (`tests/test_cells.py`) run each mode alone, and the random stacks of
`tests/test_stacks.py` meet a given pair around a given construct rarely or
never in `ci` (most stacks hold no construct; a pair is one of 68).  NIST's
fault-interaction studies find most failures triggered by two or three
factors together; JAX's own tests write such compositions out
(`api_test.py`'s custom rules under jit, vmap and nesting) rather than
trusting a random stack to reach them.

The design: a full enumeration, one row per *subject*, run by
`tests/test_pairs.py`.

* A subject is a construct that wraps a block in a rule of its own
  (`CONSTRUCT_SUBJECTS`: cond, the loops, scan, a jitted closure, the
  custom rules, checkpoint) or a family of operations (`FAMILIES`:
  elementwise, reductions, indexing and layout, linear algebra (`linalg`),
  sorting;
  `family` derives each operation's from its row of the operation table,
  `elementwise` there, `FAMILY_OF` for the rest).  A plain closure is
  traced inline and has no rule to compose; the inner transformations
  (`inner_vmap`, `inner_jvp`, `inner_grad`) are transformations, so a pair
  around one is a stack of three, the stack property's.
* A pair is (outer, inner), two rows of the transformation table
  (`stacks.ORDER`) holding at most `stacks.MAX_DERIVATIVES` orders of
  derivatives: 68 of the 81 (`PAIRS`).  `allowed` keeps those the contract
  allows around a subject on an SUT: both transformations offered, reverse
  mode only where the SUT can differentiate the subject so (not a
  while_loop where it declares `while_loop_reverse` unsupported), and a
  custom_vjp function only where the innermost derivative is in reverse
  mode (forward mode through one is an error, as in JAX).
* A row of the property is a subject and an outer transformation
  (`ROWS`), and every example of it runs *every* allowed pair with that
  outer, each over a program that is the subject (its first and only
  equation: a construct with blocks drawn from the whole language, or one
  operation of the family), so each (subject, outer, inner) is reached once
  per example, three times in `ci`'s three examples, by construction: no
  draw decides whether a cell is met.  A row per subject alone would draw
  68 stacks in one example, more than Hypothesis lets one example draw.
  Programs are small (two inputs of rank 1 or 2, sides 2 or 3, rank 1 under
  a hessian: `stacks.JACOBIAN_INPUTS`), as a Jacobian's meaning has a term
  per input element.

Why not a covering array over subject x outer x inner: a strength-2 array
meets every (subject, outer), (subject, inner) and (outer, inner) with about
117 rows where the product has 884 cells, but the defects this targets are
three-factor ones (a custom_jvp rule lost under jit of grad is fine under
jit alone, under grad alone, and under grad of jit), which strength 2 leaves
to chance.  Why not swarm-style random subsets: they raise the odds of an
interaction and guarantee none.  The price of the product is the time of
2,400-odd small stack checks per `ci` run; each is held to one oracle only,
the stack's NumPy meaning by finite differences (`oracles.stack_layers.
check_meaning`), which stages nothing, so a defect common to every staged
composition (the blind spot of `test_jit_commutes_with`, which holds one
staged composition to another) does not cancel.

Within one example, pairs of one kind (batch size, reverse mode or not, a
hessian or not) share one drawn program (`shared`).
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import strategies as st

from strategies import cell_cases, stacks
from strategies.cases import program_cases
from strategies.language.constructs import CONSTRUCTS
from strategies.language.ir import all_eqns
from strategies.language.opspec import OPS
from strategies.language.shapes import input_shapes
from strategies.language.vocabulary import Vocabulary
from strategies.program import Program, ProgramCase

# The constructs whose block a rule of their own wraps, in `CONSTRUCTS` order.
CONSTRUCT_SUBJECTS = ("cond", "fori_loop", "while_loop", "scan", "jit_closure", "custom_jvp",
                      "custom_vjp", "checkpoint")
FAMILIES = ("elementwise", "reductions", "indexing", "linalg", "sorting")
# The family of each operation that is not elementwise (`OpSpec.elementwise` says which
# are): tests/meta/test_coverage.py holds these keys to the table's other rows.
FAMILY_OF = {
    **dict.fromkeys(("sum", "mean", "max", "min", "prod", "cumsum", "cumprod", "ptp", "trace",
                     "average", "trapezoid", "var", "std", "nanmean"), "reductions"),
    **dict.fromkeys(("transpose", "reshape", "broadcast_to", "expand_dims", "concatenate",
                     "flip", "swapaxes", "moveaxis", "squeeze", "ravel", "stack", "pad",
                     "roll", "tile", "repeat", "diff", "tril", "triu", "diagonal", "take",
                     "dynamic_slice", "dynamic_update_slice", "rot90"), "indexing"),
    **dict.fromkeys(("matmul", "dot", "outer", "inner", "vdot", "kron", "tensordot", "einsum",
                     "solve", "inv", "det", "cholesky", "convolve", "correlate"), "linalg"),
    **dict.fromkeys(("sort", "median", "quantile", "argmax"), "sorting"),
}
SUBJECTS = (*CONSTRUCT_SUBJECTS, *FAMILIES)

PAIRS: tuple[tuple[str, str], ...] = tuple(
    (outer, inner) for outer in stacks.ORDER for inner in stacks.ORDER
    if stacks.LAYERS[outer].order + stacks.LAYERS[inner].order <= stacks.MAX_DERIVATIVES)


# The property's rows: a subject and the outer transformation of every pair it runs.
ROWS = tuple((subject, outer) for subject in SUBJECTS for outer in stacks.ORDER)


def family(op: str) -> str:
    """The family of an operation of the table."""
    return "elementwise" if OPS[op].elementwise else FAMILY_OF[op]


def members(subject: str, names) -> tuple[str, ...]:
    """The names among `names` that are `subject`: the construct, or the family's operations."""
    if subject in CONSTRUCT_SUBJECTS:
        return tuple(n for n in names if n == subject)
    return tuple(n for n in names if n in OPS and family(n) == subject)


def _innermost_derivative(outer: str, inner: str) -> str | None:
    return next((n for n in (inner, outer) if stacks.LAYERS[n].derivative), None)


def allowed(subject: str, outer: str, inner: str, supports: Callable[[str], bool],
            vocabulary: Vocabulary) -> bool:
    """The contract allows `outer(inner(f))` around `subject` on an SUT that `supports`
    these features and draws programs from `vocabulary`."""
    names = (outer, inner)
    if not all(map(supports, names)):
        return False
    reverse = any(stacks.LAYERS[n].reverse for n in names)
    if not members(subject, vocabulary.reverse_ops if reverse else vocabulary.ops):
        return False
    if subject in CONSTRUCTS and CONSTRUCTS[subject].reverse_only:
        first = _innermost_derivative(outer, inner)
        return first is None or stacks.LAYERS[first].reverse
    return True


def every_input(subject: str, outer: str, inner: str) -> bool:
    """The inner transformation must differentiate by every input: a forward-mode
    outer over a reverse-mode inner around a custom_vjp function reaches it in forward
    mode through any input the inner one leaves out, an error by design."""
    forward_outer = stacks.LAYERS[outer].derivative and not stacks.LAYERS[outer].reverse
    return (subject in CONSTRUCTS and CONSTRUCTS[subject].reverse_only and forward_outer
            and stacks.LAYERS[inner].reverse)


def left_out(subject: str, outer: str, inner: str) -> tuple[str, ...]:
    """What the subject's programs leave out under `outer(inner(f))`: a cond, around a
    custom_jvp function under reverse mode over `vmap`, where JAX raises (its cond,
    batched inside the rule after linearizing, gives tangents `stop_gradient`, which
    it cannot transpose: docs/findings/jax.md, J5), as the stack property found under
    `thorough`; this property would meet it in every `ci` run."""
    if subject == "custom_jvp" and stacks.LAYERS[outer].reverse and inner == "vmap":
        return ("cond",)
    return ()


def pairs_for(subject: str, supports: Callable[[str], bool],
              vocabulary: Vocabulary) -> tuple[tuple[str, str], ...]:
    """The pairs of `PAIRS` the contract allows around `subject`, in `PAIRS` order."""
    return tuple(p for p in PAIRS if allowed(subject, *p, supports, vocabulary))


def subjects_in(program: Program) -> set[str]:
    """The subjects a program holds, in its blocks too."""
    names = {eqn.op for eqn in all_eqns(program.eqns)}
    return {s for s in SUBJECTS if members(s, names)}


_SHAPES = {second: input_shapes(**(stacks.HESSIAN_INPUTS if second else stacks.JACOBIAN_INPUTS))
           .map(lambda drawn: drawn.shapes) for second in (False, True)}


def _fits(ranks: tuple[str, ...], second: bool) -> bool:
    """Operands small enough for a Jacobian's meaning: arrays of rank 1 or 2 (1 under a
    hessian), as `stacks.JACOBIAN_INPUTS`, at least one."""
    arrays = [int(r) for r in ranks if r != "lit"]
    return bool(arrays) and all(1 <= r <= (1 if second else 2) for r in arrays)


def subject_programs(vocabulary: Vocabulary, subject: str) -> Callable[..., st.SearchStrategy]:
    """`programs(variants, reverse, second, leave_out)` for `stacks.layered_cases`: one
    equation that is `subject` (a construct's blocks without the constructs `leave_out`
    names).  A construct, its blocks from the whole vocabulary, over two
    small inputs (`stacks.JACOBIAN_INPUTS`, rank 1 under a hessian); or one operation
    of the family at one of its operand-rank combinations that `_fits`, drawn as
    `tests/test_cells.py` draws a cell (`cell_cases`: it always builds, on inputs
    that are not constant even in the simplest example, where a program drawn at
    zeros holds no sort, its elements tied)."""
    def programs_of(variants: int, reverse: bool, second: bool, leave_out=(), **options):
        if subject in CONSTRUCT_SUBJECTS:
            kept = Vocabulary(*(tuple(n for n in names if n not in leave_out)
                                for names in (vocabulary.ops, vocabulary.reverse_ops)))
            return program_cases(kept, reverse=reverse, first=subject, max_eqns=1,
                                 variants=variants, input_shapes=_SHAPES[second],
                                 grad_only=CONSTRUCTS[subject].reverse_only, **options)
        cells = [(op, ranks) for op, ranks in cell_cases.cells(
            members(subject, vocabulary.reverse_ops if reverse else vocabulary.ops))
            if _fits(ranks, second)]
        return st.sampled_from(cells).flatmap(
            lambda cell: cell_cases.cell_cases(*cell, variants=variants))

    return programs_of


def shared(programs_of: Callable[..., st.SearchStrategy]) -> Callable[..., st.SearchStrategy]:
    """`programs_of` drawing one program per kind (variants, reverse, second, options)
    and giving it again to every later pair of that kind: made anew for each example."""
    drawn: dict[tuple, ProgramCase] = {}

    def programs_once(variants: int, reverse: bool, second: bool, **options):
        key = (variants, reverse, second, *sorted(options.items()))
        if key in drawn:
            return st.just(drawn[key])
        return programs_of(variants, reverse, second, **options).map(
            lambda case: drawn.setdefault(key, case))

    return programs_once
