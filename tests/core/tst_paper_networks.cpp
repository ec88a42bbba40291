// The networks bundled for the papers' evaluations (scripts/gen_networks.py): their shapes and
// weights against the original definitions — Keras's parameter counts for InceptionV3,
// Xception and MobileNet (convolution weights and batch-norm channels, which fix every
// layer's kernel and channels), torchvision's 143,667,240 parameters of VGG configuration E,
// the map sizes the papers quote, and HW-Flow-Fusion's VGG16-E layer names.

#include "network/dims.h"
#include "test_support.h"

#include <QtTest>

using namespace lf;

namespace {

struct Sums {
    int64_t weights = 0, biases = 0, bn = 0, convs = 0;
};

// Weights of conv/fc layers, their output channels (biases), and the output channels of the
// convolutions that batch norm follows (`depthwise_bn`: depthwise layers too).
Sums sums(const Network& net, bool depthwise_bn) {
    Sums s;
    for (LayerId id : net.computeIds()) {
        const Layer& l = net.layer(id);
        if (!hasWeights(l.type)) continue;
        s.weights += layerWeights(layerDims(net, id));
        s.biases += l.out.c;
        if (l.type != LayerType::conv) continue;
        ++s.convs;
        const bool depthwise = l.groups > 1;
        if (!depthwise || depthwise_bn) s.bn += l.out.c;
    }
    return s;
}

int64_t convWeights(const Network& net) {
    int64_t w = 0;
    for (LayerId id : net.computeIds())
        if (net.layer(id).type == LayerType::conv) w += layerWeights(layerDims(net, id));
    return w;
}

Shape out(const Network& net, const char* name) {
    const LayerId id = net.find(name);
    return id == kNoLayer ? Shape{} : net.layer(id).out;
}

} // namespace

class TstPaperNetworks : public QObject {
    Q_OBJECT
  private slots:
    void inceptionV3() {
        const Network net = test::bundledNetwork("inceptionv3");
        // Keras: 23,817,352 trainable = conv weights + 17,216 batch-norm betas + the 2,049,000
        // of the classifier; 34,432 non-trainable = 2 × 17,216 moving statistics.
        const Sums s = sums(net, true);
        QCOMPARE(s.convs, int64_t(94));
        QCOMPARE(convWeights(net), int64_t(23817352 - 17216 - 2049000));
        QCOMPARE(s.bn, int64_t(34432 / 2));
        QCOMPARE(out(net, "mixed0"), (Shape{256, 35, 35}));
        QCOMPARE(out(net, "mixed2"), (Shape{288, 35, 35}));
        QCOMPARE(out(net, "mixed3"), (Shape{768, 17, 17}));
        QCOMPARE(out(net, "mixed7"), (Shape{768, 17, 17}));
        QCOMPARE(out(net, "mixed8"), (Shape{1280, 8, 8}));
        QCOMPARE(out(net, "mixed10"), (Shape{2048, 8, 8}));
        // TSO §VI: the 5th convolution has 80 maps of 73x73 and 192 filters of 80x3x3.
        const LayerDims d = layerDims(net, net.find("conv2d_5"));
        QCOMPARE(d.Di, int64_t(80));
        QCOMPARE(d.in_h, int64_t(73));
        QCOMPARE(d.in_w, int64_t(73));
        QCOMPARE(d.Dz, int64_t(192));
        QCOMPARE(d.Dm, int64_t(3));
    }

    void xception() {
        const Network net = test::bundledNetwork("xception");
        // Keras: 22,855,952 trainable = separable and plain conv weights + 2 × 27,264
        // batch-norm parameters + 2,049,000; 54,528 non-trainable.
        const Sums s = sums(net, false);
        QCOMPARE(convWeights(net), int64_t(22855952 - 54528 - 2049000));
        QCOMPARE(s.bn, int64_t(54528 / 2));
        QCOMPARE(out(net, "add_3"), (Shape{728, 19, 19}));
        QCOMPARE(out(net, "add_12"), (Shape{1024, 10, 10}));
        QCOMPARE(out(net, "block14_sepconv2_pw"), (Shape{2048, 10, 10}));
    }

    void mobileNetV1() {
        const Network net = test::bundledNetwork("mobilenetv1");
        // Keras: 4,231,976 trainable = conv weights + 2 × 10,944 batch-norm + 1,025,000 of the
        // 1x1 classifier; 21,888 non-trainable.
        const Sums s = sums(net, true);
        QCOMPARE(convWeights(net), int64_t(4231976 - 21888 - 1025000));
        QCOMPARE(s.bn, int64_t(21888 / 2));
        QCOMPARE(out(net, "conv_pw_13"), (Shape{1024, 7, 7}));
    }

    void vggConfigurationE() {
        const Network net = test::bundledNetwork("vgg16-e");
        const Sums s = sums(net, true);
        QCOMPARE(s.convs, int64_t(16));
        QCOMPARE(s.weights + s.biases, int64_t(143667240)); // torchvision vgg19
        // HW-Flow-Fusion's HWFF Tables 6-7 fuse POOL3 with CONV9 and POOL4 with CONV13.
        QCOMPARE(net.successors(net.find("pool3")).front(), net.find("conv9"));
        QCOMPARE(net.successors(net.find("pool4")).front(), net.find("conv13"));
        QCOMPARE(out(net, "conv16"), (Shape{512, 14, 14}));
    }

    void lenet5() {
        const Network net = test::bundledNetwork("lenet5");
        QCOMPARE(out(net, "c1"), (Shape{6, 28, 28}));
        QCOMPARE(out(net, "s2"), (Shape{6, 14, 14}));
        QCOMPARE(out(net, "c3"), (Shape{16, 10, 10}));
        QCOMPARE(out(net, "c5"), (Shape{120, 1, 1}));
        QCOMPARE(out(net, "output"), (Shape{10, 1, 1}));
    }
};

QTEST_GUILESS_MAIN(TstPaperNetworks)
#include "tst_paper_networks.moc"
