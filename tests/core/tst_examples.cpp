// The bundled example networks load, are canonical, and have the shapes and MAC counts of
// their reference architectures. Expected values are typed in from the papers' tables or
// from published figures, or hand-computed from the layer widths (formula in the comment);
// none is read back from this program.

#include "examples/bundled.h"
#include "io/network_yaml.h"
#include "network/dims.h"
#include "test_support.h"

#include <QtTest>

#include <cmath>
#include <iterator>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

using namespace lf;

namespace {

// Output shape of a named layer; throws when the layer is missing (QtTest reports it).
Shape outShape(const Network& net, const char* layer) {
    const LayerId id = net.find(layer);
    if (id == kNoLayer) throw std::runtime_error(net.name() + ": no layer " + layer);
    return net.layer(id).out;
}

LayerDims dimsOf(const Network& net, const std::string& layer) {
    const LayerId id = net.find(layer);
    if (id == kNoLayer) throw std::runtime_error(net.name() + ": no layer " + layer);
    return layerDims(net, id);
}

int64_t totalMacs(const Network& net) {
    int64_t sum = 0;
    for (LayerId id : net.computeIds())
        sum += layerMacs(layerDims(net, id));
    return sum;
}

int64_t macsWithPrefix(const Network& net, const std::string& prefix) {
    int64_t sum = 0;
    for (LayerId id : net.computeIds())
        if (net.layer(id).name.rfind(prefix, 0) == 0) sum += layerMacs(layerDims(net, id));
    return sum;
}

int countType(const Network& net, LayerType t) {
    int n = 0;
    for (const Layer& l : net.layers())
        n += l.type == t ? 1 : 0;
    return n;
}

// Hand formula for a convolution's MACs: outputs x (input channels per group) x kernel taps.
constexpr int64_t convMacs(int64_t hw, int64_t cin, int64_t cout, int64_t k, int64_t groups = 1) {
    return hw * hw * cout * (cin / groups) * k * k;
}

// One GoogLeNet inception module, from the columns of Szegedy et al. Table 1.
constexpr int64_t inceptionMacs(int64_t hw, int64_t in, int64_t c1, int64_t r3, int64_t c3,
                                int64_t r5, int64_t c5, int64_t proj) {
    return hw * hw * (in * c1 + in * r3 + r3 * c3 * 9 + in * r5 + r5 * c5 * 25 + in * proj);
}

} // namespace

class TestExamples : public QObject {
    Q_OBJECT

  private slots:
    void everyShortNameIsBundled();
    void everyNetworkLoadsIsCanonicalAndDescribed();
    void defaultNetworkIsResNet18();
    void convFusionTable6_data();
    void convFusionTable6();
    void resnetShapes();
    void vgg16Shapes();
    void mobileNetV2Shapes();
    void squeezeNetShapes();
    void googLeNetShapes();
    void alexNetShapes();
    void dmcnnVdShapes();
    void stoutchininAppendixB_data();
    void stoutchininAppendixB();
    void stoutchininRowCounts();
    void macTotals_data();
    void macTotals();
    void googLeNetModuleMacs();
};

void TestExamples::everyShortNameIsBundled() {
    std::set<std::string> bundled;
    for (const BundledFile& f : bundledFiles())
        if (f.kind == BundledKind::network) bundled.insert(f.name);
    for (const char* name : test::documentedNetworks())
        QVERIFY2(bundled.count(name) == 1, name);
}

void TestExamples::everyNetworkLoadsIsCanonicalAndDescribed() {
    int networks = 0;
    for (const BundledFile& f : bundledFiles()) {
        if (f.kind != BundledKind::network) continue;
        ++networks;
        auto net = readNetworkYaml(f.text, bundledFileLabel(f));
        QVERIFY2(net.ok(), net ? f.name : net.error().toString().c_str());
        // Canonical: the writer reproduces the file byte for byte.
        const std::string written = writeNetworkYaml(*net);
        QVERIFY2(written == f.text, f.name);
        // A one-line description (shown in File > Examples and `layerfuse-cli examples`).
        QVERIFY2(!net->description().empty(), f.name);
        QVERIFY2(net->description().find('\n') == std::string::npos, f.name);
        QVERIFY2(!net->computeIds().empty(), f.name);
    }
    QVERIFY(networks >= int(test::documentedNetworks().size()));
}

void TestExamples::defaultNetworkIsResNet18() {
    QCOMPARE(std::string(kDefaultNetwork), std::string("resnet18"));
    auto net = loadBundledNetwork(kDefaultNetwork);
    QVERIFY2(net.ok(), net ? "" : net.error().toString().c_str());
    QCOMPARE(net->name(), std::string("ResNet-18"));
}

// ConvFusion (Waeijen et al. 2021) ConvFusion Table 6: D_x, D_y, D_i, D_z, D_n, D_m per layer.
void TestExamples::convFusionTable6_data() {
    QTest::addColumn<QString>("net");
    QTest::addColumn<QString>("layer");
    QTest::addColumn<int>("Dx");
    QTest::addColumn<int>("Dy");
    QTest::addColumn<int>("Di");
    QTest::addColumn<int>("Dz");
    struct Row {
        const char* net;
        const char* layer;
        int dx, dy, di, dz;
    };
    const Row rows[] = {
        {"l2net", "conv1", 18, 18, 3, 4},         {"l2net", "conv2", 16, 16, 4, 4},
        {"l3net", "conv1", 20, 20, 3, 4},         {"l3net", "conv2", 18, 18, 4, 4},
        {"l3net", "conv3", 16, 16, 4, 4},         {"l2net-4k", "conv1", 3838, 2158, 3, 4},
        {"l2net-4k", "conv2", 3836, 2156, 4, 4},  {"l3net-4k", "conv1", 3838, 2158, 3, 4},
        {"l3net-4k", "conv2", 3836, 2156, 4, 4},  {"l3net-4k", "conv3", 3834, 2154, 4, 4},
        {"l2net-wide", "conv1", 18, 18, 3, 1024}, {"l2net-wide", "conv2", 16, 16, 1024, 4},
        {"l3net-wide", "conv1", 20, 20, 3, 1024}, {"l3net-wide", "conv2", 18, 18, 1024, 1024},
        {"l3net-wide", "conv3", 16, 16, 1024, 4},
    };
    for (const Row& r : rows)
        QTest::addRow("%s/%s", r.net, r.layer)
            << QString(r.net) << QString(r.layer) << r.dx << r.dy << r.di << r.dz;
}

void TestExamples::convFusionTable6() {
    QFETCH(QString, net);
    QFETCH(QString, layer);
    QFETCH(int, Dx);
    QFETCH(int, Dy);
    QFETCH(int, Di);
    QFETCH(int, Dz);
    const Network n = test::bundledNetwork(net.toStdString().c_str());
    // ConvFusion Table 6 lists exactly these layers: every compute layer is a row.
    QCOMPARE(int(n.computeIds().size()), net.startsWith("l2") ? 2 : 3);
    const LayerDims d = dimsOf(n, layer.toStdString());
    QCOMPARE(d.Dx, int64_t(Dx));
    QCOMPARE(d.Dy, int64_t(Dy));
    QCOMPARE(d.Di, int64_t(Di));
    QCOMPARE(d.Dz, int64_t(Dz));
    QCOMPARE(d.Dn, int64_t(3));
    QCOMPARE(d.Dm, int64_t(3));
}

// He et al. 2016 Table 1: conv5_x output 7x7 (2048 channels for the bottleneck nets, 512
// for ResNet-18), then global average pooling and a 1000-way fc.
void TestExamples::resnetShapes() {
    const Network r18 = test::bundledNetwork("resnet18");
    QCOMPARE(outShape(r18, "maxpool"), (Shape{64, 56, 56}));
    QCOMPARE(outShape(r18, "layer2.1.add"), (Shape{128, 28, 28}));
    QCOMPARE(outShape(r18, "layer3.1.add"), (Shape{256, 14, 14}));
    QCOMPARE(outShape(r18, "layer4.1.add"), (Shape{512, 7, 7}));
    QCOMPARE(outShape(r18, "avgpool"), (Shape{512, 1, 1}));
    QCOMPARE(outShape(r18, "fc"), (Shape{1000, 1, 1}));
    QCOMPARE(countType(r18, LayerType::add), 8);
    QCOMPARE(countType(r18, LayerType::conv), 20); // 17 on the main path + 3 projections

    const Network r50 = test::bundledNetwork("resnet50");
    QCOMPARE(outShape(r50, "conv1"), (Shape{64, 112, 112}));
    QCOMPARE(outShape(r50, "layer1.2.add"), (Shape{256, 56, 56}));
    QCOMPARE(outShape(r50, "layer2.3.add"), (Shape{512, 28, 28}));
    QCOMPARE(outShape(r50, "layer3.5.add"), (Shape{1024, 14, 14}));
    QCOMPARE(outShape(r50, "layer4.2.add"), (Shape{2048, 7, 7}));
    QCOMPARE(outShape(r50, "avgpool"), (Shape{2048, 1, 1}));
    QCOMPARE(outShape(r50, "fc"), (Shape{1000, 1, 1}));
    // Projection shortcuts: one per stage (1x1, stride 2 from stage 2 on).
    QCOMPARE(outShape(r50, "layer1.0.downsample"), (Shape{256, 56, 56}));
    QCOMPARE(dimsOf(r50, "layer2.0.downsample").Sx, int64_t(2));
    QCOMPARE(dimsOf(r50, "layer2.0.conv2").Sx, int64_t(2)); // v1.5: stride on the 3x3
    QCOMPARE(dimsOf(r50, "layer2.0.conv1").Sx, int64_t(1));
    QCOMPARE(countType(r50, LayerType::add), 16);
    QCOMPARE(countType(r50, LayerType::conv), 53); // 1 + 16 x 3 + 4 projections

    const Network r152 = test::bundledNetwork("resnet152");
    QCOMPARE(outShape(r152, "layer3.35.add"), (Shape{1024, 14, 14}));
    QCOMPARE(outShape(r152, "layer4.2.add"), (Shape{2048, 7, 7}));
    QCOMPARE(outShape(r152, "fc"), (Shape{1000, 1, 1}));
    QCOMPARE(countType(r152, LayerType::add), 50);
    QCOMPARE(countType(r152, LayerType::conv), 155); // 1 + 50 x 3 + 4 projections
}

// Simonyan and Zisserman 2015 Table 1 (configuration D): 512x7x7 after the last pool.
void TestExamples::vgg16Shapes() {
    const Network n = test::bundledNetwork("vgg16");
    QCOMPARE(outShape(n, "conv1_2"), (Shape{64, 224, 224}));
    QCOMPARE(outShape(n, "pool1"), (Shape{64, 112, 112}));
    QCOMPARE(outShape(n, "conv4_3"), (Shape{512, 28, 28}));
    QCOMPARE(outShape(n, "pool5"), (Shape{512, 7, 7}));
    QCOMPARE(outShape(n, "fc6"), (Shape{4096, 1, 1}));
    QCOMPARE(outShape(n, "fc8"), (Shape{1000, 1, 1}));
    QCOMPARE(countType(n, LayerType::conv), 13);
    QCOMPARE(countType(n, LayerType::fc), 3);
}

// Sandler et al. 2018 Table 2: 112 -> 56 -> 28 -> 14 -> 7, 320 then 1280 channels at 7x7.
void TestExamples::mobileNetV2Shapes() {
    const Network n = test::bundledNetwork("mobilenetv2");
    QCOMPARE(outShape(n, "conv_stem"), (Shape{32, 112, 112}));
    QCOMPARE(outShape(n, "block1.project"), (Shape{16, 112, 112}));
    QCOMPARE(outShape(n, "block3.add"), (Shape{24, 56, 56}));
    QCOMPARE(outShape(n, "block6.add"), (Shape{32, 28, 28}));
    QCOMPARE(outShape(n, "block10.add"), (Shape{64, 14, 14}));
    QCOMPARE(outShape(n, "block13.add"), (Shape{96, 14, 14}));
    QCOMPARE(outShape(n, "block16.add"), (Shape{160, 7, 7}));
    QCOMPARE(outShape(n, "block17.project"), (Shape{320, 7, 7}));
    QCOMPARE(outShape(n, "conv_head"), (Shape{1280, 7, 7}));
    QCOMPARE(outShape(n, "avgpool"), (Shape{1280, 1, 1}));
    QCOMPARE(outShape(n, "classifier"), (Shape{1000, 1, 1}));
    // 17 bottlenecks, each with one depthwise 3x3 (groups == channels); 10 residual adds
    // (repeats n-1 summed over Table 2's rows: 0+1+2+3+2+2+0).
    int depthwise = 0;
    for (const Layer& l : n.layers()) {
        if (l.name.find(".depthwise") == std::string::npos) continue;
        ++depthwise;
        const LayerId id = n.find(l.name);
        QCOMPARE(l.groups, n.inputShape(id).c);
        QCOMPARE(l.groups, l.out.c);
        QCOMPARE(l.kernel_h, 3);
    }
    QCOMPARE(depthwise, 17);
    QCOMPARE(countType(n, LayerType::add), 10);
}

// torchvision squeezenet1_0 / squeezenet1_1 dims: ceil-mode 3x3/2 pooling, final conv10
// 1000x13x13 (v1.0's unpadded 7x7/2 conv1 gives 109x109; Iandola et al. Table 1 prints 111).
void TestExamples::squeezeNetShapes() {
    const Network v10 = test::bundledNetwork("squeezenet1.0");
    QCOMPARE(outShape(v10, "conv1"), (Shape{96, 109, 109}));
    QCOMPARE(outShape(v10, "maxpool1"), (Shape{96, 54, 54})); // ceil((109-3)/2)+1
    QCOMPARE(outShape(v10, "fire4.concat"), (Shape{256, 54, 54}));
    QCOMPARE(outShape(v10, "maxpool4"), (Shape{256, 27, 27}));
    QCOMPARE(outShape(v10, "maxpool8"), (Shape{512, 13, 13}));
    QCOMPARE(outShape(v10, "fire9.concat"), (Shape{512, 13, 13}));
    QCOMPARE(outShape(v10, "conv10"), (Shape{1000, 13, 13}));
    QCOMPARE(outShape(v10, "avgpool10"), (Shape{1000, 1, 1}));
    QCOMPARE(countType(v10, LayerType::concat), 8);

    const Network v11 = test::bundledNetwork("squeezenet1.1");
    QCOMPARE(outShape(v11, "conv1"), (Shape{64, 111, 111}));
    QCOMPARE(outShape(v11, "maxpool1"), (Shape{64, 55, 55})); // ceil((111-3)/2)+1
    QCOMPARE(outShape(v11, "maxpool3"), (Shape{128, 27, 27}));
    QCOMPARE(outShape(v11, "maxpool5"), (Shape{256, 13, 13}));
    QCOMPARE(outShape(v11, "conv10"), (Shape{1000, 13, 13}));
    QCOMPARE(countType(v11, LayerType::concat), 8);
}

// Szegedy et al. 2015 Table 1, "output size" column.
void TestExamples::googLeNetShapes() {
    const Network n = test::bundledNetwork("googlenet");
    QCOMPARE(outShape(n, "conv1"), (Shape{64, 112, 112}));
    QCOMPARE(outShape(n, "pool1"), (Shape{64, 56, 56}));
    QCOMPARE(outShape(n, "conv2"), (Shape{192, 56, 56}));
    QCOMPARE(outShape(n, "pool2"), (Shape{192, 28, 28}));
    QCOMPARE(outShape(n, "inception3a.concat"), (Shape{256, 28, 28}));
    QCOMPARE(outShape(n, "inception3b.concat"), (Shape{480, 28, 28}));
    QCOMPARE(outShape(n, "pool3"), (Shape{480, 14, 14}));
    QCOMPARE(outShape(n, "inception4a.concat"), (Shape{512, 14, 14}));
    QCOMPARE(outShape(n, "inception4b.concat"), (Shape{512, 14, 14}));
    QCOMPARE(outShape(n, "inception4c.concat"), (Shape{512, 14, 14}));
    QCOMPARE(outShape(n, "inception4d.concat"), (Shape{528, 14, 14}));
    QCOMPARE(outShape(n, "inception4e.concat"), (Shape{832, 14, 14}));
    QCOMPARE(outShape(n, "pool4"), (Shape{832, 7, 7}));
    QCOMPARE(outShape(n, "inception5a.concat"), (Shape{832, 7, 7}));
    QCOMPARE(outShape(n, "inception5b.concat"), (Shape{1024, 7, 7}));
    QCOMPARE(outShape(n, "avgpool"), (Shape{1024, 1, 1}));
    QCOMPARE(outShape(n, "fc"), (Shape{1000, 1, 1}));
    // Nine inception modules, each a concat of four branches.
    int modules = 0;
    for (const Layer& l : n.layers())
        if (l.type == LayerType::concat) {
            ++modules;
            QCOMPARE(int(l.inputs.size()), 4);
        }
    QCOMPARE(modules, 9);
    QCOMPARE(countType(n, LayerType::conv), 3 + 9 * 6);
}

// torchvision alexnet at 224x224: 55 -> 27 -> 13 -> 6, 256x6x6 into fc6.
void TestExamples::alexNetShapes() {
    const Network n = test::bundledNetwork("alexnet");
    QCOMPARE(outShape(n, "conv1"), (Shape{64, 55, 55}));
    QCOMPARE(outShape(n, "pool1"), (Shape{64, 27, 27}));
    QCOMPARE(outShape(n, "conv2"), (Shape{192, 27, 27}));
    QCOMPARE(outShape(n, "pool2"), (Shape{192, 13, 13}));
    QCOMPARE(outShape(n, "conv5"), (Shape{256, 13, 13}));
    QCOMPARE(outShape(n, "pool5"), (Shape{256, 6, 6}));
    QCOMPARE(outShape(n, "fc8"), (Shape{1000, 1, 1}));
}

// Syu et al. 2018: 20 same-padded 3x3 convolutions, 64 channels, 3-channel residual output.
void TestExamples::dmcnnVdShapes() {
    const Network n = test::bundledNetwork("dmcnn-vd");
    QCOMPARE(countType(n, LayerType::conv), 20);
    for (int i = 1; i <= 19; ++i)
        QCOMPARE(outShape(n, ("conv" + std::to_string(i)).c_str()), (Shape{64, 1080, 1920}));
    QCOMPARE(outShape(n, "conv20"), (Shape{3, 1080, 1920}));
    QCOMPARE(outShape(n, "residual"), (Shape{3, 1080, 1920}));
}

// Stoutchinin, Conti, Benini, Stoutchinin Appendix B: H x H -> E x E, C -> M, kernel, stride per
// row.
void TestExamples::stoutchininAppendixB_data() {
    QTest::addColumn<QString>("net");
    QTest::addColumn<QString>("layer");
    QTest::addColumn<int>("H");
    QTest::addColumn<int>("E");
    QTest::addColumn<int>("C");
    QTest::addColumn<int>("M");
    QTest::addColumn<int>("kh");
    QTest::addColumn<int>("kw");
    QTest::addColumn<int>("stride");
    struct Row {
        const char* net;
        const char* layer;
        int h, e, c, m, kh, kw, s;
    };
    const Row rows[] = {
        {"alexnet", "alexnet1", 224, 55, 3, 96, 11, 11, 4},
        {"alexnet", "alexnet2", 55, 27, 96, 256, 5, 5, 2},
        {"alexnet", "alexnet3", 27, 13, 256, 384, 3, 3, 2},
        {"alexnet", "alexnet4", 13, 13, 384, 384, 3, 3, 1},
        {"alexnet", "alexnet5", 13, 13, 384, 256, 3, 3, 1},
        {"zfnet", "zfnet1", 224, 112, 3, 96, 7, 7, 2},
        {"zfnet", "zfnet3", 13, 13, 256, 384, 3, 3, 1},
        {"zfnet", "zfnet4", 13, 13, 384, 384, 3, 3, 1},
        {"zfnet", "zfnet5", 13, 13, 384, 256, 3, 3, 1},
        {"zfnet", "zfnet6", 6, 6, 256, 256, 3, 3, 1},
        {"vgg", "vgg1", 224, 224, 3, 64, 3, 3, 1},
        {"vgg", "vgg2", 224, 224, 64, 64, 3, 3, 1},
        {"vgg", "vgg3", 112, 112, 64, 128, 3, 3, 1},
        {"vgg", "vgg4", 112, 112, 128, 128, 3, 3, 1},
        {"vgg", "vgg5", 56, 56, 128, 256, 3, 3, 1},
        {"vgg", "vgg6", 56, 56, 256, 256, 3, 3, 1},
        {"vgg", "vgg8", 28, 28, 512, 256, 3, 3, 1},
        {"vgg", "vgg9", 28, 28, 512, 512, 3, 3, 1},
        {"vgg", "vgg11", 14, 14, 512, 512, 3, 3, 1},
        // Inception v3 blocks 0-2 (35x35): seven layers each; C of the 1x1s is the block input.
        {"inception-v3", "block0_1", 35, 35, 192, 64, 1, 1, 1},
        {"inception-v3", "block0_2", 35, 35, 192, 48, 1, 1, 1},
        {"inception-v3", "block0_3", 35, 35, 48, 64, 5, 5, 1},
        {"inception-v3", "block0_4", 35, 35, 192, 64, 1, 1, 1},
        {"inception-v3", "block0_5", 35, 35, 64, 96, 3, 3, 1},
        {"inception-v3", "block0_6", 35, 35, 96, 96, 3, 3, 1},
        {"inception-v3", "block0_7", 35, 35, 192, 32, 1, 1, 1},
        {"inception-v3", "block1_1", 35, 35, 256, 64, 1, 1, 1},
        {"inception-v3", "block1_3", 35, 35, 48, 64, 5, 5, 1},
        {"inception-v3", "block1_7", 35, 35, 256, 64, 1, 1, 1},
        {"inception-v3", "block2_2", 35, 35, 288, 48, 1, 1, 1},
        {"inception-v3", "block2_7", 35, 35, 288, 64, 1, 1, 1},
        {"inception-v3", "block3_1", 35, 17, 288, 384, 3, 3, 2},
        {"inception-v3", "block3_2", 35, 35, 288, 64, 1, 1, 1},
        {"inception-v3", "block3_3", 35, 35, 64, 96, 3, 3, 1},
        {"inception-v3", "block3_4", 35, 17, 96, 96, 3, 3, 2},
        {"inception-v3", "block3_5", 17, 17, 288, 64, 1, 1, 1},
        {"inception-v3", "block4_1", 17, 17, 768, 192, 1, 1, 1},
        {"inception-v3", "block4_3", 17, 17, 128, 128, 1, 7, 1},
        {"inception-v3", "block4_4", 17, 17, 128, 192, 7, 1, 1},
        {"inception-v3", "block4_6", 17, 17, 128, 128, 7, 1, 1},
        {"inception-v3", "block4_9", 17, 17, 128, 192, 1, 7, 1},
        {"inception-v3", "block4_10", 17, 17, 768, 192, 1, 1, 1},
        {"resnet", "block1_1", 224, 112, 3, 64, 7, 7, 2},
        {"resnet", "block1_2", 56, 56, 64, 64, 1, 1, 1},
        {"resnet", "block2_1", 56, 56, 64, 64, 3, 3, 1},
        {"resnet", "block2_2", 56, 56, 64, 256, 1, 1, 1},
        {"resnet", "block2_3", 56, 56, 256, 128, 1, 1, 1},
        {"resnet", "block3_1", 28, 28, 128, 128, 3, 3, 1},
        {"resnet", "block3_3", 28, 28, 512, 256, 1, 1, 1},
        {"resnet", "block4_2", 14, 14, 256, 1024, 1, 1, 1},
        {"resnet", "block4_3", 14, 14, 1024, 512, 1, 1, 1},
        {"resnet", "block5_1", 7, 7, 512, 512, 3, 3, 1},
        {"resnet", "block5_3", 7, 7, 512, 2048, 1, 1, 1},
    };
    for (const Row& r : rows)
        QTest::addRow("%s/%s", r.net, r.layer)
            << QString("stoutchinin-") + r.net << QString(r.layer) << r.h << r.e << r.c << r.m
            << r.kh << r.kw << r.s;
}

void TestExamples::stoutchininAppendixB() {
    QFETCH(QString, net);
    QFETCH(QString, layer);
    QFETCH(int, H);
    QFETCH(int, E);
    QFETCH(int, C);
    QFETCH(int, M);
    QFETCH(int, kh);
    QFETCH(int, kw);
    QFETCH(int, stride);
    const Network n = test::bundledNetwork(net.toStdString().c_str());
    const LayerId id = n.find(layer.toStdString());
    QVERIFY(id != kNoLayer);
    QCOMPARE(n.inputShape(id), (Shape{C, H, H}));
    QCOMPARE(n.layer(id).out, (Shape{M, E, E}));
    const LayerDims d = layerDims(n, id);
    QCOMPARE(d.Dn, int64_t(kh));
    QCOMPARE(d.Dm, int64_t(kw));
    QCOMPARE(d.Sx, int64_t(stride));
    QCOMPARE(d.Sy, int64_t(stride));
}

// Every table row is one convolution with its own input.
void TestExamples::stoutchininRowCounts() {
    const std::pair<const char*, int> rows[] = {
        {"stoutchinin-alexnet", 5},
        {"stoutchinin-zfnet", 5},
        {"stoutchinin-vgg", 9},
        {"stoutchinin-inception-v3", 7 + 7 + 7 + 5 + 10},
        {"stoutchinin-resnet", 2 + 4 * 3},
    };
    for (const auto& [name, count] : rows) {
        const Network n = test::bundledNetwork(name);
        QCOMPARE(countType(n, LayerType::conv), count);
        QCOMPARE(int(n.inputIds().size()), count);
        QCOMPARE(int(n.computeIds().size()), count);
    }
}

// Total MACs (conv + fc; pooling, adds and concats carry none).
void TestExamples::macTotals_data() {
    QTest::addColumn<QString>("net");
    QTest::addColumn<qint64>("exact");     // hand computation from the layer widths
    QTest::addColumn<double>("published"); // independently published figure, 0 if none
    QTest::addColumn<double>("tolerance"); // relative, for the published figure

    // VGG16: 15,346,630,656 conv + 123,633,664 fc (7*7*512*4096 + 4096^2 + 4096*1000);
    // torchvision model table: 15.47 GFLOPS (multiply-adds).
    QTest::newRow("vgg16") << "vgg16" << qint64(15'470'264'320) << 15.47e9 << 0.001;
    // ResNet-18: conv1 118,013,952 + stage 1 462,422,016 + stage 2 411,041,792 +
    // stage 3 411,041,792 + stage 4 411,041,792 + fc 512,000; torchvision: 1.81 GFLOPS
    // (He et al. 2016 Table 1: 1.8e9).
    QTest::newRow("resnet18") << "resnet18" << qint64(1'814'073'344) << 1.81e9 << 0.01;
    // ResNet-50 (v1.5; per block 1x1 reduce at the input resolution, 3x3 with the stride,
    // 1x1 expand, 1x1 projection in the first block): conv1 118,013,952 + stage 1
    // 667,942,912 + stage 2 1,027,604,480 + stage 3 1,464,336,384 + stage 4 809,238,528 +
    // fc 2,048,000; torchvision: 4.09 GFLOPS.
    QTest::newRow("resnet50") << "resnet50" << qint64(4'089'184'256) << 4.09e9 << 0.01;
    // ResNet-152 (v1.5), same block formulas: conv1 118,013,952 + stage 1 667,942,912 +
    // stage 2 1,901,068,288 + stage 3 8,015,314,944 + stage 4 809,238,528 + fc 2,048,000;
    // torchvision: 11.51 GFLOPS.
    QTest::newRow("resnet152") << "resnet152" << qint64(11'513'626'624) << 11.51e9 << 0.01;
    // MobileNetV2 1.0/224: Sandler et al. 2018 Table 3/4: 300M multiply-adds;
    // torchvision: 0.30 GFLOPS.
    QTest::newRow("mobilenetv2") << "mobilenetv2" << qint64(300'774'272) << 300e6 << 0.01;
    // SqueezeNet 1.0 / 1.1: torchvision 0.82 / 0.35 GFLOPS.
    QTest::newRow("squeezenet1.0") << "squeezenet1.0" << qint64(818'924'576) << 0.82e9 << 0.01;
    QTest::newRow("squeezenet1.1") << "squeezenet1.1" << qint64(349'151'936) << 0.35e9 << 0.01;
    // GoogLeNet: sum of Szegedy et al. Table 1's "ops" column, 1,586M (their rounded
    // per-layer counts; the text's "1.5 billion multiply-adds" is the same budget).
    QTest::newRow("googlenet") << "googlenet" << qint64(1'582'671'872) << 1586e6 << 0.01;
    // AlexNet (torchvision): 70,276,800 + 223,948,800 + 112,140,288 + 149,520,384 +
    // 99,680,256 conv + 58,621,952 fc; torchvision: 0.71 GFLOPS.
    QTest::newRow("alexnet") << "alexnet" << qint64(714'188'480) << 0.71e9 << 0.01;
    // DMCNN-VD at 1920x1080: 2,073,600 pixels x 9 x (3*64 + 18*64*64 + 64*3).
    QTest::newRow("dmcnn-vd") << "dmcnn-vd" << qint64(1'383'107'788'800) << 0.0 << 0.0;
    // ConvFusion Table 6: D_x*D_y*D_i*D_z*9 per layer.
    QTest::newRow("l2net") << "l2net" << qint64(18 * 18 * 3 * 4 * 9 + 16 * 16 * 4 * 4 * 9) << 0.0
                           << 0.0;
    QTest::newRow("l3net-4k") << "l3net-4k"
                              << qint64(3838LL * 2158 * 3 * 4 * 9 + 3836LL * 2156 * 4 * 4 * 9 +
                                        3834LL * 2154 * 4 * 4 * 9)
                              << 0.0 << 0.0;
    QTest::newRow("l3net-wide") << "l3net-wide"
                                << qint64(20LL * 20 * 3 * 1024 * 9 + 18LL * 18 * 1024 * 1024 * 9 +
                                          16LL * 16 * 1024 * 4 * 9)
                                << 0.0 << 0.0;
}

void TestExamples::macTotals() {
    QFETCH(QString, net);
    QFETCH(qint64, exact);
    QFETCH(double, published);
    QFETCH(double, tolerance);
    const Network n = test::bundledNetwork(net.toStdString().c_str());
    const int64_t macs = totalMacs(n);
    QCOMPARE(qint64(macs), exact);
    if (published > 0)
        QVERIFY2(std::fabs(double(macs) - published) <= tolerance * published,
                 qPrintable(QString("%1 MACs vs published %2").arg(macs).arg(published)));
}

// Per-module MACs of GoogLeNet from the widths of Szegedy et al. Table 1 (the table's own
// rounded "ops" column agrees within 1M except 4a (73M) and 5a (54M), which the widths
// in the same table do not reproduce).
void TestExamples::googLeNetModuleMacs() {
    const Network n = test::bundledNetwork("googlenet");
    QCOMPARE(macsWithPrefix(n, "conv1"), convMacs(112, 3, 64, 7));
    QCOMPARE(macsWithPrefix(n, "conv2"), convMacs(56, 64, 64, 1) + convMacs(56, 64, 192, 3));
    QCOMPARE(macsWithPrefix(n, "inception3a."), inceptionMacs(28, 192, 64, 96, 128, 16, 32, 32));
    QCOMPARE(macsWithPrefix(n, "inception3b."), inceptionMacs(28, 256, 128, 128, 192, 32, 96, 64));
    QCOMPARE(macsWithPrefix(n, "inception4a."), inceptionMacs(14, 480, 192, 96, 208, 16, 48, 64));
    QCOMPARE(macsWithPrefix(n, "inception4b."), inceptionMacs(14, 512, 160, 112, 224, 24, 64, 64));
    QCOMPARE(macsWithPrefix(n, "inception4c."), inceptionMacs(14, 512, 128, 128, 256, 24, 64, 64));
    QCOMPARE(macsWithPrefix(n, "inception4d."), inceptionMacs(14, 512, 112, 144, 288, 32, 64, 64));
    QCOMPARE(macsWithPrefix(n, "inception4e."),
             inceptionMacs(14, 528, 256, 160, 320, 32, 128, 128));
    QCOMPARE(macsWithPrefix(n, "inception5a."), inceptionMacs(7, 832, 256, 160, 320, 32, 128, 128));
    QCOMPARE(macsWithPrefix(n, "inception5b."), inceptionMacs(7, 832, 384, 192, 384, 48, 128, 128));
    // Table 1 "ops" column (millions), where the widths reproduce it.
    QCOMPARE(std::llround(macsWithPrefix(n, "inception3a.") / 1e6), 128LL);
    QCOMPARE(std::llround(macsWithPrefix(n, "inception3b.") / 1e6), 304LL);
    QCOMPARE(std::llround(macsWithPrefix(n, "inception4e.") / 1e6), 170LL);
    QCOMPARE(std::llround(macsWithPrefix(n, "inception5b.") / 1e6), 71LL);
    QCOMPARE(macsWithPrefix(n, "fc"), int64_t(1024 * 1000));
}

QTEST_GUILESS_MAIN(TestExamples)
#include "tst_examples.moc"
