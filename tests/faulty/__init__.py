"""SUTs whose answers come in a wrong form, or whose calls end in a wrong way.

Each module is refimpl with one fault in *how* it answers, not in what it
computes: a result of the wrong type, a failure deferred to when the result
is read, a call that exits the process, raises KeyboardInterrupt or
crashes where only the cost oracle calls.
`tests/meta/test_one_sut_call.py` runs properties against them and checks
what jaxcheck reports.  (The deliberately wrong computations, which the
properties must catch with a small reproducer, are in `tests/broken/`.)
"""
