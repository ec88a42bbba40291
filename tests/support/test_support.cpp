#include "test_support.h"

#include "examples/bundled.h"
#include "io/network_yaml.h"

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

QString testData(const QString& rel) { return QStringLiteral(LAYERFUSE_TEST_DATA_DIR "/") + rel; }

QString cliPath() { return QStringLiteral(LAYERFUSE_CLI_PATH); }

}  // namespace lf::test
