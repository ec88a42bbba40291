#!/usr/bin/python3
"""Cross-checks the ONNX import of every model in tests/data/onnx against
onnx_reference.py (ONNX's own shape inference, python3-onnx): the number of layers with
weights (Conv, ConvTranspose, Gemm, MatMul) and their MACs must be equal.
Usage: check_models.py --cli build/app/cli/layerfuse-cli --data tests/data/onnx
Exit 77 (skipped) when python3-onnx is missing."""
import argparse
import json
import os
import subprocess
import sys

try:
    import onnx  # noqa: F401
except ImportError:
    print("skipped: python3-onnx is not installed (scripts/install-deps.sh)")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
# Models with dynamic dims and the input shape they are checked at.
SHAPES = {
    "ch_ppocr_mobile_v2.0_cls_infer.onnx": "3,48,192",
    "ch_PP-OCRv4_det_infer.onnx": "3,640,640",
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--data", required=True)
    args = ap.parse_args()
    failed = 0
    models = sorted(f for f in os.listdir(args.data) if f.endswith(".onnx"))
    for f in models:
        path = os.path.join(args.data, f)
        shape = SHAPES.get(f, "")
        ref_cmd = [sys.executable, os.path.join(HERE, "onnx_reference.py"), path, "--json"]
        cli_cmd = [args.cli, "convert", path, os.devnull, "--report", "--format", "json"]
        if shape:
            ref_cmd += ["--input-shape", shape]
            cli_cmd += ["--input-shape", shape]
        ref = json.loads(subprocess.run(ref_cmd, check=True, capture_output=True).stdout)
        out = subprocess.run(cli_cmd, capture_output=True, text=True)
        if out.returncode != 0:
            print(f"FAIL {f}: layerfuse-cli: {out.stderr.strip()}")
            failed += 1
            continue
        got = json.loads(out.stdout)
        kinds = got["layer_kinds"]
        weighted = kinds.get("conv", 0) + kinds.get("deconv", 0) + kinds.get("fc", 0)
        want = ref["conv"] + ref["deconv"] + ref["fc"]
        ok = weighted == want and got["macs"] == ref["macs"]
        print(f"{'ok  ' if ok else 'FAIL'} {f}: layers with weights {weighted} (reference {want}),"
              f" MACs {got['macs']} (reference {ref['macs']})")
        failed += not ok
    print(f"{len(models) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
