"""The whole language of generated programs: operations and constructs, by name.

`OPS` (opspec.py) are the array operations; `CONSTRUCTS` (constructs.py) are
control flow, closures and nested transformations, whose equations hold
blocks.  Both kinds offer `make`, `run` and `allowed`, so the generator and
the evaluator treat them alike (a row's `construct` says which kind it is);
rendering differs (constructs define their blocks first).  `FEATURES` says
which SUT features each needs, for `__sut_unsupported__`.
"""

from __future__ import annotations

from strategies.language.constructs import CONSTRUCTS
from strategies.language.opspec import FEATURES as OP_FEATURES
from strategies.language.opspec import OPS

LANGUAGE = {**OPS, **CONSTRUCTS}

FEATURES: dict[str, frozenset[str]] = {
    **OP_FEATURES, **{name: row.features for name, row in CONSTRUCTS.items()}}

# Constructs an SUT may be unable to differentiate in reverse mode, with the
# feature that names it; a program using one is kept out of grad/vjp
# properties when the SUT declares that feature unsupported (JAX and refimpl
# both declare "while_loop_reverse").
REVERSE_FEATURES: dict[str, frozenset[str]] = {
    name: frozenset({row.reverse_feature}) for name, row in CONSTRUCTS.items()
    if row.reverse_feature}
