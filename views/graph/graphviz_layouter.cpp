// Graphviz `dot` backend of the Layouter (recipe: docs/architecture.md, "Graphviz").
#include "graph/graphviz_context_p.h"
#include "graph/layouter.h"

#include "util/format.h"

#include <graphviz_version.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <unordered_map>

namespace lf::graph {

namespace {

using detail::ErrorCapture;
using detail::NumericLocaleGuard;

// cgraph takes `char*` for names and values it only reads (it copies them).
char* cs(const std::string& s) {
    return const_cast<char*>(s.c_str());
}
char* cs(const char* s) {
    return const_cast<char*>(s);
}

void set(void* obj, const char* key, const std::string& value) {
    agsafeset(obj, cs(key), cs(value), cs(""));
}

std::string inches(double sceneUnits) {
    return formatDouble(sceneUnits / 72.0);
}

// Where LAYERFUSE_DUMP_DOT asks the laid-out graph to be written ("" = no dump). A directory
// receives numbered files; anything else is used as the file name.
std::string dumpPath() {
    const char* env = std::getenv("LAYERFUSE_DUMP_DOT");
    if (!env || !*env) return {};
    static int counter = 0;
    std::error_code ec;
    if (std::filesystem::is_directory(env, ec))
        return (std::filesystem::path(env) /
                ("layerfuse-layout-" + std::to_string(++counter) + ".dot"))
            .string();
    return env;
}

void dumpGraph(GVC_t* gvc, Agraph_t* g, const std::string& path) {
    if (detail::canRenderDot() && gvRenderFilename(gvc, g, "dot", path.c_str()) == 0) return;
    if (FILE* f = std::fopen(path.c_str(), "w")) {
        agwrite(g, f);
        std::fclose(f);
    }
}

class GraphvizLayouter final : public Layouter {
  public:
    LayoutResult layout(const LayoutRequest& request) override;
};

// Owns the graph so that gvFreeLayout and agclose run on every path, in that order.
struct GraphHandle {
    GVC_t* gvc;
    Agraph_t* g;
    bool laidOut = false;
    ~GraphHandle() {
        if (laidOut) gvFreeLayout(gvc, g);
        if (g) agclose(g);
    }
};

LayoutResult GraphvizLayouter::layout(const LayoutRequest& req) {
    LayoutResult out;
    GVC_t* gvc = detail::graphvizContext();
    if (!gvc) {
        out.error = "Graphviz could not be initialised";
        return out;
    }
    NumericLocaleGuard locale;
    ErrorCapture errors;
    const auto start = std::chrono::steady_clock::now();

    GraphHandle h{gvc, agopen(cs("layerfuse"), Agdirected, nullptr)};
    Agraph_t* g = h.g;
    set(g, "rankdir", "TB");
    set(g, "nodesep", inches(req.node_separation));
    set(g, "ranksep", inches(req.rank_separation));
    set(g, "splines", req.polyline_edges ? "polyline" : "spline");
    // The global ranker: dot's cluster-skeleton ranker in Graphviz 2.42 leaks its auxiliary
    // edges (about 150 KB per layout with clusters), and the studio relayouts on every group
    // edit. newrank ranks clusters without the skeleton.
    set(g, "newrank", "true");
    // Default node attributes: measured boxes, no Graphviz-side text.
    agattr(g, AGNODE, cs("shape"), cs("box"));
    agattr(g, AGNODE, cs("fixedsize"), cs("true"));
    agattr(g, AGNODE, cs("label"), cs(""));
    agattr(g, AGNODE, cs("width"), cs("0.75"));
    agattr(g, AGNODE, cs("height"), cs("0.5"));

    std::unordered_map<int, Agnode_t*> nodeOf;
    std::vector<Agnode_t*> nodes;
    nodes.reserve(req.nodes.size());
    for (const auto& n : req.nodes) {
        Agnode_t* an = agnode(g, cs("n" + std::to_string(n.id)), 1);
        set(an, "width", inches(n.width));
        set(an, "height", inches(n.height));
        nodeOf[n.id] = an;
        nodes.push_back(an);
    }
    std::vector<Agedge_t*> edges;
    edges.reserve(req.edges.size());
    for (const auto& e : req.edges) {
        auto t = nodeOf.find(e.tail), hd = nodeOf.find(e.head);
        if (t == nodeOf.end() || hd == nodeOf.end()) {
            out.error = "edge names an unknown node";
            return out;
        }
        edges.push_back(agedge(g, t->second, hd->second, nullptr, 1));
    }
    std::vector<Agraph_t*> clusters;
    for (const auto& c : req.clusters) {
        Agraph_t* sg = agsubg(g, cs("cluster_" + std::to_string(c.id)), 1);
        // An invisible one-space caption reserves header room at the top of the cluster
        // (a line is 1.2 x fontsize high in Graphviz' text estimate).
        if (c.header_height > 0) {
            set(sg, "label", " ");
            set(sg, "labelloc", "t");
            set(sg, "fontsize", formatDouble(c.header_height / 1.2));
        }
        set(sg, "margin", "10");
        for (int m : c.members)
            if (auto it = nodeOf.find(m); it != nodeOf.end()) agsubnode(sg, it->second, 1);
        clusters.push_back(sg);
    }

    agreseterrors();
    if (gvLayout(gvc, g, "dot") != 0 || agerrors() > 0) {
        out.error = "Graphviz dot layout failed: " + errors.text();
        return out;
    }
    h.laidOut = true;
    if (const std::string path = dumpPath(); !path.empty()) dumpGraph(gvc, g, path);

    const boxf bb = GD_bb(g);
    const double top = bb.UR.y;
    auto flip = [&](pointf p) { return LayoutPoint{p.x - bb.LL.x, top - p.y}; };
    out.width = bb.UR.x - bb.LL.x;
    out.height = bb.UR.y - bb.LL.y;
    out.nodes.reserve(nodes.size());
    for (Agnode_t* an : nodes) {
        const double w = ND_width(an) * 72.0, ht = ND_height(an) * 72.0;
        const LayoutPoint c = flip(ND_coord(an));
        out.nodes.push_back({c.x - w / 2, c.y - ht / 2, w, ht});
    }
    out.edges.reserve(edges.size());
    for (Agedge_t* ae : edges) {
        LayoutResult::Edge route;
        if (const splines* spl = ED_spl(ae); spl && spl->size > 0) {
            const bezier& bz = spl->list[0];
            route.path.reserve(size_t(bz.size));
            for (int k = 0; k < bz.size; ++k)
                route.path.push_back(flip(bz.list[k]));
            if (bz.eflag) route.arrow_tip = flip(bz.ep);
        }
        out.edges.push_back(std::move(route));
    }
    out.clusters.reserve(clusters.size());
    for (Agraph_t* sg : clusters) {
        const boxf cb = GD_bb(sg);
        const LayoutPoint tl = flip(pointf{cb.LL.x, cb.UR.y});
        out.clusters.push_back({tl.x, tl.y, cb.UR.x - cb.LL.x, cb.UR.y - cb.LL.y});
    }
    out.ok = true;
    out.milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return out;
}

} // namespace

std::unique_ptr<Layouter> makeGraphvizLayouter() {
    return std::make_unique<GraphvizLayouter>();
}

std::string graphvizBackendInfo() {
    detail::graphvizContext();
    return std::string("Graphviz ") + PACKAGE_VERSION +
           (detail::pluginsPreloaded() ? " (dot layout preloaded)"
                                       : " (dot layout from the installed plugin configuration)");
}

} // namespace lf::graph
