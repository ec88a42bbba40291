#!/usr/bin/env bash
# Runs LayerFuse's benchmark executables and writes their results (JSON, medians of
# repeated runs) to docs/benchmarks/. Usage: scripts/run-benchmarks.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
out=docs/benchmarks
mkdir -p "$out"
for b in "$build"/tests/bench/bench_*; do
    [[ -f "$b" && -x "$b" ]] || continue
    name=$(basename "$b")
    echo "== $name" >&2
    QT_QPA_PLATFORM=offscreen "$b" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
        --benchmark_out="$out/$name.json" --benchmark_out_format=json \
        | grep -E "_median|^Benchmark|^-" || true
done
