#include "test_support.h"

#include "examples/bundled.h"
#include "io/network_yaml.h"
#include "models/evaluate.h"

#include <algorithm>

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

Schedule fused(Schedule s, const Network& net, std::vector<LayerId> layers, Strategy strategy, const std::string& name) {
    std::sort(layers.begin(), layers.end());
    for (FusionGroup& g : s.groups)
        g.layers.erase(std::remove_if(g.layers.begin(), g.layers.end(),
                                      [&](LayerId id) { return std::binary_search(layers.begin(), layers.end(), id); }),
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

}  // namespace lf::test
