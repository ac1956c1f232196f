"""The user-facing `lax` namespace: the primitive wrappers of `ops`, the
control-flow operators of `control` and `stop_gradient` of `custom`, under
JAX's names.

A facade only: the code lives in those modules, so that rule modules can
import the wrappers without importing control flow (which imports them).
"""
from .control import cond, fori_loop, scan, while_loop
from .custom import stop_gradient
from .ops import (
    add,
    broadcast_batch,
    broadcast_in_dim,
    concatenate,
    convert_element_type,
    cos,
    div,
    dot_general,
    dynamic_slice,
    dynamic_update_slice,
    exp,
    full_like,
    gt,
    integer_pow,
    log,
    lt,
    max,
    moveaxis,
    mul,
    neg,
    pad,
    reduce_sum,
    reshape,
    select_n,
    sin,
    slice,
    sqrt,
    sub,
    tanh,
    transpose,
    zeros,
)

__all__ = ["add", "broadcast_batch", "broadcast_in_dim", "concatenate", "convert_element_type",
           "cos", "div", "dot_general", "dynamic_slice", "dynamic_update_slice", "exp",
           "full_like", "gt", "integer_pow", "log", "lt", "max", "moveaxis", "mul", "neg", "pad",
           "reduce_sum", "reshape", "select_n", "sin", "slice", "sqrt", "sub", "tanh",
           "transpose", "zeros", "cond", "fori_loop", "scan", "while_loop", "stop_gradient"]
