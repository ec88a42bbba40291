#include "network/canonical_hash.h"

#include "util/hash.h"

#include <algorithm>
#include <charconv>
#include <string_view>

namespace lf {

namespace {

// Appends to a buffer that is hashed in 64 KB pieces (10^6 layers never sit in memory as
// one text).
class HashWriter {
  public:
    void text(std::string_view s) {
        buf_ += s;
        if (buf_.size() >= (size_t(1) << 16)) flush();
    }
    // Strings are written as <length>:<bytes>, so no name can imitate the separators.
    void str(std::string_view s) {
        num(int64_t(s.size()));
        buf_ += ':';
        text(s);
    }
    void num(int64_t v) {
        char b[24];
        auto r = std::to_chars(b, b + sizeof b, v);
        buf_.append(b, r.ptr);
        buf_ += ' ';
    }
    std::string finish() {
        flush();
        return sha_.finishHex();
    }

  private:
    void flush() {
        sha_.update(buf_);
        buf_.clear();
    }
    Sha256 sha_;
    std::string buf_;
};

} // namespace

std::string canonicalHash(const std::vector<Layer>& layers) {
    std::vector<const Layer*> byName(layers.size());
    for (size_t k = 0; k < layers.size(); ++k)
        byName[k] = &layers[k];
    std::sort(byName.begin(), byName.end(),
              [](const Layer* a, const Layer* b) { return a->name < b->name; });
    HashWriter w;
    w.text("layerfuse-network-1\n");
    for (const Layer* lp : byName) {
        const Layer& l = *lp;
        w.str(l.name);
        w.str(toString(l.type));
        const auto& ops = l.operandIds();
        w.num(int64_t(ops.size()));
        for (LayerId p : ops)
            w.str(layers[size_t(p)].name);
        w.num(l.out.c);
        w.num(l.out.h);
        w.num(l.out.w);
        switch (l.type) {
        case LayerType::conv:
        case LayerType::deconv:
        case LayerType::pool:
            for (int64_t v :
                 {int64_t(l.kernel_h), int64_t(l.kernel_w), int64_t(l.stride_h),
                  int64_t(l.stride_w), int64_t(l.pad_t), int64_t(l.pad_l), int64_t(l.pad_b),
                  int64_t(l.pad_r), int64_t(l.dilation_h), int64_t(l.dilation_w), l.groups})
                w.num(v);
            if (l.type == LayerType::pool) {
                w.str(toString(l.pool_mode));
                w.num(l.ceil_mode ? 1 : 0);
            }
            if (l.type == LayerType::deconv) {
                w.num(l.output_pad_h);
                w.num(l.output_pad_w);
            }
            break;
        case LayerType::global_pool:
            w.str(toString(l.pool_mode));
            break;
        case LayerType::resize:
            w.num(l.scale_h);
            w.num(l.scale_w);
            w.str(toString(l.resize_mode));
            break;
        case LayerType::opaque:
            w.str(l.op_type);
            break;
        case LayerType::concat:
            if (l.const_channels) w.num(l.const_channels); // absent before constant inputs
            break;
        case LayerType::reorg:
            w.str(l.op_type);
            w.num(l.slice_begin);
            w.num(l.slice_step);
            w.num(l.block);
            break;
        default:
            break;
        }
        w.text("\n");
    }
    return w.finish();
}

} // namespace lf
