// Shared machinery for LayerFuse's YAML readers and writers (yaml-cpp 0.7).
//
// Readers throw YamlInputError internally (from the typed getters below) and catch it at
// their entry point, returning Result<T>; nothing escapes the io layer. Every error carries
// the 1-based line and column of the offending node (yaml-cpp marks are 0-based; a missing
// key is reported at its parent mapping). Every getter exists for yaml-cpp's YAML::Node and
// for the compact TNode of io/yaml_tree.h (what the network and hardware readers use).
#pragma once

#include "io/yaml_tree.h"
#include "util/result.h"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace lf::yamlio {

// Refuse files above this size before parsing (no unbounded allocation).
inline constexpr size_t kMaxFileBytes = size_t(256) << 20;

struct YamlInputError : std::runtime_error {
    SourcePos pos;
    YamlInputError(SourcePos p, const std::string& msg) : std::runtime_error(msg), pos(p) {}
};

SourcePos posOf(const YAML::Node& n);
SourcePos posOf(const TNode& n);
// yaml-cpp's exception as a located error of `file` (its mark is 0-based), message prefixed.
Error yamlError(const std::string& file, const YAML::Exception& e, const std::string& prefix = {});
[[noreturn]] void fail(const YAML::Node& at, const std::string& msg);
[[noreturn]] void fail(const TNode& at, const std::string& msg);

// Parses text into a compact tree; checks size and binary content, and (Tree::parse)
// nesting, size with aliases expanded, duplicate keys and extra documents. Errors are values.
Result<std::shared_ptr<const Tree>> parseTree(std::string_view text, const std::string& file);
// The same checks, then a yaml-cpp node tree for readers written against YAML::Node.
Result<YAML::Node> parse(std::string_view text, const std::string& file);

// Reads a whole file (size-limited). Errors: "FILE: cannot open ..." etc.
Result<std::string> readFile(const std::string& path);

// Checks `format: layerfuse/<kind>@<major>[.<minor>]`; refuses another kind or a newer major.
void checkFormat(const YAML::Node& root, std::string_view kind, int major);
void checkFormat(const TNode& root, std::string_view kind, int major);

// Refuses keys of `map` not in `allowed` ("unknown key 'x' (expected one of ...)").
void checkKeys(const YAML::Node& map, std::initializer_list<std::string_view> allowed);
void checkKeys(const TNode& map, std::initializer_list<std::string_view> allowed);

void requireMap(const YAML::Node& n, std::string_view what);
void requireMap(const TNode& n, std::string_view what);
void requireSeq(const YAML::Node& n, std::string_view what);
void requireSeq(const TNode& n, std::string_view what);

// Typed scalar conversions with range checks. Integers are decimal only (no octal/hex
// surprises: "010" is refused rather than read as 8).
int64_t toInt(const YAML::Node& n, std::string_view what, int64_t lo, int64_t hi);
int64_t toInt(const TNode& n, std::string_view what, int64_t lo, int64_t hi);
double toDouble(const YAML::Node& n, std::string_view what, double lo, double hi);
double toDouble(const TNode& n, std::string_view what, double lo, double hi);
bool toBool(const YAML::Node& n, std::string_view what);
bool toBool(const TNode& n, std::string_view what);
std::string toString(const YAML::Node& n, std::string_view what);
std::string toString(const TNode& n, std::string_view what);

// Getters on a mapping: required (error at the map when missing) or with a default.
const YAML::Node req(const YAML::Node& map, const char* key);
TNode req(const TNode& map, const char* key);
int64_t getInt(const YAML::Node& map, const char* key, int64_t def, int64_t lo, int64_t hi);
int64_t getInt(const TNode& map, const char* key, int64_t def, int64_t lo, int64_t hi);
double getDouble(const YAML::Node& map, const char* key, double def, double lo, double hi);
double getDouble(const TNode& map, const char* key, double def, double lo, double hi);
bool getBool(const YAML::Node& map, const char* key, bool def);
bool getBool(const TNode& map, const char* key, bool def);
std::string getString(const YAML::Node& map, const char* key, const std::string& def);
std::string getString(const TNode& map, const char* key, const std::string& def);

// An int or a list of ints (e.g. `kernel: 3` or `kernel: [3, 3]`).
std::vector<int64_t> intList(const YAML::Node& n, std::string_view what, size_t minLen,
                             size_t maxLen, int64_t lo, int64_t hi);
std::vector<int64_t> intList(const TNode& n, std::string_view what, size_t minLen, size_t maxLen,
                             int64_t lo, int64_t hi);

// --- writing ---------------------------------------------------------------------------
// Emits a string plainly when safe, double-quoted when another YAML reader would take it
// for a number, bool or null or when it holds special characters.
void emitString(YAML::Emitter& out, std::string_view s);
// Shortest round-trip decimal text, never locale-dependent.
void emitDouble(YAML::Emitter& out, double v);
// Decimal text of an integer. Emit integers through this, never `out << int`: yaml-cpp
// formats those with the global C++ locale (std::locale::global), which may group digits
// ("1.048.576" in German).
std::string intText(int64_t v);
// Finishes a document: checks emitter.good(), appends a final newline.
std::string finish(const YAML::Emitter& out);

} // namespace lf::yamlio
