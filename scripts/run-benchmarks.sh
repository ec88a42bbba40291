#!/usr/bin/env bash
# Runs LayerFuse's benchmark executables and writes their results (JSON, medians of
# repeated runs) to docs/benchmarks/. Usage: scripts/run-benchmarks.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
out=docs/benchmarks
mkdir -p "$out"
# The test build is instrumented with UBSan (README): time the code users run instead.
if grep -qs "^LAYERFUSE_UBSAN:BOOL=ON" "$build/CMakeCache.txt" ||
    grep -qs "^LAYERFUSE_SANITIZE:BOOL=ON" "$build/CMakeCache.txt"; then
    echo "$build is built with sanitizers; benchmarking an uninstrumented copy in $build-bench" >&2
    cmake -S . -B "$build-bench" -G Ninja -DLAYERFUSE_UBSAN=OFF -DLAYERFUSE_SANITIZE=OFF >/dev/null
    targets=$(for f in tests/bench/bench_*.cpp; do basename "$f" .cpp; done)
    # shellcheck disable=SC2086 # one target per word
    cmake --build "$build-bench" -j2 --target $targets
    build="$build-bench"
fi
for b in "$build"/tests/bench/bench_*; do
    [[ -f "$b" && -x "$b" ]] || continue
    name=$(basename "$b")
    echo "== $name" >&2
    QT_QPA_PLATFORM=offscreen "$b" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
        --benchmark_out="$out/$name.json" --benchmark_out_format=json \
        | grep -E "_median|^Benchmark|^-" || true
done
