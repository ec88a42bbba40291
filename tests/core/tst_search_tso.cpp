// TSO slicing search (TSO Alg. 1-3; docs/models/tso.md): the reduced tile loops find the
// same best time as TSO Alg. 3's full triple loop; the chosen tiles meet TSO Eq. 2 and their time
// is TSO Eq. 6 from TSO Eq. 3-5, 7-9 recomputed here; one choice per conv of a multicore preset; no
// choices without cores; the burst-aware search is never slower under the burst model.

#include "models/tso_latency.h"
#include "network/dims.h"
#include "search/tso_search.h"
#include "test_support.h"

#include <QtTest>

#include <limits>
#include <random>

using namespace lf;

class TstSearchTso : public QObject {
    Q_OBJECT
  private slots:
    void reducedLoopsEqualFullLoops() {
        const Hardware hw = test::bundledHardware("tso-nmp");
        std::mt19937 rng(17);
        TsoSearchOptions full;
        full.exhaustive = true;
        for (int k = 0; k < 60; ++k) {
            TsoConv c;
            c.M = 1 + int64_t(rng() % 96);
            c.N = 1 + int64_t(rng() % 48);
            c.K = int64_t(std::array<int, 3>{1, 3, 5}[rng() % 3]);
            c.S = 1 + int64_t(rng() % 2);
            c.R = 1 + int64_t(rng() % 40);
            c.C = 1 + int64_t(rng() % 40);
            c.H = (c.R - 1) * c.S + c.K;
            c.L = (c.C - 1) * c.S + c.K;
            for (bool burst : {true, false}) {
                TsoSearchOptions fast;
                fast.burst_aware = burst;
                full.burst_aware = burst;
                const TsoLayerChoice a = tsoBestSlicing(c, hw, fast);
                const TsoLayerChoice b = tsoBestSlicing(c, hw, full);
                QCOMPARE(a.fits, b.fits);
                QCOMPARE(a.time_cycles, b.time_cycles);
                QVERIFY(a.evaluated <= b.evaluated);
            }
        }
    }

    void choiceMeetsEq2AndEq6() {
        const Hardware hw = test::bundledHardware("tso-nmp");
        const Network net = test::bundledNetwork("resnet50");
        const TsoSearchResult r = tsoSearch(net, hw);
        int convs = 0;
        for (LayerId id : net.computeIds())
            convs += net.layer(id).type == LayerType::conv || net.layer(id).type == LayerType::fc;
        QCOMPARE(int(r.layers.size()), convs);
        const int bytes = hw.precision.act_bits / 8;
        for (const TsoLayerChoice& c : r.layers) {
            QVERIFY(c.fits);
            const TsoConv conv = tsoConv(layerDims(net, c.id));
            const TsoTile& t = c.tile;
            const int64_t kk = conv.K * conv.K;
            // TSO Eq. 2 (WS loads whole filters: all N channels).
            QVERIFY(t.tn * tsoTileH(conv, t.tr) * tsoTileL(conv, t.tc) * bytes <=
                    hw.cores->mb_bytes[0]);
            QVERIFY(t.tm * (c.schedule == TltSchedule::ws ? conv.N : t.tn) * kk * bytes <=
                    hw.cores->mb_bytes[1]);
            QVERIFY(t.tm * t.tr * t.tc * bytes <= hw.cores->mb_bytes[2]);
            // TSO Eq. 6 = TSO Eq. 7-8 + TSO Eq. 9.
            const TleSlice slice = tleSlicing(c.partition, conv, hw.cores->tle);
            QCOMPARE(slice.rows, c.slice.rows);
            QCOMPARE(slice.filters, c.slice.filters);
            const TsoAlphas a = tsoTransferCounts(c.schedule, conv, slice, t, hw.cores->tle);
            const double mac =
                tsoMacCycles(conv, t, tsoMacsPerCore(hw), hw.cores->tle * hw.cores->tlt);
            QCOMPARE(c.mac_cycles, mac);
            if (c.schedule != TltSchedule::ws)
                QCOMPARE(c.dram_cycles, tsoDramCycles(conv, t, a, hw, true));
            QCOMPARE(c.time_cycles, c.mac_cycles + c.dram_cycles);
        }
        // NMP: 4 TLE × 8 TLT, a 8 × 4 array of 6-MAC units → 6 MACs per core.
        QCOMPARE(tsoMacsPerCore(hw), int64_t(6));
    }

    void noCoresNoChoices() {
        const TsoSearchResult r =
            tsoSearch(test::bundledNetwork("l2net"), test::bundledHardware("hwff-config-1"));
        QVERIFY(r.layers.empty());
    }

    void burstModelPrefersItsOwnChoice() {
        // The burst-aware search minimizes the burst-aware time, so its choice is at least as
        // fast under that model as the volume-only search's choice (TSO §VI, TSO Fig. 5).
        const Hardware hw = test::bundledHardware("tso-nmp");
        const Network net = test::bundledNetwork("squeezenet1.0");
        TsoSearchOptions noburst;
        noburst.burst_aware = false;
        const TsoSearchResult a = tsoSearch(net, hw);
        const TsoSearchResult b = tsoSearch(net, hw, noburst);
        QCOMPARE(a.layers.size(), b.layers.size());
        for (size_t k = 0; k < a.layers.size(); ++k) {
            const TsoLayerChoice& nb = b.layers[k];
            const TsoConv conv = tsoConv(layerDims(net, nb.id));
            const TleSlice slice = tleSlicing(nb.partition, conv, hw.cores->tle);
            const TsoAlphas al =
                tsoTransferCounts(nb.schedule, conv, slice, nb.tile, hw.cores->tle);
            if (nb.schedule == TltSchedule::ws) continue; // its W tile differs from tsoDramCycles'
            const double burstTimeOfNoburstChoice =
                nb.mac_cycles + tsoDramCycles(conv, nb.tile, al, hw, true);
            QVERIFY(a.layers[k].time_cycles <= burstTimeOfNoburstChoice + 1e-6);
        }
    }

    // TSO §VI "Fixed TLE/TLT partitioning": a fixed strategy restricts TSO Alg. 1 to it; the best
    // of the three fixed runs is the unrestricted optimum; tsoSlicingTime re-costs a choice to
    // the search's own time, and a TSO-noburst choice timed with bursts is never faster than
    // TSO-burst's (WS included).
    void fixedStrategiesAndRetiming() {
        const Hardware hw = test::bundledHardware("tso-nmp");
        std::mt19937 rng(5);
        for (int k = 0; k < 40; ++k) {
            TsoConv c;
            c.M = 1 + int64_t(rng() % 256);
            c.N = 1 + int64_t(rng() % 128);
            c.K = int64_t(std::array<int, 3>{1, 3, 5}[rng() % 3]);
            c.S = 1 + int64_t(rng() % 2);
            c.R = 1 + int64_t(rng() % 56);
            c.C = 1 + int64_t(rng() % 56);
            c.H = (c.R - 1) * c.S + c.K;
            c.L = (c.C - 1) * c.S + c.K;
            const TsoLayerChoice best = tsoBestSlicing(c, hw, {});
            if (!best.fits) continue;
            const TsoLayerChoice again =
                tsoSlicingTime(c, hw, best.partition, best.schedule, best.tile, true);
            QVERIFY(again.fits);
            QCOMPARE(again.time_cycles, best.time_cycles);
            double bestFixed = std::numeric_limits<double>::infinity();
            for (TlePartition p : {TlePartition::ks, TlePartition::ks_ofm, TlePartition::ofm}) {
                TsoSearchOptions o;
                o.partition = p;
                const TsoLayerChoice f = tsoBestSlicing(c, hw, o);
                if (!f.fits) continue;
                QCOMPARE(f.partition, p);
                QVERIFY(f.time_cycles >= best.time_cycles);
                bestFixed = std::min(bestFixed, f.time_cycles);
            }
            QCOMPARE(bestFixed, best.time_cycles);
            bestFixed = std::numeric_limits<double>::infinity();
            for (TltSchedule q : {TltSchedule::is, TltSchedule::os, TltSchedule::ws}) {
                TsoSearchOptions o;
                o.schedule = q;
                const TsoLayerChoice f = tsoBestSlicing(c, hw, o);
                if (!f.fits) continue;
                QCOMPARE(f.schedule, q);
                bestFixed = std::min(bestFixed, f.time_cycles);
            }
            QCOMPARE(bestFixed, best.time_cycles);
            TsoSearchOptions nb;
            nb.burst_aware = false;
            const TsoLayerChoice n = tsoBestSlicing(c, hw, nb);
            QVERIFY(tsoSlicingTime(c, hw, n.partition, n.schedule, n.tile, true).time_cycles >=
                    best.time_cycles - 1e-6);
        }
    }
};

QTEST_GUILESS_MAIN(TstSearchTso)
#include "tst_search_tso.moc"
