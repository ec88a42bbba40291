#include "graph/layout_protocol.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>

namespace lf::graph::protocol {

namespace {

using nlohmann::json;

json rect(const LayoutRect& r) {
    return json::array({r.x, r.y, r.width, r.height});
}
LayoutRect rectOf(const json& j) {
    return {j.at(0).get<double>(), j.at(1).get<double>(), j.at(2).get<double>(),
            j.at(3).get<double>()};
}
json point(const LayoutPoint& p) {
    return json::array({p.x, p.y});
}
LayoutPoint pointOf(const json& j) {
    return {j.at(0).get<double>(), j.at(1).get<double>()};
}

template <class T, class F> std::vector<T> listOf(const json& j, F f) {
    if (!j.is_array()) throw std::runtime_error("expected an array");
    std::vector<T> out;
    out.reserve(j.size());
    for (const json& e : j)
        out.push_back(f(e));
    return out;
}

} // namespace

std::vector<uint8_t> encode(const LayoutRequest& r) {
    json nodes = json::array(), edges = json::array(), clusters = json::array();
    for (const auto& n : r.nodes)
        nodes.push_back(json::array({n.id, n.width, n.height}));
    for (const auto& e : r.edges)
        edges.push_back(json::array({e.tail, e.head}));
    for (const auto& c : r.clusters)
        clusters.push_back({{"id", c.id}, {"members", c.members}, {"header", c.header_height}});
    const json j = {{"kind", "request"},
                    {"nodes", std::move(nodes)},
                    {"edges", std::move(edges)},
                    {"clusters", std::move(clusters)},
                    {"nodesep", r.node_separation},
                    {"ranksep", r.rank_separation},
                    {"polyline", r.polyline_edges}};
    return json::to_cbor(j);
}

std::vector<uint8_t> encode(const LayoutResult& r) {
    json edges = json::array();
    for (const auto& e : r.edges) {
        json path = json::array();
        for (const auto& p : e.path)
            path.push_back(point(p));
        json je = {{"path", std::move(path)}};
        if (e.arrow_tip) je["tip"] = point(*e.arrow_tip);
        edges.push_back(std::move(je));
    }
    json nodes = json::array(), clusters = json::array();
    for (const auto& n : r.nodes)
        nodes.push_back(rect(n));
    for (const auto& c : r.clusters)
        clusters.push_back(rect(c));
    const json j = {{"kind", "result"},          {"ok", r.ok},
                    {"error", r.error},          {"width", r.width},
                    {"height", r.height},        {"nodes", std::move(nodes)},
                    {"edges", std::move(edges)}, {"clusters", std::move(clusters)},
                    {"ms", r.milliseconds}};
    return json::to_cbor(j);
}

std::optional<LayoutRequest> decodeRequest(const std::vector<uint8_t>& bytes, std::string& error) {
    try {
        const json j = json::from_cbor(bytes);
        if (j.at("kind") != "request") throw std::runtime_error("not a layout request");
        LayoutRequest r;
        r.nodes = listOf<LayoutRequest::Node>(j.at("nodes"), [](const json& e) {
            return LayoutRequest::Node{e.at(0).get<int>(), e.at(1).get<double>(),
                                       e.at(2).get<double>()};
        });
        r.edges = listOf<LayoutRequest::Edge>(j.at("edges"), [](const json& e) {
            return LayoutRequest::Edge{e.at(0).get<int>(), e.at(1).get<int>()};
        });
        r.clusters = listOf<LayoutRequest::Cluster>(j.at("clusters"), [](const json& e) {
            return LayoutRequest::Cluster{e.at("id").get<int>(),
                                          e.at("members").get<std::vector<int>>(),
                                          e.at("header").get<double>()};
        });
        r.node_separation = j.at("nodesep").get<double>();
        r.rank_separation = j.at("ranksep").get<double>();
        r.polyline_edges = j.at("polyline").get<bool>();
        return r;
    } catch (const std::exception& e) {
        error = std::string("malformed layout request: ") + e.what();
        return std::nullopt;
    }
}

std::optional<LayoutResult> decodeResult(const std::vector<uint8_t>& bytes, std::string& error) {
    try {
        const json j = json::from_cbor(bytes);
        if (j.at("kind") != "result") throw std::runtime_error("not a layout result");
        LayoutResult r;
        r.ok = j.at("ok").get<bool>();
        r.error = j.at("error").get<std::string>();
        r.width = j.at("width").get<double>();
        r.height = j.at("height").get<double>();
        r.nodes = listOf<LayoutRect>(j.at("nodes"), rectOf);
        r.clusters = listOf<LayoutRect>(j.at("clusters"), rectOf);
        r.edges = listOf<LayoutResult::Edge>(j.at("edges"), [](const json& e) {
            LayoutResult::Edge out;
            out.path = listOf<LayoutPoint>(e.at("path"), pointOf);
            if (e.contains("tip")) out.arrow_tip = pointOf(e.at("tip"));
            return out;
        });
        r.milliseconds = j.at("ms").get<double>();
        return r;
    } catch (const std::exception& e) {
        error = std::string("malformed layout result: ") + e.what();
        return std::nullopt;
    }
}

std::vector<uint8_t> frame(const std::vector<uint8_t>& payload) {
    const auto n = uint32_t(payload.size());
    std::vector<uint8_t> out(4 + payload.size());
    for (int k = 0; k < 4; ++k)
        out[size_t(k)] = uint8_t(n >> (8 * k));
    std::copy(payload.begin(), payload.end(), out.begin() + 4);
    return out;
}

uint32_t frameLength(const uint8_t h[4]) {
    return uint32_t(h[0]) | uint32_t(h[1]) << 8 | uint32_t(h[2]) << 16 | uint32_t(h[3]) << 24;
}

bool readFrame(std::FILE* in, std::vector<uint8_t>& payload) {
    uint8_t header[4];
    if (std::fread(header, 1, 4, in) != 4) return false;
    const uint32_t n = frameLength(header);
    if (n > kMaxFrameBytes) return false;
    payload.resize(n);
    return n == 0 || std::fread(payload.data(), 1, n, in) == n;
}

bool writeFrame(std::FILE* out, const std::vector<uint8_t>& payload) {
    if (payload.size() > kMaxFrameBytes) return false;
    const std::vector<uint8_t> f = frame(payload);
    return std::fwrite(f.data(), 1, f.size(), out) == f.size() && std::fflush(out) == 0;
}

} // namespace lf::graph::protocol
