#include "test_support.h"

#include "examples/bundled.h"
#include "io/network_yaml.h"
#include "models/evaluate.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QUuid>

#include <algorithm>
#include <clocale>
#include <stdexcept>

namespace lf::test {

Network bundledNetwork(const char* name) {
    auto r = loadBundledNetwork(name);
    if (!r) throw std::runtime_error(r.error().toString());
    return *r;
}

Hardware bundledHardware(const char* name) {
    auto r = loadBundledHardware(name);
    if (!r) throw std::runtime_error(r.error().toString());
    return *r;
}

Network networkFromYaml(const std::string& yaml) {
    auto r = readNetworkYaml(yaml, "test.net.yaml");
    if (!r) throw std::runtime_error(r.error().toString());
    return *r;
}

QString testData(const QString& rel) {
    return QStringLiteral(LAYERFUSE_TEST_DATA_DIR "/") + rel;
}

QString cliPath() {
    return QStringLiteral(LAYERFUSE_CLI_PATH);
}

Schedule fused(Schedule s, const Network& net, std::vector<LayerId> layers, Strategy strategy,
               const std::string& name) {
    std::sort(layers.begin(), layers.end());
    for (FusionGroup& g : s.groups)
        g.layers.erase(std::remove_if(g.layers.begin(), g.layers.end(),
                                      [&](LayerId id) {
                                          return std::binary_search(layers.begin(), layers.end(),
                                                                    id);
                                      }),
                       g.layers.end());
    FusionGroup g;
    g.name = name;
    g.layers = std::move(layers);
    g.strategy = strategy;
    s.groups.push_back(std::move(g));
    normalize(s, net);
    return s;
}

Schedule l2netRecomputeSegment(const Network& net, const Hardware& hw) {
    Schedule s = defaultSchedule(net, hw);
    const LayerId c1 = net.find("conv1"), c2 = net.find("conv2");
    for (LayerId id : {c1, c2}) {
        s.layers[size_t(id)].order = {Dim::z, Dim::y, Dim::x, Dim::i};
        s.layers[size_t(id)].store = {Level::tile, Level::tile, Level::tile};
        s.layers[size_t(id)].compute = s.layers[size_t(id)].store;
    }
    s.layers[size_t(c2)].tile = {4, 4, 4, 4};
    s.layers[size_t(c1)].tile = {4, 18, 18, 3};
    return fused(std::move(s), net, {c1, c2});
}

QString switchToLocale(int category, const char* name, const char* source, const char* charmap) {
    const QString root = QStringLiteral(LAYERFUSE_BINARY_DIR "/tests/locales");
    // glibc remembers a failed lookup per search path: once LOCPATH points at `root`, only try
    // after the locale is there.
    if (qgetenv("LOCPATH") != root.toLocal8Bit() && std::setlocale(category, name)) return {};
    const QString target = root + QLatin1Char('/') + QString::fromLatin1(name);
    if (!QFileInfo::exists(target + QStringLiteral("/LC_CTYPE"))) {
        // Built under a unique name and renamed into place: tests run in parallel.
        const QString tmp =
            root + QStringLiteral("/.tmp-") + QUuid::createUuid().toString(QUuid::Id128);
        if (!QDir().mkpath(tmp)) return QStringLiteral("cannot create %1").arg(tmp);
        QProcess localedef;
        localedef.setProcessChannelMode(QProcess::MergedChannels);
        localedef.start(QStringLiteral("localedef"),
                        {QStringLiteral("-i"), QString::fromLatin1(source), QStringLiteral("-f"),
                         QString::fromLatin1(charmap), tmp});
        const bool finished = localedef.waitForFinished(120000);
        const QString output = QString::fromLocal8Bit(localedef.readAll()).trimmed();
        // localedef exits 1 on warnings yet writes a usable locale; the files decide.
        if (!finished || !QFileInfo::exists(tmp + QStringLiteral("/LC_CTYPE"))) {
            QDir(tmp).removeRecursively();
            return QStringLiteral(
                       "localedef -i %1 -f %2 failed (is the `locales` package installed?): %3")
                .arg(QString::fromLatin1(source), QString::fromLatin1(charmap), output);
        }
        if (!QDir().rename(tmp, target)) QDir(tmp).removeRecursively(); // another test was first
    }
    qputenv("LOCPATH", root.toLocal8Bit());
    if (std::setlocale(category, name)) return {};
    return QStringLiteral("setlocale(%1) failed even with LOCPATH=%2")
        .arg(QString::fromLatin1(name), root);
}

} // namespace lf::test
