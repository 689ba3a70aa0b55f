"""Shapes with dynamic dimensions as values: Shape -> Gather/Slice -> Unsqueeze -> Concat ->
Reshape chains (what PyTorch exports write for every reshape of a [batch, sequence, ...] tensor).

Shape of a tensor with dynamic dimensions gives a *symbolic* int64 value: a NumPy object array
of ints and Dyn objects, known while converting, never a WebNN operand. Gather, Slice, Concat,
Unsqueeze, Squeeze, Identity and integer Casts of it stay symbolic (NumPy evaluates them on the
object array); Reshape, Expand and ConstantOfShape take it as their target shape, where a named
dynamic dimension is written by name. Anything else that reads one (arithmetic on sizes, Range,
a graph output) is an error naming the node: its value exists only at run time.
"""
import numpy as np

from .core import Dyn, Unsupported, Value, is_static, shape_str

SYMBOLIC_OPS = {"Gather", "Slice", "Concat", "Unsqueeze", "Squeeze", "Identity", "Cast"}
TARGET_OPS = {"Reshape": 1, "Expand": 1, "ConstantOfShape": 0}  # op -> the input that is a shape


def sym_value(name, arr):
    """A Value for an object array of ints/Dyn: a plain constant when no Dyn is left."""
    arr = np.asarray(arr, dtype=object)
    if all(not isinstance(x, Dyn) for x in arr.reshape(-1)):
        from .core import const_value
        return const_value(arr.astype(np.int64), name)
    v = Value(name, np.int64, arr.shape)
    v.sym = arr
    return v


def target(c, i):
    """Input i as a list of ints/Dyn when it is a constant or symbolic shape."""
    v = c.input(i)
    if v.sym is not None:
        return list(v.sym.reshape(-1))
    return None


def try_symbolic(c):
    """The outputs when this node computes on symbolic shapes; None when it does not touch any.
    Raises Unsupported for a node that reads a symbolic value it cannot keep symbolic."""
    from .fold import FOLDERS
    if c.op == "Shape" and c.inputs and c.inputs[0] is not None:
        shape = c.inputs[0].shape
        rank = len(shape)
        start, end = c.attr("start", 0), c.attr("end", rank)
        start = min(max(start + rank if start < 0 else start, 0), rank)
        end = min(max(end + rank if end < 0 else end, 0), rank)
        part = shape[start:end]
        if is_static(part):
            return None  # fold.py folds it
        return [sym_value(c.outputs[0], np.array(list(part) + [None], dtype=object)[:-1])]
    syms = [k for k, v in enumerate(c.inputs) if v is not None and v.sym is not None]
    if not syms:
        return None
    if c.op in TARGET_OPS and syms == [TARGET_OPS[c.op]]:
        return None  # the handler reads it (ops.py)
    if c.op not in SYMBOLIC_OPS or (c.op in ("Gather", "Slice") and syms != [0]):
        dims = shape_str(list(c.inputs[syms[0]].sym.reshape(-1)))
        raise Unsupported(f"{c.op} of the run-time shape value '{c.node.input[syms[0]]}' {dims}: only Gather, "
                          "Slice, Concat, Unsqueeze, Squeeze and Cast of shapes, and their use as a Reshape/Expand/"
                          "ConstantOfShape target, are supported; fix the dynamic dimensions with --dim")
    if c.op == "Cast":
        to = c.attr("to")
        if to not in (6, 7):  # INT32, INT64: sizes stay sizes
            raise Unsupported(f"Cast of a run-time shape value to type {to}")
        return [sym_value(c.outputs[0], c.inputs[0].sym)]
    xs = []
    for v in c.inputs:
        if v is None:
            xs.append(None)
        elif v.sym is not None:
            xs.append(v.sym)
        elif v.is_const():
            xs.append(np.asarray(v.const).astype(object) if c.op == "Concat" else v.const)
        else:
            raise Unsupported(f"{c.op} mixes a run-time shape value with run-time data")
    out = FOLDERS[c.op](c, xs)
    return [sym_value(name, o) for name, o in zip(c.outputs, out)]
