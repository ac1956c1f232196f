"""Broken SUT: jit declares that it stages a Python `if` as a conditional, and
decides every `if` once, on the first call's values.

It declares `jit_stages_control_flow` (docs/sut-api.md, "Conventions of the
transformations"): jit turns a Python `if` on a traced value into a
conditional, so each call takes the branch its own inputs select, as
TensorFlow's AutoGraph does.  Its jit is `jit_follows_one_branch`'s: the
first call for given shapes records each `if`'s outcome and bakes it into
the compiled trace, so a later call whose inputs select the other branch
silently takes the first one.

Family: jit.  Smallest input:
`(lambda g: (g(1.0), g(-1.0)))(jit(lambda x: x if x > 0 else -x))`.
"""

from tests.broken import Witness, jit_follows_one_branch
from tests.broken.over_jax import *  # noqa: F403 (JAX's API, but for what this module defines)
from tests.broken.over_jax import __sut_unsupported__ as jax_declares

FAMILY = "jit"
WITNESS = Witness("(lambda g: (g(1.0), g(-1.0)))(jit(lambda x: x if x > 0 else -x))",
                  shows="refusal")

jit, numpy = jit_follows_one_branch.jit, jit_follows_one_branch.numpy
__sut_unsupported__ = jax_declares | {"jit_stages_control_flow"}
