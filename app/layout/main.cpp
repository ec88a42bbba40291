// layerfuse-layout: runs Graphviz `dot` for the studio in a process of its own. It reads
// layout requests from stdin and writes results to stdout, one frame each
// (views/graph/layout_protocol.h), until stdin ends. Keeping Graphviz out of the studio's
// process keeps what dot 2.42 leaks on graphs with clusters (about 100 KB per layout) out of
// the studio, and gives the same picture for the same graph: the studio replaces this
// process after protocol::kLayoutsPerHelper layouts (one), by closing its stdin.
#include "graph/layout_protocol.h"
#include "graph/layouter.h"

#include <clocale>
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
    using namespace lf::graph;
    if (argc > 1) {
        const bool help = std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0;
        if (help || std::strcmp(argv[1], "--version") == 0) {
            if (help)
                std::printf("layerfuse-layout: Graphviz layout process of the LayerFuse studio "
                            "(framed CBOR on stdin/stdout).\nThe studio starts a fresh one "
                            "every %d layout(s); it ends when stdin closes.\n",
                            protocol::kLayoutsPerHelper);
            else
                std::printf("%s\n", graphvizBackendInfo().c_str());
            return 0;
        }
        std::fprintf(stderr, "layerfuse-layout: unknown argument '%s' (see --help)\n", argv[1]);
        return 1;
    }
    std::setlocale(LC_NUMERIC, "C");
    auto layouter = makeGraphvizLayouter();
    std::vector<uint8_t> payload;
    while (protocol::readFrame(stdin, payload)) {
        std::string error;
        LayoutResult result;
        if (const auto request = protocol::decodeRequest(payload, error))
            result = layouter->layout(*request);
        else
            result.error = error;
        if (!protocol::writeFrame(stdout, protocol::encode(result))) return 1;
    }
    return 0;
}
