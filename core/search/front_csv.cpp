#include "search/front_csv.h"

#include "search/work_pool.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace lf {

namespace {

constexpr size_t kRowsPerBlock = 4096;

void appendInt(std::string& out, int64_t v) {
    char buf[24];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, res.ptr);
}

// util/format.h's formatDouble (shortest round trip), without a temporary string.
void appendDouble(std::string& out, double v) {
    if (std::isnan(v)) {
        out += ".nan";
    } else if (std::isinf(v)) {
        out += v > 0 ? ".inf" : "-.inf";
    } else {
        char buf[64];
        const auto res = std::to_chars(buf, buf + sizeof buf, v);
        out.append(buf, res.ptr);
    }
}

} // namespace

void appendFrontCsvRow(std::string& out, size_t index, const FrontRow& r) {
    appendInt(out, int64_t(index));
    out += ',';
    appendInt(out, r.point.dram_accesses);
    out += ',';
    appendInt(out, r.point.buffer_bytes);
    out += ',';
    appendInt(out, r.point.macs);
    out += ',';
    appendInt(out, r.recompute_macs);
    out += ',';
    appendDouble(out, r.energy_pj);
    out += ',';
    appendInt(out, r.latency_cycles);
    out += r.fits ? ",true," : ",false,";
    appendInt(out, r.fused_groups);
    out += '\n';
}

bool writeFrontCsv(std::ostream& out, FrontRows& rows, const std::vector<size_t>& points,
                   WorkPool* pool, const std::atomic<bool>* cancel) {
    out << frontCsvHeader();
    // Waves of a few blocks per thread: costed and formatted in parallel, written in order.
    const size_t threads = pool ? size_t(pool->threads()) : 1;
    const size_t wave = kRowsPerBlock * 2 * threads;
    for (size_t begin = 0; begin < points.size() && out; begin += wave) {
        if (cancel && cancel->load(std::memory_order_relaxed)) return false;
        const size_t end = std::min(points.size(), begin + wave);
        rows.prepare({points.begin() + std::ptrdiff_t(begin), points.begin() + std::ptrdiff_t(end)},
                     pool);
        const size_t blocks = (end - begin + kRowsPerBlock - 1) / kRowsPerBlock;
        std::vector<std::string> text(blocks);
        parallelFor(pool, blocks, [&](size_t b) {
            const size_t first = begin + b * kRowsPerBlock;
            const size_t last = std::min(end, first + kRowsPerBlock);
            text[b].reserve((last - first) * 96);
            for (size_t k = first; k < last; ++k)
                appendFrontCsvRow(text[b], k, rows.row(points[k]));
        });
        for (const std::string& t : text)
            out.write(t.data(), std::streamsize(t.size()));
    }
    out.flush();
    return bool(out);
}

} // namespace lf
