// Writes a few small ONNX models (the operators the importer maps, folds or refuses) into a
// directory, as the seed corpus of fuzz_onnx. Usage: make_onnx_seeds DIR
#include "onnx_model_builder.h"

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

using lf::test::OnnxModelBuilder;
using lf::test::setAttr;
using Ints = std::vector<int64_t>;

namespace {

bool save(const std::string& dir, const char* name, OnnxModelBuilder& b) {
    std::ofstream f(dir + "/" + name, std::ios::binary);
    return f && b.model.SerializeToOstream(&f);
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_onnx_seeds DIR\n");
        return 2;
    }
    const std::string dir = argv[1];
    bool ok = true;
    {
        OnnxModelBuilder b;
        b.input("x", {1, 3, 16, 16}).output("y");
        b.weight("w", {8, 3, 3, 3});
        setAttr(b.node("Conv", {"x", "w"}, {"c"}, "conv"), "pads", Ints{1, 1, 1, 1});
        b.node("Relu", {"c"}, {"r"}, "relu");
        auto& pool = b.node("MaxPool", {"r"}, {"y"}, "pool");
        setAttr(pool, "kernel_shape", Ints{2, 2});
        setAttr(pool, "strides", Ints{2, 2});
        ok = save(dir, "conv-relu-pool.onnx", b) && ok;
    }
    {
        OnnxModelBuilder b;
        b.input("x", {1, 4, 8, 8}).output("y");
        b.weight("w1", {4, 4, 1, 1}).weight("w2", {4, 4, 3, 3});
        b.node("Conv", {"x", "w1"}, {"a"}, "a");
        setAttr(b.node("Conv", {"x", "w2"}, {"b"}, "b"), "pads", Ints{1, 1, 1, 1});
        b.node("Add", {"a", "b"}, {"s"}, "add");
        setAttr(b.node("Concat", {"s", "a"}, {"y"}, "cat"), "axis", int64_t(1));
        ok = save(dir, "fork-add-concat.onnx", b) && ok;
    }
    {
        OnnxModelBuilder b;
        b.input("x", {1, 8, 4, 4}).output("y");
        b.node("GlobalAveragePool", {"x"}, {"g"}, "gap");
        b.node("Flatten", {"g"}, {"f"}, "flat");
        b.weight("w", {10, 8}).weight("bias", {10});
        setAttr(b.node("Gemm", {"f", "w", "bias"}, {"y"}, "fc"), "transB", int64_t(1));
        ok = save(dir, "gap-flatten-gemm.onnx", b) && ok;
    }
    return ok ? 0 : 1;
}
