// Small builders for network / hardware YAML text used by the core and CLI tests.
#pragma once

#include "network/network.h"
#include "util/result.h"

#include <QString>

#include <initializer_list>
#include <string>
#include <string_view>

namespace lf::test {

// A complete network document: `format`, `name`, the given input entries (flow maps, one
// per line, without the leading "- ") and the given layer entries (same form).
// Example: netYaml({"{name: x, channels: 3, height: 8, width: 8}"},
//                  {"{name: c, type: conv, inputs: [x], out_channels: 4, kernel: 3}"})
std::string netYaml(std::initializer_list<std::string_view> inputs,
                    std::initializer_list<std::string_view> layers, std::string_view name = "t");

// Reads network YAML text (file name "t.net.yaml" in messages) without throwing.
Result<Network> tryNetwork(const std::string& yaml);

// Shape as "CxHxW" for readable comparisons.
std::string shapeText(const Shape& s);

// "line N: actual '...' vs expected '...'" for the first differing line (empty if equal).
std::string firstDifference(const std::string& actual, const std::string& expected);

// Whole file as bytes; empty on error.
std::string readBytes(const QString& path);

// Writes `bytes` to `path` (replacing it); false on error.
bool writeBytes(const QString& path, const std::string& bytes);

// A temporary file holding `bytes` under the test's temporary directory; returns its path.
QString writeTempFile(const QString& name, const std::string& bytes);

} // namespace lf::test

// QVERIFY that a Result holds a value, printing its error otherwise.
#define QVERIFY_OK(result)                                                                         \
    QVERIFY2((result).ok(), (result).ok() ? "" : (result).error().toString().c_str())

// QCOMPARE for multi-line texts that prints the first line where they differ.
#define QCOMPARE_TEXT(actual, expected)                                                            \
    do {                                                                                           \
        const std::string lfActual_ = (actual), lfExpected_ = (expected);                          \
        QVERIFY2(lfActual_ == lfExpected_,                                                         \
                 lf::test::firstDifference(lfActual_, lfExpected_).c_str());                       \
    } while (false)
