"""Shims that put other implementations of JAX-style transformations under jaxcheck.

Each module here is an SUT in the sense of docs/sut-api.md: it offers the
contract's surface (`jvp vjp grad vmap jit`, a `numpy` and a `lax`
namespace) on top of a third-party library, says in its docstring how each
piece maps onto that library, and lists in `__sut_unsupported__`, with a
reason beside each entry, what the library cannot do.  A shim is named with
`--sut suts.<module>`; each has its own tox environment, so the suite's
environment never carries its library (see tox.ini).

* `suts.autograd`: HIPS autograd (`tox -e autograd`).
* `suts.dual_numbers`: a toy forward-mode implementation on NumPy, the
  running example of docs/writing-a-shim.md.

Installed from the wheel, this package is `jaxcheck.suts`, and each shim
is still named `suts.<module>` (oracles/names.py); each shim's system comes
as the extra of its name (`pip install 'jaxcheck[torch]'`).
"""
