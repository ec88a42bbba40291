// A segment front as bytes and back, for fronts searched in another process
// (search/distribution.h). Native byte order: the processes of one run share a machine type.
#pragma once

#include "search/segment_search.h"

#include <optional>
#include <string>

namespace lf {

std::string encodeSegmentFront(const SegmentFront& f);
// nullopt when the bytes are not a whole front of this format.
std::optional<SegmentFront> decodeSegmentFront(const std::string& bytes);

} // namespace lf
