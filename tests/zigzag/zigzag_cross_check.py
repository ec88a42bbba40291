#!/usr/bin/python3
"""Runs the real ZigZag on `layerfuse-cli export --format zigzag` and compares it with
LayerFuse per layer (ctest zigzag_cross_check; docs/zigzag-cross-validation.md).

For every network and hardware preset given:
1. `layerfuse-cli export NET --hardware HW --format zigzag -o DIR` (default schedule) and the
   same schedule's metrics (`--format csv`, `--format json`);
2. ZigZag 3.8 evaluates the three files: the stages of `zigzag.api.
   get_hardware_performance_zigzag` without its per-layer plots (which take three quarters of
   its time); the first case also goes through `get_hardware_performance_zigzag` itself;
3. checks, per layer: ZigZag accepts every layer without a warning; MACs are equal; the ideal
   compute cycles are equal (the exported spatial mapping is LayerFuse's array model);
   the elements each operand moves between DRAM and the buffer are equal, or ZigZag moves
   fewer for a known reason (it keeps an operand in the buffer across tile loops the operand
   does not depend on — ZigZag allocates its buffer itself —, or LayerFuse counts the bounding
   box of a strided 1x1 window); where they are equal, DRAM energy is equal (up to ZigZag's
   rounding of access counts to whole port-wide accesses); the energy of a layer differs by
   at most 10 % unless its transfers differ or it has no weights (LayerFuse does not cost
   pool and element-wise arithmetic); and the total energy differs by at most 10 %.

Exit 0 when every check holds, 1 when one fails, 77 (skipped, with the reason) when the ZigZag
sources are not there or a Python package ZigZag needs is missing. The sources are looked for
in --peers (from CMake: shared/peers beside the clone or beside one of its parent
directories), or in the directory the environment variable LAYERFUSE_PEERS_DIR names. Run
with Debian's /usr/bin/python3: ZigZag's packages come from scripts/install-deps.sh. It prints
its cost in seconds, per case and in all.
"""

import argparse
import csv
import io
import json
import logging
import os
import pathlib
import subprocess
import sys
import tempfile
import time

SKIP = 77

DEFAULT_CASES = [
    ("l2net", "hwff-config-1"),
    ("resnet18", "hwff-config-1"),
    ("mobilenetv2", "hwff-config-1"),
    ("l2net", "convfusion-40nm"),
    ("resnet18", "convfusion-40nm"),
    ("mobilenetv2", "convfusion-40nm"),
]

LAYER_TOLERANCE = 0.10  # per-layer energy, where transfers are equal and the layer has weights
TOTAL_TOLERANCE = 0.10  # network energy

REASON_KEPT = "keeps {what} in the buffer across tiles they do not depend on"
REASON_BOX = "LayerFuse moves the bounding box of the strided 1x1 window"
REASON_NO_WEIGHTS = ("no weights: LayerFuse costs neither the arithmetic of a pool or "
                     "element-wise layer nor its register-file traffic")


def fail_setup(msg):
    print(msg)
    sys.exit(1)


def find_peers(default):
    env = os.environ.get("LAYERFUSE_PEERS_DIR")
    path = pathlib.Path(env) if env else pathlib.Path(default)
    zigzag = path / "zigzag" / "zigzag"
    if not zigzag.is_dir():
        print(f"ZigZag cross-check skipped: no ZigZag sources at {path / 'zigzag'} "
              "(no shared/peers beside the clone or its parent directories; set "
              "LAYERFUSE_PEERS_DIR to a directory holding zigzag/ and shims/)")
        sys.exit(SKIP)
    sys.path.insert(0, str(path / "zigzag"))
    sys.path.insert(0, str(path / "shims"))
    return path


def run_cli(cli, *args):
    r = subprocess.run([cli, *args], capture_output=True, text=True)
    if r.returncode != 0:
        fail_setup(f"layerfuse-cli {' '.join(args)} failed ({r.returncode}): {r.stderr}")
    return r.stdout


class Records(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(record)


def run_zigzag(folder, via_api):
    """Per-layer cost model evaluations of ZigZag on the three files in `folder`."""
    from zigzag.mapping.temporal_mapping import TemporalMappingType
    from zigzag.stages.evaluation.cost_model_evaluation import CostModelStage
    from zigzag.stages.main import MainStage
    from zigzag.stages.mapping.spatial_mapping_generation import SpatialMappingGeneratorStage
    from zigzag.stages.mapping.temporal_mapping_generator_stage import \
        TemporalMappingGeneratorStage
    from zigzag.stages.parser.accelerator_parser import AcceleratorParserStage
    from zigzag.stages.parser.workload_parser import WorkloadParserStage
    from zigzag.stages.results.reduce_stages import MinimalEnergyStage, SumStage
    from zigzag.stages.workload_iterator import WorkloadStage

    files = dict(workload=str(folder / "workload.yaml"),
                 accelerator=str(folder / "accelerator.yaml"),
                 mapping=str(folder / "mapping.yaml"))
    if via_api:
        from zigzag import api
        _, _, cmes = api.get_hardware_performance_zigzag(
            **files, opt="energy", dump_folder=str(folder / "zigzag-out"),
            loma_show_progress_bar=False)
        logging.getLogger().setLevel(logging.WARNING)  # the API turns INFO on
    else:
        stages = [WorkloadParserStage, AcceleratorParserStage, SumStage, WorkloadStage,
                  MinimalEnergyStage, SpatialMappingGeneratorStage, MinimalEnergyStage,
                  TemporalMappingGeneratorStage, CostModelStage]
        cmes = MainStage(stages, **files, dump_folder=str(folder / "zigzag-out"),
                         pickle_filename=str(folder / "zigzag-out" / "cmes.pickle"),
                         loma_lpf_limit=6, loma_show_progress_bar=False,
                         nb_mappings_generated=3, enable_mix_spatial_mapping_generation=False,
                         access_same_data_considered_as_no_access=True,
                         temporal_mapping_type=TemporalMappingType("uneven")).run()
    return [item[0] for item in cmes[0][1]]


def zigzag_layer(cme):
    """Figures of one ZigZag evaluation: MACs, energy by level, cycles, DRAM elements."""
    from zigzag.mapping.data_movement import DataDirection, DataMoveAttr
    levels = {}
    dram = {}
    for op, breakdown in cme.mem_energy_breakdown.items():
        mem_op = cme.memory_operand_links.layer_to_mem_op(op)
        for lv, energy in enumerate(breakdown):
            name = cme.accelerator.get_memory_level(mem_op, lv).name
            key = "rf" if name.startswith("rf") else name
            levels[key] = levels.get(key, 0.0) + energy
        top = len(breakdown) - 1
        moved = cme.mapping.unit_mem_data_movement[op][top].get_attribute(
            DataMoveAttr.DATA_ELEM_MOVE_COUNT)
        precision = cme.layer.operand_precision[op]
        dram[str(op)] = sum(moved.get(d) for d in DataDirection) if precision else 0
    return {
        "macs": cme.layer.total_mac_count,
        "energy": {"mac": cme.mac_energy, "rf": levels.get("rf", 0.0),
                   "sram": levels.get("global_buffer", 0.0), "dram": levels.get("dram", 0.0),
                   "total": cme.energy_total},
        "cycles": cme.ideal_temporal_cycle,
        "latency": cme.latency_total2,
        "dram_elements": dram,
    }


def layerfuse_layers(cli, net, hw):
    rows = csv.DictReader(io.StringIO(run_cli(cli, "export", net, "--hardware", hw,
                                              "--format", "csv")))
    metrics = json.loads(run_cli(cli, "export", net, "--hardware", hw, "--format", "json"))
    dims = {l["name"]: l["dims"] for l in metrics["layers"]}
    layers = {}
    for r in rows:
        if r["kind"] != "layer":
            continue
        d = dims[r["name"]]
        kind = r["type"]
        if kind in ("pool", "global_pool"):
            ops = d["out_width"] * d["out_height"] * d["out_channels"] * d["kernel_width"] * \
                d["kernel_height"]
        elif kind == "add":
            ops = d["out_width"] * d["out_height"] * d["out_channels"]
        else:
            ops = int(r["macs"])
        e = {k: float(r[f"energy_{k}_pj"]) for k in ("mac", "rf", "sram", "dram")}
        e["total"] = float(r["energy_pj"])
        layers[r["name"]] = {
            "type": kind, "macs": ops, "energy": e,
            "cycles": int(r["compute_cycles"]), "latency": int(r["latency_cycles"]),
            "dram": {k: int(r[f"dram_{k}"]) for k in ("input", "weight", "output", "psum")},
            "strided_1x1": kind == "conv" and d["kernel_width"] == 1 and d["stride_x"] > 1,
        }
    return layers


def transfer_reasons(z, lf):
    """Equal DRAM transfers, or the reasons ZigZag's differ; None when unexplained."""
    zd = z["dram_elements"]
    ld = lf["dram"]
    if lf["type"] == "add":  # ZigZag's Add reads its two inputs as W and I
        classes = [("inputs", zd.get("I", 0) + zd.get("W", 0), ld["input"])]
    else:
        classes = [("inputs", zd.get("I", 0), ld["input"]),
                   ("weights", zd.get("W", 0), ld["weight"]),
                   ("outputs and partial sums", zd.get("O", 0), ld["output"] + ld["psum"])]
    reasons = []
    for what, zz, ours in classes:
        if zz == ours:
            continue
        if 0 < zz < ours and what == "inputs" and lf["strided_1x1"]:
            reasons.append(REASON_BOX)
        elif 0 < zz < ours and ours % zz == 0:
            reasons.append(REASON_KEPT.format(what=what))
        else:
            return None, f"{what}: ZigZag moves {zz}, LayerFuse {ours}"
    return reasons, ""


def ratio(a, b):
    return a / b if b else (1.0 if a == 0 else float("inf"))


def check_case(cli, workdir, net, hw, via_api, problems):
    folder = workdir / f"{net}-{hw}"
    run_cli(cli, "export", net, "--hardware", hw, "--format", "zigzag", "-o", str(folder))
    import yaml
    with open(folder / "accelerator.yaml") as f:
        dram_cost = float(yaml.safe_load(f)["memories"]["dram"]["r_cost"])
    with open(folder / "workload.yaml") as f:
        names = [entry["name"] for entry in yaml.safe_load(f)]
    records = Records()
    logging.getLogger().addHandler(records)
    try:
        cmes = run_zigzag(folder, via_api)
    finally:
        logging.getLogger().removeHandler(records)
    where = f"{net} on {hw}"
    for r in records.records:
        problems.append(f"{where}: ZigZag warns: {r.getMessage()}")
    ours = layerfuse_layers(cli, net, hw)
    got = {c.layer.name: zigzag_layer(c) for c in cmes}
    if sorted(got) != sorted(names):
        problems.append(f"{where}: ZigZag evaluated {sorted(got)}, the workload has {names}")
    rows = []
    for name in names:
        if name not in got:
            continue
        z, lf = got[name], ours[name]
        notes = []
        if z["macs"] != lf["macs"]:
            problems.append(f"{where}: {name}: ZigZag counts {z['macs']} MACs, LayerFuse "
                            f"{lf['macs']}")
        if z["cycles"] != lf["cycles"]:
            problems.append(f"{where}: {name}: ideal compute cycles {z['cycles']} (ZigZag) "
                            f"!= {lf['cycles']} (LayerFuse)")
        reasons, unexplained = transfer_reasons(z, lf)
        if reasons is None:
            problems.append(f"{where}: {name}: DRAM transfers differ without a known reason "
                            f"({unexplained})")
            reasons = [unexplained]
        if not reasons:
            terms = sum(1 for v in z["dram_elements"].values() if v) * 2
            if abs(z["energy"]["dram"] - lf["energy"]["dram"]) > terms * dram_cost + 1e-6:
                problems.append(f"{where}: {name}: same DRAM transfers, DRAM energy "
                                f"{z['energy']['dram']:.6g} pJ (ZigZag) != "
                                f"{lf['energy']['dram']:.6g} pJ (LayerFuse)")
        notes += [f"ZigZag {r}" if r.startswith("keeps") else r for r in reasons]
        e = ratio(z["energy"]["total"], lf["energy"]["total"])
        if abs(e - 1) > LAYER_TOLERANCE:
            if lf["type"] in ("pool", "global_pool", "add"):
                notes.append(REASON_NO_WEIGHTS)
            elif not reasons:
                problems.append(f"{where}: {name}: energy {z['energy']['total']:.6g} pJ "
                                f"(ZigZag) vs {lf['energy']['total']:.6g} pJ (LayerFuse), "
                                f"{100 * (e - 1):+.1f} %, with equal transfers")
        rows.append((name, z, lf, notes))
    total_z = sum(got[n]["energy"]["total"] for n in names if n in got)
    total_lf = sum(ours[n]["energy"]["total"] for n in names if n in got)
    if abs(ratio(total_z, total_lf) - 1) > TOTAL_TOLERANCE:
        problems.append(f"{where}: total energy {total_z:.6g} pJ (ZigZag) vs {total_lf:.6g} pJ "
                        f"(LayerFuse): {100 * (ratio(total_z, total_lf) - 1):+.1f} %")
    return rows, total_z, total_lf


def uj(pj):
    return f"{pj / 1e6:.3f}"


def pair(z, lf):
    return f"{uj(z)} / {uj(lf)}"


def report(cases):
    out = []
    for net, hw, rows, total_z, total_lf in cases:
        out.append(f"### {net} on {hw}\n")
        lat_z = sum(z["latency"] for _, z, _, _ in rows)
        lat_lf = sum(lf["latency"] for _, _, lf, _ in rows)
        cyc = sum(lf["cycles"] for _, _, lf, _ in rows)
        out.append(f"Total energy: ZigZag {uj(total_z)} µJ, LayerFuse {uj(total_lf)} µJ "
                   f"({100 * (ratio(total_z, total_lf) - 1):+.1f} %). Latency, summed over "
                   f"the layers: ZigZag {int(lat_z)} cycles, LayerFuse {lat_lf} (compute + "
                   f"DRAM time, layer by layer), of which compute {cyc} in both.\n")
        out.append("| layer | MACs | MAC µJ | RF µJ | buffer µJ | DRAM µJ | total µJ | Δ | "
                   "compute cycles | latency (cycles) | differences |")
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        for name, z, lf, notes in rows:
            ze, le = z["energy"], lf["energy"]
            out.append(
                f"| {name} | {lf['macs']} | {pair(ze['mac'], le['mac'])} | "
                f"{pair(ze['rf'], le['rf'])} | {pair(ze['sram'], le['sram'])} | "
                f"{pair(ze['dram'], le['dram'])} | {pair(ze['total'], le['total'])} | "
                f"{100 * (ratio(ze['total'], le['total']) - 1):+.1f} % | {lf['cycles']} | "
                f"{int(z['latency'])} / {lf['latency']} | {'; '.join(notes)} |")
        out.append("")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True, help="layerfuse-cli")
    ap.add_argument("--peers", required=True,
                    help="directory with zigzag/ and shims/ (LAYERFUSE_PEERS_DIR overrides)")
    ap.add_argument("--case", action="append", metavar="NET:HW",
                    help="network and hardware preset (default: l2net, resnet18, mobilenetv2 "
                         "on hwff-config-1 and convfusion-40nm)")
    ap.add_argument("--report", help="write the per-layer tables (Markdown) here")
    args = ap.parse_args()

    peers = find_peers(args.peers)
    try:
        import yaml  # noqa: F401
        import zigzag.api  # noqa: F401
    except ImportError as exc:
        # Only a missing Python package skips; any other failure to import ZigZag fails.
        if exc.name is None or exc.name.split(".")[0] == "zigzag":
            raise
        print(f"ZigZag cross-check skipped: ZigZag at {peers} needs the Python module "
              f"'{exc.name}', which /usr/bin/python3 does not have ({exc}); "
              "scripts/install-deps.sh installs ZigZag's Debian packages")
        sys.exit(SKIP)
    logging.getLogger().setLevel(logging.WARNING)
    logging.getLogger("matplotlib").setLevel(logging.ERROR)

    cases = [tuple(c.split(":", 1)) for c in args.case] if args.case else DEFAULT_CASES
    problems = []
    results = []
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="layerfuse-zigzag-") as tmp:
        for k, (net, hw) in enumerate(cases):
            t0 = time.monotonic()
            rows, tz, tl = check_case(args.cli, pathlib.Path(tmp), net, hw, k == 0, problems)
            results.append((net, hw, rows, tz, tl))
            print(f"{net} on {hw}: {len(rows)} layers, energy ZigZag {uj(tz)} µJ, LayerFuse "
                  f"{uj(tl)} µJ ({100 * (ratio(tz, tl) - 1):+.1f} %), "
                  f"{time.monotonic() - t0:.1f} s")
    if args.report:
        pathlib.Path(args.report).write_text(report(results), encoding="utf-8")
    print(f"ZigZag cross-check: {len(cases)} cases in {time.monotonic() - start:.1f} s")
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
