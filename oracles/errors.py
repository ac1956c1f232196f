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


class SutFailure(AssertionError):
    """The SUT computed something wrong (or could not compute it)."""


class SutRaised(SutFailure):
    """The SUT raised where a correct implementation returns a value."""


class SutTimedOut(SutFailure):
    """The SUT did not return within --sut-timeout seconds."""


class SutDidNotRaise(SutFailure):
    """The SUT returned where a correct implementation raises (a shape mismatch, a leaked
    tracer, a Python branch on a traced value)."""


class SutBadOutput(SutFailure):
    """The SUT returned something of the wrong structure or shape."""


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
