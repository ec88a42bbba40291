// Helpers shared by the test suites.
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"

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

}  // namespace lf::test
