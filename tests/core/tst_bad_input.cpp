// Bad input: every reader error names FILE:LINE:COLUMN and says what is wrong; nothing
// crashes, hangs or allocates without bound (garbage, deep nesting, alias bombs, huge files,
// a million layers). Positions are those of the token each case names (1-based).
#include "net_text.h"
#include "test_support.h"

#include "io/hardware_yaml.h"
#include "io/network_yaml.h"
#include "network/network.h"
#include "util/format.h"

#include <QElapsedTimer>
#include <QFile>
#include <QtTest>

#include <ctime>
#include <random>

using namespace lf;

namespace {

Error readError(const QString& reader, const std::string& text, const std::string& file) {
    if (reader == "hw") {
        auto h = readHardwareYaml(text, file);
        return h ? Error("<loaded>") : h.error();
    }
    auto n = readNetworkYaml(text, file);
    return n ? Error("<loaded>") : n.error();
}

// Both readers on the same text: each must fail (never crash) and say where.
void expectRefusedByBoth(const std::string& text, const std::string& message, int line,
                         int column) {
    for (const char* reader : {"net", "hw"}) {
        const Error e = readError(reader, text, "deep.yaml");
        QCOMPARE(QString::fromStdString(e.message), QString::fromStdString(message));
        QCOMPARE(e.line, line);
        QCOMPARE(e.column, column);
    }
}

double threadCpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

std::string chainOfConvs(int n) {
    std::string t = "format: layerfuse/network@1\nname: chain\ninputs:\n"
                    "  - {name: x, channels: 1, height: 1, width: 1}\nlayers:\n";
    t.reserve(size_t(n) * 72 + 128);
    std::string prev = "x";
    for (int k = 0; k < n; ++k) {
        std::string nm = "c" + std::to_string(k);
        t += "  - {name: " + nm + ", type: conv, inputs: [" + prev +
             "], out_channels: 1, kernel: 1}\n";
        prev = std::move(nm);
    }
    return t;
}

} // namespace

class TestBadInput : public QObject {
    Q_OBJECT

  private slots:
    void badInput_data() {
        QTest::addColumn<QString>("reader");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message"); // exact, or "~prefix"
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        auto row = [](const char* tag, const char* reader, const char* text, const char* message,
                      int line, int column) {
            QTest::newRow(tag) << QString(reader) << QString::fromUtf8(text) << QString(message)
                               << line << column;
        };
        row("syntax: text after a quoted value", "net",
            "format: layerfuse/network@1\nname: \"abc\" x\n", "invalid YAML: end of map not found",
            2, 13);
        row("syntax: over-indented key", "net",
            "format: layerfuse/network@1\nname: t\n  inputs: []\n",
            "invalid YAML: illegal map value", 3, 9);
        row("syntax: key missing", "net", "format: layerfuse/network@1\nname: t\n: x\n",
            "a key must be a plain name", 3, 1);
        row("syntax: list as a key", "net", "format: layerfuse/network@1\n[a, b]: t\n",
            "a key must be a plain name", 2, 1);
        row("tab indentation", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - name: c\n\ttype: conv\n",
            "invalid YAML: illegal tab when looking for indentation (indent with spaces, not tabs)",
            7, 1);
        row("tab before a list entry", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n\t- {name: x, channels: 1, height: 1, "
            "width: 1}\n",
            "invalid YAML: illegal block entry (indent with spaces, not tabs)", 4, 2);
        row("missing format", "net", "name: t\ninputs: []\nlayers: []\n",
            "missing 'format: layerfuse/network@1'", 1, 1);
        row("hardware file as network", "net", "format: layerfuse/hardware@1\nname: h\n",
            "this is a layerfuse/hardware file, not layerfuse/network", 1, 9);
        row("newer major version", "net",
            "format: layerfuse/network@2\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [x], out_channels: 4, kernel: "
            "3}\n",
            "written by a newer LayerFuse (layerfuse/network@2); this version reads "
            "layerfuse/network@1",
            1, 9);
        row("unknown format", "net", "format: yolo/v5\nname: t\n",
            "unknown format 'yolo/v5' (expected layerfuse/network@1)", 1, 9);
        row("unknown root key", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [x], out_channels: 4, kernel: "
            "3}\ncolour: red\n",
            "unknown key 'colour' (expected one of: format, name, description, inputs, layers)", 7,
            1);
        row("unknown layer key", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [x], out_channels: 4, kernal: "
            "3}\n",
            "~unknown key 'kernal' (expected one of: name, type, inputs, out_channels, kernel,", 6,
            57);
        row("missing required key, at its map", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [x], kernel: 3}\n",
            "missing required key 'out_channels'", 6, 5);
        row("missing layers, at the root", "net",
            "format: layerfuse/network@1\nname: t\ninputs: []\n", "missing required key 'layers'",
            1, 1);
        row("duplicate key", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [x], out_channels: 4, kernel: "
            "1, kernel: 3}\n",
            "duplicate key 'kernel'", 6, 68);
        row("duplicate layer name", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [x], out_channels: 4, kernel: "
            "3}\n  - {name: c, type: conv, inputs: [x], out_channels: 4, kernel: 1}\n",
            "duplicate layer name 'c'", 7, 5);
        row("layer named like an input", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: x, type: conv, inputs: [x], out_channels: 4, kernel: "
            "1}\n",
            "duplicate layer name 'x'", 6, 5);
        row("unknown input name", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [x, nope], out_channels: 4, "
            "kernel: 1}\n",
            "layer 'c' names unknown input 'nope'", 6, 39);
        row("self loop", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [c], out_channels: 4, kernel: "
            "1}\n",
            "layer 'c' takes its own output as input", 6, 36);
        row("cycle", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: a, type: conv, inputs: [b], out_channels: 64, kernel: "
            "1}\n  - {name: b, type: conv, inputs: [a], out_channels: 64, kernel: 1}\n",
            "the network has a cycle: a -> b -> a", 6, 5);
        row("kernel larger than input", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [x], out_channels: 4, kernel: "
            "9}\n",
            "layer 'c': kernel 9x9 does not fit the padded input 64x8x8", 6, 5);
        row("zero channels", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 0, height: 8, "
            "width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [x], out_channels: 4, kernel: "
            "3}\n",
            "channels 0 is out of range [1, 16777216]", 4, 25);
        row("negative height", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: "
            "-8, width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [x], out_channels: 4, "
            "kernel: 3}\n",
            "height -8 is out of range [1, 1048576]", 4, 37);
        row("huge width", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 2000000}\nlayers:\n  - {name: c, type: conv, inputs: [x], out_channels: 4, "
            "kernel: 3}\n",
            "width 2000000 is out of range [1, 1048576]", 4, 47);
        row("integer overflow", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [x], out_channels: "
            "99999999999999999999, kernel: 1}\n",
            "out_channels 99999999999999999999 is out of range [1, 16777216]", 6, 54);
        row("leading zero", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [x], out_channels: 4, kernel: "
            "010}\n",
            "kernel '010' has a leading zero (write it in decimal)", 6, 65);
        row("not an integer: 3.5", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [x], out_channels: 4, kernel: "
            "[3, 3.5]}\n",
            "kernel must be an integer, got '3.5'", 6, 69);
        row("not an integer: word", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [x], out_channels: many, "
            "kernel: 1}\n",
            "out_channels must be an integer, got 'many'", 6, 54);
        row("not an integer: list", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [x], out_channels: 4, kernel: "
            "1, groups: [2]}\n",
            "groups must be an integer", 6, 76);
        row("groups not dividing channels", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [x], out_channels: 6, kernel: "
            "1, groups: 3}\n",
            "layer 'c': groups (3) must divide the input channels (64)", 6, 5);
        row("concat shape mismatch", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: p, type: pool, inputs: [x], kernel: 2, stride: 2}\n  - "
            "{name: cat, type: concat, inputs: [x, p]}\n",
            "layer 'cat': concat inputs must agree in height and width (64x8x8 vs 64x4x4)", 7, 5);
        row("add shape mismatch", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [x], out_channels: 32, kernel: "
            "1}\n  - {name: s, type: add, inputs: [x, c]}\n",
            "layer 's': inputs disagree in channels (64 vs 32)", 7, 5);
        row("expect mismatch", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [x], out_channels: 4, kernel: "
            "3, expect: {channels: 4, height: 8, width: 8}}\n",
            "layer 'c': expected output 4x8x8 but inference gives 4x6x6", 6, 76);
        row("flatten before conv", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: f, type: flatten, inputs: [x]}\n  - {name: c, type: "
            "conv, inputs: [f], out_channels: 4, kernel: 1}\n",
            "'f' (flatten/reshape) is only supported in front of an fc layer", 6, 5);
        row("unknown layer type", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: c, type: convolution, inputs: [x]}\n",
            "~unknown layer type 'convolution' (expected conv, deconv, fc, pool,", 6, 21);
        row("padding with 3 values", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [x], out_channels: 4, kernel: "
            "3, padding: [1, 1, 1]}\n",
            "padding takes 1, 2 or 4 values ([top/bottom, left/right] or [t, l, b, r])", 6, 77);
        row("pool mode", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: p, type: pool, inputs: [x], mode: min, kernel: 2}\n",
            "pool mode must be max or avg, got 'min'", 6, 46);
        row("YAML 1.1 boolean", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: p, type: pool, inputs: [x], kernel: 2, ceil_mode: "
            "yes}\n",
            "ceil_mode must be true or false", 6, 62);
        row("layers not a list", "net",
            "format: layerfuse/network@1\nname: t\ninputs: []\nlayers: {a: 1}\n",
            "layers must be a list", 4, 9);
        row("layer not a mapping", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - conv\n",
            "a layer must be a mapping", 6, 5);
        row("no layers", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  []\n",
            "network has no layers", 1, 1);
        row("the document is a list", "net", "- format: layerfuse/network@1\n",
            "the document must be a mapping", 1, 1);
        row("two documents", "net",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [x], out_channels: 4, kernel: "
            "3}\n---\nformat: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, "
            "height: 8, width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [x], out_channels: "
            "4, kernel: 3}\n",
            "the file holds more than one YAML document", 7, 1);
        row("empty file", "net", "", "the file is empty (expected a layerfuse/network document)", 1,
            1);
        row("only a comment", "net", "# nothing here\n",
            "the file is empty (expected a layerfuse/network document)", 1, 1);
        row("alias to its own collection", "net",
            "format: layerfuse/network@1\nname: t\ninputs: &in [*in]\nlayers: []\n",
            "an alias refers to the collection that contains it", 3, 14);
        row("undefined alias", "net", "format: layerfuse/network@1\nname: *who\n",
            "invalid YAML: the referenced anchor is not defined", 2, 7);
        row("hw: network file as hardware", "hw",
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 64, height: 8, "
            "width: 8}\nlayers:\n  - {name: c, type: conv, inputs: [x], out_channels: 4, kernel: "
            "3}\n",
            "this is a layerfuse/network file, not layerfuse/hardware", 1, 9);
        row("hw: newer major version", "hw", "format: layerfuse/hardware@3.1\nname: h\n",
            "written by a newer LayerFuse (layerfuse/hardware@3.1); this version reads "
            "layerfuse/hardware@1",
            1, 9);
        row("hw: missing name", "hw", "format: layerfuse/hardware@1\nfrequency_mhz: 100\n",
            "missing required key 'name'", 1, 1);
        row("hw: unknown key", "hw",
            "format: layerfuse/hardware@1\nname: h\ndram: {bandwith: 16}\n",
            "unknown key 'bandwith' (expected one of: bandwidth_bytes_per_cycle, burst_bytes, "
            "cas_cycles, energy_pj_per_word)",
            3, 8);
        row("hw: not a number", "hw",
            "format: layerfuse/hardware@1\nname: h\nfrequency_mhz: fast\n",
            "frequency_mhz must be a number, got 'fast'", 3, 16);
        row("hw: decimal comma", "hw",
            "format: layerfuse/hardware@1\nname: h\nfrequency_mhz: 312,5\n",
            "frequency_mhz must be a number, got '312,5'", 3, 16);
        row("hw: nan", "hw", "format: layerfuse/hardware@1\nname: h\nmac: {pj: .nan}\n",
            "pj must be a number, got '.nan'", 3, 11);
        row("hw: negative bytes", "hw",
            "format: layerfuse/hardware@1\nname: h\nbuffer: {bytes: -1}\n",
            "bytes -1 is out of range [1, 17592186044416]", 3, 17);
        row("hw: register file overfull", "hw",
            "format: layerfuse/hardware@1\nname: h\nregister_file: {bytes_per_pe: 64, weight: 32, "
            "input: 32, psum: 8}\n",
            "register file sections (weight + input + psum = 72 B) exceed bytes_per_pe (64 B)", 3,
            16);
        row("hw: bad dataflow", "hw",
            "format: layerfuse/hardware@1\nname: h\npe_array: {dataflow: \"ox*oz|oc\"}\n",
            "dataflow 'ox*oz|oc' is not of the form COLS|ROWS with dims ox, oy, oc, ic, kx, ky, b "
            "(e.g. \"ox|oc\" or \"ky*oy|ic*oc\")",
            3, 22);
        row("hw: energy model", "hw",
            "format: layerfuse/hardware@1\nname: h\nbuffer: {energy: {model: cubic}}\n",
            "buffer energy model must be constant, sqrt or banked, got 'cubic'", 3, 26);
        row("hw: mb_bytes count", "hw",
            "format: layerfuse/hardware@1\nname: h\ncores: {tle: 4, tlt: 8, mb_bytes: [8192, "
            "8192]}\n",
            "mb_bytes must have 3 entries", 3, 35);
        row("hw: overlap", "hw", "format: layerfuse/hardware@1\nname: h\noverlap: parallel\n",
            "overlap must be serial or overlapped, got 'parallel'", 3, 10);
        row("hw: duplicate key", "hw",
            "format: layerfuse/hardware@1\nname: h\nfrequency_mhz: 100\nfrequency_mhz: 200\n",
            "duplicate key 'frequency_mhz'", 4, 1);
        row("hw: empty", "hw", "\n\n", "the file is empty (expected a layerfuse/hardware document)",
            1, 1);
    }
    void badInput() {
        QFETCH(QString, reader);
        QFETCH(QString, text);
        QFETCH(QString, message);
        QFETCH(int, line);
        QFETCH(int, column);
        const std::string file = reader == "hw" ? "bad.hw.yaml" : "bad.net.yaml";
        const Error e = readError(reader, text.toStdString(), file);
        const QString got = QString::fromStdString(e.message);
        if (message.startsWith('~'))
            QVERIFY2(got.startsWith(message.mid(1)), qPrintable(got));
        else
            QCOMPARE(got, message);
        QCOMPARE(e.line, line);
        QCOMPARE(e.column, column);
        QCOMPARE(e.file, file);
        const std::string where =
            file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
        QCOMPARE(e.toString().substr(0, where.size()), where);
    }

    // In a map of any size the first key (in document order) that repeats an earlier one is
    // named: k12 repeats k3 (line 14) before k15 repeats k5 (line 17). 15 keys take the
    // small-map path, 41 the sorted one.
    void duplicateKeyInLargeMap() {
        for (int size : {14, 40}) {
            std::string t = "format: layerfuse/hardware@1\n";
            for (int k = 0; k < size; ++k) {
                const int key = k == 12 ? 3 : k == 15 ? 5 : k;
                t += "k" + std::to_string(key) + ": 1\n";
            }
            const Error e = readError("hw", t, "dup.hw.yaml");
            QCOMPARE(e.message, std::string("duplicate key 'k3'"));
            QCOMPARE(e.line, 14);
            QCOMPARE(e.column, 1);
        }
    }

    // A NUL byte marks binary data; the error points at it.
    void binaryGarbage() {
        std::string t = "format: layerfuse/network@1\nname: t\n";
        t += std::string("\x7f"
                         "ELF\x02\x01\x01\0\0\0",
                         10);
        for (const char* reader : {"net", "hw"}) {
            const Error e = readError(reader, t, "a.out");
            QCOMPARE(e.message, std::string("not a text file (binary data)"));
            QCOMPARE(e.line, 3);
            QCOMPARE(e.column, 8);
        }
    }

    // Text must be UTF-8 (a Latin-1 file would otherwise load, and be written back with its
    // names mangled); the error points at the first bad byte.
    void notUtf8() {
        const std::string t = "format: layerfuse/hardware@1\nname: caf\xe9\n";
        for (const char* reader : {"net", "hw"}) {
            const Error e = readError(reader, t, "latin1.yaml");
            QCOMPARE(e.message, std::string("not UTF-8 text (byte 0xE9)"));
            QCOMPARE(e.line, 2);
            QCOMPARE(e.column, 10);
        }
        // Truncated and overlong sequences, and UTF-16 surrogates, are not UTF-8 either.
        for (const char* bad : {"\xc3", "\xc0\xaf", "\xed\xa0\x80", "\xf8\x88\x80\x80\x80"}) {
            const Error e = readError("net", std::string("name: ") + bad + "\n", "bad.yaml");
            QVERIFY2(e.message.rfind("not UTF-8 text", 0) == 0, e.message.c_str());
            QCOMPARE(e.line, 1);
            QCOMPARE(e.column, 7);
        }
        // Valid multi-byte text is fine.
        auto ok = readHardwareYaml(
            "format: layerfuse/hardware@1\nname: \"caf\xc3\xa9 \xe5\xb1\x82 \xf0\x9f\x98\x80\"\n",
            "u");
        QVERIFY_OK(ok);
        QCOMPARE(ok->name, std::string("caf\xc3\xa9 \xe5\xb1\x82 \xf0\x9f\x98\x80"));
    }

    // Random bytes (seeded): always refused, never a crash, quickly.
    void randomBytes() {
        std::mt19937 rng(20240607);
        QElapsedTimer timer;
        timer.start();
        for (int round = 0; round < 300; ++round) {
            std::string t(size_t(rng() % 4096), '\0');
            const bool allowNul = round % 2 == 0;
            for (char& c : t) {
                c = char(rng() & 0xFF);
                if (!allowNul && c == 0) c = 'a';
            }
            for (const char* reader : {"net", "hw"}) {
                const Error e = readError(reader, t, "rnd");
                QVERIFY(e.message != "<loaded>");
                QVERIFY(!e.message.empty());
            }
        }
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed()) + " ms"));
    }

    // Every prefix of valid files: loads or fails with a position, never crashes.
    void truncatedFiles() {
        const std::string net = writeNetworkYaml(lf::test::networkFromYaml(lf::test::netYaml(
            {"{name: x, channels: 3, height: 16, width: 16}"},
            {"{name: c, type: conv, inputs: [x], out_channels: 8, kernel: 3, padding: 1}",
             "{name: p, type: pool, inputs: [c], kernel: 2, stride: 2, ceil_mode: true}",
             "{name: q, type: pool, inputs: [c], mode: avg, kernel: 2, stride: 2}",
             "{name: s, type: add, inputs: [p, q]}",
             "{name: f, type: fc, inputs: [s], out_features: 4}"})));
        const std::string hw = writeHardwareYaml(Hardware{});
        int loaded = 0;
        for (const auto& [reader, text] : {std::pair<QString, std::string>{"net", net}, {"hw", hw}})
            for (size_t k = 0; k < text.size(); ++k) {
                const Error e = readError(reader, text.substr(0, k), "cut");
                if (e.message == "<loaded>") {
                    ++loaded;
                    continue;
                }
                QVERIFY2(e.line >= 1 && e.column >= 1, e.toString().c_str());
            }
        QVERIFY(loaded > 0); // e.g. the network file cut inside the fc's last key
    }

    // Deep nesting is refused at the first level beyond 256, with no deep recursion.
    void deepNesting_data() {
        QTest::addColumn<QString>("prefix");
        QTest::addColumn<QString>("open");
        QTest::addColumn<QString>("close");
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<int>("column");
        QTest::newRow("flow lists") << ""
                                    << "["
                                    << "]"
                                    << "" << 257;
        QTest::newRow("flow maps") << ""
                                   << "{a: "
                                   << "}"
                                   << "" << 1025; // 256 * 4 + 1
        QTest::newRow("block lists") << ""
                                     << "- "
                                     << ""
                                     << "" << 513; // 256 * 2 + 1
        QTest::newRow("mixed") << ""
                               << "[{a: "
                               << "}]"
                               << "" << 641; // level 257 is a '['
        QTest::newRow("after a quote") << "[it's, "
                                       << "["
                                       << "]"
                                       << "]" << 263; // 7 + 256
        // Unclosed: yaml-cpp reads each '[' as the key of an implicit map too, so level 257 is
        // reached at the 129th bracket.
        QTest::newRow("unclosed flow lists") << ""
                                             << "["
                                             << ""
                                             << "" << 129;
    }
    void deepNesting() {
        QFETCH(QString, prefix);
        QFETCH(QString, open);
        QFETCH(QString, close);
        QFETCH(QString, suffix);
        QFETCH(int, column);
        const int depth = 100000;
        std::string t = prefix.toStdString();
        for (int k = 0; k < depth; ++k)
            t += open.toStdString();
        t += "x";
        for (int k = 0; k < depth; ++k)
            t += close.toStdString();
        t += suffix.toStdString() + "\n";
        expectRefusedByBoth(t, "the document is nested too deeply (more than 256 levels)", 1,
                            column);
    }

    // "Billion laughs": each alias level multiplies the document tenfold; refused while
    // parsing, at the alias that takes the expanded size past the limit.
    void aliasBomb() {
        std::string t = "format: layerfuse/hardware@1\nname: h\nx0: &a0 [lol, lol, lol, lol, lol, "
                        "lol, lol, lol, lol, lol]\n";
        for (int k = 1; k < 30; ++k) {
            t += "x" + std::to_string(k) + ": &a" + std::to_string(k) + " [";
            for (int j = 0; j < 10; ++j)
                t += (j ? ", *a" : "*a") + std::to_string(k - 1);
            t += "]\n";
        }
        std::string net = t;
        net.replace(0, 28, "format: layerfuse/network@1");
        for (const auto& [reader, text] :
             {std::pair<QString, std::string>{"hw", t}, {"net", net}}) {
            QElapsedTimer timer;
            timer.start();
            const Error e = readError(reader, text, "bomb.yaml");
            QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed()) + " ms"));
            QVERIFY2(e.message.find("the document is too large: more than") == 0,
                     e.message.c_str());
            // 10^7 < 48 M < 10^8: the alias expanding to 10^8 nodes is on line 10, x7.
            QCOMPARE(e.line, 10);
            QVERIFY(e.column > 9);
        }
    }

    // Aliases that a reader would expand (a long folded list reused by every layer) are
    // refused once the expanded document passes the node limit.
    void aliasAmplification() {
        std::string t =
            "format: layerfuse/network@1\nname: t\ninputs:\n"
            "  - {name: x, channels: 1, height: 1, width: 1}\nlayers:\n"
            "  - {name: c0, type: conv, inputs: [x], out_channels: 1, kernel: 1, folded: &f [";
        for (int k = 0; k < 20000; ++k)
            t += k ? ", r" : "r";
        t += "]}\n";
        for (int k = 1; k < 20000; ++k)
            t += "  - {name: c" + std::to_string(k) + ", type: conv, inputs: [c" +
                 std::to_string(k - 1) + "], out_channels: 1, kernel: 1, folded: *f}\n";
        QElapsedTimer timer;
        timer.start();
        const Error e = readError("net", t, "amp.net.yaml");
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed()) + " ms"));
        QVERIFY2(e.message.find("the document is too large: more than") == 0, e.message.c_str());
        QVERIFY(e.line > 6);
        QVERIFY(e.column > 1);
    }

    // A file above the size limit is refused from its size alone (a sparse 300 MB file:
    // nothing is read).
    // Found by fuzz_hardware_yaml: yaml-cpp 0.7 reads the escape \_ (and \xA0-\xFF) as a
    // single Latin-1 byte, which no writer gives back; a file must hold UTF-8 text.
    void textThatIsNotUtf8IsRefused() {
        const std::string hw = "format: layerfuse/hardware@1\nname: x\ndescription: \"a\\_b\"\n";
        const Error e = readError("hw", hw, "latin.hw.yaml");
        QVERIFY2(e.message.find("not UTF-8") != std::string::npos, e.message.c_str());
        QCOMPARE(e.line, 3);
        QCOMPARE(e.column, 14);
        std::string raw = "format: layerfuse/network@1\nname: caf\xe9\n";
        const Error n = readError("net", raw, "raw.net.yaml");
        QVERIFY2(n.message.find("not UTF-8") != std::string::npos, n.message.c_str());
        QCOMPARE(n.line, 2);
        // Real UTF-8 is kept as it is.
        QVERIFY(readNetworkYaml("format: layerfuse/network@1\nname: caf\xc3\xa9\ninputs: []\n"
                                "layers: []\n",
                                "ok.net.yaml")
                    .error()
                    .message.find("UTF-8") == std::string::npos);
        QVERIFY(isValidUtf8("\xe2\x80\xa6 \xf0\x9f\x98\x80"));
        QVERIFY(!isValidUtf8("\xc0\xaf"));         // overlong '/'
        QVERIFY(!isValidUtf8("\xed\xa0\x80"));     // a surrogate
        QVERIFY(!isValidUtf8("\xf4\x90\x80\x80")); // above U+10FFFF
        QVERIFY(!isValidUtf8("\xe2\x80"));         // cut short
    }

    void hugeFileRefusedBySize() {
        const QString path =
            lf::test::writeTempFile("huge.net.yaml", "format: layerfuse/network@1\n");
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.resize(qint64(300) << 20));
        }
        QElapsedTimer timer;
        timer.start();
        auto n = loadNetworkYamlFile(path.toStdString());
        auto h = loadHardwareYamlFile(path.toStdString());
        QVERIFY(timer.elapsed() < 1000);
        QVERIFY(!n.ok() && !h.ok());
        QCOMPARE(n.error().message, std::string("file is larger than 256 MB"));
        QCOMPARE(h.error().message, std::string("file is larger than 256 MB"));
        QCOMPARE(n.error().file, path.toStdString());
        QFile::remove(path);
    }

    void notAFile() {
        auto missing = loadNetworkYamlFile("/nonexistent/dir/x.net.yaml");
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().toString(),
                 std::string(
                     "/nonexistent/dir/x.net.yaml: cannot open file: No such file or directory"));
        const std::string dir = QDir::tempPath().toStdString();
        auto d = loadHardwareYamlFile(dir);
        QVERIFY(!d.ok());
        QCOMPARE(d.error().toString(), dir + ": not a regular file");
        // A device would never end: refused before reading.
        auto z = loadNetworkYamlFile("/dev/zero");
        QVERIFY(!z.ok());
        QCOMPARE(z.error().toString(), std::string("/dev/zero: not a regular file"));
    }

    // The layer limit is checked before any work.
    void tooManyLayersRefused() {
        NetworkSpec spec;
        spec.file = "many";
        spec.pos = SourcePos{1, 1};
        spec.inputs.push_back(InputSpec{"x", Shape{1, 1, 1}, {}, {}});
        spec.layers.resize(size_t(NetworkLimits::kMaxLayers));
        auto r = buildNetwork(spec);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().toString(),
                 "many:1:1: network has " + std::to_string(NetworkLimits::kMaxLayers + 1) +
                     " layers; at most " + std::to_string(NetworkLimits::kMaxLayers) +
                     " are supported");
    }

    // A chain of 10^6 1x1 convolutions loads whole. The time is reported, not asserted: it
    // varies from 11 to 29 s of CPU with what else the machine runs (yaml-cpp's scanner is
    // most of it), so a bound tight enough to matter fails at random; the test's CTest
    // TIMEOUT is what catches a hang.
    void millionLayers() {
        const int n = 1000000;
        const std::string t = chainOfConvs(n);
        QElapsedTimer wall;
        wall.start();
        const double cpu0 = threadCpuSeconds();
        auto spec = parseNetworkSpec(t, "million.net.yaml");
        const double cpu1 = threadCpuSeconds();
        QVERIFY_OK(spec);
        auto net = buildNetwork(*spec);
        const double cpu2 = threadCpuSeconds();
        QVERIFY_OK(net);
        qInfo("10^6 layers (%zu MB): CPU parse %.1f s + build %.1f s = %.1f s (wall %.1f s)",
              t.size() >> 20, cpu1 - cpu0, cpu2 - cpu1, cpu2 - cpu0, double(wall.elapsed()) / 1000);
        QCOMPARE(net->size(), n + 1);
        QCOMPARE(net->find("c999999"), LayerId(n));
        QCOMPARE(net->layer(n).inputs, std::vector<LayerId>{n - 1});
    }
};

QTEST_GUILESS_MAIN(TestBadInput)
#include "tst_bad_input.moc"
