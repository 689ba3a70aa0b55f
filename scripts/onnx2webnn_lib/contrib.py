"""ONNX Runtime contrib ops (domain com.microsoft, and SimplifiedLayerNormalization, which ORT
registers in the default domain) that have an exact WebNN decomposition: the ops of ORT's
quantized LLM exports except GroupQueryAttention.

  MatMulNBits                       -> dequantizeLinear (blockwise uint4/uint8 constant [N, K])
                                       -> transpose -> matmul (+ bias add)
  SimplifiedLayerNormalization,     -> x / sqrt(reduceMean(x * x) + eps) * scale
  SkipSimplifiedLayerNormalization     (after input + skip (+ bias), the sum also an output)
  RotaryEmbedding                   -> gather cos/sin by position_ids, split halves, mul/sub/add,
                                       concat (rotate-half layout only)

GroupQueryAttention is rejected: ORT writes the new keys/values at position seqlens_k + 1 -
sequence_length, a run-time value (padding), which WebNN cannot express as a concat.
"""
import numpy as np

from .core import UINT4, Dyn, Unsupported
from .fold import norm_axis
from .ops import FLOAT_TYPES, reshape, transpose

CONTRIB_HANDLERS = {}   # com.microsoft op -> handler
DEFAULT_DOMAIN = {}     # ORT's default-domain extras -> handler
NOT_EXPRESSIBLE = {
    "GroupQueryAttention": "its KV-cache write position (seqlens_k + 1 - sequence_length) is run-time data "
                           "(padding), which WebNN cannot express; convert the standard-op form (a) instead",
}


def contrib(*names, default_domain=False):
    def register(f):
        for n in names:
            (DEFAULT_DOMAIN if default_domain else CONTRIB_HANDLERS)[n] = f
        return f
    return register


def _float_input(c, v, what="input"):
    if v.dtype not in FLOAT_TYPES:
        raise Unsupported(f"{what} has type {v.dtype}; float32/float16 only")


def _unpack(packed, bits):
    """Packed uint8 [..., bytes] -> uint8 values [..., bytes * 8 / bits], low bits first."""
    if bits == 8:
        return packed
    u = np.empty(packed.shape[:-1] + (packed.shape[-1] * 2,), np.uint8)
    u[..., 0::2] = packed & 0xF
    u[..., 1::2] = packed >> 4
    return u


@contrib("MatMulNBits")
def op_matmul_nbits(c):
    c.check_attrs(["K", "N", "bits", "block_size", "accuracy_level"])
    k, n = int(c.attr("K")), int(c.attr("N"))
    bits, block = int(c.attr("bits", 4)), int(c.attr("block_size"))
    if bits not in (4, 8):
        raise Unsupported(f"bits={bits} (4 and 8 are supported)")
    if c.num_inputs() > 4 and c.opt_input(4) is not None:
        raise Unsupported("g_idx (act-order) is not supported")
    a = c.input(0)
    _float_input(c, a, "A")
    if not isinstance(a.shape[-1], int) or a.shape[-1] != k:
        raise Unsupported(f"A's last dimension {a.shape[-1]} is not K={k}")
    if k % block:
        raise Unsupported(f"block_size {block} does not divide K={k}: the last block is partial, which WebNN's "
                          "blockwise scale cannot express")
    nb = k // block
    b = np.asarray(c.const_input(1, "B"))
    if b.dtype != np.uint8 or b.size != n * nb * block * bits // 8:
        raise Unsupported(f"B is {b.dtype} {list(b.shape)}, expected uint8 [{n}, {nb}, {block * bits // 8}]")
    q = _unpack(b.reshape(n, nb * block * bits // 8), bits).reshape(n, k)
    scale = np.asarray(c.const_input(2, "scales"))
    if scale.size != n * nb:
        raise Unsupported(f"scales has {scale.size} elements, expected N x blocks = {n * nb}")
    if scale.dtype != a.dtype:
        raise Unsupported(f"scales type {scale.dtype} differs from A's {a.dtype}")
    scale = scale.reshape(n, nb)
    zp = c.const_input(3, "zero_points") if c.opt_input(3) is not None else None
    if zp is None:
        z = np.full((n, nb), 1 << (bits - 1), np.uint8)
    else:
        zp = np.asarray(zp)
        if zp.dtype != np.uint8:
            raise Unsupported(f"zero_points of type {zp.dtype} (float zero points have no WebNN equivalent)")
        row = (nb * bits + 7) // 8
        if zp.size != n * row:
            raise Unsupported(f"zero_points has {zp.size} bytes, expected {n * row}")
        z = _unpack(zp.reshape(n, row), bits)[:, :nb]
    qdt = UINT4 if bits == 4 else np.dtype(np.uint8)
    wq = c.const(q.view(qdt) if bits == 4 else q, "qweight")
    w = c.emit("dequantizeLinear", [wq, c.const(scale, "scales"), c.const(np.ascontiguousarray(z).view(qdt)
                                                                           if bits == 4 else z, "zero_points")],
               {}, (n, k), a.dtype, "dequantize")
    wt = transpose(c, w, [1, 0], "transpose")
    bias = c.opt_input(5)
    out_shape = tuple(a.shape[:-1]) + (n,)
    if len(a.shape) == 1:
        raise Unsupported("A of rank 1")
    y = c.emit("matmul", [a, wt], {}, out_shape, a.dtype, None if bias is None else "matmul")
    if bias is not None:
        if tuple(bias.shape) != (n,):
            raise Unsupported(f"bias shape {list(bias.shape)}, expected [{n}]")
        y = c.emit("add", [y, bias], {}, out_shape, a.dtype)
    return y


def _rms(c, x, axis, eps, scale, suffix=""):
    """x / sqrt(mean(x * x over axes [axis, rank)) + eps) * scale, in x's type (float32 only)."""
    rank = len(x.shape)
    axes = list(range(axis, rank))
    keep = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
    sq = c.emit("mul", [x, x], {}, x.shape, x.dtype, f"{suffix}square")
    mean = c.emit("reduceMean", [sq], {"axes": axes, "keepDimensions": True}, keep, x.dtype, f"{suffix}mean")
    var = c.emit("add", [mean, c.const(np.asarray(eps, x.dtype), "epsilon")], {}, keep, x.dtype, f"{suffix}add_eps")
    rs = c.emit("sqrt", [var], {}, keep, x.dtype, f"{suffix}sqrt")
    y = c.emit("div", [x, rs], {}, x.shape, x.dtype, f"{suffix}normalize")
    norm_shape = tuple(x.shape[axis:])
    if tuple(scale.shape) != norm_shape:
        raise Unsupported(f"scale shape {list(scale.shape)}, expected {list(norm_shape)}")
    return c.emit("mul", [y, scale], {}, x.shape, x.dtype, None)


@contrib("SimplifiedLayerNormalization", default_domain=True)
def op_simplified_layer_norm(c):
    c.check_attrs(["axis", "epsilon", "stash_type"])
    x = c.input(0)
    if x.dtype != np.float32:
        raise Unsupported(f"input of type {x.dtype} (float32 only: stash_type computes in float32)")
    if c.output_used(1):
        raise Unsupported("the inv_std_var output is not supported")
    axis = norm_axis(c.attr("axis", -1), len(x.shape))
    return _rms(c, x, axis, float(c.attr("epsilon", 1e-5)), c.input(1, "scale"))


@contrib("SkipSimplifiedLayerNormalization")
def op_skip_simplified_layer_norm(c):
    c.check_attrs(["epsilon"])
    x, skip, gamma, bias = c.input(0), c.input(1), c.input(2, "gamma"), c.opt_input(3)
    if x.dtype != np.float32:
        raise Unsupported(f"input of type {x.dtype} (float32 only)")
    for k in (1, 2):
        if c.output_used(k):
            raise Unsupported(f"output {k} (mean / inv_std_var) is not supported")
    if tuple(skip.shape) != tuple(x.shape):
        raise Unsupported(f"skip shape {list(skip.shape)} differs from the input's {list(x.shape)} "
                          "(broadcast skip is not supported)")
    s = c.emit("add", [x, skip], {}, x.shape, x.dtype, "sum" if bias is None else "sum0")
    if bias is not None:
        s = c.emit("add", [s, bias], {}, x.shape, x.dtype, "sum")
    y = _rms(c, s, len(x.shape) - 1, float(c.attr("epsilon", 1e-12)), gamma, "norm/")
    return [y, None, None, s]


@contrib("RotaryEmbedding")
def op_rotary_embedding(c):
    c.check_attrs(["interleaved", "num_heads", "rotary_embedding_dim", "scale", "is_packed_batching"])
    if c.attr("interleaved", 0):
        raise Unsupported("interleaved=1 is not supported (rotate-half layout only)")
    if c.attr("is_packed_batching", 0):
        raise Unsupported("is_packed_batching=1 is not supported")
    if float(c.attr("scale", 1.0)) != 1.0:
        raise Unsupported(f"scale={c.attr('scale')} is not supported")
    x, pos = c.input(0), c.input(1)
    cos, sin = c.input(2, "cos_cache"), c.input(3, "sin_cache")
    _float_input(c, x)
    if len(cos.shape) != 2 or tuple(cos.shape) != tuple(sin.shape):
        raise Unsupported(f"cos/sin caches {list(cos.shape)} / {list(sin.shape)}: 2-D [max_position, dim / 2] only")
    if cos.dtype != x.dtype:
        raise Unsupported(f"cos_cache type {cos.dtype} differs from the input's {x.dtype}")
    if len(pos.shape) != 2:
        raise Unsupported(f"position_ids of shape {list(pos.shape)}: [batch, sequence] only (not the offset form)")
    half = cos.shape[1]
    rd = int(c.attr("rotary_embedding_dim", 0)) or None
    if len(x.shape) == 3:
        hidden = x.shape[2]
        nh = int(c.attr("num_heads", 0))
        if not isinstance(hidden, int):
            raise Unsupported("dynamic hidden size")
        hd = hidden // nh if nh else (rd or 2 * half)
        if not nh:
            nh = hidden // hd
        if nh * hd != hidden:
            raise Unsupported(f"hidden {hidden} is not num_heads x head_size")
        b, s = x.shape[0], x.shape[1]
        x4 = reshape(c, x, (b, s, nh, hd), "heads")       # [B, S, H, D]; cos [B, S, 1, d/2]
        cs_axis = 2
    elif len(x.shape) == 4:
        x4, hd = x, x.shape[3]                            # [B, H, S, D]; cos [B, 1, S, d/2]
        cs_axis = 1
    else:
        raise Unsupported(f"input of rank {len(x.shape)}")
    rd = rd or hd
    if not isinstance(hd, int) or rd != 2 * half or rd > hd:
        raise Unsupported(f"rotary dim {rd} with head size {hd} and a cache of width {half}")
    pshape = tuple(pos.shape)
    cg = c.emit("gather", [cos, pos], {"axis": 0}, pshape + (half,), x.dtype, "cos")
    sg = c.emit("gather", [sin, pos], {"axis": 0}, pshape + (half,), x.dtype, "sin")
    cshape = pshape[:cs_axis] + (1,) + pshape[cs_axis:] + (half,)
    cg, sg = reshape(c, cg, cshape, "cos4"), reshape(c, sg, cshape, "sin4")
    sizes = [half, half] + ([hd - rd] if rd < hd else [])
    shp = tuple(x4.shape)
    parts = c.emit("split", [x4], {"splits": sizes, "axis": 3}, None, None,
                   outputs=[(shp[:3] + (sz,), x.dtype) for sz in sizes], suffix="split")
    x1, x2 = parts[0], parts[1]
    hshape = shp[:3] + (half,)
    for d in hshape:
        if isinstance(d, Dyn) and not d.name:
            raise Unsupported("a size derived from a dynamic dimension")
    r1 = c.emit("sub", [c.emit("mul", [x1, cg], {}, hshape, x.dtype, "x1cos"),
                        c.emit("mul", [x2, sg], {}, hshape, x.dtype, "x2sin")], {}, hshape, x.dtype, "first")
    r2 = c.emit("add", [c.emit("mul", [x2, cg], {}, hshape, x.dtype, "x2cos"),
                        c.emit("mul", [x1, sg], {}, hshape, x.dtype, "x1sin")], {}, hshape, x.dtype, "second")
    y = c.emit("concat", [r1, r2] + parts[2:], {"axis": 3}, shp, x.dtype, "rotated" if len(x.shape) == 3 else None)
    return reshape(c, y, x.shape, None) if len(x.shape) == 3 else y
