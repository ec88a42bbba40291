// The Optimus DP fuser (search/optimus_fuser.h) against the straightforward reference of
// tests/support/reference_optimus.h (every group costed by lf::optimusPlan, a plain memoised
// recursion): on every bundled network with every bundled hardware preset (ResNet-152 and
// GoogLeNet, whose references take seconds, with the paper's accelerator, Optimus Table 2),
// the fuser's optimum equals the reference's and its scheme is a partition into valid groups
// whose model costs add up to it. The random DAGs of tst_search_optimus check both against
// brute force over every partition.

#include "examples/bundled.h"
#include "models/optimus.h"
#include "reference_optimus.h"
#include "search/optimus_fuser.h"
#include "test_support.h"

#include <QtTest>

#include <string>

using namespace lf;

class TstOptimusReference : public QObject {
    Q_OBJECT
  private slots:
    void fuserEqualsReference() {
        int compared = 0, fused = 0;
        for (const BundledFile& n : bundledFiles()) {
            if (n.kind != BundledKind::network) continue;
            const std::string name = n.name;
            const bool heavy = name == "resnet152" || name == "googlenet";
            const Network net = test::bundledNetwork(n.name);
            for (const BundledFile& h : bundledFiles()) {
                if (h.kind != BundledKind::hardware) continue;
                if (heavy && std::string(h.name) != "optimus-default") continue;
                const Hardware hw = test::bundledHardware(h.name);
                OptimusFuserOptions opt;
                // Optimus Table 5 counts VGG's conv and pool operators, not its fc layers.
                if (name == "vgg16") opt.fusible = {LayerType::conv, LayerType::pool};
                const OptimusFuserResult r = optimusFuse(net, hw, opt);
                // Where the bounds leave the search incomplete (Inception-v3), no optimum is
                // claimed.
                if (!r.complete) continue;
                const test::ReferenceOptimus ref = test::referenceOptimus(net, hw, opt.fusible);
                const QString where = QString("%1 on %2").arg(n.name, h.name);
                QVERIFY2(r.cost == ref.cost, qPrintable(QString("%1: fuser %2, reference %3")
                                                            .arg(where)
                                                            .arg(r.cost, 0, 'f', 0)
                                                            .arg(ref.cost, 0, 'f', 0)));
                double sum = 0;
                std::vector<int> seen(size_t(net.size()), 0);
                for (const auto& g : r.groups) {
                    sum += test::referenceGroupCost(net, hw, g);
                    fused += g.size() > 1;
                    for (LayerId v : g)
                        ++seen[size_t(v)];
                }
                QVERIFY2(sum == r.cost, qPrintable(where));
                for (LayerId v : net.computeIds())
                    QCOMPARE(seen[size_t(v)], 1);
                ++compared;
            }
        }
        QVERIFY(compared > 300); // every network with (nearly) every preset
        QVERIFY(fused > 1000);   // and the optima do fuse
    }
};

QTEST_GUILESS_MAIN(TstOptimusReference)
#include "tst_optimus_reference.moc"
