// Output-shape inference for every layer kind (docs/models/README.md).
#pragma once

#include "network/layer.h"

#include <string>
#include <vector>

namespace lf {

// Infers layer.out from the shapes of its inputs. Returns an empty string on success,
// else a message that says what is wrong (the caller adds file/line/column).
std::string inferShape(Layer& layer, const std::vector<Shape>& inputs);

// Output extent of a sliding window (conv/pool) along one axis; -1 if the window does not
// fit. ceil_mode follows ONNX/PyTorch: the last window must start inside input + left pad.
int64_t slidingOutExtent(int64_t in, int kernel, int stride, int pad_before, int pad_after,
                         int dilation, bool ceil_mode);

} // namespace lf
