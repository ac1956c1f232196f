"""Grow equations one at a time in a `Scope`: the step a program and every block share.

A `Scope` holds the variables defined so far with their NumPy values, one
environment per input variant.  `draw_eqns` adds equations to it: each picks
an operation or construct from the scope's `specs` and asks its operand
builder (`operands.py`) for operands valid in every environment, so a
program (`program.py`) and a construct's blocks (`constructs.py`) are valid
by construction, with no `assume` and no filtering.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
from hypothesis import strategies as st

from strategies.language.ir import Eqn, Run, Var, operand_value
from strategies.language.operands import LITERALS, choose, fitting, index, operand_ranks


class Scope:
    """The variables a program (or a block) has defined so far, with their NumPy values.

    A scope holds one environment per input variant: a program drawn for
    `vmap` must be valid at every element of the batch, so every check below
    must hold in every environment.  A block's scope (`child`) also sees the
    variables around it, and has one environment per situation the block is
    called in (every batch element, every loop iteration drawn for).

    * `program_specs`: the operations and constructs the program may use, and
      `specs` those of them this place allows (`allowed`: no construct deeper
      than `MAX_DEPTH`, a custom_vjp function only where reverse mode alone
      reaches it);
    * `language`: the table evaluation looks every operation up in;
    * `chain`: each equation's first operand is the latest variable
      (`program.programs(chain=True)`);
    * `focus`: operand ranks (`operands.operand_ranks`) every equation must
      have, or None, and `regime` the `operands.Regime` its operands' shapes and
      parameters must be in (None: any): `cell_cases.cell_cases` builds one cell
      in one regime this way;
    * `meets`: None, or two sets of variable names: every equation must then
      read a variable of each, and be an operation, whose builder asks `fits`
      (`constructs.build_scan` opens a step with its carry meeting its row);
    * `only`: None, or the one operation or construct the next equations must
      be, while their blocks still draw from `specs`
      (`program.programs(first=...)`).
    """

    def __init__(self, variables, envs, *, specs, language: Mapping, prefix="v", chain=False,
                 focus=None, regime=None, grad_only=False):
        self.vars = list(variables)
        self.envs = list(envs)
        self.program_specs = list(specs)
        self.language = language
        self.prefix = prefix
        self.chain = chain
        self.focus = focus
        self.regime = regime
        self.meets: tuple[frozenset[str], frozenset[str]] | None = None
        self.only: str | None = None
        self.used: set[str] = set()
        # Where the first operand of the next equation comes from: all
        # variables, or (mostly, see `_draw_eqn`) the sinks, so that programs
        # consume what they compute instead of leaving it dead.
        self.firsts = self.vars
        self.count = 0
        self.eqns: list[Eqn] = []
        # With `sharing` (`share`), a variable that many equations take as
        # second operand, and whether the next equation must.
        self.hub = None
        self.hub_turn = False
        # For a block's scope (`child`): how deep it nests, the variables it
        # can capture, whether it is inside a nested derivative, whether the
        # nearest derivative around it is reverse mode alone (an inner grad's
        # block, or a program drawn for reverse mode alone: there a custom_vjp
        # function may be called, forward mode through one being an error),
        # its name and signature.
        self.depth = 0
        self.outer: list[Var] = []
        self.in_derivative = False
        self.in_reverse = False
        self.in_grad_only = grad_only
        # In a nested grad's block (and the blocks inside it), the variables
        # that carry that grad's tangent: its parameters, and what operations
        # compute from them through an operand a derivative flows through.  A
        # custom_vjp function takes one of them first, so that the grad meets
        # it first: called on values only an outer jvp differentiates, it
        # meets forward mode, an error (`constructs.build_custom_vjp`).  None: no
        # nested grad around, every variable carries the derivative around.
        self.carrying: set[str] | None = None
        self.block_name = ""
        self.block_params: tuple = ()
        self._blocks = [0]  # shared by a program's scopes: block names are unique
        self.specs = [spec for spec in self.program_specs if spec.allowed(self)]

    def fresh(self) -> str:
        """A new variable name: v0, v1, ... in a program; c0, ... or d0, ... in blocks."""
        self.count += 1
        return f"{self.prefix}{self.count - 1}"

    def _fresh_block(self, kind: str) -> str:
        """A new function name in the program: true0, body1, inner2, ..."""
        self._blocks[0] += 1
        return f"{kind}{self._blocks[0] - 1}"

    def child(self, kind: str, params, envs, *, hidden=(), derivative=False,
              reverse=False, forward=False) -> Scope:
        """The scope of a new block `kind<n>(*hidden, *params)`: every variable in sight
        (as captures), then its parameters.  `hidden` parameters are in the
        signature but not offered as operands (a fori_loop index); a block with
        `derivative` is differentiated (in `reverse` mode only, or not), and one
        with `forward` in forward mode, whatever is around it (a custom rule's)."""
        scope = Scope([*self.vars, *params], envs, specs=(), language=self.language,
                      prefix="cd"[self.depth])
        scope.depth = self.depth + 1
        scope.used = {v.name for v in self.vars}  # captures are never sinks
        scope.outer = list(self.vars)
        scope.in_derivative = self.in_derivative or derivative
        scope.in_reverse = self.in_reverse or reverse
        scope.in_grad_only = reverse if derivative else self.in_grad_only and not forward
        scope.carrying = ({p.name for p in params} if derivative and reverse
                          else None if self.carrying is None else set(self.carrying))
        scope._blocks = self._blocks
        scope.program_specs = self.program_specs
        scope.specs = [spec for spec in self.program_specs if spec.allowed(scope)]
        scope.block_name = self._fresh_block(kind)
        scope.block_params = (*hidden, *params)
        return scope

    def grow(self, draw, length: int) -> None:
        """Up to `length` more equations (fewer if the scope runs out of options)."""
        self.eqns += draw_eqns(draw, self, length)

    def append(self, eqn: Eqn) -> None:
        """An equation a construct adds itself (a loop counter's step, grad's sum)."""
        self.eqns.append(eqn)

    def share(self, hub: Var) -> None:
        """From now on, about half the binary operations take `hub` as second operand."""
        self.hub = hub

    def start_equation(self, *, to_sinks: bool, hub_turn: bool) -> None:
        """Where the next equation's first operand comes from, and whether the hub is
        its second."""
        self.firsts = (self.sinks() or self.vars) if to_sinks else self.vars
        if self.chain:
            self.firsts = self.vars[-1:]
        self.hub_turn = hub_turn

    def sinks(self) -> list:
        """Variables no equation uses yet, latest first."""
        return [v for v in reversed(self.vars) if v.name not in self.used]

    def holds(self, predicate: Callable[..., bool], *operands) -> bool:
        """`predicate(*values)` in every environment."""
        return all(bool(predicate(*(operand_value(env, o) for o in operands)))
                   for env in self.envs)

    def results(self, spec, args: Sequence, params: dict) -> list[tuple[np.ndarray, ...]]:
        """Per environment, the tuple of `spec`'s results."""
        with np.errstate(all="ignore"):
            return [spec.run([operand_value(env, a) for a in args], params, env,
                             Run(self.language))
                    for env in self.envs]

    def fits(self, spec, args: Sequence, params: dict) -> bool:
        """True where the operands have the scope's `focus` ranks (if it has one) and
        they are in its `regime` (if it has one), they meet as `meets` asks (if it does), and
        every result is finite, within VALUE_CAP and of a small shape.  Every operand
        builder asks this of each option it considers, so a focus steers them all."""
        if self.focus is not None and operand_ranks(spec.name, args) != self.focus:
            return False
        if self.regime is not None and not self.regime.admits(
                tuple(getattr(a, "shape", ()) for a in args), params):
            return False
        if self.meets is not None:
            read = {a.name for a in args if isinstance(a, Var)}
            if not all(read & names for names in self.meets):
                return False
        return all(fitting(result) for results in self.results(spec, args, params)
                   for result in results)

    def define(self, outs, per_env, args: Sequence, through: Sequence = ()) -> None:
        """Add the variables `outs`, whose values per environment are `per_env`,
        computed from `args`, a derivative flowing to them from those in `through`."""
        if self.carrying is not None and any(getattr(a, "name", None) in self.carrying
                                             for a in through):
            self.carrying.update(v.name for v in outs)
        for env, results in zip(self.envs, per_env):
            env.update(zip((v.name for v in outs), results))
        self.vars.extend(outs)
        self.used.update(a.name for a in args if not isinstance(a, float))

    def partners(self):
        """Second operands of elementwise binary operations: variables, then literals
        (on the hub's turn, the hub alone)."""
        return [self.hub] if self.hub_turn else self.vars + list(LITERALS)


# One equation in this many is a construct (when the vocabulary has any):
# often enough that a bug in one construct's rule turns up within the ci
# budget of 60 examples (tests/meta/test_broken_suts.py), no more often
# because each construct costs JAX a compilation of its own.
CONSTRUCT_ODDS = 3


def draw_eqns(draw, scope: Scope, length: int) -> list[Eqn]:
    """Up to `length` equations valid in `scope` (fewer if it runs out of options)."""
    eqns = []
    for _ in range(length):
        eqn = _draw_eqn(draw, scope)
        if eqn is None:
            break
        eqns.append(eqn)
    return eqns


def _draw_eqn(draw, scope: Scope) -> Eqn | None:
    """The first operation or construct, from a drawn start, that can be applied in `scope`.

    Three times in four the first operand is a sink (a value nothing uses
    yet): programs then consume what they compute, and few equations end up
    dead.  Shrinking goes to "any variable", the simpler choice.
    """
    to_sinks = draw(st.integers(0, 3), label="first operand from sinks") > 0
    hub_turn = scope.hub is not None and draw(st.booleans(), label="hub as partner")
    scope.start_equation(to_sinks=to_sinks, hub_turn=hub_turn)
    constructs = [spec for spec in scope.specs if spec.construct and scope.meets is None]
    operations = [spec for spec in scope.specs if not spec.construct]
    odds = draw(st.integers(1, CONSTRUCT_ODDS), label="construct first")  # shrinks to 1: an op
    if constructs and odds == CONSTRUCT_ODDS:
        operations, constructs = constructs, operations
    start = index(draw, len(operations) or 1, label="operation")
    candidates = operations[start:] + operations[:start] + constructs
    if scope.only is not None:
        candidates = [spec for spec in candidates if spec.name == scope.only]
    for spec in candidates:
        built = spec.make(draw, scope)
        if built is None:
            continue
        args, params = built
        per_env = scope.results(spec, args, params)
        if not all(fitting(result) for results in per_env for result in results):
            continue
        outs = tuple(Var(scope.fresh(), result.shape) for result in per_env[0])
        # A construct's results carry nothing here: which of them a derivative
        # reaches is its blocks' business, and leaving them out only narrows
        # where a custom_vjp function is called.
        through = () if spec.construct else spec.carries_derivative(tuple(args), params)
        scope.define(outs, per_env, args, through)
        syntax = choose(draw, spec.syntaxes, label="syntax")
        return Eqn(spec.name, tuple(args), tuple(params.items()), outs[0], syntax, outs[1:])
    return None
