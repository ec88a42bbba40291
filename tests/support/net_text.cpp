#include "net_text.h"

#include "io/network_yaml.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

namespace lf::test {

std::string netYaml(std::initializer_list<std::string_view> inputs,
                    std::initializer_list<std::string_view> layers, std::string_view name) {
    std::string t = "format: layerfuse/network@1\nname: ";
    t += name;
    t += "\ninputs:\n";
    for (auto i : inputs) {
        t += "  - ";
        t += i;
        t += '\n';
    }
    t += "layers:\n";
    for (auto l : layers) {
        t += "  - ";
        t += l;
        t += '\n';
    }
    return t;
}

Result<Network> tryNetwork(const std::string& yaml) {
    return readNetworkYaml(yaml, "t.net.yaml");
}

std::string shapeText(const Shape& s) {
    return std::to_string(s.c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w);
}

std::string firstDifference(const std::string& actual, const std::string& expected) {
    if (actual == expected) return {};
    size_t a = 0, e = 0;
    for (int line = 1;; ++line) {
        const size_t an = actual.find('\n', a), en = expected.find('\n', e);
        const std::string al = a <= actual.size() ? actual.substr(a, an - a) : "<end>";
        const std::string el = e <= expected.size() ? expected.substr(e, en - e) : "<end>";
        if (al != el || an == std::string::npos || en == std::string::npos)
            return "line " + std::to_string(line) + ": actual '" + al + "' vs expected '" + el +
                   "'";
        a = an + 1;
        e = en + 1;
    }
}

std::string readBytes(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray b = f.readAll();
    return std::string(b.constData(), size_t(b.size()));
}

bool writeBytes(const QString& path, const std::string& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           f.write(bytes.data(), qint64(bytes.size())) == qint64(bytes.size());
}

QString writeTempFile(const QString& name, const std::string& bytes) {
    // One directory per test process, removed when the process ends.
    static QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/layerfuse-tests-XXXXXX"));
    const QString path = dir.path() + QLatin1Char('/') + name;
    QFile f(path);
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        f.write(bytes.data(), qint64(bytes.size()));
    return path;
}

} // namespace lf::test
