"""A correct SUT (refimpl) that sets NumPy's print options and error handling, as real
libraries do, at import and during its first call, and adds a name of its own to NumPy.

None of that changes what the oracle judges with: it must pass.
"""

import numpy as np

from tests.tampering import CONTRACT, on_first_call

globals().update(CONTRACT)
__version__ = "refimpl, correct, with NumPy settings of its own"

np.set_printoptions(precision=3, suppress=True, linewidth=60)
np.seterr(all="ignore")
np.correct_numpy_settings_shim = "an attribute a shim adds to NumPy"


def _settle():
    np.set_printoptions(precision=2, threshold=5)
    np.seterr(over="warn", under="ignore", invalid="ignore", divide="ignore")


jvp = on_first_call(CONTRACT["jvp"], _settle)
