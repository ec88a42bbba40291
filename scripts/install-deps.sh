#!/usr/bin/env bash
# Installs LayerFuse's build and test dependencies from Debian 12 packages.
# Idempotent: when everything is present it only checks and exits (well under a second).
set -euo pipefail

packages=(
    cmake ninja-build g++ pkg-config ccache
    qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev qt6-charts-dev qt6-svg-dev
    libgraphviz-dev graphviz
    libyaml-cpp-dev nlohmann-json3-dev libcli11-dev libssl-dev
    libonnx-dev libprotobuf-dev protobuf-compiler
    libbenchmark-dev
    clang-14 libclang-rt-14-dev
    libopenmpi-dev openmpi-bin
    python3-jsonschema python3-yaml python3-onnx
    # ZigZag 3.8, which the zigzag_cross_check test runs (tests/zigzag/)
    python3-numpy python3-networkx python3-sympy python3-tqdm python3-cerberus
    python3-matplotlib python3-seaborn python3-typeguard python3-dill python3-multiprocess
    clang-format
    locales
    fonts-dejavu-core
    # The walkthrough test drives the real window under a virtual display: Xvfb, a window
    # manager, xdotool to click and type, ImageMagick's import for screenshots.
    xvfb xauth openbox xdotool imagemagick
)

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi

echo "Installing: ${missing[*]}" >&2
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
