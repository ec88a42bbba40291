#include "io/yaml_support.h"

#include "util/format.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

namespace lf::yamlio {

SourcePos posOf(const YAML::Node& n) {
    if (!n.IsDefined()) return {};
    const YAML::Mark m = n.Mark();
    if (m.is_null()) return {};
    return SourcePos{m.line + 1, m.column + 1};
}

void fail(const YAML::Node& at, const std::string& msg) { throw YamlInputError(posOf(at), msg); }

namespace {

// Walks the document: duplicate keys are refused (yaml-cpp keeps the first silently).
void checkDuplicates(const YAML::Node& n, int depth) {
    if (depth > 1000) fail(n, "the document is nested too deeply");
    if (n.IsMap()) {
        std::set<std::string> seen;
        for (const auto& kv : n) {
            if (kv.first.IsScalar() && !seen.insert(kv.first.Scalar()).second)
                fail(kv.first, "duplicate key '" + kv.first.Scalar() + "'");
            checkDuplicates(kv.second, depth + 1);
        }
    } else if (n.IsSequence()) {
        for (const auto& e : n) checkDuplicates(e, depth + 1);
    }
}

// Nesting depth of flow collections and block indentation, measured without parsing so a
// hostile file cannot drive the recursive parser deep.
bool nestingTooDeep(std::string_view text, int limit) {
    int depth = 0;
    bool inSingle = false, inDouble = false;
    for (char c : text) {
        if (c == '\n') inSingle = inDouble = false;  // quotes never span lines in our files
        if (inDouble) {
            if (c == '"') inDouble = false;
            continue;
        }
        if (inSingle) {
            if (c == '\'') inSingle = false;
            continue;
        }
        if (c == '"') inDouble = true;
        else if (c == '\'') inSingle = true;
        else if (c == '[' || c == '{') {
            if (++depth > limit) return true;
        } else if (c == ']' || c == '}') {
            if (depth > 0) --depth;
        }
    }
    return false;
}

std::pair<int, int> lineColOfOffset(std::string_view text, size_t off) {
    int line = 1, col = 1;
    for (size_t i = 0; i < off && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return {line, col};
}

}  // namespace

Result<YAML::Node> parse(std::string_view text, const std::string& file) {
    if (text.size() > kMaxFileBytes)
        return Error(file, {}, "file is larger than " + std::to_string(kMaxFileBytes >> 20) + " MB");
    if (size_t nul = text.find('\0'); nul != std::string_view::npos) {
        auto [l, c] = lineColOfOffset(text, nul);
        return Error(file, SourcePos{l, c}, "not a text file (binary data)");
    }
    if (nestingTooDeep(text, 256))
        return Error(file, {}, "the document is nested too deeply (more than 256 levels)");
    try {
        YAML::Node root = YAML::Load(std::string(text));
        checkDuplicates(root, 0);
        return root;
    } catch (const YamlInputError& e) {
        return Error(file, e.pos, e.what());
    } catch (const YAML::Exception& e) {
        SourcePos p;
        if (!e.mark.is_null()) p = SourcePos{e.mark.line + 1, e.mark.column + 1};
        return Error(file, p, "invalid YAML: " + e.msg);
    } catch (const std::exception& e) {
        return Error(file, {}, std::string("invalid YAML: ") + e.what());
    }
}

Result<std::string> readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error(path, {}, std::string("cannot open file: ") + std::strerror(errno));
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size < 0) return Error(path, {}, "cannot read file");
    if (size_t(size) > kMaxFileBytes)
        return Error(path, {}, "file is larger than " + std::to_string(kMaxFileBytes >> 20) + " MB");
    in.seekg(0, std::ios::beg);
    std::string data(size_t(size), '\0');
    if (size > 0 && !in.read(data.data(), size)) return Error(path, {}, "cannot read file");
    return data;
}

void requireMap(const YAML::Node& n, std::string_view what) {
    if (!n.IsMap()) fail(n, std::string(what) + " must be a mapping");
}

void requireSeq(const YAML::Node& n, std::string_view what) {
    if (!n.IsSequence()) fail(n, std::string(what) + " must be a list");
}

void checkFormat(const YAML::Node& root, std::string_view kind, int major) {
    if (!root.IsDefined() || root.IsNull())
        throw YamlInputError({}, "the file is empty (expected a layerfuse/" + std::string(kind) +
                                     " document)");
    requireMap(root, "the document");
    const YAML::Node f = root["format"];
    const std::string want = "layerfuse/" + std::string(kind);
    if (!f) fail(root, "missing 'format: " + want + "@" + std::to_string(major) + "'");
    const std::string s = toString(f, "format");
    const auto at = s.find('@');
    const std::string k = s.substr(0, at);
    if (k != want) {
        if (k.rfind("layerfuse/", 0) == 0)
            fail(f, "this is a " + k + " file, not " + want);
        fail(f, "unknown format '" + s + "' (expected " + want + "@" + std::to_string(major) + ")");
    }
    if (at == std::string::npos) fail(f, "format '" + s + "' has no version (expected @" + std::to_string(major) + ")");
    const std::string ver = s.substr(at + 1);
    int m = 0;
    auto [p, ec] = std::from_chars(ver.data(), ver.data() + ver.size(), m);
    if (ec != std::errc() || (p != ver.data() + ver.size() && *p != '.') || m < 1)
        fail(f, "bad format version '" + ver + "'");
    if (m > major)
        fail(f, "written by a newer LayerFuse (" + s + "); this version reads " + want + "@" +
                    std::to_string(major));
}

void checkKeys(const YAML::Node& map, std::initializer_list<std::string_view> allowed) {
    for (const auto& kv : map) {
        const std::string k = kv.first.Scalar();
        bool ok = false;
        for (auto a : allowed) ok = ok || a == k;
        if (!ok) {
            std::string list;
            for (auto a : allowed) {
                if (!list.empty()) list += ", ";
                list += a;
            }
            fail(kv.first, "unknown key '" + k + "' (expected one of: " + list + ")");
        }
    }
}

std::string toString(const YAML::Node& n, std::string_view what) {
    if (!n.IsScalar()) fail(n, std::string(what) + " must be a text value");
    return n.Scalar();
}

int64_t toInt(const YAML::Node& n, std::string_view what, int64_t lo, int64_t hi) {
    if (!n.IsScalar()) fail(n, std::string(what) + " must be an integer");
    const std::string& s = n.Scalar();
    int64_t v = 0;
    const char* b = s.data();
    const char* e = s.data() + s.size();
    const char* digits = (b != e && (*b == '-' || *b == '+')) ? b + 1 : b;
    if (digits != e && *digits == '0' && e - digits > 1)
        fail(n, std::string(what) + " '" + s + "' has a leading zero (write it in decimal)");
    if (b != e && *b == '+') ++b;
    auto [p, ec] = std::from_chars(b, e, v);
    if (ec == std::errc::result_out_of_range || (ec == std::errc() && p == e && (v < lo || v > hi)))
        fail(n, std::string(what) + " " + s + " is out of range [" + std::to_string(lo) + ", " +
                    std::to_string(hi) + "]");
    if (ec != std::errc() || p != e || s.empty())
        fail(n, std::string(what) + " must be an integer, got '" + s + "'");
    return v;
}

double toDouble(const YAML::Node& n, std::string_view what, double lo, double hi) {
    if (!n.IsScalar()) fail(n, std::string(what) + " must be a number");
    const std::string& s = n.Scalar();
    double v = 0;
    const char* b = s.data();
    const char* e = s.data() + s.size();
    if (b != e && *b == '+') ++b;
    auto [p, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || p != e || s.empty() || !std::isfinite(v))
        fail(n, std::string(what) + " must be a number, got '" + s + "'");
    if (v < lo || v > hi)
        fail(n, std::string(what) + " " + s + " is out of range [" + formatDouble(lo) + ", " +
                    formatDouble(hi) + "]");
    return v;
}

bool toBool(const YAML::Node& n, std::string_view what) {
    if (n.IsScalar()) {
        const std::string& s = n.Scalar();
        if (s == "true") return true;
        if (s == "false") return false;
    }
    fail(n, std::string(what) + " must be true or false");
}

const YAML::Node req(const YAML::Node& map, const char* key) {
    const YAML::Node v = map[key];
    if (!v) fail(map, std::string("missing required key '") + key + "'");
    return v;
}

int64_t getInt(const YAML::Node& map, const char* key, int64_t def, int64_t lo, int64_t hi) {
    const YAML::Node v = map[key];
    return v ? toInt(v, key, lo, hi) : def;
}

double getDouble(const YAML::Node& map, const char* key, double def, double lo, double hi) {
    const YAML::Node v = map[key];
    return v ? toDouble(v, key, lo, hi) : def;
}

bool getBool(const YAML::Node& map, const char* key, bool def) {
    const YAML::Node v = map[key];
    return v ? toBool(v, key) : def;
}

std::string getString(const YAML::Node& map, const char* key, const std::string& def) {
    const YAML::Node v = map[key];
    return v ? toString(v, key) : def;
}

std::vector<int64_t> intList(const YAML::Node& n, std::string_view what, size_t minLen,
                             size_t maxLen, int64_t lo, int64_t hi) {
    std::vector<int64_t> out;
    if (n.IsScalar()) {
        out.push_back(toInt(n, what, lo, hi));
        return out;
    }
    if (!n.IsSequence()) fail(n, std::string(what) + " must be an integer or a list of integers");
    if (n.size() < minLen || n.size() > maxLen)
        fail(n, std::string(what) + " must have " +
                    (minLen == maxLen ? std::to_string(minLen)
                                      : std::to_string(minLen) + " to " + std::to_string(maxLen)) +
                    " entries");
    for (const auto& e : n) out.push_back(toInt(e, what, lo, hi));
    return out;
}

// --- writing ---------------------------------------------------------------------------

namespace {
bool needsQuotes(std::string_view s) {
    if (s.empty()) return true;
    static const char* const kReserved[] = {"true", "false", "yes", "no", "on", "off", "y", "n",
                                            "null", "~", "True", "False", "Yes", "No", "On",
                                            "Off", "TRUE", "FALSE", "YES", "NO", "ON", "OFF",
                                            "Null", "NULL", "Y", "N"};
    for (const char* r : kReserved)
        if (s == r) return true;
    // Anything that starts like a number, or holds YAML indicators.
    const char c0 = s.front();
    if ((c0 >= '0' && c0 <= '9') || c0 == '-' || c0 == '+' || c0 == '.') return true;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
              c == '/' || c == '@'))
            return true;
    return false;
}
}  // namespace

void emitString(YAML::Emitter& out, std::string_view s) {
    if (needsQuotes(s)) out << YAML::DoubleQuoted << std::string(s);
    else out << std::string(s);
}

void emitDouble(YAML::Emitter& out, double v) {
    std::string s = formatDouble(v);
    out << s;
}

std::string finish(const YAML::Emitter& out) {
    if (!out.good()) throw std::logic_error("YAML emitter error: " + out.GetLastError());
    std::string s = out.c_str();
    if (s.empty() || s.back() != '\n') s += '\n';
    return s;
}

}  // namespace lf::yamlio
