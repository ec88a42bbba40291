// libFuzzer target: the ONNX importer (io/onnx_import.h) on arbitrary bytes, with and without
// an input shape and with unsupported operators kept as opaque layers.
#include "io/onnx_import.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    lf::OnnxImportOptions opt;
    opt.allow_opaque = (data[0] & 1) != 0;
    if (data[0] & 2) opt.input_shape = {1, 3, 32, 32};
    const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
    const auto net = lf::importOnnxBytes(bytes, "fuzz.onnx", opt);
    if (!net && net.error().message.empty()) std::abort();
    return 0;
}
