// Optimus reproduced: Optimus Table 5 (operators, candidate groups, DP time measured
// here beside the paper's), the chain count n(n+1)/2, Optimus §7.9's group counts of the final
// schemes, the Optimus §7.4 DRAM reductions against DNNVM and Efficient-S
// (search/baselines_fusion.h, implemented as Optimus §2.2-2.3 describe them), Optimus Table 4's
// reductions against layer-by-layer execution, the accelerator presets (Optimus Tables 2-3) and
// Optimus Figs. 14 and 16.
#include "models/evaluate.h"
#include "network/dims.h"
#include "repro/repro_detail.h"
#include "search/baselines_fusion.h"
#include "search/optimus_fuser.h"

#include <algorithm>
#include <cmath>

namespace lf::repro::detail {

namespace {

constexpr Paper kPaper = Paper::optimus;

struct Table5Row {
    const char* net;
    const char* label;
    int operators;
    int64_t groups, online_groups;
    double bottom_up_ms;
    int final_groups; // Optimus §7.9
};
// Optimus Table 5 as printed (bottom-up columns) and Optimus §7.9's group counts.
constexpr Table5Row kTable5[] = {{"vgg16", "VGG", 18, 171, 80, 0.48, 8},
                                 {"resnet50", "ResNet50", 52, 3510, 195, 2.73, 31},
                                 {"resnet152", "ResNet152", 154, 24250, 467, 5.01, 99},
                                 {"googlenet", "GoogleNet", 72, 50436, 423, 27.89, 21},
                                 {"squeezenet1.0", "SqueezeNet", 38, 1057, 216, 2.19, 8}};

// Optimus counts VGG's 13 conv and 5 pool operators, not its fully connected layers.
std::vector<LayerType> fusibleOf(const char* net) {
    if (std::string(net) == "vgg16") return {LayerType::conv, LayerType::pool};
    return {};
}

std::string operatorsText(const Network& net, const OptimusFuserResult& r) {
    int concat = 0;
    for (const Layer& l : net.layers())
        concat += l.type == LayerType::concat;
    return std::to_string(r.operators) + " vertices" +
           (concat ? " (" + std::to_string(concat) + " of them concat)" : "");
}

// Groups of the scheme that hold an operator of the DP (VGG's fc layers are not).
int operatorGroups(const Network& net, const OptimusFuserResult& r,
                   const std::vector<LayerType>& fusible) {
    int n = 0;
    for (const auto& g : r.groups)
        n += fusible.empty() ||
             std::find(fusible.begin(), fusible.end(), net.layer(g.front()).type) != fusible.end();
    return n;
}

OpenTarget schemeTarget(const char* net, const Schedule& s, const std::string& note) {
    OpenTarget t;
    t.network = net;
    t.hardware = "optimus-default";
    t.schedule = s;
    t.schedule_note = note;
    return t;
}

void table5Rows(const ReproOptions& opt, const Hardware& hw, PaperReport& rep) {
    for (const Table5Row& t : kTable5) {
        if (cancelled(opt)) return;
        const Network net = bundledNet(t.net);
        OptimusFuserOptions fo;
        fo.fusible = fusibleOf(t.net);
        fo.prune_hopeless = false; // every candidate group formed, as Optimus Table 5 counts them
        OptimusFuserResult full = optimusFuse(net, hw, fo);
        for (int k = 0; k < 2; ++k) // the fastest of three runs
            full.seconds = std::min(full.seconds, optimusFuse(net, hw, fo).seconds);
        OptimusFuserOptions on = fo;
        on.online = true;
        const OptimusFuserResult online = optimusFuse(net, hw, on);
        const std::string where = "Table 5, " + std::string(t.label);
        const std::string setup = "bundled " + std::string(t.net) +
                                  ", optimus-default (Table 2), every candidate group formed";
        const bool vgg = std::string(t.net) == "vgg16";
        const std::string graphWhy = vgg ? ""
                                         : "the paper's operator graph is not printed; ours has " +
                                               operatorsText(net, full) +
                                               " (every conv, pool, add, fc; concats join)";
        rep.rows.push_back(makeRow(kPaper, {.id = "optimus.table5.operators-" + std::string(t.net),
                                            .where = where,
                                            .measured = "operators of the DP",
                                            .paper_text = std::to_string(t.operators),
                                            .paper = double(t.operators),
                                            .ours = double(full.operators),
                                            .unit = "",
                                            .tolerance = 0,
                                            .tolerance_why = "a count",
                                            .deviation = graphWhy,
                                            .setup = setup}));
        rep.rows.push_back(
            makeRow(kPaper, {.id = "optimus.table5.groups-" + std::string(t.net),
                             .where = where,
                             .measured = "candidate operator groups evaluated by the DP (Alg. 1)",
                             .paper_text = std::to_string(t.groups),
                             .paper = double(t.groups),
                             .ours = double(full.groups_evaluated),
                             .unit = "",
                             .tolerance = 0,
                             .tolerance_why = "a count; on a chain it is n(n+1)/2 (§4.4)",
                             .deviation = graphWhy,
                             .setup = setup,
                             .open = schemeTarget(t.net, full.schedule, "the Optimus DP scheme")}));
        rep.rows.push_back(makeRow(
            kPaper,
            {.id = "optimus.table5.online-groups-" + std::string(t.net),
             .where = where + ", Online-V",
             .measured = "candidate groups of the on-line variant (§6: fan-out rule, Alg. 3 "
                         "group-size limit)",
             .paper_text = std::to_string(t.online_groups),
             .paper = double(t.online_groups),
             .ours = double(online.groups_evaluated),
             .unit = "",
             .tolerance = 0,
             .tolerance_why = "a count",
             .deviation = "the Alg. 3 table depends on the paper's empirical t = O/4 rule and "
                          "its operator graph; both set how many groups the size limit keeps",
             .setup = setup}));
        rep.rows.push_back(
            makeRow(kPaper, {.id = "optimus.table5.ms-" + std::string(t.net),
                             .where = where,
                             .measured = "run time of the bottom-up DP, measured on this machine "
                                         "(fastest of three runs)",
                             .paper_text = num(t.bottom_up_ms),
                             .paper = t.bottom_up_ms,
                             .ours = full.seconds * 1000.0,
                             .unit = "ms",
                             .relation = Relation::timing,
                             .tolerance = 0,
                             .tolerance_why = "a run time is compared, not matched",
                             .deviation = "a run time measured on this machine beside the "
                                          "paper's i7-6700: it shows speed, not a model output",
                             .setup = setup}));
        rep.rows.push_back(makeRow(
            kPaper,
            {.id = "optimus.sec7-9.scheme-groups-" + std::string(t.net),
             .where = "§7.9",
             .measured = std::string(t.label) + ": fused operator-groups of the final scheme",
             .paper_text = std::to_string(t.final_groups),
             .paper = double(t.final_groups),
             .ours = double(operatorGroups(net, full, fo.fusible)),
             .unit = "groups",
             .tolerance = 0,
             .tolerance_why = "a count",
             .deviation = "our Eq. 4 holds a group's input fmap at all its channels, which "
                          "keeps wide layers from fusing in 128 KB; the paper prints neither its "
                          "graphs nor its schemes",
             .setup = setup + ", batch 4",
             .open = schemeTarget(t.net, full.schedule, "the Optimus DP scheme")}));
    }
}

// DRAM accesses of every operator alone under Optimus Eq. 3 (Optimus' "w/o Fusion").
int64_t withoutFusion(const Network& net, const Hardware& hw) {
    Schedule s = defaultSchedule(net, hw);
    for (FusionGroup& g : s.groups)
        g.strategy = Strategy::optimus;
    return evaluate(net, hw, s).totals.dram_accesses;
}

// Oracle of Optimus §7.5: every weight and the network's inputs and outputs moved once.
int64_t oracle(const Network& net, const Hardware& hw) {
    int64_t weights = 0, io = 0;
    for (LayerId id : net.computeIds()) {
        weights += layerWeights(layerDims(net, id));
        if (net.successors(id).empty()) io += net.layer(id).out.elements();
    }
    for (LayerId id : net.inputIds())
        io += net.layer(id).out.elements();
    return std::max(1, hw.batch) * io + weights;
}

struct Fusers {
    int64_t optimus = 0, dnnvm = 0, efficient_s = 0, none = 0;
    Schedule scheme;
};

Fusers runFusers(const Network& net, const Hardware& hw) {
    Fusers f;
    const OptimusFuserResult r = optimusFuse(net, hw, {});
    f.scheme = r.schedule;
    f.optimus = evaluate(net, hw, r.schedule).totals.dram_accesses;
    f.dnnvm = priorFuse(net, hw, PriorFuser::dnnvm).cost_batch;
    f.efficient_s = priorFuse(net, hw, PriorFuser::efficient_s).cost_batch;
    f.none = withoutFusion(net, hw);
    return f;
}

double reductionPct(int64_t ours, int64_t base) {
    return 100.0 * (1.0 - double(ours) / double(base));
}

struct Workload {
    const char* net;
    const char* label;
    double table4_ref7; // Optimus Table 4, row [7]
};
constexpr Workload kWorkloads[] = {
    {"alexnet", "AlexNet", 32.43},       {"vgg16", "VGG16", 27.41},
    {"googlenet", "GoogleNet", 47.31},   {"resnet18", "ResNet18", 16.86},
    {"resnet50", "ResNet50", 33.82},     {"resnet152", "ResNet152", 25.32},
    {"mobilenetv1", "MobileNet", 57.08}, {"squeezenet1.0", "SqueezeNet", 84.29}};

void reductionRows(const ReproOptions& opt, const Hardware& hw, PaperReport& rep) {
    Plot bars;
    bars.id = "optimus-fig14-dram";
    bars.paper = kPaper;
    bars.where = "Fig. 14";
    bars.title = "DRAM accesses of the fusers, relative to Optimus";
    bars.x_label = "workload";
    bars.y_label = "DRAM accesses / Optimus";
    Series sOpt{"Optimus", {}, false, false}, sDnnvm{"DNNVM", {}, false, false},
        sEff{"Efficient-S", {}, false, false}, sNone{"w/o Fusion", {}, false, false};
    double minD = 1e9, maxD = -1e9, minE = 1e9, maxE = -1e9;
    std::string argMinD, argMaxD, argMinE, argMaxE;
    int k = 0;
    for (const Workload& w : kWorkloads) {
        if (cancelled(opt)) return;
        const Network net = bundledNet(w.net);
        const Fusers f = runFusers(net, hw);
        const double rd = reductionPct(f.optimus, f.dnnvm),
                     re = reductionPct(f.optimus, f.efficient_s);
        auto track = [&](double v, double& lo, double& hi, std::string& alo, std::string& ahi) {
            if (v < lo) {
                lo = v;
                alo = w.label;
            }
            if (v > hi) {
                hi = v;
                ahi = w.label;
            }
        };
        track(rd, minD, maxD, argMinD, argMaxD);
        track(re, minE, maxE, argMinE, argMaxE);
        bars.categories.push_back(w.label);
        const double base = double(f.optimus);
        sOpt.points.emplace_back(k, 1.0);
        sDnnvm.points.emplace_back(k, double(f.dnnvm) / base);
        sEff.points.emplace_back(k, double(f.efficient_s) / base);
        sNone.points.emplace_back(k, double(f.none) / base);
        ++k;
        rep.rows.push_back(makeRow(
            kPaper,
            {.id = "optimus.table4.ref7-" + std::string(w.net),
             .where = "Table 4, row [7], " + std::string(w.label),
             .measured = "reduction in memory access of Optimus over the same accelerator "
                         "without fusion (each operator alone under Eq. 3: our stand-in for "
                         "[7]'s per-layer communication lower bound)",
             .paper_text = num(w.table4_ref7) + "%",
             .paper = w.table4_ref7,
             .ours = reductionPct(f.optimus, f.none),
             .unit = "%",
             .tolerance = 0.05,
             .tolerance_why = "within 5 % of the value",
             .deviation = "[7]'s dataflow and buffers are not Table 2's accelerator and not "
                          "modelled; the reduction is taken against Eq. 3 layer by layer",
             .setup = "bundled " + std::string(w.net) + ", optimus-default, batch 4",
             .open = schemeTarget(w.net, f.scheme, "the Optimus DP scheme")}));
    }
    bars.series = {sOpt, sDnnvm, sEff, sNone};
    bars.note = "batch 4, optimus-default (Table 2); NasNet is not bundled";
    rep.plots.push_back(std::move(bars));
    const std::string setup = "AlexNet, VGG16, GoogLeNet, ResNet-18/50/152, MobileNet, "
                              "SqueezeNet 1.0 on optimus-default, batch 4 (NasNet not bundled)";
    const std::string why = "where our Optimus fuses little (the Eq. 4 input reading of the "
                            "optimus.sec7-9 rows), the baselines fuse as much; the paper's range "
                            "also spans NasNet and graphs it does not print";
    auto rangeRow = [&](const std::string& id, const char* base, const char* end,
                        const std::string& text, double paper, double ours, const std::string& at) {
        rep.rows.push_back(makeRow(
            kPaper, {.id = id,
                     .where = "§7.4, Fig. 14",
                     .measured = std::string(end) + " DRAM-access reduction of Optimus against " +
                                 base + " over the workloads (" + at + ")",
                     .paper_text = text,
                     .paper = paper,
                     .ours = ours,
                     .unit = "%",
                     .tolerance = 0.1,
                     .tolerance_why = "a range over workloads the paper does not list one by "
                                      "one: within 10 % of each end",
                     .deviation = why,
                     .setup = setup}));
    };
    rangeRow("optimus.sec7-4.dnnvm-min", "DNNVM", "smallest", "19% (of 19-75%)", 19, minD, argMinD);
    rangeRow("optimus.sec7-4.dnnvm-max", "DNNVM", "largest", "75% (of 19-75%)", 75, maxD, argMaxD);
    rangeRow("optimus.sec7-4.efficient-s-min", "Efficient-S", "smallest", "17% (of 17-58%)", 17,
             minE, argMinE);
    rangeRow("optimus.sec7-4.efficient-s-max", "Efficient-S", "largest", "58% (of 17-58%)", 58,
             maxE, argMaxE);
}

void bufferCurves(const ReproOptions& opt, const Hardware& hw, PaperReport& rep) {
    for (const char* name : {"squeezenet1.0", "resnet50"}) {
        if (cancelled(opt)) return;
        const Network net = bundledNet(name);
        Plot p;
        p.id = std::string("optimus-fig16-") + name;
        p.paper = kPaper;
        p.where = "Fig. 16";
        p.title = "DRAM accesses of " + net.name() + " against the on-chip buffer";
        p.x_label = "on-chip buffer (KB)";
        p.y_label = "DRAM accesses (elements, batch 4)";
        p.log_x = true;
        Series s[5] = {{"Optimus", {}, false, true},
                       {"DNNVM", {}, false, true},
                       {"Efficient-S", {}, false, true},
                       {"w/o Fusion", {}, false, true},
                       {"Oracle", {}, false, true}};
        for (int64_t kb = 32; kb <= 2048; kb *= 2) {
            Hardware h = hw;
            h.buffer.bytes = kb * 1024;
            const Fusers f = runFusers(net, h);
            const double x = double(kb);
            s[0].points.emplace_back(x, double(f.optimus));
            s[1].points.emplace_back(x, double(f.dnnvm));
            s[2].points.emplace_back(x, double(f.efficient_s));
            s[3].points.emplace_back(x, double(f.none));
            s[4].points.emplace_back(x, double(oracle(net, h)));
        }
        for (Series& x : s)
            p.series.push_back(std::move(x));
        p.note = "optimus-default with the buffer varied, batch 4";
        rep.plots.push_back(std::move(p));
    }
}

int presetValuesEqual() {
    // Optimus Tables 2 and 3 as printed: PE columns, rows, RF bytes per PE, buffer KB.
    constexpr int table3[8][4] = {{16, 16, 64, 128}, {32, 32, 64, 128}, {16, 16, 64, 256},
                                  {32, 32, 64, 256}, {8, 8, 64, 512},   {16, 16, 64, 512},
                                  {32, 32, 32, 512}, {64, 64, 32, 512}};
    int equal = 0;
    for (int c = 0; c < 8; ++c) {
        const Hardware h = bundledHw(("optimus-config-" + std::to_string(c + 1)).c_str());
        equal += h.pe_array.cols == table3[c][0];
        equal += h.pe_array.rows == table3[c][1];
        equal += h.register_file.bytes_per_pe == table3[c][2];
        equal += h.buffer.bytes == int64_t(table3[c][3]) * 1024;
    }
    const Hardware d = bundledHw("optimus-default");
    equal += d.buffer.bytes == 128 * 1024;
    equal += d.pe_array.cols == 16;
    equal += d.pe_array.rows == 16;
    equal += d.register_file.bytes_per_pe == 64;
    equal += d.precision.act_bits == 16 && d.precision.weight_bits == 16;
    equal += d.frequency_mhz == 800;
    return equal;
}

} // namespace

PaperReport reproduceOptimus(const ReproOptions& opt) {
    PaperReport rep;
    rep.paper = kPaper;
    const Hardware hw = bundledHw("optimus-default");
    rep.rows.push_back(
        makeRow(kPaper, {.id = "optimus.tables2-3.presets",
                         .where = "Tables 2, 3",
                         .measured = "accelerator values in the presets optimus-default and "
                                     "optimus-config-1..8 equal to the printed ones",
                         .paper_text = "38 values",
                         .paper = 38,
                         .ours = double(presetValuesEqual()),
                         .unit = "values",
                         .tolerance = 0,
                         .tolerance_why = "configuration values are exact",
                         .deviation = "a preset differs from Tables 2-3",
                         .setup = "bundled presets"}));
    table5Rows(opt, hw, rep);
    reductionRows(opt, hw, rep);
    bufferCurves(opt, hw, rep);
    rep.not_reproduced = {
        "Table 5 ResNet1202 and NasNet, and NasNet in Fig. 14: the networks are not bundled "
        "(NASNet's cells are not printed in the paper).",
        "Table 5 top-down column: LayerFuse implements the bottom-up DP only.",
        "Fig. 12 (model against measurements), Fig. 13 and Figs. 17-18 energy: measured on the "
        "authors' synthesized accelerator or estimated with Eyeriss's framework, which the "
        "paper does not parameterize.",
        "Fig. 19 (batch size): LayerFuse's Eq. 4 buffer holds one image's fmaps, so its "
        "per-image traffic keeps falling with the batch where the paper's stops at 4.",
        "Table 4 rows Eyeriss and ShiDianNao: their baselines use sparse compression and "
        "split buffers that the models do not describe.",
    };
    return rep;
}

} // namespace lf::repro::detail
