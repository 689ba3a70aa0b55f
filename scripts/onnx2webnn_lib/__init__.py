"""ONNX -> webnn-graph converter (a tool; libwebnn never depends on it).

    from onnx2webnn_lib import convert_file, ConversionError
    result = convert_file("model.onnx", dims={"batch": 1})
    result.write("model.json")        # + model.weights, model.manifest.json

Modules:
  core.py  values, shapes, the WebNN graph being written, the conversion driver
  fold.py  NumPy evaluation of ONNX nodes whose inputs are all constants
  ops.py   one handler per ONNX op: ONNX semantics -> WebNN ops
  contrib.py  ONNX Runtime contrib ops with exact decompositions (MatMulNBits, RotaryEmbedding, ...)
"""
from .core import ConversionError, ConversionResult, Unsupported, convert_file, convert_model
from .ops import HANDLERS

__all__ = ["ConversionError", "ConversionResult", "Unsupported", "convert_file", "convert_model", "HANDLERS",
           "supported_ops"]


def supported_ops():
    from .contrib import CONTRIB_HANDLERS, DEFAULT_DOMAIN
    return sorted(set(HANDLERS) | set(DEFAULT_DOMAIN)) + [f"com.microsoft:{k}" for k in sorted(CONTRIB_HANDLERS)]
