#include "io/yaml_support.h"

#include "util/format.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace lf::yamlio {

SourcePos posOf(const YAML::Node& n) {
    if (!n.IsDefined()) return {};
    const YAML::Mark m = n.Mark();
    if (m.is_null()) return {};
    return SourcePos{m.line + 1, m.column + 1};
}

SourcePos posOf(const TNode& n) {
    return n.pos();
}

Error yamlError(const std::string& file, const YAML::Exception& e, const std::string& prefix) {
    SourcePos p;
    if (!e.mark.is_null()) p = SourcePos{e.mark.line + 1, e.mark.column + 1};
    return Error(file, p, prefix + e.msg);
}

void fail(const YAML::Node& at, const std::string& msg) {
    throw YamlInputError(posOf(at), msg);
}
void fail(const TNode& at, const std::string& msg) {
    throw YamlInputError(posOf(at), msg);
}

namespace {

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

// Offset of the first byte that does not start a well-formed UTF-8 sequence (RFC 3629:
// no overlong forms, no surrogates, nothing above U+10FFFF), or npos.
size_t firstInvalidUtf8(std::string_view t) {
    auto cont = [&](size_t i, unsigned lo = 0x80, unsigned hi = 0xBF) {
        return i < t.size() && static_cast<unsigned char>(t[i]) >= lo &&
               static_cast<unsigned char>(t[i]) <= hi;
    };
    for (size_t i = 0; i < t.size();) {
        const unsigned c = static_cast<unsigned char>(t[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        size_t len = 0;
        if (c >= 0xC2 && c <= 0xDF)
            len = cont(i + 1) ? 2 : 0;
        else if (c == 0xE0)
            len = cont(i + 1, 0xA0) && cont(i + 2) ? 3 : 0;
        else if (c == 0xED)
            len = cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : 0;
        else if (c >= 0xE1 && c <= 0xEF)
            len = cont(i + 1) && cont(i + 2) ? 3 : 0;
        else if (c == 0xF0)
            len = cont(i + 1, 0x90) && cont(i + 2) && cont(i + 3) ? 4 : 0;
        else if (c >= 0xF1 && c <= 0xF3)
            len = cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
        else if (c == 0xF4)
            len = cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : 0;
        if (len == 0) return i;
        i += len;
    }
    return std::string_view::npos;
}

// --- the getters, once for both node types ----------------------------------------------

template <class N> void checkFormatT(const N& root, std::string_view kind, int major) {
    const std::string want = "layerfuse/" + std::string(kind);
    if (!root.IsDefined() || root.IsNull())
        throw YamlInputError(SourcePos{1, 1},
                             "the file is empty (expected a " + want + " document)");
    requireMap(root, "the document");
    const N f = root["format"];
    if (!f) fail(root, "missing 'format: " + want + "@" + std::to_string(major) + "'");
    const std::string s = toString(f, "format");
    const auto at = s.find('@');
    const std::string k = s.substr(0, at);
    if (k != want) {
        if (k.rfind("layerfuse/", 0) == 0) fail(f, "this is a " + k + " file, not " + want);
        fail(f, "unknown format " + quoteValue(s) + " (expected " + want + "@" +
                    std::to_string(major) + ")");
    }
    if (at == std::string::npos)
        fail(f, "format " + quoteValue(s) + " has no version (expected @" + std::to_string(major) +
                    ")");
    const std::string ver = s.substr(at + 1);
    int m = 0;
    auto [p, ec] = std::from_chars(ver.data(), ver.data() + ver.size(), m);
    if (ec != std::errc() || (p != ver.data() + ver.size() && *p != '.') || m < 1)
        fail(f, "bad format version " + quoteValue(ver));
    if (m > major)
        fail(f, "written by a newer LayerFuse (" + s + "); this version reads " + want + "@" +
                    std::to_string(major));
}

template <class N> void checkKeysT(const N& map, std::initializer_list<std::string_view> allowed) {
    for (const auto& kv : map) {
        if (!kv.first.IsScalar() || kv.first.Scalar().empty())
            fail(kv.first.IsDefined() ? N(kv.first) : map, "a key must be a plain name");
        const std::string k(kv.first.Scalar());
        bool ok = false;
        for (auto a : allowed)
            ok = ok || a == k;
        if (!ok) {
            std::string list;
            for (auto a : allowed) {
                if (!list.empty()) list += ", ";
                list += a;
            }
            fail(kv.first, "unknown key " + quoteValue(k) + " (expected one of: " + list + ")");
        }
    }
}

template <class N> std::string toStringT(const N& n, std::string_view what) {
    if (!n.IsScalar()) fail(n, std::string(what) + " must be a text value");
    return std::string(n.Scalar());
}

template <class N> int64_t toIntT(const N& n, std::string_view what, int64_t lo, int64_t hi) {
    if (!n.IsScalar()) fail(n, std::string(what) + " must be an integer");
    const std::string s(n.Scalar());
    int64_t v = 0;
    const char* b = s.data();
    const char* e = s.data() + s.size();
    const char* digits = (b != e && (*b == '-' || *b == '+')) ? b + 1 : b;
    if (digits != e && *digits == '0' && e - digits > 1)
        fail(n,
             std::string(what) + " " + quoteValue(s) + " has a leading zero (write it in decimal)");
    if (b != e && *b == '+') ++b;
    auto [p, ec] = std::from_chars(b, e, v);
    if (ec == std::errc::result_out_of_range || (ec == std::errc() && p == e && (v < lo || v > hi)))
        fail(n, std::string(what) + " " + s + " is out of range [" + std::to_string(lo) + ", " +
                    std::to_string(hi) + "]");
    if (ec != std::errc() || p != e || s.empty())
        fail(n, std::string(what) + " must be an integer, got " + quoteValue(s));
    return v;
}

template <class N> double toDoubleT(const N& n, std::string_view what, double lo, double hi) {
    if (!n.IsScalar()) fail(n, std::string(what) + " must be a number");
    const std::string s(n.Scalar());
    double v = 0;
    const char* b = s.data();
    const char* e = s.data() + s.size();
    if (b != e && *b == '+') ++b;
    auto [p, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || p != e || s.empty() || !std::isfinite(v))
        fail(n, std::string(what) + " must be a number, got " + quoteValue(s));
    if (v < lo || v > hi)
        fail(n, std::string(what) + " " + s + " is out of range [" + formatDouble(lo) + ", " +
                    formatDouble(hi) + "]");
    return v;
}

template <class N> bool toBoolT(const N& n, std::string_view what) {
    if (n.IsScalar()) {
        const std::string_view s = n.Scalar();
        if (s == "true") return true;
        if (s == "false") return false;
    }
    fail(n, std::string(what) + " must be true or false");
}

template <class N> N reqT(const N& map, const char* key) {
    const N v = map[key];
    if (!v) fail(map, std::string("missing required key '") + key + "'");
    return v;
}

template <class N>
std::vector<int64_t> intListT(const N& n, std::string_view what, size_t minLen, size_t maxLen,
                              int64_t lo, int64_t hi) {
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
    for (const auto& e : n)
        out.push_back(toInt(e, what, lo, hi));
    return out;
}

} // namespace

Result<std::shared_ptr<const Tree>> parseTree(std::string_view text, const std::string& file) {
    if (text.size() > kMaxFileBytes)
        return Error(file, {},
                     "file is larger than " + std::to_string(kMaxFileBytes >> 20) + " MB");
    if (size_t nul = text.find('\0'); nul != std::string_view::npos) {
        auto [l, c] = lineColOfOffset(text, nul);
        return Error(file, SourcePos{l, c}, "not a text file (binary data)");
    }
    if (size_t bad = firstInvalidUtf8(text); bad != std::string_view::npos) {
        auto [l, c] = lineColOfOffset(text, bad);
        static constexpr char hex[] = "0123456789ABCDEF";
        const unsigned b = static_cast<unsigned char>(text[bad]);
        return Error(file, SourcePos{l, c},
                     std::string("not UTF-8 text (byte 0x") + hex[b >> 4] + hex[b & 15] + ")");
    }
    return Tree::parse(text, file);
}

Result<YAML::Node> parse(std::string_view text, const std::string& file) {
    // The compact tree enforces every limit first, so yaml-cpp only ever sees documents
    // of bounded depth and size, without duplicate keys or alias bombs.
    auto checked = parseTree(text, file);
    if (!checked) return checked.error();
    try {
        return YAML::Load(std::string(text));
    } catch (const YAML::Exception& e) {
        return yamlError(file, e, "invalid YAML: ");
    } catch (const std::exception& e) {
        return Error(file, {}, std::string("invalid YAML: ") + e.what());
    }
}

Result<std::string> readFile(const std::string& path) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
        return Error(path, {}, "not a regular file");
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error(path, {}, std::string("cannot open file: ") + std::strerror(errno));
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size < 0) return Error(path, {}, "cannot read file");
    if (size_t(size) > kMaxFileBytes)
        return Error(path, {},
                     "file is larger than " + std::to_string(kMaxFileBytes >> 20) + " MB");
    in.seekg(0, std::ios::beg);
    std::string data(size_t(size), '\0');
    if (size > 0 && !in.read(data.data(), size)) return Error(path, {}, "cannot read file");
    return data;
}

void requireMap(const YAML::Node& n, std::string_view what) {
    if (!n.IsMap()) fail(n, std::string(what) + " must be a mapping");
}
void requireMap(const TNode& n, std::string_view what) {
    if (!n.IsMap()) fail(n, std::string(what) + " must be a mapping");
}
void requireSeq(const YAML::Node& n, std::string_view what) {
    if (!n.IsSequence()) fail(n, std::string(what) + " must be a list");
}
void requireSeq(const TNode& n, std::string_view what) {
    if (!n.IsSequence()) fail(n, std::string(what) + " must be a list");
}

void checkFormat(const YAML::Node& root, std::string_view kind, int major) {
    checkFormatT(root, kind, major);
}
void checkFormat(const TNode& root, std::string_view kind, int major) {
    checkFormatT(root, kind, major);
}

void checkKeys(const YAML::Node& map, std::initializer_list<std::string_view> allowed) {
    checkKeysT(map, allowed);
}
void checkKeys(const TNode& map, std::initializer_list<std::string_view> allowed) {
    checkKeysT(map, allowed);
}

std::string toString(const YAML::Node& n, std::string_view what) {
    return toStringT(n, what);
}
std::string toString(const TNode& n, std::string_view what) {
    return toStringT(n, what);
}

int64_t toInt(const YAML::Node& n, std::string_view what, int64_t lo, int64_t hi) {
    return toIntT(n, what, lo, hi);
}
int64_t toInt(const TNode& n, std::string_view what, int64_t lo, int64_t hi) {
    return toIntT(n, what, lo, hi);
}

double toDouble(const YAML::Node& n, std::string_view what, double lo, double hi) {
    return toDoubleT(n, what, lo, hi);
}
double toDouble(const TNode& n, std::string_view what, double lo, double hi) {
    return toDoubleT(n, what, lo, hi);
}

bool toBool(const YAML::Node& n, std::string_view what) {
    return toBoolT(n, what);
}
bool toBool(const TNode& n, std::string_view what) {
    return toBoolT(n, what);
}

const YAML::Node req(const YAML::Node& map, const char* key) {
    return reqT(map, key);
}
TNode req(const TNode& map, const char* key) {
    return reqT(map, key);
}

int64_t getInt(const YAML::Node& map, const char* key, int64_t def, int64_t lo, int64_t hi) {
    const YAML::Node v = map[key];
    return v ? toInt(v, key, lo, hi) : def;
}
int64_t getInt(const TNode& map, const char* key, int64_t def, int64_t lo, int64_t hi) {
    const TNode v = map[key];
    return v ? toInt(v, key, lo, hi) : def;
}

double getDouble(const YAML::Node& map, const char* key, double def, double lo, double hi) {
    const YAML::Node v = map[key];
    return v ? toDouble(v, key, lo, hi) : def;
}
double getDouble(const TNode& map, const char* key, double def, double lo, double hi) {
    const TNode v = map[key];
    return v ? toDouble(v, key, lo, hi) : def;
}

bool getBool(const YAML::Node& map, const char* key, bool def) {
    const YAML::Node v = map[key];
    return v ? toBool(v, key) : def;
}
bool getBool(const TNode& map, const char* key, bool def) {
    const TNode v = map[key];
    return v ? toBool(v, key) : def;
}

std::string getString(const YAML::Node& map, const char* key, const std::string& def) {
    const YAML::Node v = map[key];
    return v ? toString(v, key) : def;
}
std::string getString(const TNode& map, const char* key, const std::string& def) {
    const TNode v = map[key];
    return v ? toString(v, key) : def;
}

std::vector<int64_t> intList(const YAML::Node& n, std::string_view what, size_t minLen,
                             size_t maxLen, int64_t lo, int64_t hi) {
    return intListT(n, what, minLen, maxLen, lo, hi);
}
std::vector<int64_t> intList(const TNode& n, std::string_view what, size_t minLen, size_t maxLen,
                             int64_t lo, int64_t hi) {
    return intListT(n, what, minLen, maxLen, lo, hi);
}

// --- writing ---------------------------------------------------------------------------

namespace {
bool needsQuotes(std::string_view s) {
    if (s.empty()) return true;
    static const char* const kReserved[] = {"true", "false", "yes",  "no",    "on",    "off", "y",
                                            "n",    "null",  "~",    "True",  "False", "Yes", "No",
                                            "On",   "Off",   "TRUE", "FALSE", "YES",   "NO",  "ON",
                                            "OFF",  "Null",  "NULL", "Y",     "N"};
    for (const char* r : kReserved)
        if (s == r) return true;
    // Anything that starts like a number, or holds YAML indicators.
    const char c0 = s.front();
    if ((c0 >= '0' && c0 <= '9') || c0 == '-' || c0 == '+' || c0 == '.') return true;
    // ASCII only, never std::isalnum: in a Latin-1 locale that calls UTF-8 bytes letters,
    // and the canonical text would depend on the locale.
    for (char c : s) {
        const bool alnum =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!(alnum || c == '_' || c == '-' || c == '.' || c == '/' || c == '@')) return true;
    }
    return false;
}
} // namespace

void emitString(YAML::Emitter& out, std::string_view s) {
    if (needsQuotes(s))
        out << YAML::DoubleQuoted << std::string(s);
    else
        out << std::string(s);
}

void emitDouble(YAML::Emitter& out, double v) {
    std::string s = formatDouble(v);
    out << s;
}

std::string intText(int64_t v) {
    char buf[24];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

std::string finish(const YAML::Emitter& out) {
    if (!out.good()) throw std::logic_error("YAML emitter error: " + out.GetLastError());
    std::string s = out.c_str();
    if (s.empty() || s.back() != '\n') s += '\n';
    return s;
}

} // namespace lf::yamlio
