"""strategies/coverage.py: the cells an example reaches, and the table of cells allowed.

The coverage report is only as honest as its table: a cell the generator
can reach but its builder's `ranks` lack would be invisible, and a mode read wrongly
from a wrapper would credit reverse mode with forward-mode examples.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import refimpl
from oracles.experiment import case_experiment
from strategies import cell_cases, coverage, pairs, stacks, wrappers
from strategies.cases import inputs_of
from strategies.language.ir import Eqn, Var, all_eqns
from strategies.language.operands import Regime, operand_ranks
from strategies.language.opspec import OPS
from strategies.language.vocabulary import vocabulary_for
from strategies.program import Program, ProgramCase, programs

pytestmark = pytest.mark.meta


@pytest.mark.parametrize("source, modes", [
    ("def transformed(x0):\n    return f(x0)", {"value"}),
    ("sut.vjp(f, x0)", {"reverse"}),
    ("sut.jit(sut.vmap(sut.grad(loss)))", {"jit", "vmap", "reverse"}),
    ("sut.jvp(f, (x0,), (t0,))", {"jvp"}),
])
def test_modes_are_read_from_the_wrapper(source, modes):
    assert coverage.modes_in(source) == modes


def test_an_equation_counts_once_per_mode_with_its_operand_ranks():
    x = Var("x0", (3,))
    out = Var("v0", (3,))
    program = Program((x,), (Eqn("add", (x, 1.5), (), out, "operator"),), (out,))
    found = coverage.cells(program, frozenset({"jvp", "jit"}))
    assert found == {("op", "add", ("1", "lit"), "jvp"): 1,
                     ("op", "add", ("1", "lit"), "jit"): 1}


@settings(max_examples=150, derandomize=True, deadline=None)
@given(case=programs(max_eqns=12))
def test_every_cell_a_drawn_program_reaches_is_in_the_table(case):
    allowed = coverage.allowed(OPS)
    for mode in coverage.MODES:
        reached = set(coverage.cells(case.program, frozenset({mode})))
        assert reached <= allowed, sorted(reached - allowed, key=str)


@pytest.mark.parametrize("op", list(OPS))
def test_every_operation_has_cells(op):
    """An operation whose builder lists no rank combinations would have no
    cells, and tests/test_cells.py would pass it by checking nothing."""
    assert cell_cases.cells([op])


# Of 10 draws of a cell, how many distinct inputs at least: one scalar has 14 values
# on its grid (fewer in a domain: `log` takes 7), an array or a pair thousands.
# Measured: at least 4 for a scalar cell and 7 for any other; when the fallbacks
# capped and then replaced the draw by a fixed ramp, `arcsin`'s scalar had 1 and its
# arrays 3 to 5, `kron`'s matrices 4 to 5.
DISTINCT = {"scalar": 3, "array": 6}


@pytest.mark.parametrize("op", list(OPS))
def test_cell_cases_build_each_allowed_cell_as_one_equation_from_what_was_drawn(op):
    """tests/test_cells.py reaches every cell only if each builds in every example:
    cell_cases raises where its inputs leave the operation no operands.  And its
    few examples (3 in `ci`) reach a cell three times only if they reach it at
    other inputs (the coverage report counts distinct ones): a fallback that
    replaces what was drawn by one fixed input makes them one example.  The first
    of them, the simplest draw, holds no constant array: it would hide a rule that
    moves elements."""
    allowed = {cell for cell in coverage.allowed(OPS)
               if cell[0] == "op" and cell[1] == op and cell[-1] == "value"}
    inputs: dict[tuple, set] = {ranks: set() for _, ranks in cell_cases.cells([op])}
    first: dict[tuple, tuple] = {}

    @settings(max_examples=10, derandomize=True, database=None, deadline=None)
    @given(data=st.data())
    def build(data):
        built = set()
        for ranks in inputs:
            case = data.draw(cell_cases.cell_cases(op, ranks, variants=2), label=f"{op} {ranks}")
            (eqn,) = case.program.eqns
            built.add(("op", eqn.op, operand_ranks(eqn.op, eqn.args), "value"))
            inputs[ranks].add(coverage.inputs_key(case.args))
            first.setdefault(ranks, case.args)
        assert built == allowed

    build()
    few = {ranks: len(drawn) for ranks, drawn in inputs.items()
           if len(drawn) < DISTINCT["array" if set(ranks) - {"0", "lit"} else "scalar"]}
    assert not few, f"{op}: cells reached by few distinct inputs in 10 draws: {few}"
    # The first draw is Hypothesis's simplest, as the first of a row's examples is.
    constant = {ranks: [x.shape for x in args if x.size > 1 and np.all(x == x.flat[0])]
                for ranks, args in first.items()}
    assert not any(constant.values()), f"{op}: constant inputs in the simplest draw: {constant}"


def _built(op: str, examples: int = 10) -> list[tuple[tuple, dict, Eqn]]:
    """(ranks, regime, equation) of each cell of `op` in each regime, in `examples`
    derandomized draws."""
    built = []

    @settings(max_examples=examples, derandomize=True, database=None, deadline=None)
    @given(data=st.data())
    def build(data):
        for ranks, regime in cell_cases.builds(op):
            case = data.draw(cell_cases.cell_cases(op, ranks, regime=regime))
            (eqn,) = case.program.eqns
            built.append((ranks, regime, eqn))

    build()
    return built


def _shapes(eqn: Eqn) -> tuple:
    return tuple(getattr(a, "shape", ()) for a in eqn.args)


@pytest.mark.parametrize("op", [op for op in OPS if cell_cases.regimes(op)])
def test_each_cell_is_built_in_each_regime(op):
    """A bug in one of an operation's formulas (correlate's middle for 'same') or
    positions (an update written past the start) shows only in an example that
    uses it: each example of the row builds every regime."""
    wrong = [(str(regime), eqn.params) for _, regime, eqn in _built(op)
             if regime is not None and not regime.admits(_shapes(eqn), eqn.kwargs)]
    assert not wrong, f"{op}: cells outside their regime: {wrong}"
    built = {regime for _, regime, _ in _built(op, examples=1)}
    assert set(cell_cases.regimes(op)) <= built, f"{op}: regimes no cell builds"


# tests/test_cells.py's examples of a row in `ci` (its EXAMPLES under that profile),
# and the coverage report's bar: each cell reached 3 times.
CI_EXAMPLES = 3


@pytest.mark.parametrize("op", [op for op in OPS
                                if cell_cases.regimes(op) or cell_cases.specials(op)])
def test_each_regime_and_special_point_is_reached_three_times_in_ci(op):
    """The row's `ci` examples, counted as the coverage report counts them (distinct
    inputs; `coverage.regime_cells`, `coverage.special_cells`), reach each regime of
    the operation's builder and each special point of its rule 3 times at least."""
    recorder = coverage.Recorder()

    @settings(max_examples=CI_EXAMPLES, derandomize=True, database=None, deadline=None)
    @given(data=st.data())
    def build(data):
        for ranks, regime in cell_cases.builds(op):
            case = data.draw(cell_cases.cell_cases(op, ranks, regime=regime))
            recorder.note(case.program, "f", case.args)
        for special in cell_cases.specials(op):
            case = data.draw(cell_cases.special_cases(op, special))
            recorder.note(case.program, "f", case.args)

    build()
    reached = recorder.by_property[""]
    wanted = {("regime", op, regime.name, "value") for regime in cell_cases.regimes(op)}
    wanted |= {("special", op, point.name, "value") for point in cell_cases.specials(op)}
    thin = {cell: reached[cell] for cell in wanted if reached[cell] < CI_EXAMPLES}
    assert not thin, f"{op}: reached fewer than {CI_EXAMPLES} times: {thin}"


def _arrays(ranks) -> int:
    return sum(rank != "lit" for rank in ranks)


@pytest.mark.parametrize("op", [op for op in OPS
                                if any(_arrays(r) == 2 for _, r in cell_cases.cells([op]))])
def test_a_cell_of_two_arrays_reads_both(op):
    """One array read twice meets itself: `x - x` hides a rule that swaps the
    partials, and one vector read twice hides `correlate`'s corner."""
    once = [(ranks, str(eqn)) for ranks, _, eqn in _built(op)
            if _arrays(ranks) == 2 and {"x0", "x1"} - {a.name for a in eqn.args
                                                       if isinstance(a, Var)}]
    assert not once, f"{op}: cells of two arrays that read one: {once}"


@pytest.mark.parametrize("ranks, regime, message", [
    (("1", "1"), Regime("middle", lambda shapes, params: params["mode"] == "middle"),
     "no regime"),
    (("2", "1"), None, "no operands of ranks"),
])
def test_a_cell_an_operation_has_not_is_an_error(ranks, regime, message):
    @settings(max_examples=1, database=None)
    @given(data=st.data())
    def build(data):
        data.draw(cell_cases.cell_cases("correlate", ranks, regime=regime))

    with pytest.raises(ValueError, match=message):
        build()


def test_a_program_counts_once_per_distinct_inputs():
    """Three examples of one program at other inputs are three (tests/test_cells.py);
    two experiments of one example, at its inputs, are one."""
    x = Var("x0", ())
    out = Var("v0", ())
    program = Program((x,), (Eqn("sin", (x,), (), out, "call"),), (out,))
    recorder = coverage.Recorder()
    for value in (0.5, 0.5, 1.5):
        recorder.note(program, "sut.jit(f)", (np.array(value),))
    assert recorder.by_property[""] == {("op", "sin", ("0",), "jit"): 2}


def test_a_vmap_counts_its_batch_as_its_inputs(monkeypatch):
    """Two batches that share their first element are two examples of the batching
    rule, though the case's own inputs (that first element) are one."""
    x = Var("x0", ())
    out = Var("v0", ())
    program = Program((x,), (Eqn("sin", (x,), (), out, "call"),), (out,))
    monkeypatch.setattr(coverage, "RECORDER", coverage.Recorder())
    for batch in ((0.5, 1.5), (0.5, 2.5)):
        case = ProgramCase(program, (np.array(batch[0]),),
                           tuple((np.array(v),) for v in batch), (False,))
        case_experiment(case, wrappers.vmap(program, (0,), 0), "vmap(f)",
                        inputs=wrappers.named("x", (np.array(batch),)))
    assert coverage.RECORDER.by_property[""] == {("op", "sin", ("0",), "vmap"): 2}


def test_one_jit_called_at_two_input_sets_counts_each(monkeypatch):
    """One jitted function called at x, then at y, ran the program under jit at both:
    two examples of the cell where x and y differ, one where they are equal."""
    x = Var("x0", ())
    out = Var("v0", ())
    program = Program((x,), (Eqn("sin", (x,), (), out, "call"),), (out,))
    monkeypatch.setattr(coverage, "RECORDER", coverage.Recorder())
    for first, second in ((0.5, 1.5), (0.5, 0.5)):
        case = ProgramCase(program, (np.array(first),), ((np.array(first),),
                                                          (np.array(second),)), (False,))
        case_experiment(case, wrappers.jit_twice(program), "one jit(f) twice",
                        inputs=inputs_of(case, y=case.variants[1]), also=case.variants[1:])
    assert coverage.RECORDER.by_property[""] == {("op", "sin", ("0",), "jit"): 2}


def test_most_drawn_scans_let_their_carry_meet_their_row():
    """A scan step where the carry never meets the row is a map beside a fold, and
    every rule about step order holds on it vacuously.  Measured on 600 programs
    as test_grad draws them: 12 of 139 scans met before the step opened with a
    meeting (strategies/language/constructs.py, build_scan), 68 of 152 after; a third of
    them is the bar.  Drawn over 600 programs: 300 held as few as 52 scans, 15
    of them meeting, where another draw of 300 held 32 of 61."""
    scans = []

    @settings(max_examples=600, derandomize=True, database=None, deadline=None)
    @given(programs())
    def draw(case):
        scans.extend("carry meets the row" in coverage.regimes(eqn, frozenset({"value"}))
                     for eqn in all_eqns(case.program.eqns) if eqn.op == "scan")

    draw()
    assert len(scans) >= 30 and sum(scans) >= len(scans) / 3, (sum(scans), len(scans))


@pytest.mark.parametrize("op", list(OPS))
@settings(max_examples=5, derandomize=True, deadline=None)
@given(data=st.data())
def test_every_operations_numpy_meaning_takes_the_complex_step(op, data):
    """A nested derivative's expectation is `Im f(x + i h v) / h` (`constructs.py`),
    so each row's NumPy meaning must be analytic on complex operands: NumPy's own
    `var` conjugates (|x - mean|^2) and `floor` refuses them.  Checked against a
    central difference of the real meaning in a random direction (error ~ h^2)."""
    ranks = data.draw(st.sampled_from(OPS[op].build.ranks), label="ranks")
    case = data.draw(cell_cases.cell_cases(op, ranks))
    (eqn,) = case.program.eqns
    position = {var.name: value for var, value in zip(case.program.inputs, case.args)}
    args = [position[a.name] if isinstance(a, Var) else a for a in eqn.args]
    rng = np.random.default_rng(len(op))
    directions = [rng.normal(size=np.shape(a)) if isinstance(a, np.ndarray) else 0.0
                  for a in args]
    spec, h = OPS[op], 1e-6

    def at(step):
        return spec.evaluate([a + step * d for a, d in zip(args, directions)], eqn.kwargs)

    complex_step = np.imag(at(1e-20j)) / 1e-20
    central = np.real(at(h) - at(-h)) / (2 * h)
    np.testing.assert_allclose(complex_step, central, rtol=1e-5, atol=1e-6, err_msg=op)


# ------------------------------------------------------------------ pairs of transformations

def test_every_operation_that_is_not_elementwise_has_one_family():
    """A family's pairs are met only where its operations are: an operation added to
    the table without a family would be in none."""
    others = {name for name, spec in OPS.items() if not spec.elementwise}
    assert set(pairs.FAMILY_OF) == others, sorted(set(pairs.FAMILY_OF) ^ others)
    assert set(pairs.FAMILY_OF.values()) | {"elementwise"} == set(pairs.FAMILIES)


def test_a_stack_counts_each_subject_under_each_adjacent_pair(monkeypatch):
    """jit(vmap(jvp(f))) over cond of sin is (cond and elementwise) under (vmap, jvp)
    and (jit, vmap), once per distinct inputs."""
    case = programs(first="cond", max_eqns=1)
    found = []

    @settings(max_examples=30, derandomize=True, database=None, deadline=None)
    @given(case)
    def draw(drawn):
        if "cond" in pairs.subjects_in(drawn.program):
            found.append(drawn)

    draw()
    drawn = found[-1]
    monkeypatch.setattr(coverage, "RECORDER", coverage.Recorder())
    for args in (drawn.args, drawn.args, tuple(x + 1 for x in drawn.args)):
        coverage.note_pairs(drawn.program, ("jvp", "vmap", "jit"), args)
    subjects = pairs.subjects_in(drawn.program)
    assert coverage.RECORDER.by_property[""] == {
        ("pair", subject, outer, inner): 2 for subject in subjects
        for outer, inner in (("vmap", "jvp"), ("jit", "vmap"))}


REFIMPL = vocabulary_for(refimpl.__sut_unsupported__)


def _offers(feature: str) -> bool:
    return feature not in refimpl.__sut_unsupported__


@pytest.mark.parametrize("subject, outer", pairs.ROWS,
                         ids=[f"{s}-{o}" for s, o in pairs.ROWS])
def test_each_pair_around_each_subject_is_reached_three_times_in_ci(subject, outer,
                                                                    monkeypatch):
    """tests/test_pairs.py's `ci` examples of a row, drawn as the row draws them (every
    allowed pair with that outer in every example, programs shared by kind) and
    counted as the coverage report counts them, reach the subject under each of
    those pairs 3 times at least: the drawn programs hold the subject, at distinct
    inputs."""
    monkeypatch.setattr(coverage, "RECORDER", coverage.Recorder())
    inners = [i for o, i in pairs.pairs_for(subject, _offers, REFIMPL) if o == outer]

    @settings(max_examples=CI_EXAMPLES, derandomize=True, database=None, deadline=None)
    @given(data=st.data())
    def build(data):
        size = data.draw(st.integers(2, 3))
        programs_of = pairs.shared(pairs.subject_programs(REFIMPL, subject))
        for inner in inners:
            stack = data.draw(stacks.layered_cases(programs_of, (inner, outer), size,
                                                    pairs.every_input(subject, outer, inner),
                                                    leave_out=pairs.left_out(subject, outer,
                                                                             inner)))
            coverage.note_pairs(stack.case.program, (inner, outer), stack.case.args)

    if inners:
        build()
    reached = coverage.RECORDER.by_property[""]
    wanted = {("pair", subject, outer, inner) for inner in inners}
    thin = {cell: reached[cell] for cell in wanted if reached[cell] < CI_EXAMPLES}
    assert not thin, f"{subject}: pairs reached fewer than {CI_EXAMPLES} times: {thin}"


@pytest.mark.parametrize("op", sorted(cell_cases.SPECIALS))
def test_a_special_points_test_reads_operands_that_do_not_broadcast(op):
    """The coverage count asks each special point's test of every equation of its
    operation in every program, whose operands need not broadcast as given (a batched
    equation's, seen whole): the test says no, and never raises into the property."""
    for special in cell_cases.specials(op):
        operands = [np.ones((3, 3)), np.ones((2, 3))][:len(special.ranks)]
        assert special.holds(operands, {"axis": -1}) in (True, False)
