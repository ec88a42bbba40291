#!/bin/sh
# Explorations and a sweep under three MPI ranks (layerfuse-mpi) write byte for byte what one
# process (layerfuse-cli) writes. Usage: mpi_matches_serial.sh LAYERFUSE_MPI LAYERFUSE_CLI DIR
# (DIR: this folder, with grid.sweep.yaml). Exit 77 (skipped) without mpirun.
set -eu
mpi=$1 cli=$2 dir=$3
command -v mpirun >/dev/null 2>&1 || { echo "mpirun not found (scripts/install-deps.sh)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Three ranks on any machine; root in containers; shared memory without CMA (containers).
run="mpirun --oversubscribe -np 3"
[ "$(id -u)" -eq 0 ] && run="$run --allow-run-as-root"
export OMPI_MCA_btl_vader_single_copy_mechanism=none
fail=0
same() { # name, file from one process, file from three ranks
    if cmp -s "$2" "$3"; then
        echo "ok: $1 ($(wc -l < "$2") lines)"
    else
        echo "FAIL: $1 differs between one process and three ranks"
        diff "$2" "$3" | head -5
        fail=1
    fi
}
for args in "resnet18 --max-depth 3" "l2net --max-depth 2 --strategy reuse" "vgg16 --max-depth 3 --max-kept-points 1"; do
    name=$(echo "$args" | tr ' ' '_')
    # shellcheck disable=SC2086
    "$cli" explore $args --threads 1 --csv "$work/$name.one.csv" 2>/dev/null
    # shellcheck disable=SC2086
    $run "$mpi" explore $args --threads 1 --csv "$work/$name.three.csv"
    same "explore $args" "$work/$name.one.csv" "$work/$name.three.csv"
done
"$cli" sweep "$dir/grid.sweep.yaml" --threads 1 -o "$work/sweep.one.csv" 2>/dev/null
$run "$mpi" sweep "$dir/grid.sweep.yaml" --threads 1 -o "$work/sweep.three.csv"
same "sweep grid.sweep.yaml" "$work/sweep.one.csv" "$work/sweep.three.csv"
# Bad input: every rank refuses it the same way and the run exits 1 (no rank left waiting).
if $run "$mpi" sweep "$dir/no-such.sweep.yaml" 2>/dev/null; then
    echo "FAIL: a missing spec was accepted"
    fail=1
fi
exit $fail
