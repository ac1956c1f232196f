"""The language of generated programs, and nothing that draws a case from it.

Its tables (`opspec.OPS`, a row per operation; `constructs.CONSTRUCTS`;
`transformations.TRANSFORMATIONS`; `conventions.CONVENTIONS`), joined by
name in `table.LANGUAGE`, with what an SUT's vocabulary keeps of them
(`vocabulary.py`); a program's data (`ir.py`), its NumPy meaning
(`evaluation.py`) and its source (`render.py`); the step that grows one
equation in a scope (`equations.py`) with the operand builders
(`operands.py`) and domain margins (`domains.py`) it keeps; and the input
values and shapes programs take (`inputs.py`, `shapes.py`).

These modules import nothing else of `strategies`: the case strategies
around them (`strategies/*.py`: programs, the cases of each property,
stacks, coverage) build on the language, never the other way
(`tests/meta/test_imports.py`).
"""
