"""Constant folding: NumPy evaluation of ONNX nodes whose inputs are all known.

Shape computations (Shape -> Gather -> Concat -> Reshape, Range, ConstantOfShape,
...) fold away completely when the shapes they read are static. Also the helpers
that both the folders and the handlers need, so that the two agree on ONNX
semantics (slice bounds, reduction axes, reshape targets).
"""
import numpy as np

from .core import Dyn, Unsupported, is_static, shape_str

FOLD_LIMIT = 1 << 24  # elements; larger results are left to the engine


# ---- shared ONNX semantics ------------------------------------------------------------

def norm_axis(axis, rank, what="axis"):
    axis = int(axis)
    if not -rank <= axis < max(rank, 1):
        raise Unsupported(f"{what} {axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def norm_axes(axes, rank, what="axes"):
    out = [norm_axis(a, rank, what) for a in axes]
    if len(set(out)) != len(out):
        raise Unsupported(f"{what} {list(axes)} repeats an axis")
    return out


def slice_bounds(dim, start, end, step):
    """ONNX Slice on one axis of size `dim` -> (first index, count, step)."""
    start, end, step = int(start), int(end), int(step)
    if step == 0:
        raise Unsupported("Slice step 0")
    if start < 0:
        start += dim
    if end < 0:
        end += dim
    if step > 0:
        start = min(max(start, 0), dim)
        end = min(max(end, 0), dim)
        count = max(0, -(-(end - start) // step))
    else:
        start = min(max(start, 0), dim - 1)
        end = min(max(end, -1), dim - 1)
        count = max(0, -(-(start - end) // -step))
    return start, count, step


def slice_params(c, shape):
    """The Slice node's (axes, starts, ends, steps), from attributes or constant inputs."""
    rank = len(shape)
    if c.opset < 10:
        starts, ends = c.attr("starts"), c.attr("ends")
        axes = c.attr("axes", list(range(len(starts))))
        steps = [1] * len(starts)
    else:
        starts = c.const_input(1, "starts")
        ends = c.const_input(2, "ends")
        axes = c.const_input(3, "axes")
        steps = c.const_input(4, "steps")
        axes = list(range(len(starts))) if axes is None else axes
        steps = [1] * len(starts) if steps is None else steps
    starts, ends, axes, steps = (np.asarray(x).reshape(-1).tolist() for x in (starts, ends, axes, steps))
    if not (len(starts) == len(ends) == len(axes) == len(steps)):
        raise Unsupported("Slice starts/ends/axes/steps have different lengths")
    return norm_axes(axes, rank), starts, ends, steps


def reduce_axes(c, rank):
    """Normalized axes of a Reduce* node, or None for 'all axes'; 'noop' for an identity."""
    takes_input = c.opset >= 18 or (c.op == "ReduceSum" and c.opset >= 13)
    axes = c.const_input(1, "axes") if takes_input else c.attr("axes")
    if axes is None or len(np.asarray(axes).reshape(-1)) == 0:
        return "noop" if c.attr("noop_with_empty_axes", 0) else None
    return norm_axes(np.asarray(axes).reshape(-1).tolist(), rank)


def reshape_target(in_shape, target, allowzero):
    """ONNX Reshape's output shape: 0 copies the input dim (unless allowzero), -1 is inferred."""
    target = [x if isinstance(x, Dyn) else int(x) for x in np.asarray(target).reshape(-1)]
    out, infer = [], None
    for i, t in enumerate(target):
        if isinstance(t, Dyn):  # a symbolic shape value's dynamic dim (symbolic.py)
            out.append(t)
        elif t == 0 and not allowzero:
            if i >= len(in_shape):
                raise Unsupported(f"Reshape target {target}: 0 at {i} has no input dimension to copy")
            out.append(in_shape[i])
        elif t == -1:
            if infer is not None:
                raise Unsupported(f"Reshape target {target} has two -1")
            infer = i
            out.append(None)
        elif t < 0:
            raise Unsupported(f"Reshape target {target} has a negative size")
        else:
            out.append(t)
    if infer is not None:
        known = [d for j, d in enumerate(out) if j != infer]
        dyn_in = [d for d in in_shape if not isinstance(d, int)]
        dyn_known = [d for d in known if not isinstance(d, int)]
        # Dynamic dims that appear on both sides cancel: [1, S, 14, 64] -> [1, S, -1] infers 896, and
        # [1, 2, 7, T, 64] -> [1, 14, -1, 64] infers T itself.
        for d in list(dyn_known):
            same = [e for e in dyn_in if e is d]
            if same:
                dyn_in.remove(same[0])
                dyn_known.remove(d)
        if not dyn_known and len(dyn_in) <= 1 and (dyn_in or not is_static(in_shape)):
            total = int(np.prod([d for d in in_shape if isinstance(d, int)], dtype=np.int64))
            rest = int(np.prod([d for d in known if isinstance(d, int)], dtype=np.int64))
            if dyn_in and total == rest:
                out[infer] = dyn_in[0]
                return tuple(out)
            if not dyn_in and rest and total % rest == 0:
                out[infer] = total // rest
                return tuple(out)
        if not is_static(in_shape) or not is_static(known):
            # A lone dynamic dim may carry over: [N, a, b] -> [N, -1] keeps N.
            raise Unsupported(f"Reshape to {target} must infer -1 from the dynamic shape {shape_str(in_shape)}; "
                              "fix the dynamic dimensions with --dim")
        total = int(np.prod(in_shape, dtype=np.int64))
        rest = int(np.prod(known, dtype=np.int64))
        if rest == 0 or total % rest:
            raise Unsupported(f"Reshape {shape_str(in_shape)} -> {target}: sizes do not divide")
        out[infer] = total // rest
    if is_static(in_shape) and is_static(out) and np.prod(out, dtype=np.int64) != np.prod(in_shape, dtype=np.int64):
        raise Unsupported(f"Reshape {shape_str(in_shape)} -> {target}: element counts differ")
    return tuple(out)


def squeeze_axes(c, shape):
    axes = c.attr_or_input("axes", 1, 13, "axes")
    if axes is None:
        if not is_static(shape):
            raise Unsupported(f"Squeeze without axes of the dynamic shape {shape_str(shape)}")
        return [i for i, d in enumerate(shape) if d == 1]
    axes = norm_axes(np.asarray(axes).reshape(-1).tolist(), len(shape))
    for a in axes:
        if shape[a] != 1:
            raise Unsupported(f"Squeeze axis {a} has size {shape[a]}, not 1")
    return axes


def unsqueeze_shape(c, shape):
    axes = c.attr_or_input("axes", 1, 13, "axes")
    if axes is None:
        raise Unsupported("Unsqueeze needs axes")
    out_rank = len(shape) + len(np.asarray(axes).reshape(-1))
    axes = sorted(norm_axes(np.asarray(axes).reshape(-1).tolist(), out_rank))
    out, it = [], iter(shape)
    for i in range(out_rank):
        out.append(1 if i in axes else next(it))
    return tuple(out)


def flatten_shape(shape, axis):
    axis = norm_axis(axis, len(shape) + 1)
    a, b = shape[:axis], shape[axis:]

    def prod(s):
        if not s:
            return 1
        if len(s) == 1:
            return s[0]
        if not is_static(s):
            raise Unsupported(f"Flatten of the dynamic shape {shape_str(shape)}; fix it with --dim")
        return int(np.prod(s, dtype=np.int64))
    return (prod(a), prod(b))


def split_sizes(c, dim, n_outputs):
    split = c.attr_or_input("split", 1, 13, "split")
    if split is not None:
        split = [int(x) for x in np.asarray(split).reshape(-1)]
        if len(split) != n_outputs:
            raise Unsupported(f"Split into {len(split)} parts but the node has {n_outputs} outputs")
        return split
    if not isinstance(dim, int):
        raise Unsupported("Split of a dynamic dimension; fix it with --dim")
    num = c.attr("num_outputs", n_outputs)
    if c.opset >= 18 and "num_outputs" in c.attrs:
        size = -(-dim // num)
        sizes = [size] * (num - 1) + [dim - size * (num - 1)]
    else:
        if dim % num:
            raise Unsupported(f"Split of size {dim} into {num} equal parts")
        sizes = [dim // num] * num
    return sizes


def int_div(a, b):
    """C-style integer division (truncates toward zero), as ONNX Runtime computes it."""
    q = np.abs(a) // np.abs(b)
    return (np.sign(a) * np.sign(b) * q).astype(np.result_type(a, b))


# ---- folders -----------------------------------------------------------------------------

def _binary(f, keep_type=True):
    if keep_type:
        return lambda c, x: [np.asarray(f(x[0], x[1])).astype(x[0].dtype)]
    return lambda c, x: [np.asarray(f(x[0], x[1]))]


def _unary(f):
    return lambda c, x: [np.asarray(f(x[0])).astype(x[0].dtype)]


def _div(c, x):
    a, b = x
    if a.dtype.kind in "iu":
        return [int_div(a, b)]
    return [(a / b).astype(a.dtype)]


def _mod(c, x):
    a, b = x
    if c.attr("fmod", 0):
        return [np.fmod(a, b).astype(a.dtype)]
    if a.dtype.kind == "f":
        raise Unsupported("Mod on floats requires fmod=1")
    return [np.mod(a, b).astype(a.dtype)]


def _variadic(f):
    def fold(c, x):
        r = x[0]
        for y in x[1:]:
            r = f(r, y)
        return [np.asarray(r).astype(x[0].dtype)]
    return fold


def _mean(c, x):
    s = x[0].astype(np.float64)
    for y in x[1:]:
        s = s + y
    return [(s / len(x)).astype(x[0].dtype)]


def _constant(c, x):
    for key in ("value", "value_float", "value_floats", "value_int", "value_ints"):
        if key in c.attrs:
            v = c.attrs[key]
            if key in ("value_float", "value_floats"):
                return [np.asarray(v, dtype=np.float32)]
            if key in ("value_int", "value_ints"):
                return [np.asarray(v, dtype=np.int64)]
            return [np.asarray(v)]
    raise Unsupported(f"Constant with attribute(s) {sorted(c.attrs)} is not supported")


def _cast(c, x, to=None):
    from .core import onnx_dtype
    dt = onnx_dtype(c.attr("to"), "Cast 'to'") if to is None else to
    return [x[0].astype(dt)]


def _reshape(c, x):
    shape = reshape_target(x[0].shape, x[1], c.attr("allowzero", 0))
    return [x[0].reshape(shape)]


def _slice(c, x):
    data = x[0]
    axes, starts, ends, steps = slice_params(c, data.shape)
    index = [slice(None)] * data.ndim
    for a, s, e, st in zip(axes, starts, ends, steps):
        first, count, step = slice_bounds(data.shape[a], s, e, st)
        index[a] = [first + k * step for k in range(count)]
    out = data
    for a, idx in enumerate(index):
        if not isinstance(idx, slice):
            out = np.take(out, np.asarray(idx, dtype=np.int64), axis=a)
    return [out]


def _gather(c, x):
    data, idx = x
    axis = norm_axis(c.attr("axis", 0), data.ndim)
    idx = np.where(idx < 0, idx + data.shape[axis], idx)
    return [np.take(data, idx.astype(np.int64), axis=axis)]


def _gather_elements(c, x):
    data, idx = x
    axis = norm_axis(c.attr("axis", 0), data.ndim)
    idx = np.where(idx < 0, idx + data.shape[axis], idx)
    return [np.take_along_axis(data, idx.astype(np.int64), axis=axis)]


def _range(c, x):
    start, limit, delta = (np.asarray(v).reshape(()) for v in x)
    n = max(int(np.ceil((float(limit) - float(start)) / float(delta))), 0)
    return [(start + np.arange(n, dtype=np.float64 if start.dtype.kind == "f" else np.int64) * delta)
            .astype(start.dtype)]


def _constant_of_shape(c, x):
    value = c.attr("value")
    value = np.zeros(1, np.float32) if value is None else np.asarray(value).reshape(-1)
    shape = [int(s) for s in np.asarray(x[0]).reshape(-1)]
    return [np.full(shape, value[0], dtype=value.dtype)]


def _expand(c, x):
    shape = [int(s) for s in np.asarray(x[1]).reshape(-1)]
    out = np.broadcast_shapes(x[0].shape, tuple(shape))
    return [np.broadcast_to(x[0], out).copy()]


def _transpose(c, x):
    perm = c.attr("perm")
    return [np.transpose(x[0], perm)]


def _concat(c, x):
    parts = [v for v in x if v is not None]
    axis = norm_axis(c.attr("axis"), parts[0].ndim)
    return [np.concatenate(parts, axis=axis)]


def _split(c, x):
    data = x[0]
    axis = norm_axis(c.attr("axis", 0), data.ndim)
    sizes = split_sizes(c, data.shape[axis], len(c.outputs))
    return np.split(data, np.cumsum(sizes)[:-1], axis=axis)


def _reduce(f):
    def fold(c, x):
        data = x[0]
        axes = reduce_axes(c, data.ndim)
        if axes == "noop":
            return [data]
        keep = bool(c.attr("keepdims", 1))
        return [np.asarray(f(data, axis=None if axes is None else tuple(axes), keepdims=keep)).astype(data.dtype)]
    return fold


def _argminmax(f):
    def fold(c, x):
        if c.attr("select_last_index", 0):
            raise Unsupported("select_last_index=1 is not supported")
        axis = norm_axis(c.attr("axis", 0), x[0].ndim)
        r = f(x[0], axis=axis)
        if c.attr("keepdims", 1):
            r = np.expand_dims(r, axis)
        return [r.astype(np.int64)]
    return fold


def _clip(c, x):
    data = x[0]
    if c.opset < 11:
        lo, hi = c.attr("min"), c.attr("max")
    else:
        lo = x[1] if len(x) > 1 else None
        hi = x[2] if len(x) > 2 else None
    if lo is not None:
        data = np.maximum(data, np.asarray(lo).astype(data.dtype))
    if hi is not None:
        data = np.minimum(data, np.asarray(hi).astype(data.dtype))
    return [data]


def _where(c, x):
    cond, a, b = x
    return [np.where(cond.astype(bool), a, b)]


def _cumsum(c, x):
    data, axis = x
    axis = norm_axis(np.asarray(axis).reshape(()), data.ndim)
    d = np.flip(data, axis) if c.attr("reverse", 0) else data
    r = np.cumsum(d, axis=axis, dtype=data.dtype)
    if c.attr("exclusive", 0):
        r = r - d
    return [np.flip(r, axis) if c.attr("reverse", 0) else r]


def _eye_like(c, x):
    from .core import onnx_dtype
    dt = onnx_dtype(c.attr("dtype"), "EyeLike dtype") if "dtype" in c.attrs else x[0].dtype
    return [np.eye(x[0].shape[0], x[0].shape[1], k=c.attr("k", 0), dtype=dt)]


def _nonzero(c, x):
    return [np.array(np.nonzero(x[0]), dtype=np.int64)]


def _pad(c, x):
    data = x[0]
    if c.opset < 11:
        pads, value = c.attr("pads"), c.attr("value", 0.0)
    else:
        pads = x[1]
        value = x[2].reshape(()) if len(x) > 2 and x[2] is not None else 0
        if len(x) > 3 and x[3] is not None:
            return None
    mode = c.attr("mode", "constant")
    if mode != "constant":
        return None
    pads = [int(p) for p in np.asarray(pads).reshape(-1)]
    r = data.ndim
    if min(pads) < 0:
        return None
    return [np.pad(data, [(pads[i], pads[i + r]) for i in range(r)], constant_values=value)]


def _matmul(c, x):
    return [np.matmul(x[0], x[1]).astype(x[0].dtype)]


def _squeeze(c, x):
    axes = squeeze_axes(c, x[0].shape)
    return [np.squeeze(x[0], axis=tuple(axes)) if axes else x[0]]


def _unsqueeze(c, x):
    return [x[0].reshape(unsqueeze_shape(c, x[0].shape))]


def _flatten(c, x):
    return [x[0].reshape(flatten_shape(x[0].shape, c.attr("axis", 1)))]


def _tile(c, x):
    return [np.tile(x[0], [int(r) for r in np.asarray(x[1]).reshape(-1)])]


def _trilu(c, x):
    k = int(np.asarray(x[1]).reshape(())) if len(x) > 1 and x[1] is not None else 0
    return [np.triu(x[0], k) if c.attr("upper", 1) else np.tril(x[0], k)]


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


FOLDERS = {
    "Constant": _constant,
    "Identity": lambda c, x: [x[0]],
    "Add": _binary(np.add), "Sub": _binary(np.subtract), "Mul": _binary(np.multiply), "Div": _div,
    "Mod": _mod, "Pow": lambda c, x: [np.power(x[0], x[1]).astype(x[0].dtype)],
    "Neg": _unary(np.negative), "Abs": _unary(np.abs), "Floor": _unary(np.floor), "Ceil": _unary(np.ceil),
    "Sqrt": _unary(np.sqrt), "Exp": _unary(np.exp), "Log": _unary(np.log), "Reciprocal": _unary(np.reciprocal),
    "Sign": _unary(np.sign), "Relu": _unary(lambda a: np.maximum(a, 0)), "Round": _unary(np.round),
    "Sigmoid": _unary(_sigmoid), "Tanh": _unary(np.tanh),
    "Not": _unary(np.logical_not),
    "And": _binary(np.logical_and, False), "Or": _binary(np.logical_or, False), "Xor": _binary(np.logical_xor, False),
    "Equal": _binary(np.equal, False), "Less": _binary(np.less, False), "LessOrEqual": _binary(np.less_equal, False),
    "Greater": _binary(np.greater, False), "GreaterOrEqual": _binary(np.greater_equal, False),
    "Max": _variadic(np.maximum), "Min": _variadic(np.minimum), "Sum": _variadic(np.add), "Mean": _mean,
    "Where": _where, "Cast": _cast, "CastLike": lambda c, x: _cast(c, x[:1], x[1].dtype),
    "Reshape": _reshape, "Flatten": _flatten, "Squeeze": _squeeze, "Unsqueeze": _unsqueeze,
    "Transpose": _transpose, "Concat": _concat, "Split": _split, "Slice": _slice, "Gather": _gather,
    "GatherElements": _gather_elements, "Expand": _expand, "Tile": _tile, "Range": _range,
    "ConstantOfShape": _constant_of_shape,
    "ReduceProd": _reduce(np.prod), "ReduceSum": _reduce(np.sum), "ReduceMax": _reduce(np.max),
    "ReduceMin": _reduce(np.min), "ReduceMean": _reduce(np.mean),
    "ArgMax": _argminmax(np.argmax), "ArgMin": _argminmax(np.argmin),
    "NonZero": _nonzero, "Clip": _clip, "CumSum": _cumsum, "EyeLike": _eye_like, "Pad": _pad,
    "MatMul": _matmul, "Trilu": _trilu,
}

# Ops that fold from their input's static shape alone (the data may be computed at run time).
SHAPE_FOLDERS = {"Shape", "Size"}


def _shape_fold(c):
    v = c.input(0)
    shape = v.shape
    if c.op == "Size":
        if not is_static(shape):
            return None
        return [np.asarray(int(np.prod(shape, dtype=np.int64)), dtype=np.int64)]
    rank = len(shape)
    start = c.attr("start", 0)
    end = c.attr("end", rank)
    start = min(max(start + rank if start < 0 else start, 0), rank)
    end = min(max(end + rank if end < 0 else end, 0), rank)
    part = shape[start:end]
    if not is_static(part):
        return None
    return [np.asarray(part, dtype=np.int64)]


def try_fold(c):
    """The node's outputs as arrays when all its inputs are known, else None."""
    if c.op in SHAPE_FOLDERS:
        return _shape_fold(c)
    f = FOLDERS.get(c.op)
    if f is None:
        return None
    present = [v for v in c.inputs if v is not None]
    if not all(v.is_const() for v in present):
        return None
    # Big element-wise results stay WebNN ops.
    xs = [v.const if v is not None else None for v in c.inputs]
    if c.op not in ("Constant", "Identity") and any(x is not None and x.size > FOLD_LIMIT for x in xs):
        return None
    try:
        out = f(c, xs)
    except Unsupported:
        raise
    except Exception as e:  # NumPy rejects the operands: the model is inconsistent
        raise Unsupported(f"cannot evaluate {c.op} on its constant inputs: {e}")
    if out is None:
        return None
    out = [np.asarray(o) for o in out]
    if any(o.size > FOLD_LIMIT for o in out):
        return None
    return out
