// Helpers shared by the test suites.
#pragma once

#include "hardware/hardware.h"
#include "network/dims.h"
#include "network/network.h"
#include "schedule/schedule.h"

#include <QString>

#include <array>
#include <random>
#include <string>
#include <vector>

namespace lf::test {

// Loads a bundled network / hardware preset or fails the current test (QFAIL-style abort
// by throwing; use inside QTest functions via the macros below).
Network bundledNetwork(const char* name);
Hardware bundledHardware(const char* name);
// Parses network YAML text that must be valid.
Network networkFromYaml(const std::string& yaml);
// The YAML of a random DAG of `n` layers on a non-square input: convolutions with kernels 1, 3
// or 5 and strides 1 or 2, pools, adds and concats; or (`shrinking`) one whose tiles may shrink
// upstream, with nearest resizes, stride-2 deconvolutions and unpadded stride-2 convolutions
// (see test_support.cpp).
std::string randomStridedDag(std::mt19937& rng, int n, bool shrinking = false);
// Absolute path of a file under tests/data.
QString testData(const QString& rel);
// Path of the layerfuse-cli binary under test.
QString cliPath();

// The schedule with the given layers fused into one group named `name` (all other groups
// kept, normalized).
Schedule fused(Schedule s, const Network& net, std::vector<LayerId> layers,
               Strategy strategy = Strategy::recompute, const std::string& name = "seg");
// L2Net's two convolutions fused under recompute, every array at the tile level: conv2 with
// T = 4 everywhere, conv1 with full tiles — the segment of ConvFusion §IV-E the tests compute
// by hand (conv1 runs 16 times on a 6×6×4 tile).
Schedule l2netRecomputeSegment(const Network& net, const Hardware& hw);

// The bundled networks the README documents, by short name.
const std::vector<const char*>& documentedNetworks();
// A deep residual chain: `blocks` × (3×3 conv → 3×3 conv → add with the block input), 16
// channels of 32 × 32 (3 layers a block plus the input).
Network residualChain(int blocks);

// Loop dims of a convolution without padding (the whole window is real input).
LayerDims convDims(int64_t Dx, int64_t Dy, int64_t Dz, int64_t Di, int64_t Dm, int64_t Dn,
                   int64_t Sx, int64_t Sy, int64_t G = 1);
// The same with a square K × K kernel and one stride.
LayerDims squareConvDims(int64_t Dx, int64_t Dy, int64_t Dz, int64_t Di, int64_t K, int64_t S = 1,
                         int64_t G = 1);
// A layer schedule: loop order (outermost first), tiles, store and compute levels (X, Y, W).
LayerSchedule layerSchedule(const std::array<Dim, 4>& order, const std::array<int64_t, 4>& tile,
                            std::array<Level, 3> store, std::array<Level, 3> compute);
// Random draws for randomized tests: a divisor of n, an integer in [lo, hi].
int64_t randomDivisor(std::mt19937_64& rng, int64_t n);
int64_t uniformInt(std::mt19937_64& rng, int64_t lo, int64_t hi);

// L3Net's three convolutions in one group "all" (recompute), every layer tiled 4 × 4 × 4 with
// its whole input depth.
Schedule l3netOneGroup(const Network& net, const Hardware& hw);

// Switches `category` (LC_ALL, LC_NUMERIC, ...) to the glibc locale `name`, e.g.
// "de_DE.UTF-8" built from source "de_DE" and charmap "UTF-8". When the system has no such
// locale it is compiled once with localedef (package `locales`, installed by
// scripts/install-deps.sh) into the build tree and LOCPATH points there. Returns an empty
// string on success, else why it could not be done.
QString switchToLocale(int category, const char* name, const char* source, const char* charmap);

} // namespace lf::test
