// layerfuse-cli as a user runs it: --version, --help, examples, convert, evaluate in every
// format, and the exit-code contract (0 ok, 1 bad input with FILE:LINE:COLUMN on stderr,
// 2 usage error).
#include "cli_run.h"
#include "net_text.h"
#include "test_support.h"

#include "examples/bundled.h"
#include "io/network_yaml.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <map>
#include <set>

using namespace lf;
using nlohmann::json;

namespace {

using Run = lf::test::CliRun;

Run cli(const QStringList& args) {
    return lf::test::runCli(args, 60000);
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    size_t b = 0;
    while (b < text.size()) {
        size_t e = text.find('\n', b);
        if (e == std::string::npos) e = text.size();
        out.push_back(text.substr(b, e - b));
        b = e + 1;
    }
    return out;
}

// Every key of the documented example must be in `got`, with the same kind of value;
// arrays: every element of `got` matches the documented element.
void matchDocumented(const json& doc, const json& got, const std::string& path,
                     std::vector<std::string>& problems) {
    if (doc.is_object()) {
        if (!got.is_object()) {
            problems.push_back(path + " is not an object");
            return;
        }
        for (auto it = doc.begin(); it != doc.end(); ++it) {
            if (!got.contains(it.key())) {
                problems.push_back(path + "." + it.key() + " is missing");
                continue;
            }
            matchDocumented(it.value(), got.at(it.key()), path + "." + it.key(), problems);
        }
    } else if (doc.is_array()) {
        if (!got.is_array()) {
            problems.push_back(path + " is not an array");
            return;
        }
        if (doc.empty()) return;
        for (size_t i = 0; i < got.size(); ++i)
            matchDocumented(doc[0], got[i], path + "[" + std::to_string(i) + "]", problems);
    } else if (doc.is_number_integer()) {
        if (!got.is_number_integer()) problems.push_back(path + " is not an integer");
    } else if (doc.is_number()) {
        if (!got.is_number()) problems.push_back(path + " is not a number");
    } else if (doc.is_boolean()) {
        if (!got.is_boolean()) problems.push_back(path + " is not true/false");
    } else if (doc.is_string()) {
        if (!got.is_string()) problems.push_back(path + " is not a string");
    }
}

} // namespace

class TestCliBasic : public QObject {
    Q_OBJECT

  private slots:
    void version() {
        const Run r = cli({"--version"});
        QVERIFY_RUN(r, 0);
        QCOMPARE(QString::fromStdString(r.out), QString("layerfuse-cli " LAYERFUSE_VERSION "\n"));
    }

    void help() {
        const Run r = cli({"--help"});
        QVERIFY_RUN(r, 0);
        QVERIFY2(r.out.find("Usage: layerfuse-cli") != std::string::npos, r.out.c_str());
        for (const char* sub : {"examples", "convert", "evaluate"})
            QVERIFY2(r.out.find(std::string("\n  ") + sub + " ") != std::string::npos, sub);
        const Run sub = cli({"evaluate", "--help"});
        QVERIFY_RUN(sub, 0);
        for (const char* opt : {"NETWORK", "--hardware", "--format"})
            QVERIFY2(sub.out.find(opt) != std::string::npos, opt);
    }

    // Every bundled network and preset is listed, in its section, once.
    void examplesListsEverything() {
        const Run r = cli({"examples"});
        QVERIFY_RUN(r, 0);
        std::map<std::string, std::string> sectionOf; // listed name -> its section header
        std::string section;
        size_t listed = 0;
        for (const std::string& l : lines(r.out)) {
            if (l.empty()) continue;
            if (l[0] != ' ') {
                section = l;
                continue;
            }
            const size_t b = l.find_first_not_of(' ');
            const std::string name = l.substr(b, l.find(' ', b) - b);
            QVERIFY2(!sectionOf.count(name), ("listed twice: " + name).c_str());
            sectionOf[name] = section;
            ++listed;
        }
        size_t networks = 0, presets = 0;
        for (const BundledFile& f : bundledFiles()) {
            if (f.kind != BundledKind::network && f.kind != BundledKind::hardware) continue;
            const bool net = f.kind == BundledKind::network;
            (net ? networks : presets)++;
            QVERIFY2(sectionOf.count(f.name), (std::string("not listed: ") + f.name).c_str());
            const std::string& s = sectionOf[f.name];
            QVERIFY2(s.rfind(net ? "Networks" : "Hardware", 0) == 0,
                     (f.name + (": in " + s)).c_str());
            // Listed with its description, not a load error.
            QVERIFY2(r.out.find(std::string("bundled:") + f.path) == std::string::npos, f.path);
        }
        QVERIFY(networks > 0 && presets > 0);
        QCOMPARE(listed, networks + presets); // nothing listed that is not bundled
        // The defaults are marked.
        for (auto [kind, name] : {std::pair{BundledKind::network, kDefaultNetwork},
                                  std::pair{BundledKind::hardware, kDefaultHardware}}) {
            if (!findBundled(kind, name)) continue;
            bool marked = false;
            for (const std::string& l : lines(r.out))
                marked = marked || (l.find("  " + std::string(name) + " ") == 0 &&
                                    l.find("[default]") != std::string::npos);
            QVERIFY2(marked, std::string(name).c_str());
        }
    }

    // convert of a bundled name and of a file give the same canonical text, which is what
    // the library writes and is a fixed point of convert.
    void convertRoundTrips() {
        const Run byName = cli({"convert", "l2net", "-"});
        QVERIFY_RUN(byName, 0);
        auto n = loadBundledNetwork("l2net");
        QVERIFY_OK(n);
        QCOMPARE_TEXT(byName.out, writeNetworkYaml(*n));

        const QString in = lf::test::writeTempFile(
            "in.net.yaml", lf::test::readBytes(lf::test::testData("yaml/loose.net.yaml")));
        const QString out = lf::test::writeTempFile("out.net.yaml", "");
        QFile::remove(out);
        const Run toFile = cli({"convert", in, out});
        QVERIFY_RUN(toFile, 0);
        QCOMPARE(toFile.out, std::string());
        const std::string written = lf::test::readBytes(out);
        QCOMPARE_TEXT(written,
                      lf::test::readBytes(lf::test::testData("yaml/loose.expected.net.yaml")));
        const Run again = cli({"convert", out, "-"});
        QVERIFY_RUN(again, 0);
        QCOMPARE_TEXT(again.out, written);

        const QString l2 = lf::test::writeTempFile("l2.net.yaml", byName.out);
        const Run fromFile = cli({"convert", l2, "-"});
        QVERIFY_RUN(fromFile, 0);
        QCOMPARE_TEXT(fromFile.out, byName.out);
    }

    void evaluateJsonHasEveryDocumentedField() {
        const Run r = cli({"evaluate", "l2net", "--format", "json"});
        QVERIFY_RUN(r, 0);
        json got;
        try {
            got = json::parse(r.out);
        } catch (const std::exception& e) {
            QFAIL((std::string("not JSON: ") + e.what()).c_str());
        }
        const json doc =
            json::parse(lf::test::readBytes(lf::test::testData("cli/evaluate.documented.json")));
        std::vector<std::string> problems;
        matchDocumented(doc, got, "", problems);
        std::string all;
        for (const auto& p : problems)
            all += p + "\n";
        QVERIFY2(problems.empty(), all.c_str());

        QCOMPARE(got["network"].get<std::string>(), std::string("L2Net"));
        QCOMPARE(got["hardware"].get<std::string>(), std::string(kDefaultHardware));
        // Σ layer MACs = totals; L2Net by hand: 18*18*4*3*9 + 16*16*4*4*9 = 34992 + 36864.
        QVERIFY(!got["layers"].empty());
        QVERIFY(!got["groups"].empty());
        int64_t sum = 0;
        for (const json& l : got["layers"])
            sum += l["macs"].get<int64_t>();
        QCOMPARE(got["totals"]["macs"].get<int64_t>(), sum);
        QCOMPARE(sum, int64_t(71856));
        const json& conv2 = got["layers"][1];
        QCOMPARE(conv2["name"].get<std::string>(), std::string("conv2"));
        QCOMPARE(conv2["type"].get<std::string>(), std::string("conv"));
        const json& d = conv2["dims"];
        QCOMPARE(d["out_width"].get<int64_t>(), 16);
        QCOMPARE(d["out_height"].get<int64_t>(), 16);
        QCOMPARE(d["out_channels"].get<int64_t>(), 4);
        QCOMPARE(d["in_channels"].get<int64_t>(), 4);
        QCOMPARE(d["kernel_width"].get<int64_t>(), 3);
        QCOMPARE(d["kernel_height"].get<int64_t>(), 3);
        QCOMPARE(d["stride_x"].get<int64_t>(), 1);
        QCOMPARE(d["groups"].get<int64_t>(), 1);
        QCOMPARE(conv2["macs"].get<int64_t>(), int64_t(36864));
        // Every layer sits in exactly one group.
        std::multiset<std::string> grouped;
        for (const json& g : got["groups"])
            for (const json& n : g["layers"])
                grouped.insert(n.get<std::string>());
        for (const json& l : got["layers"])
            QCOMPARE(grouped.count(l["name"].get<std::string>()), size_t(1));
    }

    // Every bundled network evaluates to JSON with every documented field and Σ MACs =
    // totals; every bundled preset works as --hardware.
    void evaluateEveryBundledFile_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("network");
        for (const BundledFile& f : bundledFiles()) {
            if (f.kind == BundledKind::network)
                QTest::newRow(f.name) << QStringList{"evaluate", f.name, "--format", "json"} << "";
            if (f.kind == BundledKind::hardware)
                QTest::newRow((std::string("--hardware ") + f.name).c_str())
                    << QStringList{"evaluate", "l2net", "--hardware", f.name, "--format", "json"}
                    << f.name;
        }
    }
    void evaluateEveryBundledFile() {
        QFETCH(QStringList, args);
        QFETCH(QString, network);
        const Run r = cli(args);
        QVERIFY_RUN(r, 0);
        json got;
        try {
            got = json::parse(r.out);
        } catch (const std::exception& e) {
            QFAIL((std::string("not JSON: ") + e.what()).c_str());
        }
        const json doc =
            json::parse(lf::test::readBytes(lf::test::testData("cli/evaluate.documented.json")));
        std::vector<std::string> problems;
        matchDocumented(doc, got, "", problems);
        QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
        int64_t sum = 0;
        for (const json& l : got["layers"])
            sum += l["macs"].get<int64_t>();
        QCOMPARE(got["totals"]["macs"].get<int64_t>(), sum);
        QVERIFY(sum > 0);
        if (!network.isEmpty()) {
            auto hw = loadBundledHardware(network.toStdString());
            QVERIFY_OK(hw);
            QCOMPARE(got["hardware"].get<std::string>(), hw->name);
        }
    }

    void evaluateCsvHasOneRowPerLayer() {
        const Run j = cli({"evaluate", "l2net", "--format", "json"});
        QVERIFY_RUN(j, 0);
        const json got = json::parse(j.out);
        const Run r = cli({"evaluate", "l2net", "--format", "csv"});
        QVERIFY_RUN(r, 0);
        const auto rows = lines(r.out);
        QVERIFY(!rows.empty());
        const std::string& header = rows[0];
        QVERIFY2(header.rfind("kind,name,", 0) == 0, header.c_str());
        const size_t columns = size_t(std::count(header.begin(), header.end(), ',')) + 1;
        std::vector<std::string> layerNames;
        for (size_t i = 1; i < rows.size(); ++i) {
            QCOMPARE(size_t(std::count(rows[i].begin(), rows[i].end(), ',')) + 1, columns);
            if (rows[i].rfind("layer,", 0) == 0)
                layerNames.push_back(rows[i].substr(6, rows[i].find(',', 6) - 6));
        }
        std::vector<std::string> want;
        for (const json& l : got["layers"])
            want.push_back(l["name"].get<std::string>());
        QCOMPARE(layerNames, want);
    }

    void evaluateTable() {
        const Run r = cli({"evaluate", "l2net"});
        QVERIFY_RUN(r, 0);
        QVERIFY2(r.out.find("L2Net") != std::string::npos, r.out.c_str());
    }

    // Bad input: exit 1, "FILE:LINE:COLUMN: message" on stderr, nothing on stdout.
    void badFileExitsOne_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("content");
        QTest::addColumn<QString>("expected"); // after "FILE:"
        const QString bad =
            lf::test::netYaml({"{name: x, channels: 3, height: 8, width: 8}"},
                              {"{name: c, type: conv, inputs: [x], out_channels: 4, kernel: 010}"})
                .c_str();
        QTest::newRow("evaluate") << QStringList{"evaluate", "@"} << "bad.net.yaml" << bad
                                  << "6:65: kernel '010' has a leading zero (write it in decimal)";
        QTest::newRow("convert") << QStringList{"convert", "@", "-"} << "bad.net.yaml" << bad
                                 << "6:65: kernel '010' has a leading zero (write it in decimal)";
        QTest::newRow("bad hardware")
            << QStringList{"evaluate", "l2net", "--hardware", "@"} << "bad.hw.yaml"
            << "format: layerfuse/hardware@1\nname: h\nfrequency_mhz: 312,5\n"
            << "3:16: frequency_mhz must be a number, got '312,5'";
        QTest::newRow("binary") << QStringList{"evaluate", "@"} << "bin.net.yaml"
                                << QString::fromLatin1("format: x\n\x01\x02", 12) + QChar(0) + "zz"
                                << "2:3: not a text file (binary data)";
        QTest::newRow("cycle")
            << QStringList{"evaluate", "@"} << "cyc.net.yaml"
            << QString::fromStdString(lf::test::netYaml(
                   {"{name: x, channels: 3, height: 8, width: 8}"},
                   {"{name: a, type: conv, inputs: [b], out_channels: 3, kernel: 1}",
                    "{name: b, type: conv, inputs: [a], out_channels: 3, kernel: 1}"}))
            << "6:5: the network has a cycle: a -> b -> a";
    }
    void badFileExitsOne() {
        QFETCH(QStringList, args);
        QFETCH(QString, file);
        QFETCH(QString, content);
        QFETCH(QString, expected);
        const QString path = lf::test::writeTempFile(file, content.toStdString());
        args.replaceInStrings("@", path);
        const Run r = cli(args);
        QVERIFY_RUN(r, 1);
        QCOMPARE(QString::fromStdString(r.err), path + ":" + expected + "\n");
        QCOMPARE(r.out, std::string());
    }

    void unknownNetworkExitsOne() {
        const Run r = cli({"evaluate", "no-such-network"});
        QVERIFY_RUN(r, 1);
        QVERIFY2(r.err.rfind("no-such-network: ", 0) == 0, r.err.c_str());
        const Run w = cli({"convert", "l2net", "/nonexistent-dir/x.net.yaml"});
        QVERIFY_RUN(w, 1);
        QVERIFY2(w.err.rfind("/nonexistent-dir/x.net.yaml: ", 0) == 0, w.err.c_str());
    }

    void usageErrorsExitTwo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mentions"); // stderr names what is wrong
        QTest::newRow("no arguments") << QStringList{} << "subcommand";
        QTest::newRow("missing NETWORK") << QStringList{"evaluate"} << "NETWORK";
        QTest::newRow("missing OUT") << QStringList{"convert", "l2net"} << "OUT";
        QTest::newRow("unknown option") << QStringList{"evaluate", "l2net", "--bogus"} << "--bogus";
        QTest::newRow("unknown top option") << QStringList{"--bogus"} << "--bogus";
        QTest::newRow("unknown subcommand") << QStringList{"frobnicate"} << "frobnicate";
        QTest::newRow("bad format") << QStringList{"evaluate", "l2net", "--format", "xml"} << "xml";
        QTest::newRow("option without value")
            << QStringList{"evaluate", "l2net", "--format"} << "--format";
        QTest::newRow("extra argument") << QStringList{"examples", "extra"} << "extra";
    }
    void usageErrorsExitTwo() {
        QFETCH(QStringList, args);
        QFETCH(QString, mentions);
        const Run r = cli(args);
        QVERIFY_RUN(r, 2);
        QVERIFY2(r.err.find(mentions.toStdString()) != std::string::npos, r.describe().c_str());
        QCOMPARE(r.out, std::string());
    }
};

QTEST_GUILESS_MAIN(TestCliBasic)
#include "tst_cli_basic.moc"
