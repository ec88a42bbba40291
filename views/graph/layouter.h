// Graph layout behind an interface: the canvas asks for a layout of boxes, edges and
// clusters and receives plain data (scene units, y pointing down). The Graphviz backend is
// one implementation (graphviz_layouter.h); tests and other engines can provide others.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lf::graph {

struct LayoutPoint {
    double x = 0, y = 0;
};

// Top-left corner plus size, y down.
struct LayoutRect {
    double x = 0, y = 0, width = 0, height = 0;
    double right() const { return x + width; }
    double bottom() const { return y + height; }
    LayoutPoint center() const { return {x + width / 2, y + height / 2}; }
    bool contains(const LayoutRect& r, double tolerance = 0) const {
        return r.x >= x - tolerance && r.y >= y - tolerance && r.right() <= right() + tolerance &&
               r.bottom() <= bottom() + tolerance;
    }
};

struct LayoutRequest {
    struct Node {
        int id = 0;       // stable key (the layer id)
        double width = 0; // measured by the caller, scene units
        double height = 0;
    };
    struct Edge {
        int tail = 0, head = 0; // node ids
    };
    struct Cluster {
        int id = 0;               // stable key of the group
        std::vector<int> members; // node ids
        double header_height = 0; // room reserved above the members for a caption
    };
    std::vector<Node> nodes;
    std::vector<Edge> edges;
    std::vector<Cluster> clusters;
    double node_separation = 18; // between neighbours on one rank, scene units
    double rank_separation = 40; // between ranks
    // Straight polyline edges instead of splines: much faster on very large graphs.
    bool polyline_edges = false;
};

struct LayoutResult {
    struct Edge {
        // A cubic Bézier chain: start point, then three points (c1, c2, end) per segment.
        std::vector<LayoutPoint> path;
        std::optional<LayoutPoint> arrow_tip; // where the arrow head points to
    };
    bool ok = false;
    std::string error;
    double width = 0, height = 0;
    std::vector<LayoutRect> nodes;    // parallel to LayoutRequest::nodes
    std::vector<Edge> edges;          // parallel to LayoutRequest::edges
    std::vector<LayoutRect> clusters; // parallel to LayoutRequest::clusters
    double milliseconds = 0;          // time spent in the engine
};

class Layouter {
  public:
    virtual ~Layouter() = default;
    virtual LayoutResult layout(const LayoutRequest& request) = 0;
};

// The Graphviz `dot` backend (hierarchical layout; call on the GUI thread only).
std::unique_ptr<Layouter> makeGraphvizLayouter();
// "Graphviz 2.43.0 (dot layout preloaded)" — for the About box and bug reports.
std::string graphvizBackendInfo();

} // namespace lf::graph
