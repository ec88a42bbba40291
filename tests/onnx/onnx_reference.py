#!/usr/bin/python3
"""Reference figures of an ONNX model from ONNX's own shape inference (python3-onnx).

Independent of LayerFuse's importer: the graph is walked with the ONNX library only. For
every Conv, ConvTranspose, Gemm and MatMul (constant weights) it reports the output shape
ONNX infers and the MACs of the operator's definition:
  Conv          N_out * H_out * W_out * (C_in / group) * kH * kW   (per image)
  ConvTranspose H_in * W_in * C_in * (C_out / group) * kH * kW
  Gemm/MatMul   K * M (MatMul on a rank-4 input: K * M per pixel)
ConvInteger and MatMulInteger count as Conv and MatMul.
Usage: onnx_reference.py MODEL.onnx [--input-shape C,H,W] [--json] [--ops]
"""
import argparse
import collections
import json
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, shape_inference


def fixed_model(path, input_shape):
    model = onnx.load(path, load_external_data=False)
    inits = {i.name for i in model.graph.initializer}
    for inp in model.graph.input:
        if inp.name in inits:
            continue
        dims = inp.type.tensor_type.shape.dim
        if input_shape:
            values = list(input_shape)
            if len(values) == len(dims) - 1:
                values = [1] + values
            for d, v in zip(dims, values):
                d.Clear()
                d.dim_value = v
        if len(dims) > 0 and not dims[0].HasField("dim_value"):
            dims[0].Clear()
            dims[0].dim_value = 1
    return model


def attr(n, name, default):
    for a in n.attribute:
        if a.name == name:
            return helper.get_attribute_value(a)
    return default


def fold_step(n, vals, opset, dims):
    """numpy value(s) of node n whose inputs are all known, or None."""
    op = n.op_type
    x = [vals.get(i) if i else None for i in n.input]
    if op == "Shape":
        d = dims.get(n.input[0])
        if d is None or None in d:
            return None
        r = np.array(d, dtype=np.int64)
        return [r[attr(n, "start", 0):attr(n, "end", len(d))]]
    if op == "Constant":
        return [numpy_helper.to_array(attr(n, "value", None))]
    if any(v is None for v, i in zip(x, n.input) if i):
        return None
    if op == "Split":
        axis = attr(n, "axis", 0)
        sizes = attr(n, "split", None) if opset < 13 else (x[1] if len(x) > 1 else None)
        if sizes is None:
            return np.split(x[0], len(n.output), axis=axis)
        return np.split(x[0], np.cumsum(sizes)[:-1], axis=axis)
    if op == "Concat":
        return [np.concatenate(x, axis=attr(n, "axis", 0))]
    if op == "Slice" and opset >= 10:
        axes = list(x[3]) if len(x) > 3 and x[3] is not None else list(range(len(x[1])))
        steps = list(x[4]) if len(x) > 4 and x[4] is not None else [1] * len(axes)
        idx = [slice(None)] * x[0].ndim
        for a, b, e, st in zip(axes, x[1], x[2], steps):
            idx[a] = slice(int(b), int(e), int(st))
        return [x[0][tuple(idx)]]
    if op == "Gather":
        return [np.take(x[0], x[1], axis=attr(n, "axis", 0))]
    if op == "Unsqueeze":
        axes = attr(n, "axes", None) if opset < 13 else list(x[1])
        r = x[0]
        for a in sorted(a % (r.ndim + len(axes)) for a in axes):
            r = np.expand_dims(r, a)
        return [r]
    if op == "Squeeze":
        axes = attr(n, "axes", None) if opset < 13 else (list(x[1]) if len(x) > 1 else None)
        return [np.squeeze(x[0], axis=tuple(axes) if axes else None)]
    if op == "Cast":
        return [x[0].astype(helper.tensor_dtype_to_np_dtype(attr(n, "to", 1)))]
    if op in ("Add", "Sub", "Mul", "Div"):
        f = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide}[op]
        if np.issubdtype(x[0].dtype, np.integer) and op == "Div":
            return [x[0] // x[1]]
        return [f(x[0], x[1])]
    if op == "Range":
        return [np.arange(x[0], x[1], x[2])]
    if op == "ConstantOfShape":
        v = attr(n, "value", None)
        fill = numpy_helper.to_array(v) if v is not None else np.zeros(1, np.float32)
        return [np.full(tuple(int(d) for d in x[0]), fill.reshape(-1)[0])]
    return None


def fold_constants(model, opset):
    """Evaluates constant sub-graphs (Split, Slice, Concat, Shape of a known tensor, ...)
    that ONNX 1.12 shape inference does not propagate, so that Pad / Reshape / Resize
    operands become known; repeats shape inference until nothing more folds."""
    g = model.graph
    vals = {i.name: numpy_helper.to_array(i) for i in g.initializer
            if i.data_location != onnx.TensorProto.EXTERNAL and np.prod(i.dims) <= 4096}
    while True:
        inferred = shape_inference.infer_shapes(model, check_type=False, strict_mode=False,
                                                data_prop=True)
        dims = {}
        for vi in list(inferred.graph.input) + list(inferred.graph.value_info):
            d = dims_of(vi)
            if d is not None:
                dims[vi.name] = d
        keep, folded = [], False
        for n in g.node:
            try:
                r = fold_step(n, vals, opset, dims)
            except Exception:
                r = None
            if r is None or any(np.asarray(v).size > 4096 for v in r):
                keep.append(n)
                continue
            folded = True
            for name, v in zip(n.output, r):
                vals[name] = np.asarray(v)
                g.initializer.append(numpy_helper.from_array(np.asarray(v), name))
        del g.node[:]
        g.node.extend(keep)
        if not folded:
            return


def dims_of(value_info):
    t = value_info.type.tensor_type
    if not t.HasField("shape"):
        return None
    out = []
    for d in t.shape.dim:
        out.append(d.dim_value if d.HasField("dim_value") else None)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("--input-shape", default="")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--ops", action="store_true", help="list operator counts")
    args = ap.parse_args()
    shape = [int(v) for v in args.input_shape.replace("x", ",").split(",") if v]
    model = fixed_model(args.model, shape)
    opset = max(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
    fold_constants(model, opset)
    inferred = shape_inference.infer_shapes(model, check_type=False, strict_mode=False,
                                            data_prop=True)
    g = inferred.graph
    dims = {}
    for vi in list(g.input) + list(g.value_info) + list(g.output):
        d = dims_of(vi)
        if d is not None:
            dims[vi.name] = d
    consts = {}
    for init in g.initializer:
        consts[init.name] = list(init.dims)
    for n in g.node:
        if n.op_type == "Constant":
            for a in n.attribute:
                if a.name == "value":
                    consts[n.output[0]] = list(a.t.dims)

    rows = []
    for n in g.node:
        op = n.op_type
        op = {"ConvInteger": "Conv", "MatMulInteger": "MatMul"}.get(op, op)
        if op not in ("Conv", "ConvTranspose", "Gemm", "MatMul"):
            continue
        if len(n.input) < 2 or n.input[1] not in consts:
            continue  # not a layer with constant weights
        w = consts[n.input[1]]
        out = dims.get(n.output[0])
        inp = dims.get(n.input[0])
        group = attr(n, "group", 1)
        if op == "Conv":
            macs = out[1] * out[2] * out[3] * w[1] * w[2] * w[3]
        elif op == "ConvTranspose":
            macs = inp[2] * inp[3] * inp[1] * w[1] * w[2] * w[3]
        elif op == "MatMul" and out is not None and len(out) == 4:  # per pixel: a 1x1 conv
            macs = out[1] * out[2] * w[0] * w[1]
        else:
            trans_b = attr(n, "transB", 0) if op == "Gemm" else 0
            k, m = (w[1], w[0]) if trans_b else (w[0], w[1])
            macs = k * m
        rows.append({"node": n.name, "op": op, "output": out, "macs": macs})
    summary = collections.Counter(r["op"] for r in rows)
    result = {
        "conv": summary.get("Conv", 0),
        "deconv": summary.get("ConvTranspose", 0),
        "fc": summary.get("Gemm", 0) + summary.get("MatMul", 0),
        "macs": sum(r["macs"] for r in rows),
        "layers": rows,
    }
    if args.ops:
        result["ops"] = dict(collections.Counter(n.op_type for n in g.node))
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()
    else:
        print(f"{args.model}: conv {result['conv']}, deconv {result['deconv']}, "
              f"fc {result['fc']}, MACs {result['macs']}")
        if args.ops:
            print("  operators:", ", ".join(f"{k} {v}" for k, v in sorted(result["ops"].items())))


if __name__ == "__main__":
    main()
