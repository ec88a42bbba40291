#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang 14, AddressSanitizer and UBSan (the
# core library only, no Qt) and runs each for SECONDS (default 20), two at a time, on the seed
# corpus of the bundled files. A crash, a sanitizer report or a failed check fails the script
# with the reproducer saved under BUILD_DIR/findings/. Usage: scripts/run-fuzzers.sh [SECONDS [BUILD_DIR]]
# The mutations start from a fixed seed (FUZZ_SEED, default 1) so that a run can be repeated;
# FUZZ_SEED=0 lets libFuzzer pick one (longer runs: tests/fuzz/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-20}"
build="${2:-build-fuzz}"
# -O1 with line tables: quick to build, fast enough to fuzz, readable stack traces.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1" \
    -DCMAKE_CXX_COMPILER=clang++-14 -DLAYERFUSE_FUZZ=ON \
    -DLAYERFUSE_BUILD_GUI=OFF -DLAYERFUSE_BUILD_TESTS=OFF -DLAYERFUSE_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j2 --target fuzzers
fuzz="$build/tests/fuzz"
seeds="$build/seeds"
rm -rf "$seeds" "$build/onnx-models" "$build/findings" && mkdir -p "$seeds" "$build/onnx-models" "$build/findings"
"$fuzz/make_onnx_seeds" "$build/onnx-models"
# Seeds for the readers that take a leading selector byte: the bundled files behind one.
prefix() { # DIR FILES...: copies each file into DIR with a 0x00 byte in front
    local dir=$1; shift; mkdir -p "$dir"
    for f in "$@"; do { printf '\0'; cat "$f"; } > "$dir/$(basename "$f")"; done
}
prefix "$seeds/schedule" examples/schedules/*.sched.yaml tests/schema/good/*.sched.yaml \
    tests/schema/bad/*.sched.yaml
prefix "$seeds/onnx" "$build"/onnx-models/*.onnx
prefix "$seeds/evaluate" examples/networks/l*.net.yaml examples/networks/squeezenet1.1.net.yaml \
    tests/schema/good/*.net.yaml tests/data/yaml/*.net.yaml
run() { # NAME SEEDS...: runs one target, its log in findings/NAME.log; 0 when clean
    local name=$1; shift
    local corpus="$build/corpus/$name"
    mkdir -p "$corpus"
    local log="$build/findings/$name.log" status=0
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ASAN_OPTIONS=detect_leaks=0 \
        "$fuzz/$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=65536 -seed="${FUZZ_SEED:-1}" -print_final_stats=1 -artifact_prefix="$build/findings/$name-" \
        "$corpus" "$@" >"$log" 2>&1 || status=$?
    echo "$status" >"$build/findings/$name.status"
}
report() { # NAME: prints the summary of a finished target; 1 on a finding
    local name=$1 log="$build/findings/$1.log" status
    status=$(cat "$build/findings/$name.status")
    echo "== $name (${seconds} s)" >&2
    grep -E "^#[0-9]+ +DONE|stat::number_of_executed_units|ERROR|runtime error|SUMMARY" "$log" >&2 || true
    if [[ $status -ne 0 ]]; then
        tail -40 "$log" >&2
        echo "$name: exit $status; reproducer and log in $build/findings/" >&2
        return 1
    fi
}
# Two targets at a time (libFuzzer runs one process per target).
run fuzz_network_yaml examples/networks tests/schema/good tests/schema/bad tests/data/yaml &
run fuzz_hardware_yaml examples/hardware tests/schema/good tests/schema/bad &
wait
run fuzz_schedule_yaml "$seeds/schedule" &
run fuzz_project_yaml tests/schema/good tests/schema/bad &
wait
run fuzz_onnx "$seeds/onnx" &
run fuzz_evaluate "$seeds/evaluate" &
wait
failed=0
for name in fuzz_network_yaml fuzz_hardware_yaml fuzz_schedule_yaml fuzz_project_yaml fuzz_onnx \
    fuzz_evaluate; do
    report "$name" || failed=1
done
[[ $failed -eq 0 ]] || exit 1
echo "fuzzers: no findings" >&2
