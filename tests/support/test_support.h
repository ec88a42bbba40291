// Helpers shared by the test suites.
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"
#include "schedule/schedule.h"

#include <QString>

#include <string>

namespace lf::test {

// Loads a bundled network / hardware preset or fails the current test (QFAIL-style abort
// by throwing; use inside QTest functions via the macros below).
Network bundledNetwork(const char* name);
Hardware bundledHardware(const char* name);
// Parses network YAML text that must be valid.
Network networkFromYaml(const std::string& yaml);
// Absolute path of a file under tests/data.
QString testData(const QString& rel);
// Path of the layerfuse-cli binary under test.
QString cliPath();

// The schedule with the given layers fused into one group named `name` (all other groups
// kept, normalized).
Schedule fused(Schedule s, const Network& net, std::vector<LayerId> layers,
               Strategy strategy = Strategy::recompute, const std::string& name = "seg");
// L2Net's two convolutions fused under recompute, every array at the tile level: conv2 with
// T = 4 everywhere, conv1 with full tiles — the segment of MODELS.md §4 the tests compute
// by hand (conv1 runs 16 times on a 6×6×4 tile).
Schedule l2netRecomputeSegment(const Network& net, const Hardware& hw);

// Switches `category` (LC_ALL, LC_NUMERIC, ...) to the glibc locale `name`, e.g.
// "de_DE.UTF-8" built from source "de_DE" and charmap "UTF-8". When the system has no such
// locale it is compiled once with localedef (package `locales`, installed by
// scripts/install-deps.sh) into the build tree and LOCPATH points there. Returns an empty
// string on success, else why it could not be done.
QString switchToLocale(int category, const char* name, const char* source, const char* charmap);

} // namespace lf::test
