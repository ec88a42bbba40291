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

const std::vector<const char*>& documentedNetworks() {
    static const std::vector<const char*> names{"l2net",
                                                "l3net",
                                                "l2net-4k",
                                                "l3net-4k",
                                                "l2net-wide",
                                                "l3net-wide",
                                                "vgg16",
                                                "resnet18",
                                                "resnet50",
                                                "resnet152",
                                                "mobilenetv2",
                                                "squeezenet1.0",
                                                "squeezenet1.1",
                                                "googlenet",
                                                "alexnet",
                                                "dmcnn-vd",
                                                "stoutchinin-alexnet",
                                                "stoutchinin-zfnet",
                                                "stoutchinin-vgg",
                                                "stoutchinin-inception-v3",
                                                "stoutchinin-resnet"};
    return names;
}

Network residualChain(int blocks) {
    std::string y = "format: layerfuse/network@1\nname: Deep\ninputs:\n  - {name: x, channels: 16, "
                    "height: 32, width: 32}\nlayers:\n";
    std::string prev = "x";
    for (int b = 0; b < blocks; ++b) {
        const std::string p = "b" + std::to_string(b);
        y += "  - {name: " + p + "c1, type: conv, inputs: [" + prev +
             "], out_channels: 16, kernel: 3, padding: [1, 1]}\n";
        y += "  - {name: " + p + "c2, type: conv, inputs: [" + p +
             "c1], out_channels: 16, kernel: 3, padding: [1, 1]}\n";
        y += "  - {name: " + p + "add, type: add, inputs: [" + prev + ", " + p + "c2]}\n";
        prev = p + "add";
    }
    return networkFromYaml(y);
}

LayerDims convDims(int64_t Dx, int64_t Dy, int64_t Dz, int64_t Di, int64_t Dm, int64_t Dn,
                   int64_t Sx, int64_t Sy, int64_t G) {
    LayerDims d;
    d.Dx = Dx;
    d.Dy = Dy;
    d.Dz = Dz;
    d.Di = Di;
    d.Dm = d.Em = Dm;
    d.Dn = d.En = Dn;
    d.Sx = Sx;
    d.Sy = Sy;
    d.G = G;
    d.in_w = (Dx - 1) * Sx + Dm;
    d.in_h = (Dy - 1) * Sy + Dn;
    return d;
}

LayerDims squareConvDims(int64_t Dx, int64_t Dy, int64_t Dz, int64_t Di, int64_t K, int64_t S,
                         int64_t G) {
    return convDims(Dx, Dy, Dz, Di, K, K, S, S, G);
}

LayerSchedule layerSchedule(const std::array<Dim, 4>& order, const std::array<int64_t, 4>& tile,
                            std::array<Level, 3> store, std::array<Level, 3> compute) {
    LayerSchedule s;
    s.order = order;
    s.tile = tile;
    s.store = store;
    s.compute = compute;
    return s;
}

int64_t randomDivisor(std::mt19937_64& rng, int64_t n) {
    std::vector<int64_t> divs;
    for (int64_t k = 1; k <= n; ++k)
        if (n % k == 0) divs.push_back(k);
    return divs[std::uniform_int_distribution<size_t>(0, divs.size() - 1)(rng)];
}

int64_t uniformInt(std::mt19937_64& rng, int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

Schedule l3netOneGroup(const Network& net, const Hardware& hw) {
    Schedule s = defaultSchedule(net, hw);
    const auto ids = net.computeIds();
    for (LayerId id : ids)
        s.layers[size_t(id)].tile = {4, 4, 4, layerDims(net, id).Di};
    FusionGroup g;
    g.name = "all";
    g.layers = {ids[0], ids[1], ids[2]};
    s.groups = {g};
    normalize(s, net);
    return s;
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

// A random DAG: convolutions with kernels 1, 3 or 5 and strides 1 or 2, pools, adds and
// concats of tensors of the same size, on a non-square input. `shrinking`: one whose tiles may
// shrink upstream — a layer can read fewer rows of its input than min(T_h, O_h) or fewer columns
// than its width, so that a layer consumed in a group holds less than it holds as the group's
// output: nearest resizes ×2 and stride-2 deconvolutions (half the rows), and 3 × 3 stride-2
// convolutions without padding on even maps (the last column unread), besides convolutions,
// pools and adds.
std::string randomStridedDag(std::mt19937& rng, int n, bool shrinking) {
    struct T {
        std::string name;
        int c, h, w;
    };
    const int H = shrinking ? 8 : 13, W = shrinking ? 10 : 9;
    std::vector<T> ts{{"x", 4, H, W}};
    std::string y = "format: layerfuse/network@1\nname: dag\ninputs:\n  - {name: x, channels: 4, "
                    "height: " +
                    std::to_string(H) + ", width: " + std::to_string(W) + "}\nlayers:\n";
    for (int k = 0; k < n; ++k) {
        std::string name = "n";
        name += std::to_string(k);
        const T a = ts[size_t(rng() % ts.size())];
        const int kind = int(rng() % (shrinking ? 12 : 10));
        std::vector<size_t> same;
        for (size_t i = 0; i < ts.size(); ++i)
            if (ts[i].name != a.name && ts[i].h == a.h && ts[i].w == a.w &&
                (!shrinking || ts[i].c == a.c))
                same.push_back(i);
        if (shrinking) {
            if (kind < 2 && !same.empty()) {
                y += "  - {name: " + name + ", type: add, inputs: [" + a.name + ", " +
                     ts[same[rng() % same.size()]].name + "]}\n";
                ts.push_back({name, a.c, a.h, a.w});
            } else if (kind < 4 && a.h <= 16 && a.w <= 16) {
                y += "  - {name: " + name + ", type: resize, inputs: [" + a.name +
                     "], scale: [2, 2], mode: nearest}\n";
                ts.push_back({name, a.c, 2 * a.h, 2 * a.w});
            } else if (kind == 4 && a.h <= 16 && a.w <= 16) {
                y += "  - {name: " + name + ", type: deconv, inputs: [" + a.name +
                     "], out_channels: 8, kernel: 2, stride: 2}\n";
                ts.push_back({name, 8, 2 * a.h, 2 * a.w});
            } else if (kind < 7 && a.h >= 6 && a.w >= 6) {
                y += "  - {name: " + name + ", type: conv, inputs: [" + a.name +
                     "], out_channels: 8, kernel: 3, stride: 2}\n";
                ts.push_back({name, 8, (a.h - 3) / 2 + 1, (a.w - 3) / 2 + 1});
            } else if (kind == 7) {
                y += "  - {name: " + name + ", type: pool, mode: max, inputs: [" + a.name +
                     "], kernel: 3, stride: 1, padding: [1, 1]}\n";
                ts.push_back({name, a.c, a.h, a.w});
            } else {
                const int c = std::array<int, 3>{4, 8, 16}[rng() % 3];
                y += "  - {name: " + name + ", type: conv, inputs: [" + a.name +
                     "], out_channels: " + std::to_string(c) + ", kernel: 3, padding: [1, 1]}\n";
                ts.push_back({name, c, a.h, a.w});
            }
            continue;
        }
        if (kind < 2 && !same.empty()) {
            const T b = ts[same[rng() % same.size()]];
            if (b.c == a.c) {
                y += "  - {name: " + name + ", type: add, inputs: [" + a.name + ", " + b.name +
                     "]}\n";
                ts.push_back({name, a.c, a.h, a.w});
                continue;
            }
            y += "  - {name: " + name + ", type: concat, inputs: [" + a.name + ", " + b.name +
                 "]}\n";
            ts.push_back({name, a.c + b.c, a.h, a.w});
            continue;
        }
        if (kind == 3) {
            y += "  - {name: " + name + ", type: pool, mode: max, inputs: [" + a.name +
                 "], kernel: 3, stride: 1, padding: [1, 1]}\n";
            ts.push_back({name, a.c, a.h, a.w});
            continue;
        }
        const int kernel = std::array<int, 3>{1, 3, 5}[rng() % 3];
        const int stride = a.h >= 4 && a.w >= 4 && rng() % 4 == 0 ? 2 : 1;
        const int pad = kernel / 2;
        const int c = std::array<int, 3>{4, 8, 16}[rng() % 3];
        y += "  - {name: " + name + ", type: conv, inputs: [" + a.name +
             "], out_channels: " + std::to_string(c) + ", kernel: " + std::to_string(kernel) +
             ", stride: " + std::to_string(stride) + ", padding: [" + std::to_string(pad) + ", " +
             std::to_string(pad) + "]}\n";
        ts.push_back({name, c, (a.h + 2 * pad - kernel) / stride + 1,
                      (a.w + 2 * pad - kernel) / stride + 1});
    }
    return y;
}

} // namespace lf::test
