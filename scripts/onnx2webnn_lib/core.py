"""The conversion driver: ONNX values, their shapes, and the WebNN graph being written.

Every ONNX value becomes a `Value` that knows its data type and shape. A value
whose contents are known while converting (an initializer, a Constant, or a node
whose inputs are all known and that fold.py can evaluate with NumPy) stays a
NumPy array; it turns into a WebNN constant only when a WebNN op uses it. That
is how Shape -> Gather -> Concat -> Reshape chains disappear: the Reshape handler
reads its target shape as an array and never emits the chain.

Dimensions are ints, or `Dyn` for sizes not known while converting: a named
dynamic input dimension (written as {"name", "maxSize"}) or a size derived from
one (e.g. a strided convolution of a dynamic height). A handler that needs the
value of a Dyn raises Unsupported naming it, so the user can fix it with --dim.
"""
import hashlib
import os
import json
import struct
from collections import OrderedDict

import numpy as np
import onnx
from onnx import numpy_helper, TensorProto
from .progress import NoProgress

MIN_OPSET = 7
MAX_OPSET = 21


class Unsupported(Exception):
    """A node cannot be converted faithfully; the message says why."""


class _Poisoned(Exception):
    """A node's input comes from a node that could not be converted."""


class ConversionError(Exception):
    """Every node that could not be converted: [(op_type, node_name, reason)]."""

    def __init__(self, model_name, problems):
        self.problems = problems
        lines = [f"{model_name}: {len(problems)} node(s) cannot be converted to WebNN:"]
        width = max(len(p[0]) for p in problems)
        for op, name, reason in problems:
            lines.append(f"  {op:<{width}}  '{name}': {reason}")
        super().__init__("\n".join(lines))


# ---- data types -------------------------------------------------------------------

# ONNX element type -> NumPy dtype (only those NumPy has).
ONNX_TO_NP = {
    TensorProto.FLOAT: np.dtype(np.float32), TensorProto.FLOAT16: np.dtype(np.float16),
    TensorProto.DOUBLE: np.dtype(np.float64), TensorProto.INT8: np.dtype(np.int8),
    TensorProto.UINT8: np.dtype(np.uint8), TensorProto.INT16: np.dtype(np.int16),
    TensorProto.UINT16: np.dtype(np.uint16), TensorProto.INT32: np.dtype(np.int32),
    TensorProto.UINT32: np.dtype(np.uint32), TensorProto.INT64: np.dtype(np.int64),
    TensorProto.UINT64: np.dtype(np.uint64), TensorProto.BOOL: np.dtype(np.bool_),
}
# NumPy dtype -> WebNN MLOperandDataType. ONNX bool is WebNN's uint8 0/1.
NP_TO_WEBNN = {
    np.dtype(np.float32): "float32", np.dtype(np.float16): "float16", np.dtype(np.int32): "int32",
    np.dtype(np.uint32): "uint32", np.dtype(np.int64): "int64", np.dtype(np.uint64): "uint64",
    np.dtype(np.int8): "int8", np.dtype(np.uint8): "uint8", np.dtype(np.bool_): "uint8",
}


# 4-bit types: onnx 1.12 has no enum for them, so they are known by number. Their values live
# unpacked in int8/uint8 arrays whose dtype carries a marker; packing (two per byte, low nibble
# first, as in ONNX and WebNN) happens only when they are written.
ONNX_UINT4, ONNX_INT4 = 21, 22
INT4 = np.dtype(np.int8, metadata={"webnn": "int4"})
UINT4 = np.dtype(np.uint8, metadata={"webnn": "uint4"})


def four_bit(dtype):
    """'int4'/'uint4' for a marked dtype, else None."""
    md = np.dtype(dtype).metadata
    return md.get("webnn") if md else None


def read_4bit(t):
    """An INT4/UINT4 TensorProto as an unpacked array with the INT4/UINT4 dtype."""
    if t.data_location == TensorProto.EXTERNAL:
        raise Unsupported("4-bit initializer with external data is not supported")
    n = int(np.prod(t.dims, dtype=np.int64)) if len(t.dims) else 1
    if t.HasField("raw_data"):
        packed = np.frombuffer(t.raw_data, np.uint8)
    else:
        packed = np.asarray(t.int32_data, np.int64).astype(np.uint8)  # one packed byte per int32
    if packed.size != (n + 1) // 2:
        raise Unsupported(f"4-bit initializer holds {packed.size} bytes, its shape needs {(n + 1) // 2}")
    u = np.empty(packed.size * 2, np.uint8)
    u[0::2] = packed & 0xF
    u[1::2] = packed >> 4
    u = u[:n]
    if t.data_type == ONNX_INT4:
        return (u.astype(np.int8) - ((u >= 8).astype(np.int8) << 4)).view(INT4).reshape(tuple(t.dims))
    return u.view(UINT4).reshape(tuple(t.dims))


def tensor_bytes(array):
    """The little-endian bytes of a constant (4-bit types packed two per byte, low nibble first)."""
    if four_bit(array.dtype):
        u = (np.ascontiguousarray(array).reshape(-1).view(np.uint8) & 0xF)
        if u.size % 2:
            u = np.concatenate([u, np.zeros(1, np.uint8)])
        return (u[0::2] | (u[1::2] << 4)).tobytes()
    return np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<"), copy=False).tobytes()


def onnx_dtype(elem_type, what):
    if elem_type not in ONNX_TO_NP:
        name = TensorProto.DataType.Name(elem_type) if elem_type in TensorProto.DataType.values() else elem_type
        raise Unsupported(f"{what}: ONNX element type {name} is not supported")
    return ONNX_TO_NP[elem_type]


def webnn_dtype(dtype, what="tensor"):
    dtype = np.dtype(dtype)
    if four_bit(dtype):
        return four_bit(dtype)
    if dtype not in NP_TO_WEBNN:
        raise Unsupported(f"{what}: data type {dtype} has no WebNN equivalent "
                          "(WebNN: float32, float16, int32, uint32, int64, uint64, int8, uint8/bool)")
    return NP_TO_WEBNN[dtype]


# ---- dimensions and values ------------------------------------------------------------

class Dyn:
    """A dimension whose size is not known while converting."""
    _count = 0

    def __init__(self, name=None, max_size=None, origin="", expr=None):
        Dyn._count += 1
        self.name = name          # set for named input dimensions: usable in reshape/expand
        self.max_size = max_size
        self.origin = origin      # for messages: what derived it
        self.id = Dyn._count
        # A sum of named dimensions plus a constant, when known: ((name, coeff), ...), const.
        self.expr = ((((name, 1),), 0) if name else None) if expr is None else expr

    def __repr__(self):
        return self.name if self.name else "?"


def is_static(shape):
    return all(isinstance(d, int) for d in shape)


def shape_str(shape):
    return "[" + ", ".join(str(d) for d in shape) + "]"


class Value:
    """An ONNX value as the converter knows it."""
    __slots__ = ("name", "_dtype", "_shape", "const", "operand", "poisoned", "sym")

    def __init__(self, name, dtype, shape, const=None, operand=None, poisoned=False):
        self.sym = None  # symbolic.py: a shape value holding dynamic dims (object array), never an operand
        self.name = name
        self._dtype = np.dtype(dtype) if dtype is not None else None
        self._shape = tuple(shape) if shape is not None else None
        self.const = const
        self.operand = operand
        self.poisoned = poisoned

    @property
    def dtype(self):
        if self.poisoned:
            raise _Poisoned()
        return self._dtype

    @property
    def shape(self):
        if self.poisoned:
            raise _Poisoned()
        return self._shape

    @property
    def rank(self):
        return len(self.shape)

    def is_const(self):
        return self.const is not None


def const_value(array, name="const"):
    array = np.asarray(array)
    return Value(name, array.dtype, array.shape, const=array)


# ---- node context -------------------------------------------------------------------

class NodeCtx:
    """What a handler sees of one ONNX node."""

    def __init__(self, conv, node, index):
        self.g = conv
        self.node = node
        self.op = node.op_type
        self.name = node.name or f"{node.op_type}#{index} -> {node.output[0] if node.output else ''}"
        self.opset = conv.opset
        self.attrs = {}
        for a in node.attribute:
            if a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS):
                raise Unsupported(f"attribute '{a.name}' holds a subgraph (control flow is not supported)")
            if a.type in (onnx.AttributeProto.SPARSE_TENSOR, onnx.AttributeProto.SPARSE_TENSORS):
                raise Unsupported(f"attribute '{a.name}' holds a sparse tensor")
            if a.ref_attr_name:
                raise Unsupported(f"attribute '{a.name}' refers to a function attribute")
            v = onnx.helper.get_attribute_value(a)
            if isinstance(v, bytes):
                v = v.decode("utf-8")
            elif isinstance(v, list) and v and isinstance(v[0], bytes):
                v = [x.decode("utf-8") for x in v]
            elif isinstance(v, onnx.TensorProto):
                v = numpy_helper.to_array(v)
            self.attrs[a.name] = v
        self.inputs = [conv.values[n] if n else None for n in node.input]
        self.outputs = list(node.output)
        self.label = node.name or (node.output[0] if node.output else node.op_type)

    # inputs
    def num_inputs(self):
        n = len(self.inputs)
        while n and self.inputs[n - 1] is None:
            n -= 1
        return n

    def input(self, i, what=None):
        if i >= len(self.inputs) or self.inputs[i] is None:
            raise Unsupported(f"required input {i}{' (' + what + ')' if what else ''} is missing")
        return self.inputs[i]

    def opt_input(self, i):
        return self.inputs[i] if i < len(self.inputs) else None

    def const_input(self, i, what, default=None):
        v = self.opt_input(i)
        if v is None:
            return default
        if v.poisoned:
            raise _Poisoned()
        if v.sym is not None:
            raise Unsupported(f"input {i} ({what}) is the run-time shape value {shape_str(list(v.sym.reshape(-1)))}; "
                              "fix the dynamic dimensions with --dim")
        if v.const is None:
            raise Unsupported(f"input {i} ({what}) must be a constant (or computable from static shapes), "
                              f"but it is computed at run time")
        return v.const

    def attr(self, name, default=None):
        return self.attrs.get(name, default)

    def attr_or_input(self, name, input_index, since_opset, what, default=None):
        """An argument that moved from an attribute to an input in `since_opset`."""
        if self.opset >= since_opset:
            v = self.const_input(input_index, what)
            return default if v is None else v
        return self.attrs.get(name, default)

    def output_used(self, k):
        return k < len(self.outputs) and self.outputs[k] != "" and self.outputs[k] in self.g.used

    def check_attrs(self, allowed):
        """Rejects attributes the handler does not implement (never ignore one silently)."""
        for k in self.attrs:
            if k not in allowed:
                raise Unsupported(f"attribute '{k}' is not supported")

    # emitting
    def emit(self, op, inputs, options, shape, dtype, suffix=None, outputs=None):
        return self.g.emit(op, inputs, options, shape, dtype, self, suffix, outputs)

    def const(self, array, suffix="const"):
        return const_value(np.asarray(array), f"{self.outputs[0] if self.outputs else self.label}/{suffix}")


# ---- the converter ---------------------------------------------------------------------

class ConversionResult:
    def __init__(self, graph, weights, notes):
        self.graph = graph            # the webnn-graph JSON object
        self.weights = weights        # OrderedDict name -> ndarray (the .weights tensors)
        self.notes = notes            # human-readable remarks (dynamic dims, ...)

    def write(self, json_path, progress=None):
        """Writes json_path and, if there are weight tensors, <stem>.weights and <stem>.manifest.json."""
        progress = progress or NoProgress()
        total = sum(a.nbytes for a in self.weights.values())
        done = 0
        stem = json_path[:-5] if json_path.endswith(".json") else json_path
        written = [json_path]
        if self.weights:
            manifest = {"format": "wg-weights-manifest", "version": 1, "endianness": "little", "tensors": {}}
            blob = bytearray(b"WGWT" + struct.pack("<I", 1))
            for name, arr in self.weights.items():
                pad = (-len(blob)) % 64  # 64-byte aligned tensors
                blob += b"\0" * pad
                data = tensor_bytes(arr)
                manifest["tensors"][name] = {"dataType": webnn_dtype(arr.dtype), "shape": list(arr.shape),
                                             "byteOffset": len(blob), "byteLength": len(data)}
                blob += data
                done += arr.nbytes
                progress.update("weights", done, total, "bytes")
            with open(stem + ".weights", "wb") as f:
                f.write(blob)
            with open(stem + ".manifest.json", "w") as f:
                json.dump(manifest, f, indent=1)
                f.write("\n")
            written += [stem + ".weights", stem + ".manifest.json"]
        with open(json_path, "w") as f:
            f.write(graph_to_json(self.graph))
        return written


def graph_to_json(graph):
    """The graph as JSON text with one input, constant, node or output per line."""
    def one(v):
        return json.dumps(v, separators=(", ", ": "))
    lines = ["{"]
    keys = list(graph)
    for i, k in enumerate(keys):
        v = graph[k]
        end = "," if i + 1 < len(keys) else ""
        if isinstance(v, dict) and v and k in ("inputs", "consts", "outputs"):
            items = [f"  {json.dumps(name)}: {one(x)}" for name, x in v.items()]
            lines.append(f" {json.dumps(k)}: {{\n" + ",\n".join(items) + f"\n }}{end}")
        elif isinstance(v, list) and v:
            lines.append(f" {json.dumps(k)}: [\n" + ",\n".join("  " + one(x) for x in v) + f"\n ]{end}")
        else:
            lines.append(f" {json.dumps(k)}: {one(v)}{end}")
    return "\n".join(lines) + "\n}\n"


class Converter:
    def __init__(self, model, dims=None, input_shapes=None, max_sizes=None, default_max_size=1024,
                 inline_limit=64, labels=True, check_shapes=True, dim_sums=None, progress=None):
        self.model = model
        self.progress = progress or NoProgress()
        self.dims = dict(dims or {})
        self.input_shapes = dict(input_shapes or {})
        self.max_sizes = dict(max_sizes or {})
        self.default_max_size = default_max_size
        self.inline_limit = inline_limit
        self.labels = labels
        self.check_shapes = check_shapes
        self.opset = None
        for imp in model.opset_import:
            if imp.domain in ("", "ai.onnx"):
                self.opset = imp.version
        if self.opset is None:
            raise ConversionError(model.graph.name or "model", [("(model)", "", "no default-domain opset import")])
        self.values = {}
        self.nodes = []                 # WebNN nodes, in order
        self.consts = OrderedDict()     # id -> (array, json init)
        self.const_cache = {}
        self.weights = OrderedDict()
        self.used_ids = set()
        self.errors = []
        self.notes = []
        self.dyn_by_name = {}
        self.used = set()
        # NAME -> [A, B, ...]: the named input dimension NAME equals A + B + ... (--dim-sum), so a
        # Concat whose size is that sum gets NAME and can be reshaped/expanded by name.
        self.dim_sums = dict(dim_sums or {})
        self.sum_alias = {}             # expr -> named Dyn
        self.declared_out_dims = {}     # graph output -> [dim_param or None per axis]
        for vo in model.graph.output:
            t = vo.type.tensor_type
            if vo.type.HasField("tensor_type") and t.HasField("shape"):
                self.declared_out_dims[vo.name] = [d.dim_param if d.HasField("dim_param") else None
                                                   for d in t.shape.dim]

    # ids
    def unique(self, hint):
        base = hint or "v"
        name, k = base, 1
        while name in self.used_ids:
            k += 1
            name = f"{base}#{k}"
        self.used_ids.add(name)
        return name

    # constants
    def const_operand(self, array, hint):
        array = np.asarray(array)
        wt = webnn_dtype(array.dtype, f"constant '{hint}'")
        if array.size == 0:
            raise Unsupported(f"constant '{hint}' is empty (shape {list(array.shape)}); WebNN has no empty tensors")
        if array.dtype == np.bool_:
            array = array.astype(np.uint8)
        data = tensor_bytes(array)
        key = (wt, array.shape, hashlib.sha1(data).hexdigest())
        if key in self.const_cache:
            return self.const_cache[key]
        cid = self.unique(hint)
        flat = array.reshape(-1)
        first = flat[0]
        init = None
        if array.size > 1 and np.all(flat == first) and not (array.dtype.kind == "f" and not np.isfinite(first)):
            if array.dtype.kind == "f":
                if np.all(np.signbit(flat) == np.signbit(first)):  # 0.0 == -0.0: keep signs exact
                    init = {"kind": "scalar", "value": float(first)}
            elif abs(int(first)) <= 2 ** 53 and not four_bit(array.dtype):
                init = {"kind": "scalar", "value": int(first)}
        if init is None and len(data) <= self.inline_limit:
            init = {"kind": "inlineBytes", "bytes": list(data)}
        if init is None:
            init = {"kind": "weights", "ref": cid}
            self.weights[cid] = array
        self.consts[cid] = {"dataType": wt, "shape": list(array.shape), "init": init}
        self.const_cache[key] = cid
        return cid

    def ref(self, v):
        """The WebNN operand id of a Value (materializes constants)."""
        if v.poisoned:
            raise _Poisoned()
        if v.operand is None:
            if v.const is None:
                raise AssertionError(f"value '{v.name}' has neither an operand nor a constant")
            v.operand = self.const_operand(v.const, v.name)
        return v.operand

    def emit(self, op, inputs, options, shape, dtype, ctx, suffix=None, outputs=None):
        """Appends WebNN node `op`. `inputs` are Values; Values inside `options` are operand
        references (by name). Returns the result Value, or a list for `outputs` (list of
        (shape, dtype)) on multi-output ops."""
        base = ctx.outputs[0] if ctx.outputs and ctx.outputs[0] else ctx.label
        hint = base if suffix is None else f"{base}/{suffix}"
        ids = [self.ref(v) for v in inputs]
        opts, operand_options = {}, []
        for k, v in (options or {}).items():
            if v is None:
                continue
            if isinstance(v, Value):
                opts[k] = self.ref(v)
                operand_options.append(opts[k])
            else:
                opts[k] = _jsonable(v)
        if self.labels:
            opts["label"] = ctx.label
        for d in ([shape] if outputs is None else [s for s, _ in outputs]):
            for x in d:
                if isinstance(x, int) and x <= 0:
                    raise Unsupported(f"{op} would produce an empty tensor (shape {shape_str(d)}); "
                                      "WebNN has no empty tensors")
        if len(shape if outputs is None else outputs[0][0]) > 8:
            raise Unsupported(f"{op} result has rank > 8 (WebNN's maximum here)")
        if outputs is None:
            nid = self.unique(hint)
            self.nodes.append({"id": nid, "op": op, "inputs": ids, "options": opts, "_refs": operand_options})
            return Value(nid, dtype, shape, operand=nid)
        nid = self.unique(hint)
        out_ids = [nid] + [self.unique(f"{hint}:{k}") for k in range(1, len(outputs))]
        self.nodes.append({"id": nid, "op": op, "inputs": ids, "options": opts, "outputs": out_ids,
                           "_refs": operand_options})
        return [Value(i, dt, s, operand=i) for i, (s, dt) in zip(out_ids, outputs)]

    # derived dimensions
    def sum_dim(self, dims, ctx=None, out_name=None, axis=None):
        """The size of a Concat axis from its parts' sizes: an int, or a Dyn whose expr is the sum of
        the parts' exprs. The sum becomes a named dimension when --dim-sum declares it, or when the
        model declares this graph output's dimension with the dim_param of a graph input's
        dimension (ONNX Runtime GenAI models: present.N.key [.., total_sequence_length, ..] and
        attention_mask [.., total_sequence_length]). The engine checks the equality at dispatch
        wherever the name is used (reshape/expand sizes must match the data)."""
        if all(isinstance(d, int) for d in dims):
            return sum(dims)
        terms, const = {}, 0
        for d in dims:
            if isinstance(d, int):
                const += d
            elif d.expr is None:
                return Dyn(origin=f"Concat '{ctx.label if ctx else ''}'")
            else:
                for n, k in d.expr[0]:
                    terms[n] = terms.get(n, 0) + k
                const += d.expr[1]
        expr = (tuple(sorted(terms.items())), const)
        if self.dim_sums:
            for name, parts in self.dim_sums.items():
                t = {}
                for x in parts:
                    t[x] = t.get(x, 0) + 1
                key = (tuple(sorted(t.items())), 0)
                if name not in self.dyn_by_name:
                    raise Unsupported(f"--dim-sum {name}=...: '{name}' is not a dynamic dimension of any graph input")
                self.sum_alias[key] = self.dyn_by_name[name]
            self.dim_sums = {}  # declared once
        if expr in self.sum_alias:
            return self.sum_alias[expr]
        declared = self.declared_out_dims.get(out_name)
        if declared and axis is not None and axis < len(declared) and declared[axis] in self.dyn_by_name:
            named = self.dyn_by_name[declared[axis]]
            if named.expr != expr:
                self.sum_alias[expr] = named
                pretty = " + ".join((f"{k}*" if k != 1 else "") + n for n, k in expr[0]) + \
                    (f" + {const}" if const else "")
                self.notes.append(f"dimension '{named.name}' is taken to equal {pretty} (graph output "
                                  f"'{out_name}' declares it); the engine checks this at dispatch")
                return named
        return Dyn(origin=f"Concat '{ctx.label if ctx else ''}'", expr=expr)

    # inputs
    def input_value(self, vi):
        name = vi.name
        t = vi.type.tensor_type
        if not vi.type.HasField("tensor_type"):
            raise Unsupported(f"graph input '{name}' is not a tensor")
        dtype = onnx_dtype(t.elem_type, f"graph input '{name}'")
        if name in self.input_shapes:
            shape = tuple(int(d) for d in self.input_shapes[name])
            if t.HasField("shape") and len(t.shape.dim) != len(shape):
                raise Unsupported(f"--input-shape {name}: rank {len(shape)} but the model's input has rank "
                                  f"{len(t.shape.dim)}")
            return Value(name, dtype, shape)
        if not t.HasField("shape"):
            raise Unsupported(f"graph input '{name}' has no shape: give it with --input-shape {name}=D0,D1,...")
        shape = []
        for i, d in enumerate(t.shape.dim):
            if d.HasField("dim_value") and d.dim_value > 0:
                shape.append(int(d.dim_value))
                continue
            dname = d.dim_param if d.HasField("dim_param") and d.dim_param else f"{name}.dim{i}"
            if dname in self.dims:
                shape.append(int(self.dims[dname]))
                continue
            if dname not in self.dyn_by_name:
                max_size = int(self.max_sizes.get(dname, self.default_max_size))
                self.dyn_by_name[dname] = Dyn(dname, max_size, origin=f"input '{name}'")
                self.notes.append(f"dimension '{dname}' of input '{name}' is dynamic (maxSize {max_size}); "
                                  f"fix it with --dim {dname}=SIZE or bound it with --max-size {dname}=SIZE")
            shape.append(self.dyn_by_name[dname])
        return Value(name, dtype, shape)

    # driver
    def run(self):
        g = self.model.graph
        problems = []
        if not (MIN_OPSET <= self.opset <= MAX_OPSET):
            self.notes.append(f"opset {self.opset} is outside the tested range {MIN_OPSET}-{MAX_OPSET}")
        init_names = set()
        for count, t in enumerate(g.initializer):
            self.progress.update("initializers", count, len(g.initializer))
            init_names.add(t.name)
            try:
                arr = read_4bit(t) if t.data_type in (ONNX_INT4, ONNX_UINT4) else numpy_helper.to_array(t)
            except Exception as e:  # external data missing, ...
                problems.append(("(initializer)", t.name, f"cannot read: {e}"))
                continue
            self.values[t.name] = Value(t.name, arr.dtype, arr.shape, const=arr)
        for t in g.sparse_initializer:
            problems.append(("(initializer)", t.values.name, "sparse initializers are not supported"))
        graph_inputs = []
        for vi in g.input:
            if vi.name in init_names:
                continue  # IR < 4 lists initializers as inputs too: they are constants here
            try:
                v = self.input_value(vi)
                webnn_dtype(v.dtype, f"graph input '{vi.name}'")
            except Unsupported as e:
                problems.append(("(input)", vi.name, str(e)))
                v = Value(vi.name, None, None, poisoned=True)
            self.values[vi.name] = v
            graph_inputs.append(v)
            self.used_ids.add(vi.name)
            v.operand = vi.name

        nodes = self._live_nodes()
        for n in nodes:
            self.used.update(x for x in n.input if x)
        self.used.update(o.name for o in g.output)

        for index, node in enumerate(nodes):
            self.progress.update("nodes", index, len(nodes))
            ctx = None
            try:
                if node.domain not in ("", "ai.onnx"):
                    from .contrib import CONTRIB_HANDLERS, NOT_EXPRESSIBLE
                    if node.domain != "com.microsoft" or (node.op_type not in CONTRIB_HANDLERS and
                                                          node.op_type not in NOT_EXPRESSIBLE):
                        raise Unsupported(f"operator domain '{node.domain}' is not supported (only the default "
                                          "ONNX domain, and com.microsoft's " +
                                          ", ".join(sorted(CONTRIB_HANDLERS)) + ")")
                for name in node.input:
                    if name and name not in self.values:
                        raise Unsupported(f"input '{name}' is not defined before this node")
                ctx = NodeCtx(self, node, index)
                outs = self._convert_node(ctx)
                if isinstance(outs, Value):
                    outs = [outs]
                for k, name in enumerate(node.output):
                    if not name:
                        continue
                    if k < len(outs) and outs[k] is not None:
                        self.values[name] = outs[k]
                    elif name in self.used:
                        raise Unsupported(f"output {k} ('{name}') is not supported")
            except _Poisoned:
                for name in node.output:
                    self.values[name] = Value(name, None, None, poisoned=True)
            except Exception as e:
                if not isinstance(e, Unsupported):
                    if os.environ.get("ONNX2WEBNN_DEBUG"):
                        raise
                    e = f"internal converter error ({type(e).__name__}: {e}); set ONNX2WEBNN_DEBUG=1 for a trace"
                label = node.name or (f"(unnamed, output '{node.output[0]}')" if node.output else "(unnamed)")
                problems.append((node.op_type, label, str(e)))
                for name in node.output:
                    self.values[name] = Value(name, None, None, poisoned=True)

        outputs = OrderedDict()
        for vo in g.output:
            v = self.values.get(vo.name)
            if v is None:
                problems.append(("(output)", vo.name, "is not produced by any node"))
                continue
            if v.poisoned:
                continue
            if v.sym is not None:
                problems.append(("(output)", vo.name, f"is the run-time shape value {shape_str(list(v.sym.reshape(-1)))}"
                                 "; fix the dynamic dimensions with --dim"))
                continue
            try:
                if v.is_const() or v in graph_inputs or v.operand in outputs.values():
                    # A graph output must be an operation's result.
                    dummy = _DummyCtx(vo.name)
                    v = self.emit("identity", [v], {}, v.shape, v.dtype, dummy)
                outputs[vo.name] = self.ref(v)
                webnn_dtype(v.dtype, f"graph output '{vo.name}'")
            except Unsupported as e:
                problems.append(("(output)", vo.name, str(e)))

        if not problems and self.check_shapes:
            problems += self._check_against_onnx_shapes(graph_inputs)
        if problems:
            raise ConversionError(g.name or "model", problems)

        nodes_json, consts_json = self._prune(outputs)
        referenced = self._needed
        inputs_json = OrderedDict()
        for v in graph_inputs:
            if any(isinstance(d, int) and d == 0 for d in v.shape):
                if v.name in referenced:
                    raise ConversionError(g.name or "model", [("(input)", v.name, f"has the empty shape "
                                                               f"{shape_str(v.shape)} and is used")])
                self.notes.append(f"input '{v.name}' has the empty shape {shape_str(v.shape)} and is left out")
                continue
            inputs_json[v.name] = {"dataType": webnn_dtype(v.dtype), "shape": [
                d if isinstance(d, int) else {"name": d.name, "maxSize": d.max_size} for d in v.shape]}
        graph = OrderedDict([
            ("format", "webnn-graph-json"), ("version", 2), ("name", g.name or "model"),
            ("inputs", inputs_json), ("consts", consts_json), ("nodes", nodes_json), ("outputs", outputs)])
        weights = OrderedDict((k, a) for k, a in self.weights.items() if k in consts_json)
        return ConversionResult(graph, weights, self.notes)

    def _convert_node(self, ctx):
        from .fold import FOLDERS, try_fold
        from .ops import HANDLERS
        from .contrib import CONTRIB_HANDLERS, DEFAULT_DOMAIN, NOT_EXPRESSIBLE
        if ctx.node.domain == "com.microsoft":
            if ctx.op in NOT_EXPRESSIBLE:
                raise Unsupported(f"com.microsoft {ctx.op}: {NOT_EXPRESSIBLE[ctx.op]}")
            for v in ctx.inputs:
                if v is not None and v.poisoned:
                    raise _Poisoned()
            return CONTRIB_HANDLERS[ctx.op](ctx)
        if ctx.op in DEFAULT_DOMAIN:
            HANDLERS = dict(HANDLERS, **DEFAULT_DOMAIN)
        for v in ctx.inputs:
            if v is not None and v.poisoned:
                # Still report ops we would reject whatever their inputs are.
                if ctx.op not in HANDLERS and ctx.op not in FOLDERS:
                    raise Unsupported(f"operator {ctx.op} is not supported")
                raise _Poisoned()
        from .symbolic import try_symbolic
        sym = try_symbolic(ctx)
        if sym is not None:
            return sym
        folded = try_fold(ctx)
        if folded is not None:
            return [const_value(a, name) for a, name in zip(folded, ctx.outputs)]
        handler = HANDLERS.get(ctx.op)
        if handler is None:
            if ctx.op in FOLDERS:
                raise Unsupported(f"{ctx.op} is supported only on constant inputs (or static shapes); "
                                  "here it depends on run-time data")
            raise Unsupported(f"operator {ctx.op} is not supported")
        return handler(ctx)

    def _live_nodes(self):
        """Nodes the graph outputs depend on, in topological order."""
        g = self.model.graph
        producer = {}
        for i, n in enumerate(g.node):
            for o in n.output:
                if o:
                    producer[o] = i
        live, stack = set(), [o.name for o in g.output]
        while stack:
            name = stack.pop()
            i = producer.get(name)
            if i is None or i in live:
                continue
            live.add(i)
            stack.extend(x for x in g.node[i].input if x)
        # Topological order (ONNX requires it already; be tolerant).
        order, state = [], {}
        for root in sorted(live):
            if root in state:
                continue
            work = [(root, False)]
            while work:
                i, done = work.pop()
                if done:
                    state[i] = 2
                    order.append(i)
                    continue
                if state.get(i):
                    continue
                state[i] = 1
                work.append((i, True))
                for x in g.node[i].input:
                    j = producer.get(x)
                    if j is not None and j in live and not state.get(j):
                        work.append((j, False))
        return [g.node[i] for i in order]

    def _prune(self, outputs):
        """Drops WebNN nodes and constants no output depends on."""
        by_id = {}
        for n in self.nodes:
            for o in n.get("outputs", [n["id"]]):
                by_id[o] = n
        needed, stack = set(), list(outputs.values())
        live_nodes = set()
        while stack:
            x = stack.pop()
            if x in needed:
                continue
            needed.add(x)
            n = by_id.get(x)
            if n is None:
                continue
            live_nodes.add(id(n))
            stack.extend(n["inputs"])
            stack.extend(n["_refs"])
        nodes = [{k: v for k, v in n.items() if k != "_refs"} for n in self.nodes if id(n) in live_nodes]
        consts = OrderedDict((k, c) for k, c in self.consts.items() if k in needed)
        self._needed = needed
        return nodes, consts

    def _check_against_onnx_shapes(self, graph_inputs):
        """Compares our static shapes with ONNX shape inference: a disagreement means a
        handler bug, and a wrong graph must never be written silently."""
        m = onnx.ModelProto()
        m.CopyFrom(self.model)
        for vi in m.graph.input:
            v = self.values.get(vi.name)
            if v is None or v.poisoned or v.is_const() or not vi.type.HasField("tensor_type"):
                continue
            dims = vi.type.tensor_type.shape.dim
            del dims[:]
            for d in v.shape:
                nd = dims.add()
                if isinstance(d, int):
                    nd.dim_value = d
                elif d.name:
                    nd.dim_param = d.name
        del m.graph.value_info[:]
        try:
            inferred = onnx.shape_inference.infer_shapes(m, strict_mode=False)
        except Exception:
            return []
        problems = []
        for vi in list(inferred.graph.value_info) + list(inferred.graph.output):
            v = self.values.get(vi.name)
            if v is None or v.poisoned or not vi.type.HasField("tensor_type"):
                continue
            t = vi.type.tensor_type
            if not t.HasField("shape"):
                continue
            theirs = [d.dim_value if d.HasField("dim_value") else None for d in t.shape.dim]
            if None in theirs or not is_static(v.shape):
                continue
            if tuple(theirs) != tuple(v.shape):
                problems.append(("(shape check)", vi.name, f"converter computed shape {shape_str(v.shape)} but "
                                 f"ONNX shape inference says {shape_str(theirs)} (a converter bug: please report)"))
        return problems


class _DummyCtx:
    def __init__(self, name):
        self.outputs = [name]
        self.label = name


def _jsonable(v):
    if isinstance(v, Dyn):
        if not v.name:
            raise Unsupported(f"a size derived from a dynamic dimension ({v.origin or 'unknown'}) is needed as an "
                              "argument; fix the input's dynamic dimensions with --dim")
        return {"name": v.name, "maxSize": v.max_size}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating,)):
        v = float(v)
    if isinstance(v, float) and not np.isfinite(v):
        raise Unsupported(f"the value {v} cannot be written in a webnn-graph file")
    if isinstance(v, (np.bool_,)):
        return bool(v)
    return v


def convert_model(model, **kwargs):
    conv = Converter(model, **kwargs)
    return conv.run()


def convert_file(path, **kwargs):
    model = onnx.load(path)
    return convert_model(model, **kwargs)
