"""Three SUTs over refimpl, each following one convention of the transformations
(docs/sut-api.md) and declaring it: `--sut tests.shims.staging_conventions:SUMS`,
`:AUTOGRAPH` or `:STAGED_VMAP`.  The declared convention is checked, not
skipped, and each passes its property (tests/meta/test_declared_conventions.py);
`tests/broken/` holds one that declares each convention and breaks it.
"""

from types import SimpleNamespace

import refimpl
from tests.broken.vmap_batches_unmapped import vmap as batching_every_argument


def _refimpl_with(feature: str, **overrides) -> SimpleNamespace:
    """refimpl's API with `overrides`, declaring `feature` besides what refimpl declares."""
    return SimpleNamespace(**{name: getattr(refimpl, name) for name in refimpl.__all__}
                           | overrides,
                           __version__=f"refimpl {refimpl.__version__}, declaring {feature}",
                           __sut_unsupported__=refimpl.__sut_unsupported__ | {feature})


def grad_of_the_sum(fun, argnums=0):
    """grad, where a non-scalar output is summed first (TensorFlow's GradientTape)."""
    def total(*args):
        out = fun(*args)
        return refimpl.numpy.sum(out) if getattr(out, "shape", ()) else out

    return refimpl.grad(total, argnums=argnums)


def jit_running_each_branch(fun, static_argnums=()):
    """jit, where a function with a Python `if` on a traced value runs at each call's
    values, so each call takes the branch its inputs select, as a conditional staged
    by AutoGraph would."""
    staged = refimpl.jit(fun, static_argnums=static_argnums)

    def run(*args):
        try:
            return staged(*args)
        except refimpl.ConcretizationError:
            return fun(*args)

    return run


SUMS = _refimpl_with("grad_nonscalar_sum", grad=grad_of_the_sum)
AUTOGRAPH = _refimpl_with("jit_stages_control_flow", jit=jit_running_each_branch)
# Every argument batched inside the function, as a staged graph holds it: a Python
# `if` on one raises refimpl's ConcretizationError.
STAGED_VMAP = _refimpl_with("vmap_stages_function", vmap=batching_every_argument)
