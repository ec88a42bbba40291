#include "search/segment_front_io.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace lf {

namespace {

constexpr uint32_t kMagic = 0x4C465346; // "LFSF"

class Writer {
  public:
    template <class T> void put(T v) {
        static_assert(std::is_trivially_copyable_v<T>);
        out.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
    std::string out;
};

class Reader {
  public:
    explicit Reader(const std::string& s) : s_(s) {}
    template <class T> bool get(T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        if (s_.size() - pos_ < sizeof v) return false;
        std::memcpy(&v, s_.data() + pos_, sizeof v);
        pos_ += sizeof v;
        return true;
    }
    // A count of items of at least `minBytes` each that the rest of the bytes can hold.
    bool count(uint64_t& n, size_t minBytes) {
        return get(n) && n <= (s_.size() - pos_) / std::max<size_t>(1, minBytes);
    }
    bool done() const { return pos_ == s_.size(); }

  private:
    const std::string& s_;
    size_t pos_ = 0;
};

void putDims(Writer& w, const std::vector<LoopDim>& dims) {
    w.put(uint64_t(dims.size()));
    for (LoopDim d : dims)
        w.put(d);
}

bool getDims(Reader& r, std::vector<LoopDim>& dims) {
    uint64_t n = 0;
    if (!r.count(n, 1)) return false;
    dims.resize(n);
    for (LoopDim& d : dims)
        if (!r.get(d) || uint8_t(d) > uint8_t(LoopDim::b)) return false;
    return true;
}

void putLayer(Writer& w, const LayerSchedule& l) {
    w.put(l.order);
    w.put(l.tile);
    w.put(l.store);
    w.put(l.compute);
    w.put(uint8_t(l.unroll.has_value()));
    if (l.unroll) {
        putDims(w, l.unroll->cols);
        putDims(w, l.unroll->rows);
    }
}

bool getLayer(Reader& r, LayerSchedule& l) {
    uint8_t unroll = 0;
    if (!r.get(l.order) || !r.get(l.tile) || !r.get(l.store) || !r.get(l.compute) ||
        !r.get(unroll) || unroll > 1)
        return false;
    for (Dim d : l.order)
        if (uint8_t(d) > uint8_t(Dim::i)) return false;
    for (const auto* levels : {&l.store, &l.compute})
        for (Level v : *levels)
            if (uint8_t(v) > uint8_t(Level::l4)) return false;
    if (unroll) {
        l.unroll.emplace();
        if (!getDims(r, l.unroll->cols) || !getDims(r, l.unroll->rows)) return false;
    }
    return true;
}

} // namespace

std::string encodeSegmentFront(const SegmentFront& f) {
    Writer w;
    w.put(kMagic);
    w.put(uint64_t(f.layers.size()));
    for (LayerId id : f.layers)
        w.put(id);
    w.put(f.evaluations);
    w.put(uint8_t(f.cancelled));
    w.put(uint8_t(f.skipped));
    w.put(uint64_t(f.points.size()));
    for (const SegmentPoint& p : f.points) {
        w.put(p.dram);
        w.put(p.buffer_bits);
        w.put(p.macs);
        w.put(uint8_t(p.weights_resident));
        w.put(p.strategy);
        w.put(uint8_t(p.out_tile.has_value()));
        if (p.out_tile) {
            w.put(p.out_tile->h);
            w.put(p.out_tile->w);
        }
        w.put(uint64_t(p.layers.size()));
        for (const LayerSchedule& l : p.layers)
            putLayer(w, l);
    }
    return std::move(w.out);
}

std::optional<SegmentFront> decodeSegmentFront(const std::string& bytes) {
    Reader r(bytes);
    SegmentFront f;
    uint32_t magic = 0;
    uint64_t n = 0;
    uint8_t flag = 0;
    if (!r.get(magic) || magic != kMagic || !r.count(n, sizeof(LayerId))) return std::nullopt;
    f.layers.resize(n);
    for (LayerId& id : f.layers)
        if (!r.get(id)) return std::nullopt;
    if (!r.get(f.evaluations) || !r.get(flag) || flag > 1) return std::nullopt;
    f.cancelled = flag != 0;
    if (!r.get(flag) || flag > 1) return std::nullopt;
    f.skipped = flag != 0;
    if (!r.count(n, 3 * sizeof(int64_t))) return std::nullopt;
    f.points.resize(n);
    for (SegmentPoint& p : f.points) {
        uint8_t resident = 0, tile = 0;
        if (!r.get(p.dram) || !r.get(p.buffer_bits) || !r.get(p.macs) || !r.get(resident) ||
            resident > 1 || !r.get(p.strategy) ||
            uint8_t(p.strategy) > uint8_t(Strategy::optimus) || !r.get(tile) || tile > 1)
            return std::nullopt;
        p.weights_resident = resident != 0;
        if (tile) {
            p.out_tile.emplace();
            if (!r.get(p.out_tile->h) || !r.get(p.out_tile->w)) return std::nullopt;
        }
        if (!r.count(n, sizeof(LayerSchedule::order))) return std::nullopt;
        p.layers.resize(n);
        for (LayerSchedule& l : p.layers)
            if (!getLayer(r, l)) return std::nullopt;
    }
    if (!r.done()) return std::nullopt;
    return f;
}

} // namespace lf
