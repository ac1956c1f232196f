"""What can go wrong in one example, as exception types that say whose fault it is.

`SutFailure` and its subclasses are failures of the system under test: the
property fails and the user gets a reproducer.  Where a correct SUT must
refuse a program, raising any `Exception` is the correct answer and
returning is the failure (`SutDidNotRaise`).  `GeneratorBug` is jaxcheck's
own fault (an example too close to a singularity for finite differences to
be trusted); it fails loudly with a request to report it, and never passes
as a verdict on the SUT.  `TooSharp` is an example no one is at fault for:
a smooth program whose derivatives outgrow float64 finite differences;
inside a property it is rejected and counted instead.
"""

from __future__ import annotations


class SutFailure(AssertionError):
    """The SUT computed something wrong (or could not compute it)."""


class SutRaised(SutFailure):
    """The SUT raised where a correct implementation returns a value."""

    @classmethod
    def kind_of(cls, error: BaseException) -> type[SutRaised]:
        """The subclass for the SUT's `error`'s type, named alike: one per type.

        Hypothesis tells bugs apart by exception type and the place it was raised
        from, its context's too.  An error raised by C code called from a
        generated program has that program's line as its place, new in every
        program, so one bug looked like hundreds (186 reproducers of one
        `TypeError` in one property's 100 examples).  Raised without the
        SUT's error as context, and of a class per its type, a `SutRaised` is
        one bug per kind of error; the error is still its `__cause__`, printed
        above it.
        """
        kind = _KINDS.get(type(error))
        if kind is None:
            kind = _KINDS[type(error)] = type(cls.__name__, (cls,), {
                "__module__": cls.__module__, "__qualname__": cls.__qualname__,
                "__doc__": f"The SUT raised {type(error).__name__}."})
        return kind


_KINDS: dict[type, type[SutRaised]] = {}


class SutTimedOut(SutFailure):
    """The SUT did not return within --sut-timeout seconds."""


class SutDidNotRaise(SutFailure):
    """The SUT returned where a correct implementation raises (a shape mismatch, a leaked
    tracer, a Python branch on a traced value)."""


class SutBadOutput(SutFailure):
    """The SUT returned something of the wrong structure or shape."""


class SutWrongDtype(SutFailure):
    """The SUT returned an array of another dtype than the contract says (a float32
    computation's result in float64, a gradient not in its primal's dtype)."""


class Mismatch(SutFailure):
    """The SUT's numbers differ from the oracle's beyond tolerance.

    `ratio` is the worst element's error over the error allowed there (> 1),
    `relative` that element's relative error: how plainly the example shows
    the bug (oracles/amplify.py looks for inputs that raise the ratio).
    """

    def __init__(self, message: str, *, ratio: float = float("inf"),
                 relative: float = float("inf")):
        super().__init__(message)
        self.ratio = ratio
        self.relative = relative


class OracleChanged(SutFailure):
    """The SUT changed what the oracle judges with (NumPy, the standard library,
    jaxcheck's own modules: oracles/frozen.py), so no verdict made with it stands."""


class GeneratorBug(RuntimeError):
    """jaxcheck generated an example its own oracles cannot judge."""

    def __init__(self, message: str):
        super().__init__(
            f"{message}\nThis is a bug in jaxcheck's program generator, not in the SUT: please "
            "report it with the reproducer below."
        )


class TooSharp(ValueError):
    """A program too sharp for finite differences (outside a property; inside one, the
    example is rejected)."""
