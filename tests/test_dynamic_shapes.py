"""Shape-polymorphic staging: one program staged with dimension variables runs at every size.

Through the contract's optional part (docs/sut-api.md, "Shape-polymorphic
staging", which `jax.export` meets natively): a generated program whose
symbolic axes are drawn (`strategies/symbolic.py`) is exported once and
called at several size assignments (the drawing sizes, every variable at 1,
and a drawn one), and must equal the program staged by `jit` at each size
and NumPy; its staged types must carry the variables, with `f`'s Python run
once; `jvp`, `grad` and `vmap` exported the same way must equal their
concrete stagings; and what the contract refuses (two different variables
where equal sizes are needed, a size 0, a size that breaks a dimension, a
symbolic size as a Python loop bound) must raise.  An SUT without the part
skips these, the feature named.
"""

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles.experiment import Experiment, flatten
from oracles.reproducer import Expectation
from oracles.tolerance import EXACT
from oracles.verify import verify, verify_raises, verify_returns
from strategies.language.inputs import directions
from strategies.language.render import render_function, render_module
from strategies.language.transformations import REVERSE
from strategies.symbolic import SymbolicCase, symbolic_cases
from strategies.symbolic_wrappers import arguments, refused, staged

pytestmark = pytest.mark.needs("shape_polymorphism", "jit")


def _experiment(case: SymbolicCase, wrapper, title: str, inputs: dict) -> Experiment:
    source = render_module(render_function(case.program), wrapper.source)
    return Experiment(title, source, wrapper.call, inputs)


def _inputs(case: SymbolicCase, transform: str, more) -> dict:
    """Every argument of the staged function at every assignment, by name."""
    values = {}
    for a in range(len(case.sizes)):
        xs = case.args[a][0] if transform != "vmap" else tuple(
            np.stack(xs) for xs in zip(*case.args[a]))
        values |= dict(zip(arguments(case, transform, a), [*xs, *more(a)]))
    return values


def _concrete(sut, exp: Experiment) -> tuple:
    """The same transformation staged by `jit` at each size, on the SUT."""
    control = replace(exp, title=f"sut.jit of it at each size, {exp.title}",
                      call=exp.call.replace("check(", "concrete(", 1))
    return verify_returns(sut, control, "staged at each size by jit, which must work")


@given(data=st.data())
def test_staged_once_equals_staged_at_each_size(sut, vocabulary, data):
    """A program staged once with dimension variables equals jit's staging at each size."""
    case = data.draw(symbolic_cases(vocabulary), label="case")
    exp = _experiment(case, staged(case, "value", case.shapes_at),
                      "f exported with symbolic dimensions, called at each size",
                      _inputs(case, "value", lambda a: ()))
    expected = tuple(y for a in range(len(case.sizes)) for y in case.outputs_at(a))
    verify(sut, exp, Expectation(expected, "NumPy float64 at each size", EXACT),
           Expectation(_concrete(sut, exp), f"{sut.name} jit(f) at each size", EXACT))


@given(data=st.data())
def test_staged_types_carry_the_dimension_variables_and_f_runs_once(sut, vocabulary, data):
    """The symbolic staging's types carry the dimension variables, and f's Python runs once."""
    case = data.draw(symbolic_cases(vocabulary), label="case")
    exp = _experiment(case, staged(case, "value", case.shapes_at, report="types"),
                      "the exported program's types (-1: symbolic) and runs of f",
                      _inputs(case, "value", lambda a: ()))
    shapes = case.shapes_at(0)
    ins = [[-1 if v else d for v, d in zip(ax, s)] for ax, s in zip(case.axes, shapes)]
    outs = [[-1 if isinstance(d, str) else d for d in o] for o in case.out_axes()]
    expected = flatten((1, ins, outs), "the expected types")
    verify(sut, exp, Expectation(expected, "one run of f; -1 for every axis that varies "
                                           "with the sizes, its size elsewhere", EXACT))


@pytest.mark.parametrize("transform", ["jvp", "grad", "vmap"])
@given(data=st.data())
def test_transformations_of_the_symbolic_staging_equal_the_concrete_ones(
        sut, vocabulary, data, transform):
    """jvp, grad and vmap staged with dimension variables equal their stagings at each size."""
    if not sut.supports(transform):
        pytest.skip(f"{sut.name} declares {transform} unsupported (__sut_unsupported__)")
    reverse = transform in REVERSE
    case = data.draw(symbolic_cases(vocabulary, reverse=reverse, grad_only=reverse),
                     label="case")
    if transform == "jvp":
        more = [data.draw(directions(case.shapes_at(a)), label=f"tangents {a}")
                for a in range(len(case.sizes))]
        shapes = lambda a: case.shapes_at(a) * 2  # noqa: E731
    elif transform == "grad":
        more = [data.draw(directions([np.shape(y) for y in case.outputs_at(a)]),
                          label=f"weights {a}") for a in range(len(case.sizes))]
        shapes = lambda a: [*case.shapes_at(a), *map(np.shape, case.outputs_at(a))]  # noqa: E731
    else:
        more, shapes = [()] * len(case.sizes), case.shapes_at
    exp = _experiment(case, staged(case, transform, shapes),
                      f"{transform} of f exported with symbolic dimensions, at each size",
                      _inputs(case, transform, lambda a: more[a]))
    verify(sut, exp, Expectation(_concrete(sut, exp), f"{sut.name} jit({transform}(f)) at "
                                                       f"each size", EXACT))


@given(data=st.data())
def test_mixing_two_dimension_variables_is_refused_at_staging(sut, vocabulary, data):
    """Adding arrays whose sizes are two different dimension variables is refused when staged."""
    case = data.draw(symbolic_cases(vocabulary), label="case")
    control = _experiment(case, refused(case, "same"), "f on two copies, one set of "
                                                       "variables", {})
    verify_returns(sut, control, "both copies share their dimension variables")
    exp = _experiment(case, refused(case, "mixed"), "f on two copies whose dimension "
                                                    "variables differ, outputs added", {})
    verify_raises(sut, exp, "adding arrays whose sizes are two different dimension "
                            "variables must be refused when staged")


@pytest.mark.parametrize("how", ["zero", "mismatch", "int"])
@given(data=st.data())
def test_a_size_the_specs_refuse_is_bad_input(sut, vocabulary, data, how):
    """A size the specs refuse (0, one that breaks a dimension, a Python loop bound) raises."""
    case = data.draw(symbolic_cases(vocabulary), label="case")
    first = case.used
    sizes = {**case.sizes[0], first: 0} if how == "zero" else case.sizes[0]
    xs = [np.zeros(tuple(sizes.get(v, d) if v else d for v, d in zip(ax, s)))
          for ax, s in zip(case.axes, case.shapes_at(0))]
    inputs = {f"x{i}": x for i, x in enumerate(xs)}
    if how == "mismatch":
        inputs["y"] = np.zeros(case.sizes[0][first] + 1)
    why = {"zero": f"a size 0 for {first}: dimension variables are at least 1",
           "mismatch": f"an argument declared ({first},) whose size is not {first}'s",
           "int": "a symbolic size used as a Python int (a loop bound) while staging"}[how]
    verify_raises(sut, _experiment(case, refused(case, how), why, inputs), why)
