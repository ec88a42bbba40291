// The wire format between the studio and layerfuse-layout, the process that runs Graphviz
// (process_layouter.h). A message is a frame: 4-byte little-endian payload length, then the
// payload, a CBOR document (nlohmann-json) holding a LayoutRequest or a LayoutResult.
#pragma once

#include "graph/layouter.h"

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace lf::graph::protocol {

// How many layouts one helper process serves before the studio replaces it with a fresh one
// (ProcessLayouter::Options::recycle_after). One: dot 2.42's result for a graph depends on
// what the same process laid out before, and it leaks ~100 KB per clustered layout; a fresh
// process per layout gives the same picture every time and returns the leak. The helper
// states it in its --help.
constexpr int kLayoutsPerHelper = 1;

// Frames larger than this are refused on both sides (a 10^5-node request is ~10 MB).
constexpr uint32_t kMaxFrameBytes = 256u << 20;

std::vector<uint8_t> encode(const LayoutRequest& request);
std::vector<uint8_t> encode(const LayoutResult& result);
// Decoding fails (nullopt, `error` set) on anything that is not a well-formed message.
std::optional<LayoutRequest> decodeRequest(const std::vector<uint8_t>& bytes, std::string& error);
std::optional<LayoutResult> decodeResult(const std::vector<uint8_t>& bytes, std::string& error);

// The 4-byte length prefix of a frame.
std::vector<uint8_t> frame(const std::vector<uint8_t>& payload);
uint32_t frameLength(const uint8_t header[4]);

// Blocking frame I/O on stdio streams (the helper's side). readFrame returns false at end of
// input or on a malformed frame; writeFrame false when the stream fails.
bool readFrame(std::FILE* in, std::vector<uint8_t>& payload);
bool writeFrame(std::FILE* out, const std::vector<uint8_t>& payload);

} // namespace lf::graph::protocol
