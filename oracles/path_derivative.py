"""Derivatives of a program with a Python `if`: finite differences along the branch it takes.

`jvp`, `grad` and `vjp` run the user's Python on concrete values, so their
derivative is that of the path the program takes at the point
(`strategies/python_control.py` knows the branch by construction and
unrolls the loop).  The estimate uses only steps at which no perturbed
point takes the other branch.  The properties: `tests/test_python_control_flow.py`;
`bench/bench_fd_refusals.py` counts which steps judge them.
"""

from __future__ import annotations

from oracles import finite_diff
from oracles.errors import GeneratorBug
from oracles.tolerance import FD_STEPS, FD_STEPS_SHARP
from strategies.python_control import path, render, takes_then


def path_derivative(case, direction, *, steps=FD_STEPS + FD_STEPS_SHARP) -> finite_diff.Estimate:
    """Finite differences of the path `f` takes, with steps at which no perturbed point
    takes the other branch.

    The threshold sits at least `MARGIN` from the predicate's value by
    construction; a predicate that moves faster than that (a sum over 125
    elements) needs a smaller step, as a kink does.  A threshold every step
    crosses is the generator's fault, reported loudly.
    """
    branch = takes_then(case.program, case.args)

    def safe(h):
        return all(takes_then(case.program, [x + k * h * v for x, v in zip(case.args, direction)])
                   == branch for k in (1, -1, 0.5, -0.5))

    steps = tuple(filter(safe, steps))
    if not steps:
        raise GeneratorBug(f"every finite-difference step crosses the threshold of the "
                           f"`if`:\n{render(case.program)}")
    return finite_diff.directional(path(case.program, branch), case.args, direction,
                                   steps=steps)
