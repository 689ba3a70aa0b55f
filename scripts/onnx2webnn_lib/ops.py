"""ONNX op handlers: each maps one ONNX node (default domain, opsets 7-21) onto WebNN ops.

A handler validates every attribute it reads (and rejects those it does not
implement), computes the ONNX output shapes, emits WebNN nodes through ctx.emit
and returns the output Values. Anything it cannot express exactly raises
Unsupported with the reason; it never approximates.
"""
import numpy as np

from .core import Dyn, Unsupported, is_static, onnx_dtype, shape_str, webnn_dtype
from .symbolic import target as sym_target
from .fold import (flatten_shape, norm_axes, norm_axis, reduce_axes, reshape_target, slice_bounds, slice_params,
                   split_sizes, squeeze_axes, unsqueeze_shape)

HANDLERS = {}
FLOAT_TYPES = (np.dtype(np.float32), np.dtype(np.float16))
BOOL = np.dtype(np.bool_)


def handler(*names):
    def register(f):
        for n in names:
            HANDLERS[n] = f
        return f
    return register


# ---- helpers ------------------------------------------------------------------------------

def broadcast(*shapes):
    rank = max(len(s) for s in shapes)
    out = []
    for i in range(rank):
        r = 1
        for s in shapes:
            j = i - rank + len(s)
            if j < 0:
                continue
            d = s[j]
            if isinstance(d, int) and d == 1:
                continue
            if isinstance(r, int) and r == 1:
                r = d
            elif isinstance(r, int) and isinstance(d, int):
                if r != d:
                    raise Unsupported(f"shapes {', '.join(shape_str(x) for x in shapes)} do not broadcast")
            elif isinstance(d, int):
                r = d
        out.append(r)
    return tuple(out)


def dim_of(d):
    """A dimension's value; Unsupported for a dynamic one."""
    if isinstance(d, Dyn):
        raise Unsupported(f"needs the size of dynamic dimension '{d}'; fix the input's dynamic dimensions with --dim")
    return d


def static_shape(v, what="input"):
    if not is_static(v.shape):
        raise Unsupported(f"{what} has the dynamic shape {shape_str(v.shape)}; this mapping needs static sizes "
                          "(fix them with --dim)")
    return v.shape


def require_float(c, v, what="input"):
    if v.dtype not in FLOAT_TYPES:
        raise Unsupported(f"{what} has type {v.dtype}; WebNN's {c.op} mapping takes float32/float16")


def reshape(c, v, shape, suffix="reshape"):
    shape = tuple(shape)
    if len(shape) == len(v.shape) and all(a is b or a == b for a, b in zip(shape, v.shape)):
        return v
    if v.is_const():
        return c.const(v.const.reshape(shape), suffix)
    for d in shape:
        if isinstance(d, Dyn) and not d.name:
            raise Unsupported(f"reshape to {shape_str(shape)} involves a size derived from a dynamic dimension; "
                              "fix the input's dynamic dimensions with --dim")
    return c.emit("reshape", [v], {"newShape": list(shape)}, shape, v.dtype, suffix)


def transpose(c, v, perm, suffix="transpose"):
    perm = [int(p) for p in perm]
    if perm == list(range(len(perm))):
        return v
    if v.is_const():
        return c.const(np.transpose(v.const, perm), suffix)
    shape = tuple(v.shape[p] for p in perm)
    return c.emit("transpose", [v], {"permutation": perm}, shape, v.dtype, suffix)


def cast(c, v, dtype, suffix="cast"):
    dtype = np.dtype(dtype)
    if v.dtype == dtype:
        return v
    if v.is_const():
        return c.const(v.const.astype(dtype), suffix)
    if dtype == BOOL:
        zero = c.const(np.zeros((), v.dtype), "zero")
        return c.emit("notEqual", [v, zero], {}, v.shape, BOOL, suffix)
    return c.emit("cast", [v], {"dataType": webnn_dtype(dtype)}, v.shape, dtype, suffix)


def scalar(c, value, dtype, suffix="scalar"):
    return c.const(np.asarray(value, dtype=dtype), suffix)


def alias(v):
    """An ONNX node that is the identity: its output is its input (no WebNN op)."""
    return v


def no_extra_outputs(c, first=1):
    for k in range(first, len(c.outputs)):
        if c.output_used(k):
            raise Unsupported(f"output {k} ('{c.outputs[k]}') is not supported")


# ---- element-wise -----------------------------------------------------------------------------

UNARY = {
    "Abs": "abs", "Ceil": "ceil", "Cos": "cos", "Erf": "erf", "Exp": "exp", "Floor": "floor", "Log": "log",
    "Neg": "neg", "Reciprocal": "reciprocal", "Round": "roundEven", "Sin": "sin", "Sign": "sign",
    "Sqrt": "sqrt", "Tan": "tan", "Tanh": "tanh", "Sigmoid": "sigmoid", "Relu": "relu", "Softplus": "softplus",
    "Softsign": "softsign", "HardSwish": "hardSwish", "IsNaN": "isNaN", "Not": "logicalNot",
}


@handler(*UNARY)
def op_unary(c):
    c.check_attrs([])
    x = c.input(0)
    out_dtype = BOOL if c.op == "IsNaN" else x.dtype
    return c.emit(UNARY[c.op], [x], {}, x.shape, out_dtype)


BINARY = {
    "Add": "add", "Sub": "sub", "Mul": "mul", "Div": "div", "Pow": "pow", "PRelu": "prelu",
    "Equal": "equal", "Less": "lesser", "LessOrEqual": "lesserOrEqual", "Greater": "greater",
    "GreaterOrEqual": "greaterOrEqual", "And": "logicalAnd", "Or": "logicalOr", "Xor": "logicalXor",
}
COMPARISONS = {"Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual", "And", "Or", "Xor"}


@handler(*BINARY)
def op_binary(c):
    c.check_attrs([])
    a, b = c.input(0), c.input(1)
    if c.op == "Pow" and b.dtype != a.dtype:
        b = cast(c, b, a.dtype, "exponent")
    if c.op == "PRelu":
        # ONNX broadcasts the slope to the input (unidirectionally).
        shape = broadcast(a.shape, b.shape)
        if len(shape) != len(a.shape) or any(not (x is y or x == y) for x, y in zip(shape, a.shape)):
            raise Unsupported(f"slope {shape_str(b.shape)} does not broadcast to the input {shape_str(a.shape)}")
    shape = broadcast(a.shape, b.shape)
    return c.emit(BINARY[c.op], [a, b], {}, shape, BOOL if c.op in COMPARISONS else a.dtype)


@handler("Max", "Min", "Sum", "Mean")
def op_variadic(c):
    c.check_attrs([])
    xs = [c.input(i) for i in range(c.num_inputs())]
    op = {"Max": "max", "Min": "min", "Sum": "add", "Mean": "add"}[c.op]
    if len(xs) == 1 and c.op != "Mean":
        return alias(xs[0])
    acc = xs[0]
    for i, x in enumerate(xs[1:]):
        last = i == len(xs) - 2 and c.op != "Mean"
        acc = c.emit(op, [acc, x], {}, broadcast(acc.shape, x.shape), acc.dtype, None if last else f"{op}{i}")
    if c.op == "Mean":
        if len(xs) == 1:
            return acc if acc is not xs[0] else c.emit("identity", [acc], {}, acc.shape, acc.dtype)
        acc = c.emit("div", [acc, scalar(c, len(xs), acc.dtype, "count")], {}, acc.shape, acc.dtype)
    return acc


@handler("Elu", "LeakyRelu", "HardSigmoid", "Selu", "ThresholdedRelu", "Celu")
def op_activation(c):
    x = c.input(0)
    if c.op == "Elu":
        c.check_attrs(["alpha"])
        return c.emit("elu", [x], {"alpha": c.attr("alpha", 1.0)}, x.shape, x.dtype)
    if c.op == "LeakyRelu":
        c.check_attrs(["alpha"])
        return c.emit("leakyRelu", [x], {"alpha": c.attr("alpha", 0.01)}, x.shape, x.dtype)
    if c.op == "HardSigmoid":
        c.check_attrs(["alpha", "beta"])
        return c.emit("hardSigmoid", [x], {"alpha": c.attr("alpha", 0.2), "beta": c.attr("beta", 0.5)},
                      x.shape, x.dtype)
    if c.op == "Selu":
        c.check_attrs(["alpha", "gamma"])
        e = c.emit("elu", [x], {"alpha": c.attr("alpha", 1.67326319217681884765625)}, x.shape, x.dtype, "elu")
        return c.emit("mul", [e, scalar(c, c.attr("gamma", 1.05070102214813232421875), x.dtype, "gamma")], {},
                      x.shape, x.dtype)
    if c.op == "Celu":
        c.check_attrs(["alpha"])
        alpha = c.attr("alpha", 1.0)
        a = scalar(c, alpha, x.dtype, "alpha")
        y = c.emit("div", [x, a], {}, x.shape, x.dtype, "div")
        e = c.emit("elu", [y], {"alpha": 1.0}, x.shape, x.dtype, "elu")
        return c.emit("mul", [e, a], {}, x.shape, x.dtype)
    c.check_attrs(["alpha"])  # ThresholdedRelu: x if x > alpha else 0
    alpha = c.attr("alpha", 1.0)
    gt = c.emit("greater", [x, scalar(c, alpha, x.dtype, "alpha")], {}, x.shape, BOOL, "greater")
    return c.emit("where", [gt, x, scalar(c, 0, x.dtype, "zero")], {}, x.shape, x.dtype)


@handler("Gelu")
def op_gelu(c):
    c.check_attrs(["approximate"])
    x = c.input(0)
    approx = c.attr("approximate", "none")
    if approx == "none":
        return c.emit("gelu", [x], {}, x.shape, x.dtype)
    if approx != "tanh":
        raise Unsupported(f"approximate='{approx}'")
    # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    s, dt = x.shape, x.dtype
    x3 = c.emit("mul", [c.emit("mul", [x, x], {}, s, dt, "x2"), x], {}, s, dt, "x3")
    inner = c.emit("add", [x, c.emit("mul", [x3, scalar(c, 0.044715, dt, "k")], {}, s, dt, "kx3")], {}, s, dt, "in")
    t = c.emit("tanh", [c.emit("mul", [inner, scalar(c, np.sqrt(2 / np.pi), dt, "c")], {}, s, dt, "cin")], {}, s,
               dt, "tanh")
    h = c.emit("mul", [x, scalar(c, 0.5, dt, "half")], {}, s, dt, "hx")
    return c.emit("mul", [h, c.emit("add", [t, scalar(c, 1, dt, "one")], {}, s, dt, "1t")], {}, s, dt)


@handler("Mish")
def op_mish(c):
    c.check_attrs([])
    x = c.input(0)
    sp = c.emit("softplus", [x], {}, x.shape, x.dtype, "softplus")
    t = c.emit("tanh", [sp], {}, x.shape, x.dtype, "tanh")
    return c.emit("mul", [x, t], {}, x.shape, x.dtype)


@handler("IsInf")
def op_isinf(c):
    c.check_attrs(["detect_negative", "detect_positive"])
    x = c.input(0)
    neg, pos = c.attr("detect_negative", 1), c.attr("detect_positive", 1)
    if neg and pos:
        return c.emit("isInfinite", [x], {}, x.shape, BOOL)
    if not neg and not pos:
        raise Unsupported("IsInf with detect_negative=0 and detect_positive=0 (always false)")
    inf = c.emit("isInfinite", [x], {}, x.shape, BOOL, "isinf")
    side = c.emit("greater" if pos else "lesser", [x, scalar(c, 0, x.dtype, "zero")], {}, x.shape, BOOL, "side")
    return c.emit("logicalAnd", [inf, side], {}, x.shape, BOOL)


@handler("Clip")
def op_clip(c):
    x = c.input(0)
    if c.opset < 11:
        c.check_attrs(["min", "max"])
        lo, hi = c.attr("min"), c.attr("max")
    else:
        c.check_attrs([])
        lo, hi = c.const_input(1, "min"), c.const_input(2, "max")
    opts = {}
    for key, v in (("minValue", lo), ("maxValue", hi)):
        if v is None:
            continue
        v = np.asarray(v).reshape(())
        if v.dtype.kind == "f":
            if np.isinf(v):
                continue  # no bound
            if np.isnan(v):
                raise Unsupported(f"{key} is NaN")
            opts[key] = float(v)
        else:
            opts[key] = int(v)
    if "minValue" in opts and "maxValue" in opts and opts["minValue"] > opts["maxValue"]:
        # ONNX Runtime returns max for every element in that case; WebNN rejects it.
        raise Unsupported(f"min {opts['minValue']} > max {opts['maxValue']}")
    if not opts:
        return alias(x)
    return c.emit("clamp", [x], opts, x.shape, x.dtype)


@handler("Where")
def op_where(c):
    c.check_attrs([])
    cond, a, b = c.input(0), c.input(1), c.input(2)
    if cond.dtype != BOOL:
        raise Unsupported(f"condition has type {cond.dtype}")
    return c.emit("where", [cond, a, b], {}, broadcast(cond.shape, a.shape, b.shape), a.dtype)


@handler("Cast", "CastLike")
def op_cast(c):
    x = c.input(0)
    if c.op == "Cast":
        c.check_attrs(["to", "saturate"])
        to = onnx_dtype(c.attr("to"), "Cast 'to'")
    else:
        c.check_attrs(["saturate"])
        to = c.input(1).dtype
    webnn_dtype(to, "Cast target")
    if x.dtype == to:
        return alias(x)
    return cast(c, x, to, None)


@handler("Identity")
def op_identity(c):
    c.check_attrs([])
    return alias(c.input(0))


@handler("Dropout")
def op_dropout(c):
    c.check_attrs(["ratio", "seed", "is_test"])
    if c.opset >= 12:
        training = c.const_input(2, "training_mode")
        if training is not None and bool(np.asarray(training).reshape(())):
            raise Unsupported("training_mode=true")
    if c.output_used(1):
        raise Unsupported("the mask output is not supported")
    return alias(c.input(0))


# ---- softmax ------------------------------------------------------------------------------------

def _softmax_like(c, x, axis, fn):
    """Applies fn(value, axis) along `axis`; opset < 13 semantics coerce to 2-D at axis."""
    rank = len(x.shape)
    if c.opset >= 13 or axis == rank - 1:
        return fn(x, axis, None)
    # Old semantics: flatten to [prod(:axis), prod(axis:)], softmax over dim 1, restore.
    flat = flatten_shape(x.shape, axis)
    y = fn(reshape(c, x, flat, "flat"), 1, "inner")
    return reshape(c, y, x.shape, None)


@handler("Softmax", "LogSoftmax")
def op_softmax(c):
    c.check_attrs(["axis"])
    x = c.input(0)
    rank = len(x.shape)
    axis = norm_axis(c.attr("axis", -1 if c.opset >= 13 else 1), rank)

    def softmax(v, a, suffix):
        if c.op == "Softmax":
            return c.emit("softmax", [v], {"axis": a}, v.shape, v.dtype, suffix)
        # log softmax = x - log(sum(exp(x))) along the axis
        keep = tuple(1 if i == a else d for i, d in enumerate(v.shape))
        lse = c.emit("reduceLogSumExp", [v], {"axes": [a], "keepDimensions": True}, keep, v.dtype,
                     f"{suffix or 'out'}/lse")
        return c.emit("sub", [v, lse], {}, v.shape, v.dtype, suffix)
    if rank == 0:
        raise Unsupported("Softmax of a scalar")
    return _softmax_like(c, x, axis, softmax)


# ---- matrix ------------------------------------------------------------------------------------

@handler("MatMul")
def op_matmul(c):
    c.check_attrs([])
    a, b = c.input(0), c.input(1)
    require_float(c, a)
    sa, sb = a.shape, b.shape
    if len(sa) == 0 or len(sb) == 0:
        raise Unsupported("MatMul of a scalar")
    a2 = reshape(c, a, (1,) + sa, "a2d") if len(sa) == 1 else a
    b2 = reshape(c, b, sb + (1,), "b2d") if len(sb) == 1 else b
    batch = broadcast(a2.shape[:-2], b2.shape[:-2])
    m, k1 = a2.shape[-2:]
    k2, n = b2.shape[-2:]
    if isinstance(k1, int) and isinstance(k2, int) and k1 != k2:
        raise Unsupported(f"MatMul {shape_str(sa)} x {shape_str(sb)}: inner sizes differ")
    out = batch + (m, n)
    final = batch + ((m,) if len(sa) > 1 else ()) + ((n,) if len(sb) > 1 else ())
    if len(sa) > 1 and len(sb) > 1:
        return c.emit("matmul", [a2, b2], {}, out, a.dtype)
    y = c.emit("matmul", [a2, b2], {}, out, a.dtype, "matmul")
    return reshape(c, y, final, None)


@handler("Gemm")
def op_gemm(c):
    c.check_attrs(["alpha", "beta", "transA", "transB"])
    a, b = c.input(0), c.input(1)
    cc = c.opt_input(2)
    require_float(c, a)
    if len(a.shape) != 2 or len(b.shape) != 2:
        raise Unsupported(f"Gemm needs 2-D A and B, got {shape_str(a.shape)} and {shape_str(b.shape)}")
    ta, tb = bool(c.attr("transA", 0)), bool(c.attr("transB", 0))
    m = a.shape[1] if ta else a.shape[0]
    n = b.shape[0] if tb else b.shape[1]
    opts = {"aTranspose": ta or None, "bTranspose": tb or None}
    alpha, beta = c.attr("alpha", 1.0), c.attr("beta", 1.0)
    if alpha != 1.0:
        opts["alpha"] = alpha
    if cc is not None and beta != 0.0:
        if len(cc.shape) > 2:
            raise Unsupported(f"C has rank {len(cc.shape)}")
        broadcast(cc.shape, (m, n))
        opts["c"] = cc
        if beta != 1.0:
            opts["beta"] = beta
    return c.emit("gemm", [a, b], opts, (m, n), a.dtype)


# ---- convolution and pooling -----------------------------------------------------------------

def _out_size(c, in_size, k, s, d, pb, pe, ceil=False):
    if isinstance(in_size, Dyn):
        return Dyn(origin=f"{c.op} '{c.label}'")
    eff = (k - 1) * d + 1
    num = in_size + pb + pe - eff
    if num < 0:
        raise Unsupported(f"window {eff} is larger than the padded input {in_size + pb + pe}")
    return (-(-num // s) if ceil else num // s) + 1


def _same_pads(c, in_size, k, s, d, upper):
    """auto_pad SAME_UPPER/SAME_LOWER: output = ceil(in / stride)."""
    if s == 1:
        total = (k - 1) * d
    else:
        if isinstance(in_size, Dyn):
            raise Unsupported(f"auto_pad with stride {s} needs static input sizes (fix them with --dim)")
        out = -(-in_size // s)
        total = max(0, (out - 1) * s + (k - 1) * d + 1 - in_size)
    small, big = total // 2, total - total // 2
    return (small, big) if upper else (big, small)


def _spatial_params(c, x, kernel, n):
    strides = list(c.attr("strides", [1] * n))
    dilations = list(c.attr("dilations", [1] * n))
    auto_pad = c.attr("auto_pad", "NOTSET")
    pads = list(c.attr("pads", [0] * (2 * n)))
    if len(strides) != n or len(dilations) != n or len(pads) != 2 * n:
        raise Unsupported("strides/dilations/pads lengths do not match the spatial rank")
    begins, ends = pads[:n], pads[n:]
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        for i in range(n):
            begins[i], ends[i] = _same_pads(c, x.shape[2 + i], kernel[i], strides[i], dilations[i],
                                            auto_pad == "SAME_UPPER")
    elif auto_pad == "VALID":
        begins, ends = [0] * n, [0] * n
    elif auto_pad != "NOTSET":
        raise Unsupported(f"auto_pad '{auto_pad}'")
    return strides, dilations, begins, ends


def _to_2d(c, x, what):
    """Rank-3 (1-D spatial) tensors become rank 4 with a trailing 1."""
    if len(x.shape) == 4:
        return x
    if len(x.shape) == 3:
        return reshape(c, x, tuple(x.shape) + (1,), f"{what}4d")
    raise Unsupported(f"{c.op} with {len(x.shape) - 2} spatial dimensions (WebNN has 2-D only; 1-D is mapped)")


@handler("Conv")
def op_conv(c):
    c.check_attrs(["auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"])
    x, w, b = c.input(0), c.input(1), c.opt_input(2)
    require_float(c, x)
    n = len(x.shape) - 2
    kernel = list(static_shape(w, "the filter")[2:])
    if c.attr("kernel_shape") is not None and list(c.attr("kernel_shape")) != kernel:
        raise Unsupported(f"kernel_shape {c.attr('kernel_shape')} differs from the filter {kernel}")
    strides, dilations, begins, ends = _spatial_params(c, x, kernel, n)
    group = c.attr("group", 1)
    out_spatial = [_out_size(c, x.shape[2 + i], kernel[i], strides[i], dilations[i], begins[i], ends[i])
                   for i in range(n)]
    out_shape = (x.shape[0], w.shape[0]) + tuple(out_spatial)
    if n == 1:
        strides, dilations, begins, ends = strides + [1], dilations + [1], begins + [0], ends + [0]
    x4, w4 = _to_2d(c, x, "input"), _to_2d(c, w, "filter")
    opts = {"padding": [begins[0], ends[0], begins[1], ends[1]], "strides": strides, "dilations": dilations,
            "groups": group, "bias": b}
    if opts["padding"] == [0, 0, 0, 0]:
        del opts["padding"]
    if strides == [1, 1]:
        del opts["strides"]
    if dilations == [1, 1]:
        del opts["dilations"]
    if group == 1:
        del opts["groups"]
    shape4 = tuple(out_shape) + ((1,) if n == 1 else ())
    if n == 2:
        return c.emit("conv2d", [x4, w4], opts, out_shape, x.dtype)
    y = c.emit("conv2d", [x4, w4], opts, shape4, x.dtype, "conv2d")
    return reshape(c, y, out_shape, None)


@handler("ConvTranspose")
def op_conv_transpose(c):
    c.check_attrs(["auto_pad", "dilations", "group", "kernel_shape", "output_padding", "output_shape", "pads",
                   "strides"])
    x, w, b = c.input(0), c.input(1), c.opt_input(2)
    require_float(c, x)
    n = len(x.shape) - 2
    if n not in (1, 2):
        raise Unsupported(f"ConvTranspose with {n} spatial dimensions")
    kernel = list(static_shape(w, "the filter")[2:])
    if c.attr("kernel_shape") is not None and list(c.attr("kernel_shape")) != kernel:
        raise Unsupported(f"kernel_shape {c.attr('kernel_shape')} differs from the filter {kernel}")
    strides = list(c.attr("strides", [1] * n))
    dilations = list(c.attr("dilations", [1] * n))
    out_pad = list(c.attr("output_padding", [0] * n))
    pads = list(c.attr("pads", [0] * (2 * n)))
    auto_pad = c.attr("auto_pad", "NOTSET")
    output_shape = c.attr("output_shape")
    group = c.attr("group", 1)
    begins, ends = pads[:n], pads[n:]
    out_spatial = []
    for i in range(n):
        size, k, s, d, a = x.shape[2 + i], kernel[i], strides[i], dilations[i], out_pad[i]
        eff = (k - 1) * d + 1
        if output_shape is not None or auto_pad in ("SAME_UPPER", "SAME_LOWER"):
            # The ONNX spec's rule (ONNX Runtime 1.30 agrees): SAME_UPPER puts the odd
            # padding at the end, otherwise at the beginning.
            size = dim_of(size)
            target = list(output_shape)[-n:][i] if output_shape is not None else size * s
            total = max(0, (size - 1) * s + a + eff - target)
            if auto_pad == "SAME_UPPER":
                begins[i], ends[i] = total // 2, total - total // 2
            else:
                begins[i], ends[i] = total - total // 2, total // 2
            natural = (size - 1) * s + a + eff - begins[i] - ends[i]
            if natural != target:
                if 0 < target - natural < s and a + target - natural < s:
                    out_pad[i] = a + target - natural
                else:
                    raise Unsupported(f"output_shape {list(output_shape)} cannot be produced")
            out_spatial.append(target)
        elif auto_pad == "VALID" or auto_pad == "NOTSET":
            if auto_pad == "VALID":
                begins[i], ends[i] = 0, 0
            if isinstance(size, Dyn):
                out_spatial.append(Dyn(origin=f"{c.op} '{c.label}'"))
            else:
                out_spatial.append((size - 1) * s + a + eff - begins[i] - ends[i])
        else:
            raise Unsupported(f"auto_pad '{auto_pad}'")
    out_shape = (x.shape[0], w.shape[1] * group) + tuple(out_spatial)
    if n == 1:
        strides, dilations, begins, ends, out_pad = (strides + [1], dilations + [1], begins + [0], ends + [0],
                                                    out_pad + [0])
    opts = {"padding": [begins[0], ends[0], begins[1], ends[1]], "strides": strides, "dilations": dilations,
            "outputPadding": out_pad, "groups": group, "bias": b}
    for key, default in (("padding", [0, 0, 0, 0]), ("strides", [1, 1]), ("dilations", [1, 1]),
                         ("outputPadding", [0, 0]), ("groups", 1)):
        if opts[key] == default:
            del opts[key]
    x4, w4 = _to_2d(c, x, "input"), _to_2d(c, w, "filter")
    if n == 2:
        return c.emit("convTranspose2d", [x4, w4], opts, out_shape, x.dtype)
    y = c.emit("convTranspose2d", [x4, w4], opts, tuple(out_shape) + (1,), x.dtype, "convTranspose2d")
    return reshape(c, y, out_shape, None)


def _pool_size_onnx(c, size, k, s, d, pb, pe, ceil_mode):
    """ONNX Runtime's pooling output size (ceil mode drops a window starting in the end padding)."""
    eff = (k - 1) * d + 1
    num = size + pb + pe - eff
    if not ceil_mode:
        return num // s + 1
    out = -(-num // s) + 1
    if (out - 1) * s >= size + pb:
        out -= 1
    return out


@handler("MaxPool", "AveragePool", "LpPool")
def op_pool(c):
    common = ["auto_pad", "kernel_shape", "pads", "strides", "ceil_mode", "dilations"]
    extra = {"MaxPool": ["storage_order"], "AveragePool": ["count_include_pad"], "LpPool": ["p"]}[c.op]
    c.check_attrs(common + extra)
    no_extra_outputs(c)
    x = c.input(0)
    require_float(c, x)
    n = len(x.shape) - 2
    if n not in (1, 2):
        raise Unsupported(f"{c.op} with {n} spatial dimensions")
    kernel = list(c.attr("kernel_shape"))
    if c.op == "LpPool" and c.attr("p", 2) != 2:
        raise Unsupported(f"p={c.attr('p')} (WebNN has l2Pool2d only)")
    strides, dilations, begins, ends = _spatial_params(c, x, kernel, n)
    ceil_mode = bool(c.attr("ceil_mode", 0))
    count_include_pad = c.op == "AveragePool" and c.attr("count_include_pad", 0)
    if count_include_pad and any(begins + ends):
        # WebNN's average leaves padding out of the count: pad explicitly with zeros instead.
        x4 = _to_2d(c, x, "input")
        b4 = [0, 0] + begins + ([0] if n == 1 else [])
        e4 = [0, 0] + ends + ([0] if n == 1 else [])
        padded_shape = tuple(d if isinstance(d, Dyn) else d + b4[i] + e4[i] for i, d in enumerate(x4.shape))
        xp = c.emit("pad", [x4], {"beginningPadding": b4, "endingPadding": e4}, padded_shape, x.dtype, "pad")
        in_sizes = [padded_shape[2 + i] for i in range(n)]
        begins_w, ends_w = [0] * n, [0] * n
    else:
        xp = _to_2d(c, x, "input")
        in_sizes = [x.shape[2 + i] for i in range(n)]
        begins_w, ends_w = begins, ends
    rounding = "floor"
    out_spatial = []
    for i in range(n):
        size, k, s, d = x.shape[2 + i], kernel[i], strides[i], dilations[i]
        if isinstance(size, Dyn):
            out_spatial.append(Dyn(origin=f"{c.op} '{c.label}'"))
            if ceil_mode:
                if ends[i] + s > (k - 1) * d + 1:
                    raise Unsupported("ceil_mode with a dynamic input size may drop a window; fix it with --dim")
                rounding = "ceil"
            continue
        want = _pool_size_onnx(c, size, k, s, d, begins[i], ends[i], ceil_mode)
        fl = _out_size(c, in_sizes[i], k, s, d, begins_w[i], ends_w[i])
        ce = _out_size(c, in_sizes[i], k, s, d, begins_w[i], ends_w[i], ceil=True)
        if want == fl:
            pass
        elif want == ce:
            rounding = "ceil"
        else:
            raise Unsupported(f"output size {want} is neither WebNN's floor ({fl}) nor ceil ({ce}) size")
        out_spatial.append(want)
    for i, o in enumerate(out_spatial):
        if isinstance(o, int):
            got = _out_size(c, in_sizes[i], kernel[i], strides[i], dilations[i], begins_w[i], ends_w[i],
                            ceil=rounding == "ceil")
            if got != o:
                raise Unsupported("the two spatial axes need different output rounding")
    if n == 1:
        kernel, strides, dilations = kernel + [1], strides + [1], dilations + [1]
        begins_w, ends_w = begins_w + [0], ends_w + [0]
    opts = {"windowDimensions": kernel, "padding": [begins_w[0], ends_w[0], begins_w[1], ends_w[1]],
            "strides": strides, "dilations": dilations, "outputShapeRounding": rounding}
    for key, default in (("padding", [0, 0, 0, 0]), ("strides", [1, 1]), ("dilations", [1, 1]),
                         ("outputShapeRounding", "floor")):
        if opts[key] == default:
            del opts[key]
    op = {"MaxPool": "maxPool2d", "AveragePool": "averagePool2d", "LpPool": "l2Pool2d"}[c.op]
    out_shape = tuple(x.shape[:2]) + tuple(out_spatial)
    if n == 2:
        return c.emit(op, [xp], opts, out_shape, x.dtype)
    y = c.emit(op, [xp], opts, out_shape + (1,), x.dtype, op)
    return reshape(c, y, out_shape, None)


@handler("GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool")
def op_global_pool(c):
    c.check_attrs(["p"] if c.op == "GlobalLpPool" else [])
    x = c.input(0)
    require_float(c, x)
    if c.op == "GlobalLpPool" and c.attr("p", 2) != 2:
        raise Unsupported(f"p={c.attr('p')}")
    rank = len(x.shape)
    if rank < 3:
        raise Unsupported(f"input rank {rank}")
    out_shape = tuple(x.shape[:2]) + (1,) * (rank - 2)
    if rank == 4:
        op = {"GlobalAveragePool": "averagePool2d", "GlobalMaxPool": "maxPool2d", "GlobalLpPool": "l2Pool2d"}[c.op]
        return c.emit(op, [x], {}, out_shape, x.dtype)
    op = {"GlobalAveragePool": "reduceMean", "GlobalMaxPool": "reduceMax", "GlobalLpPool": "reduceL2"}[c.op]
    return c.emit(op, [x], {"axes": list(range(2, rank)), "keepDimensions": True}, out_shape, x.dtype)


# ---- normalization -----------------------------------------------------------------------------

@handler("BatchNormalization")
def op_batch_norm(c):
    c.check_attrs(["epsilon", "momentum", "spatial", "training_mode", "is_test"])
    if c.attr("training_mode", 0):
        raise Unsupported("training_mode=1")
    if c.attr("spatial", 1) != 1:
        raise Unsupported("spatial=0")
    no_extra_outputs(c)
    x, scale, bias, mean, var = (c.input(i) for i in range(5))
    require_float(c, x)
    if len(x.shape) < 2:
        raise Unsupported(f"input rank {len(x.shape)}")
    return c.emit("batchNormalization", [x, mean, var],
                  {"scale": scale, "bias": bias, "epsilon": c.attr("epsilon", 1e-5), "axis": 1}, x.shape, x.dtype)


@handler("InstanceNormalization")
def op_instance_norm(c):
    c.check_attrs(["epsilon"])
    x, scale, bias = c.input(0), c.input(1), c.input(2)
    require_float(c, x)
    x4 = _to_2d(c, x, "input")
    y_shape = x4.shape
    opts = {"scale": scale, "bias": bias, "epsilon": c.attr("epsilon", 1e-5)}
    if x4 is x:
        return c.emit("instanceNormalization", [x], opts, x.shape, x.dtype)
    y = c.emit("instanceNormalization", [x4], opts, y_shape, x.dtype, "norm")
    return reshape(c, y, x.shape, None)


def _param_to_shape(c, v, shape, what):
    """A scale/bias broadcastable to `shape`, made exactly `shape` (WebNN wants equal shapes)."""
    if tuple(v.shape) == tuple(shape):
        return v
    full = broadcast(v.shape, shape)
    if tuple(full) != tuple(shape):
        raise Unsupported(f"{what} {shape_str(v.shape)} does not broadcast to {shape_str(shape)}")
    if v.is_const() and is_static(shape):
        return c.const(np.broadcast_to(v.const, shape).copy(), what)
    if len(v.shape) == len(shape):
        return c.emit("expand", [v], {"newShape": list(shape)}, shape, v.dtype, what)
    v = reshape(c, v, (1,) * (len(shape) - len(v.shape)) + tuple(v.shape), what + "r")
    return c.emit("expand", [v], {"newShape": list(shape)}, shape, v.dtype, what)


@handler("LayerNormalization")
def op_layer_norm(c):
    c.check_attrs(["axis", "epsilon", "stash_type"])
    no_extra_outputs(c)
    x, scale, bias = c.input(0), c.input(1), c.opt_input(2)
    require_float(c, x)
    rank = len(x.shape)
    axis = norm_axis(c.attr("axis", -1), rank)
    norm_shape = tuple(x.shape[axis:])
    opts = {"axes": list(range(axis, rank)), "epsilon": c.attr("epsilon", 1e-5),
            "scale": _param_to_shape(c, scale, norm_shape, "scale"),
            "bias": _param_to_shape(c, bias, norm_shape, "bias") if bias is not None else None}
    return c.emit("layerNormalization", [x], opts, x.shape, x.dtype)


# ---- reductions -----------------------------------------------------------------------------------

REDUCE = {"ReduceSum": "reduceSum", "ReduceMean": "reduceMean", "ReduceMax": "reduceMax", "ReduceMin": "reduceMin",
          "ReduceProd": "reduceProduct", "ReduceL1": "reduceL1", "ReduceL2": "reduceL2",
          "ReduceLogSum": "reduceLogSum", "ReduceLogSumExp": "reduceLogSumExp", "ReduceSumSquare": "reduceSumSquare"}


@handler(*REDUCE)
def op_reduce(c):
    c.check_attrs(["axes", "keepdims", "noop_with_empty_axes"])
    x = c.input(0)
    rank = len(x.shape)
    axes = reduce_axes(c, rank)
    if axes == "noop":
        return alias(x)
    keep = bool(c.attr("keepdims", 1))
    red = set(range(rank)) if axes is None else set(axes)
    shape = tuple((1 if i in red else d) for i, d in enumerate(x.shape) if keep or i not in red)
    opts = {"keepDimensions": keep}
    if axes is not None:
        opts["axes"] = sorted(axes)
    return c.emit(REDUCE[c.op], [x], opts, shape, x.dtype)


@handler("ArgMax", "ArgMin")
def op_argminmax(c):
    c.check_attrs(["axis", "keepdims", "select_last_index"])
    if c.attr("select_last_index", 0):
        raise Unsupported("select_last_index=1 (WebNN leaves tie-breaking to the implementation)")
    x = c.input(0)
    rank = len(x.shape)
    axis = norm_axis(c.attr("axis", 0), rank)
    keep = bool(c.attr("keepdims", 1))
    shape = tuple((1 if i == axis else d) for i, d in enumerate(x.shape) if keep or i != axis)
    return c.emit("argMax" if c.op == "ArgMax" else "argMin", [x],
                  {"axis": axis, "keepDimensions": keep, "outputDataType": "int64"}, shape, np.int64)


@handler("CumSum")
def op_cumsum(c):
    c.check_attrs(["exclusive", "reverse"])
    x = c.input(0)
    axis = norm_axis(np.asarray(c.const_input(1, "axis")).reshape(()), len(x.shape))
    return c.emit("cumulativeSum", [x], {"axis": axis, "exclusive": bool(c.attr("exclusive", 0)),
                                         "reversed": bool(c.attr("reverse", 0))}, x.shape, x.dtype)


# ---- shape and data movement ------------------------------------------------------------------

@handler("Reshape")
def op_reshape(c):
    c.check_attrs(["allowzero", "shape"] if c.opset < 5 else ["allowzero"])
    x = c.input(0)
    target = sym_target(c, 1)
    if target is None:
        target = c.const_input(1, "shape")
    shape = reshape_target(x.shape, target, c.attr("allowzero", 0))
    return reshape(c, x, shape, None)


@handler("Flatten")
def op_flatten(c):
    c.check_attrs(["axis"])
    x = c.input(0)
    return reshape(c, x, flatten_shape(x.shape, c.attr("axis", 1)), None)


@handler("Squeeze")
def op_squeeze(c):
    c.check_attrs(["axes"])
    x = c.input(0)
    axes = squeeze_axes(c, x.shape)
    return reshape(c, x, tuple(d for i, d in enumerate(x.shape) if i not in axes), None)


@handler("Unsqueeze")
def op_unsqueeze(c):
    c.check_attrs(["axes"])
    x = c.input(0)
    return reshape(c, x, unsqueeze_shape(c, x.shape), None)


@handler("Transpose")
def op_transpose(c):
    c.check_attrs(["perm"])
    x = c.input(0)
    rank = len(x.shape)
    perm = c.attr("perm", list(range(rank))[::-1])
    if sorted(perm) != list(range(rank)):
        raise Unsupported(f"perm {perm} is not a permutation of rank {rank}")
    if list(perm) == list(range(rank)):
        return alias(x)
    return c.emit("transpose", [x], {"permutation": list(perm)}, tuple(x.shape[p] for p in perm), x.dtype)


@handler("Concat")
def op_concat(c):
    c.check_attrs(["axis"])
    xs = [c.input(i) for i in range(c.num_inputs())]
    rank = len(xs[0].shape)
    axis = norm_axis(c.attr("axis"), rank)
    parts = [x for x in xs if not (isinstance(x.shape[axis], int) and x.shape[axis] == 0)]
    if not parts:
        raise Unsupported("every input is empty")
    if len(parts) == 1:
        return alias(parts[0])
    total = c.g.sum_dim([x.shape[axis] for x in parts], c, c.outputs[0], axis)
    shape = list(parts[0].shape)
    for x in parts[1:]:
        for i in range(rank):
            if i != axis and isinstance(shape[i], Dyn) and isinstance(x.shape[i], int):
                shape[i] = x.shape[i]
    shape[axis] = total
    return c.emit("concat", parts, {"axis": axis}, tuple(shape), parts[0].dtype)


@handler("Split")
def op_split(c):
    c.check_attrs(["axis", "split", "num_outputs"])
    x = c.input(0)
    rank = len(x.shape)
    axis = norm_axis(c.attr("axis", 0), rank)
    sizes = split_sizes(c, x.shape[axis], len(c.outputs))
    if isinstance(x.shape[axis], int) and sum(sizes) != x.shape[axis]:
        raise Unsupported(f"split sizes {sizes} do not add up to {x.shape[axis]}")
    if len(sizes) == 1:
        return [alias(x)]
    outs = [(tuple(s if i == axis else d for i, d in enumerate(x.shape)), x.dtype) for s in sizes]
    return c.emit("split", [x], {"splits": sizes, "axis": axis}, None, None, outputs=outs)


@handler("Slice")
def op_slice(c):
    c.check_attrs(["axes", "starts", "ends"] if c.opset < 10 else [])
    x = c.input(0)
    rank = len(x.shape)
    axes, starts, ends, steps = slice_params(c, x.shape)
    begin = [0] * rank
    count = list(x.shape)
    stride = [1] * rank
    reverse_axes = []
    for a, s, e, st in zip(axes, starts, ends, steps):
        dim = dim_of(x.shape[a])
        first, n, step = slice_bounds(dim, s, e, st)
        if n == 0:
            raise Unsupported(f"the slice of axis {a} is empty (WebNN has no empty tensors)")
        if step < 0:
            reverse_axes.append(a)
            first, step = dim - 1 - first, -step
        begin[a], count[a], stride[a] = first, n, step
    if begin == [0] * rank and count == list(x.shape) and stride == [1] * rank and not reverse_axes:
        return alias(x)
    if reverse_axes:
        x = c.emit("reverse", [x], {"axes": sorted(reverse_axes)}, x.shape, x.dtype, "reverse")
    if begin == [0] * rank and count == list(x.shape) and stride == [1] * rank:
        return x
    for i, d in enumerate(x.shape):
        if isinstance(d, Dyn):
            raise Unsupported(f"slice of a tensor with the dynamic dimension {i} ({d}); fix it with --dim")
    sizes = [(n - 1) * st + 1 for n, st in zip(count, stride)]
    strides = [st if n > 1 else 1 for n, st in zip(count, stride)]
    opts = {"starts": begin, "sizes": sizes}
    if any(s != 1 for s in strides):
        opts["strides"] = strides
    return c.emit("slice", [x], opts, tuple(count), x.dtype)


def _index_const(v, dim):
    """Constant indices: negatives wrapped, int32 when they fit."""
    idx = np.asarray(v.const).astype(np.int64)
    if isinstance(dim, int):
        if np.any(idx < -dim) or np.any(idx >= dim):
            raise Unsupported(f"constant index out of range [-{dim}, {dim})")
        idx = np.where(idx < 0, idx + dim, idx)
    if np.all(idx >= -(2 ** 31)) and np.all(idx < 2 ** 31):
        idx = idx.astype(np.int32)
    return idx


@handler("Gather")
def op_gather(c):
    c.check_attrs(["axis"])
    x, idx = c.input(0), c.input(1)
    rank = len(x.shape)
    if rank == 0:
        raise Unsupported("Gather on a scalar")
    axis = norm_axis(c.attr("axis", 0), rank)
    if idx.is_const():
        idx = c.const(_index_const(idx, x.shape[axis]), "indices")
    shape = tuple(x.shape[:axis]) + tuple(idx.shape) + tuple(x.shape[axis + 1:])
    return c.emit("gather", [x, idx], {"axis": axis}, shape, x.dtype)


@handler("GatherElements")
def op_gather_elements(c):
    c.check_attrs(["axis"])
    x, idx = c.input(0), c.input(1)
    axis = norm_axis(c.attr("axis", 0), len(x.shape))
    if idx.is_const():
        idx = c.const(_index_const(idx, x.shape[axis]), "indices")
    return c.emit("gatherElements", [x, idx], {"axis": axis}, idx.shape, x.dtype)


@handler("GatherND")
def op_gather_nd(c):
    c.check_attrs(["batch_dims"])
    if c.attr("batch_dims", 0):
        raise Unsupported("batch_dims != 0")
    x, idx = c.input(0), c.input(1)
    k = dim_of(idx.shape[-1])
    return c.emit("gatherND", [x, idx], {}, tuple(idx.shape[:-1]) + tuple(x.shape[k:]), x.dtype)


@handler("ScatterElements", "ScatterND")
def op_scatter(c):
    c.check_attrs(["axis", "reduction"] if c.op == "ScatterElements" else ["reduction"])
    if c.attr("reduction", "none") != "none":
        raise Unsupported(f"reduction '{c.attr('reduction')}'")
    x, idx, upd = c.input(0), c.input(1), c.input(2)
    if c.op == "ScatterND":
        return c.emit("scatterND", [x, idx, upd], {}, x.shape, x.dtype)
    axis = norm_axis(c.attr("axis", 0), len(x.shape))
    return c.emit("scatterElements", [x, idx, upd], {"axis": axis}, x.shape, x.dtype)


@handler("Expand")
def op_expand(c):
    c.check_attrs([])
    x = c.input(0)
    target = sym_target(c, 1)
    if target is None:
        target = tuple(int(d) for d in np.asarray(c.const_input(1, "shape")).reshape(-1))
    shape = broadcast(x.shape, tuple(target))
    if len(shape) == len(x.shape) and all(a is b or a == b for a, b in zip(shape, x.shape)):
        return alias(x)
    return c.emit("expand", [x], {"newShape": list(shape)}, shape, x.dtype)


@handler("ConstantOfShape")
def op_constant_of_shape(c):
    """Only reached with a symbolic (dynamic) shape: a constant shape folds in fold.py."""
    c.check_attrs(["value"])
    shape = sym_target(c, 0)
    if shape is None:
        raise Unsupported("ConstantOfShape of a shape computed from run-time data")
    value = c.attr("value")
    value = np.zeros(1, np.float32) if value is None else np.asarray(value).reshape(-1)
    one = c.const(np.full((1,) * len(shape), value[0], dtype=value.dtype), "value")
    return c.emit("expand", [one], {"newShape": list(shape)}, tuple(shape), value.dtype)


@handler("Tile")
def op_tile(c):
    c.check_attrs([])
    x = c.input(0)
    reps = [int(r) for r in np.asarray(c.const_input(1, "repeats")).reshape(-1)]
    if len(reps) != len(x.shape):
        raise Unsupported(f"repeats {reps} do not match rank {len(x.shape)}")
    if all(r == 1 for r in reps):
        return alias(x)
    shape = tuple(d * r if isinstance(d, int) else (d if r == 1 else Dyn(origin="Tile")) for d, r in zip(x.shape, reps))
    return c.emit("tile", [x], {"repetitions": reps}, shape, x.dtype)


@handler("Pad")
def op_pad(c):
    x = c.input(0)
    rank = len(x.shape)
    if c.opset < 11:
        c.check_attrs(["mode", "pads", "value", "paddings"])
        pads, value = c.attr("pads", c.attr("paddings")), c.attr("value", 0.0)
        axes = list(range(rank))
    else:
        c.check_attrs(["mode"])
        pads = c.const_input(1, "pads")
        value = c.const_input(2, "constant_value")
        value = 0 if value is None or np.asarray(value).size == 0 else np.asarray(value).reshape(())
        axes = c.const_input(3, "axes")
        axes = list(range(rank)) if axes is None else norm_axes(np.asarray(axes).reshape(-1).tolist(), rank)
    pads = [int(p) for p in np.asarray(pads).reshape(-1)]
    if len(pads) != 2 * len(axes):
        raise Unsupported(f"pads {pads} do not match {len(axes)} axes")
    begin, end = [0] * rank, [0] * rank
    for k, a in enumerate(axes):
        begin[a], end[a] = pads[k], pads[k + len(axes)]
    mode = c.attr("mode", "constant")
    webnn_mode = {"constant": "constant", "reflect": "reflection", "edge": "edge"}.get(mode)
    if webnn_mode is None:
        raise Unsupported(f"mode '{mode}'")
    if min(begin + end) < 0:
        # Negative pads crop: slice first.
        starts = [max(0, -b) for b in begin]
        sizes = [dim_of(d) - max(0, -b) - max(0, -e) for d, b, e in zip(x.shape, begin, end)]
        if min(sizes) <= 0:
            raise Unsupported("negative pads leave nothing")
        x = c.emit("slice", [x], {"starts": starts, "sizes": sizes}, tuple(sizes), x.dtype, "crop")
        begin, end = [max(0, b) for b in begin], [max(0, e) for e in end]
    if not any(begin + end):
        return alias(x)
    opts = {"beginningPadding": begin, "endingPadding": end}
    if webnn_mode != "constant":
        opts["mode"] = webnn_mode
        if webnn_mode == "reflection":
            for i, d in enumerate(x.shape):
                if max(begin[i], end[i]) > 0 and max(begin[i], end[i]) >= dim_of(d):
                    raise Unsupported(f"reflect padding {max(begin[i], end[i])} >= size {d} of axis {i}")
    else:
        v = np.asarray(value).reshape(())
        if v.dtype.kind == "f" and not np.isfinite(v):
            raise Unsupported(f"constant_value {float(v)} cannot be written in a webnn-graph file")
        if float(v) != 0:
            opts["value"] = float(v) if v.dtype.kind == "f" else int(v)
    shape = tuple(d + begin[i] + end[i] if isinstance(d, int) else
                  (d if begin[i] + end[i] == 0 else Dyn(origin="Pad")) for i, d in enumerate(x.shape))
    return c.emit("pad", [x], opts, shape, x.dtype)


@handler("Trilu")
def op_trilu(c):
    c.check_attrs(["upper"])
    x = c.input(0)
    k = c.const_input(1, "k")
    k = 0 if k is None else int(np.asarray(k).reshape(()))
    return c.emit("triangular", [x], {"upper": bool(c.attr("upper", 1)), "diagonal": k}, x.shape, x.dtype)


@handler("DepthToSpace", "SpaceToDepth")
def op_depth_space(c):
    c.check_attrs(["blocksize", "mode"])
    x = c.input(0)
    n, ch, h, w = static_shape(x)
    b = c.attr("blocksize")
    if c.op == "DepthToSpace":
        mode = c.attr("mode", "DCR")
        if mode == "DCR":
            t = reshape(c, x, (n, b, b, ch // (b * b), h, w), "split")
            t = transpose(c, t, [0, 3, 4, 1, 5, 2], "perm")
        elif mode == "CRD":
            t = reshape(c, x, (n, ch // (b * b), b, b, h, w), "split")
            t = transpose(c, t, [0, 1, 4, 2, 5, 3], "perm")
        else:
            raise Unsupported(f"mode '{mode}'")
        return reshape(c, t, (n, ch // (b * b), h * b, w * b), None)
    t = reshape(c, x, (n, ch, h // b, b, w // b, b), "split")
    t = transpose(c, t, [0, 3, 5, 1, 2, 4], "perm")
    return reshape(c, t, (n, ch * b * b, h // b, w // b), None)


@handler("Shape", "Size")
def op_shape(c):
    c.check_attrs(["start", "end"])
    raise Unsupported(f"{c.op} of the dynamic shape {shape_str(c.input(0).shape)} is needed at run time; "
                      "fix the dynamic dimensions with --dim")


# ---- quantization ------------------------------------------------------------------------------

def _quant_param(c, v, x, axis, what):
    """Scale/zero point as WebNN wants them: the input's rank, blockwise broadcastable."""
    rank = len(x.shape)
    if len(v.shape) == 0 or (len(v.shape) == 1 and v.shape[0] == 1):
        return reshape(c, v, (1,) * rank, what)
    if len(v.shape) == 1:
        shape = [1] * rank
        shape[axis] = v.shape[0]
        return reshape(c, v, tuple(shape), what)
    raise Unsupported(f"{what} of rank {len(v.shape)} (blocked quantization)")


def _block_param(c, v, x, axis, block, what):
    """Blocked quantization (opset 21 block_size): the scale/zero point has the input's rank and
    ceil(dim / block_size) blocks along `axis`. WebNN expresses the same thing with a scale of the
    input's rank whose every dimension divides the input's (block = input dim / scale dim), so a
    partial last block cannot be expressed."""
    if len(v.shape) != len(x.shape):
        raise Unsupported(f"blocked {what} has rank {len(v.shape)}, the input rank {len(x.shape)}")
    n = x.shape[axis]
    if isinstance(n, Dyn):
        raise Unsupported(f"blocked quantization along the dynamic dimension {axis} ({n})")
    if n % block:
        raise Unsupported(f"block_size {block} does not divide the input's dimension {axis} ({n}): the last "
                          "block is partial, which WebNN's blockwise scale cannot express")
    for i, (d, e) in enumerate(zip(v.shape, x.shape)):
        want = n // block if i == axis else e
        if not (d is want or d == want):
            raise Unsupported(f"blocked {what} shape {shape_str(v.shape)} does not match input "
                              f"{shape_str(x.shape)} with block_size {block} along axis {axis}")
    return v


@handler("DequantizeLinear", "QuantizeLinear")
def op_quantize(c):
    c.check_attrs(["axis", "saturate", "block_size", "output_dtype"])
    block = int(c.attr("block_size", 0))
    if block < 0:
        raise Unsupported(f"block_size {block}")
    x, scale, zp = c.input(0), c.input(1), c.opt_input(2)
    axis = norm_axis(c.attr("axis", 1), max(len(x.shape), 1)) if len(x.shape) else 0
    if zp is None:
        if c.op == "QuantizeLinear":
            to = np.dtype(np.uint8)
            if c.attr("output_dtype"):
                to = onnx_dtype(c.attr("output_dtype"), "output_dtype")
        else:
            to = x.dtype
        zp = c.const(np.zeros(scale.shape, to), "zero_point")
    if c.op == "DequantizeLinear" and webnn_dtype(zp.dtype) != webnn_dtype(x.dtype):
        raise Unsupported(f"zero point type {webnn_dtype(zp.dtype)} differs from the input's {webnn_dtype(x.dtype)}")
    if block:
        s4 = _block_param(c, scale, x, axis, block, "scale")
        z4 = _block_param(c, zp, x, axis, block, "zero_point")
    else:
        s4 = _quant_param(c, scale, x, axis, "scale")
        z4 = _quant_param(c, zp, x, axis, "zero_point")
    if c.op == "DequantizeLinear":
        return c.emit("dequantizeLinear", [x, s4, z4], {}, x.shape, scale.dtype)
    return c.emit("quantizeLinear", [x, s4, z4], {}, x.shape, zp.dtype)


# ---- resize ----------------------------------------------------------------------------------------

def _onnx_coords(coord, in_size, out_size, scale):
    """ONNX Runtime's source coordinate of each output index (float32 arithmetic)."""
    f = np.float32
    o = np.arange(out_size, dtype=f)
    s = f(scale)
    if coord == "half_pixel":
        return (o + f(0.5)) / s - f(0.5)
    if coord == "pytorch_half_pixel":
        return (o + f(0.5)) / s - f(0.5) if out_size > 1 else np.zeros(out_size, f)
    if coord == "align_corners":
        return np.zeros(out_size, f) if out_size == 1 else o * f(in_size - 1) / f(out_size - 1)
    if coord == "asymmetric":
        return o / s
    if coord == "tf_half_pixel_for_nn":
        return (o + f(0.5)) / s
    if coord == "half_pixel_symmetric":
        adj = f(out_size) / (s * f(in_size))
        center = f(in_size) / f(2)
        offset = center * (f(1) - adj)
        return offset + (o + f(0.5)) / s - f(0.5)
    raise Unsupported(f"coordinate_transformation_mode '{coord}'")


def _nearest_index(x, nearest_mode, scale, in_size):
    x = np.asarray(x, np.float32)
    trunc = np.trunc(x)
    half = x == trunc + np.float32(0.5)
    if nearest_mode == "round_prefer_floor":
        idx = np.where(half, trunc, np.sign(x) * np.floor(np.abs(x) + 0.5))
    elif nearest_mode == "round_prefer_ceil":
        idx = np.where(half, np.ceil(x), np.sign(x) * np.floor(np.abs(x) + 0.5))
    elif nearest_mode == "floor":
        idx = np.floor(x)
    elif nearest_mode == "ceil":
        idx = np.ceil(x)
    elif nearest_mode == "simple":
        idx = np.ceil(x) if scale < 1 else trunc
    else:
        raise Unsupported(f"nearest_mode '{nearest_mode}'")
    return np.clip(idx.astype(np.int64), 0, in_size - 1)


def _onnx_taps(mode, coord, nearest_mode, cubic_a, exclude_outside, in_size, out_size, scale):
    """[(indices, weights)] per tap: output[o] = sum_t weights[t][o] * input[indices[t][o]]."""
    x = _onnx_coords(coord, in_size, out_size, scale)
    if mode == "nearest":
        return [(_nearest_index(x, nearest_mode, scale, in_size), np.ones(out_size))]
    if mode == "linear":
        x = np.clip(x, 0, in_size - 1).astype(np.float64)
        x1 = np.minimum(np.floor(x).astype(np.int64), in_size - 1)
        x2 = np.minimum(x1 + 1, in_size - 1)
        w2 = x - x1
        w1 = np.where(x1 == x2, 1.0, 1.0 - w2)
        w2 = np.where(x1 == x2, 0.0, w2)
        return [(x1, w1), (x2, w2)]
    if mode == "cubic":
        a = cubic_a
        xf = np.floor(x).astype(np.int64)
        s = (x - xf).astype(np.float64)
        coeffs = [((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a,
                  ((a + 2) * s - (a + 3)) * s * s + 1,
                  ((a + 2) * (1 - s) - (a + 3)) * (1 - s) * (1 - s) + 1,
                  ((a * (2 - s) - 5 * a) * (2 - s) + 8 * a) * (2 - s) - 4 * a]
        taps = []
        for t, off in enumerate((-1, 0, 1, 2)):
            idx = xf + off
            w = coeffs[t]
            if exclude_outside:
                w = np.where((idx < 0) | (idx >= in_size), 0.0, w)
            taps.append([np.clip(idx, 0, in_size - 1), w])
        if exclude_outside:
            total = sum(w for _, w in taps)
            for tap in taps:
                tap[1] = tap[1] / total
        return [tuple(t) for t in taps]
    raise Unsupported(f"mode '{mode}'")


def _webnn_taps(mode, in_size, out_size):
    """The engine's resample2d map (half-pixel, scale = out / in, exact fractions)."""
    taps_lo, taps_hi, w_lo, w_hi = [], [], [], []
    den = 2 * out_size
    for o in range(out_size):
        num = min(max((2 * o + 1) * in_size - out_size, 0), (in_size - 1) * den)
        if mode == "nearest":
            idx = -((den - 2 * num) // (2 * den))
            taps_lo.append(idx)
            w_lo.append(1.0)
            continue
        lo = num // den
        frac = (num - lo * den) / den
        taps_lo.append(lo)
        taps_hi.append(lo + 1 if frac else lo)
        w_lo.append(1 - frac)
        w_hi.append(frac)
    if mode == "nearest":
        return [(np.array(taps_lo), np.array(w_lo))]
    return [(np.array(taps_lo), np.array(w_lo)), (np.array(taps_hi), np.array(w_hi))]


def _same_taps(a, b, out_size):
    def dense(taps):
        m = {}
        for idx, w in taps:
            for o in range(out_size):
                if w[o] != 0:
                    m[(o, int(idx[o]))] = m.get((o, int(idx[o])), 0.0) + float(w[o])
        return m
    da, db = dense(a), dense(b)
    keys = set(da) | set(db)
    return all(abs(da.get(k, 0.0) - db.get(k, 0.0)) <= 1e-6 for k in keys)


@handler("Resize", "Upsample")
def op_resize(c):
    x = c.input(0)
    rank = len(x.shape)
    mode = c.attr("mode", "nearest")
    if mode == "bilinear":
        mode = "linear"
    cubic_a, exclude_outside = -0.75, 0
    axes = list(range(rank))
    scales = sizes = None
    if c.op == "Upsample" or c.opset < 11:
        c.check_attrs(["mode", "scales", "height_scale", "width_scale"])
        coord, nearest_mode = "asymmetric", "simple"
        scales = c.attr("scales") if (c.op == "Upsample" and c.opset < 9) else c.const_input(1, "scales")
    else:
        c.check_attrs(["mode", "coordinate_transformation_mode", "cubic_coeff_a", "exclude_outside",
                       "extrapolation_value", "nearest_mode", "antialias", "axes", "keep_aspect_ratio_policy"])
        coord = c.attr("coordinate_transformation_mode", "half_pixel")
        nearest_mode = c.attr("nearest_mode", "round_prefer_floor")
        cubic_a = c.attr("cubic_coeff_a", -0.75)
        exclude_outside = c.attr("exclude_outside", 0)
        if coord == "tf_crop_and_resize":
            raise Unsupported("coordinate_transformation_mode 'tf_crop_and_resize'")
        if c.attr("keep_aspect_ratio_policy", "stretch") != "stretch":
            raise Unsupported(f"keep_aspect_ratio_policy '{c.attr('keep_aspect_ratio_policy')}'")
        if c.attr("axes") is not None:
            axes = norm_axes(c.attr("axes"), rank)
        scales = c.const_input(2, "scales")
        sizes = c.const_input(3, "sizes")
    if scales is not None and np.asarray(scales).size == 0:
        scales = None
    if sizes is not None and np.asarray(sizes).size == 0:
        sizes = None
    if mode not in ("nearest", "linear", "cubic"):
        raise Unsupported(f"mode '{mode}'")
    if (scales is None) == (sizes is None):
        raise Unsupported("exactly one of scales and sizes must be given")
    full_scale = [1.0] * rank
    out_shape = list(x.shape)
    given = np.asarray(scales if sizes is None else sizes).reshape(-1).tolist()
    if len(given) != len(axes):
        raise Unsupported(f"{'scales' if sizes is None else 'sizes'} {given} do not match {len(axes)} axes")
    for a, g in zip(axes, given):
        if sizes is None:
            full_scale[a] = float(np.float32(g))
            if isinstance(x.shape[a], int):
                out_shape[a] = int(np.floor(np.float32(x.shape[a]) * np.float32(g)))
            elif full_scale[a] != 1.0:
                out_shape[a] = Dyn(origin=f"Resize '{c.label}'")
        else:
            out_shape[a] = int(g)
            full_scale[a] = float(np.float32(g) / np.float32(dim_of(x.shape[a])))
    changed = [a for a in range(rank) if full_scale[a] != 1.0 or not (out_shape[a] is x.shape[a]
                                                                       or out_shape[a] == x.shape[a])]
    if c.attr("antialias", 0) and mode != "nearest" and any(full_scale[a] < 1 for a in changed):
        raise Unsupported("antialias=1 when downscaling")
    for a in changed:
        if isinstance(out_shape[a], int) and out_shape[a] <= 0:
            raise Unsupported(f"output size {out_shape[a]} on axis {a}")
    if not changed:
        return alias(x)
    out_shape = tuple(out_shape)
    require_float(c, x) if mode != "nearest" else None

    # 1) WebNN resample2d, where it is provably the same map.
    pair = None
    if rank == 4 and set(changed) <= {2, 3}:
        pair = [2, 3]
    elif rank == 4 and set(changed) <= {1, 2}:
        pair = [1, 2]
    if pair is not None and mode in ("nearest", "linear"):
        webnn_mode = "nearest-neighbor" if mode == "nearest" else "linear"
        if all(isinstance(x.shape[a], int) for a in pair):
            same = all(_same_taps(_onnx_taps(mode, coord, nearest_mode, cubic_a, exclude_outside, x.shape[a],
                                             out_shape[a], full_scale[a]),
                                  _webnn_taps(mode, x.shape[a], out_shape[a]), out_shape[a]) for a in pair)
            if same:
                opts = {"mode": webnn_mode, "sizes": [out_shape[a] for a in pair], "axes": pair}
                return c.emit("resample2d", [x], opts, out_shape, x.dtype)
        else:
            # Dynamic sizes: only integer upscales whose map is the same for every size.
            ok = True
            for a in pair:
                s = full_scale[a]
                if s == 1.0 and (out_shape[a] is x.shape[a]):
                    continue
                if s != int(s) or s < 1 or sizes is not None:
                    ok = False
                elif mode == "nearest":
                    ok &= (coord == "asymmetric" and nearest_mode in ("floor", "simple")) or \
                        coord in ("half_pixel", "pytorch_half_pixel")
                else:
                    ok &= coord in ("half_pixel", "pytorch_half_pixel")
            if ok:
                opts = {"mode": webnn_mode, "scales": [full_scale[a] for a in pair], "axes": pair}
                return c.emit("resample2d", [x], opts, out_shape, x.dtype)
            raise Unsupported(f"{mode} resize with coordinate_transformation_mode '{coord}' of a dynamic size "
                              "is not WebNN's resample2d; fix the dynamic dimensions with --dim")

    # 2) Exact fallback: per axis, gathers of the source rows/columns and a weighted sum.
    y = x
    for a in changed:
        in_size, out_size = dim_of(x.shape[a]), dim_of(out_shape[a])
        taps = _onnx_taps(mode, coord, nearest_mode, cubic_a, exclude_outside, in_size, out_size, full_scale[a])
        taps = [(i, w) for i, w in taps if np.any(w != 0)]
        acc = None
        shape = tuple(out_size if k == a else d for k, d in enumerate(y.shape))
        for t, (idx, w) in enumerate(taps):
            g = c.emit("gather", [y, c.const(idx.astype(np.int32), f"idx{a}_{t}")], {"axis": a}, shape, y.dtype,
                       f"gather{a}_{t}")
            if not np.all(w == 1.0):
                wshape = [1] * rank
                wshape[a] = out_size
                wv = c.const(w.astype(y.dtype).reshape(wshape), f"w{a}_{t}")
                g = c.emit("mul", [g, wv], {}, shape, y.dtype, f"mul{a}_{t}")
            acc = g if acc is None else c.emit("add", [acc, g], {}, shape, y.dtype, f"add{a}_{t}")
        y = acc
    return y


# ---- recurrent ---------------------------------------------------------------------------------------

def _rnn_common(c):
    direction = c.attr("direction", "forward")
    webnn_dir = {"forward": "forward", "reverse": "backward", "bidirectional": "both"}.get(direction)
    if webnn_dir is None:
        raise Unsupported(f"direction '{direction}'")
    if c.attr("clip") is not None:
        raise Unsupported("clip")
    if c.attr("layout", 0) != 0:
        raise Unsupported("layout=1 (batch-major)")
    if c.opt_input(4) is not None:
        lens = c.opt_input(4)
        if not lens.is_const():
            raise Unsupported("sequence_lens at run time")
        x = c.input(0)
        if not np.all(np.asarray(lens.const) == dim_of(x.shape[0])):
            raise Unsupported("sequence_lens shorter than the sequence")
    hidden = c.attr("hidden_size")
    acts = c.attr("activations")
    defaults = {"GRU": ["Sigmoid", "Tanh"], "LSTM": ["Sigmoid", "Tanh", "Tanh"]}[c.op]
    n_dir = 2 if webnn_dir == "both" else 1
    if acts is not None:
        acts = list(acts)
        if c.attr("activation_alpha") is not None or c.attr("activation_beta") is not None:
            raise Unsupported("activation_alpha/activation_beta")
        k = len(defaults)
        if len(acts) != k * n_dir or acts[:k] * n_dir != acts:
            raise Unsupported(f"activations {acts}: WebNN takes one list of {k} for all directions")
        acts = acts[:k]
        table = {"Sigmoid": "sigmoid", "Tanh": "tanh", "Relu": "relu"}
        if any(a not in table for a in acts):
            raise Unsupported(f"activations {acts} (WebNN: Sigmoid, Tanh, Relu)")
        webnn_acts = [table[a] for a in acts]
    else:
        webnn_acts = None
    return webnn_dir, n_dir, hidden, webnn_acts


@handler("GRU", "LSTM")
def op_recurrent(c):
    c.check_attrs(["activation_alpha", "activation_beta", "activations", "clip", "direction", "hidden_size",
                   "layout", "linear_before_reset", "input_forget"])
    if c.attr("input_forget", 0):
        raise Unsupported("input_forget=1")
    x, w, r = c.input(0), c.input(1), c.input(2)
    require_float(c, x)
    webnn_dir, n_dir, hidden, acts = _rnn_common(c)
    steps, batch = dim_of(x.shape[0]), x.shape[1]
    n_gates = 3 if c.op == "GRU" else 4
    if hidden is None:
        hidden = dim_of(w.shape[1]) // n_gates
    opts = {"direction": webnn_dir, "returnSequence": c.output_used(0)}
    if acts is not None:
        opts["activations"] = acts
    b = c.opt_input(3)
    if b is not None:
        if not b.is_const():
            bias = c.emit("slice", [b], {"starts": [0, 0], "sizes": [n_dir, n_gates * hidden]},
                          (n_dir, n_gates * hidden), b.dtype, "bias")
            rbias = c.emit("slice", [b], {"starts": [0, n_gates * hidden], "sizes": [n_dir, n_gates * hidden]},
                           (n_dir, n_gates * hidden), b.dtype, "rbias")
        else:
            bias = c.const(b.const[:, :n_gates * hidden], "bias")
            rbias = c.const(b.const[:, n_gates * hidden:], "recurrent_bias")
        opts["bias"], opts["recurrentBias"] = bias, rbias
    h0 = c.opt_input(5)
    if h0 is not None:
        opts["initialHiddenState"] = h0
    if c.op == "GRU":
        opts["resetAfter"] = bool(c.attr("linear_before_reset", 0))
        opts["layout"] = "zrn"
        state = (n_dir, batch, hidden)
        outs = [(state, x.dtype)]
        if opts["returnSequence"]:
            outs.append(((steps, n_dir, batch, hidden), x.dtype))
        res = c.emit("gru", [x, w, r], dict(opts, steps=steps, hiddenSize=hidden), None, None, outputs=outs)
        y_h = res[0]
        y = res[1] if opts["returnSequence"] else None
        return [y, y_h]
    c0, p = c.opt_input(6), c.opt_input(7)
    if c0 is not None:
        opts["initialCellState"] = c0
    if p is not None:
        opts["peepholeWeight"] = p
    opts["layout"] = "iofg"
    state = (n_dir, batch, hidden)
    outs = [(state, x.dtype), (state, x.dtype)]
    if opts["returnSequence"]:
        outs.append(((steps, n_dir, batch, hidden), x.dtype))
    res = c.emit("lstm", [x, w, r], dict(opts, steps=steps, hiddenSize=hidden), None, None, outputs=outs)
    return [res[2] if opts["returnSequence"] else None, res[0], res[1]]


# ---- less common ops, by decomposition ------------------------------------------------------------

@handler("OneHot")
def op_one_hot(c):
    c.check_attrs(["axis"])
    idx = c.input(0)
    if idx.dtype.kind not in "iu":
        raise Unsupported(f"indices of type {idx.dtype}")
    depth = int(np.asarray(c.const_input(1, "depth")).reshape(()))
    values = np.asarray(c.const_input(2, "values")).reshape(-1)
    rank = len(idx.shape) + 1
    axis = norm_axis(c.attr("axis", -1), rank)
    if depth <= 0 or values.size != 2:
        raise Unsupported("depth must be positive and values must hold [off, on]")
    shape = list(idx.shape)
    shape.insert(axis, depth)
    shape = tuple(shape)
    # where(equal(indices (negatives wrapped), iota along axis), on, off)
    if idx.dtype.kind == "i":
        neg = c.emit("lesser", [idx, scalar(c, 0, idx.dtype, "zero")], {}, idx.shape, BOOL, "neg")
        wrapped = c.emit("add", [idx, scalar(c, depth, idx.dtype, "depth")], {}, idx.shape, idx.dtype, "wrap")
        idx = c.emit("where", [neg, wrapped, idx], {}, idx.shape, idx.dtype, "idx")
    expanded = reshape(c, idx, tuple(idx.shape[:axis]) + (1,) + tuple(idx.shape[axis:]), "unsqueeze")
    iota_shape = [1] * rank
    iota_shape[axis] = depth
    iota = c.const(np.arange(depth, dtype=idx.dtype).reshape(iota_shape), "iota")
    hit = c.emit("equal", [expanded, iota], {}, shape, BOOL, "hit")
    return c.emit("where", [hit, c.const(values[1], "on"), c.const(values[0], "off")], {}, shape, values.dtype)


@handler("GroupNormalization")
def op_group_norm(c):
    c.check_attrs(["epsilon", "num_groups", "stash_type"])
    x, scale, bias = c.input(0), c.input(1), c.input(2)
    require_float(c, x)
    shape = static_shape(x)
    n, ch = shape[0], shape[1]
    groups = c.attr("num_groups")
    if ch % groups:
        raise Unsupported(f"{ch} channels do not split into {groups} groups")
    inner = int(np.prod(shape[2:], dtype=np.int64)) * (ch // groups)
    flat = reshape(c, x, (n, groups, inner), "groups")
    norm = c.emit("layerNormalization", [flat], {"axes": [2], "epsilon": c.attr("epsilon", 1e-5)}, (n, groups, inner),
                  x.dtype, "norm")
    y = reshape(c, norm, shape, "ungroup")
    per_channel = (ch,) + (1,) * (len(shape) - 2)
    params = []
    for v, what in ((scale, "scale"), (bias, "bias")):
        if v.shape == (groups,) and groups != ch:  # opset 18: one value per group
            if not v.is_const():
                raise Unsupported(f"per-group {what} computed at run time")
            v = c.const(np.repeat(v.const, ch // groups), what)
        elif tuple(v.shape) != (ch,):
            raise Unsupported(f"{what} of shape {shape_str(v.shape)}")
        params.append(reshape(c, v, per_channel, what + "r"))
    y = c.emit("mul", [y, params[0]], {}, shape, x.dtype, "scale")
    return c.emit("add", [y, params[1]], {}, shape, x.dtype)


@handler("LpNormalization")
def op_lp_norm(c):
    c.check_attrs(["axis", "p"])
    x = c.input(0)
    require_float(c, x)
    axis = norm_axis(c.attr("axis", -1), len(x.shape))
    p = c.attr("p", 2)
    if p not in (1, 2):
        raise Unsupported(f"p={p}")
    keep = tuple(1 if i == axis else d for i, d in enumerate(x.shape))
    norm = c.emit("reduceL2" if p == 2 else "reduceL1", [x], {"axes": [axis], "keepDimensions": True}, keep, x.dtype,
                  "norm")
    return c.emit("div", [x, norm], {}, x.shape, x.dtype)


@handler("MeanVarianceNormalization")
def op_mvn(c):
    c.check_attrs(["axes"])
    x = c.input(0)
    require_float(c, x)
    rank = len(x.shape)
    axes = sorted(norm_axes(c.attr("axes", [0, 2, 3]), rank))
    keep = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
    s, dt = x.shape, x.dtype
    # As the ONNX function body: (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9)
    mean = c.emit("reduceMean", [x], {"axes": axes, "keepDimensions": True}, keep, dt, "mean")
    sq = c.emit("mul", [x, x], {}, s, dt, "sq")
    mean_sq = c.emit("reduceMean", [sq], {"axes": axes, "keepDimensions": True}, keep, dt, "meansq")
    var = c.emit("sub", [mean_sq, c.emit("mul", [mean, mean], {}, keep, dt, "mean2")], {}, keep, dt, "var")
    std = c.emit("add", [c.emit("sqrt", [var], {}, keep, dt, "std0"), scalar(c, 1e-9, dt, "eps")], {}, keep, dt, "std")
    return c.emit("div", [c.emit("sub", [x, mean], {}, s, dt, "centered"), std], {}, s, dt)


@handler("Shrink")
def op_shrink(c):
    c.check_attrs(["bias", "lambd"])
    x = c.input(0)
    bias, lambd = c.attr("bias", 0.0), c.attr("lambd", 0.5)
    s, dt = x.shape, x.dtype
    low = c.emit("lesser", [x, scalar(c, -lambd, dt, "nl")], {}, s, BOOL, "low")
    high = c.emit("greater", [x, scalar(c, lambd, dt, "l")], {}, s, BOOL, "high")
    plus = c.emit("add", [x, scalar(c, bias, dt, "b")], {}, s, dt, "plus")
    minus = c.emit("sub", [x, scalar(c, bias, dt, "b")], {}, s, dt, "minus")
    inner = c.emit("where", [high, minus, scalar(c, 0, dt, "zero")], {}, s, dt, "inner")
    return c.emit("where", [low, plus, inner], {}, s, dt)
