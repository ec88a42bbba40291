// ONNX import of a large model (issue 14): a ResNet-50-shaped network with 25.5 M fp32
// weights (about 100 MB), generated here with the protobuf classes and written to a
// temporary file; each iteration imports the file (read, parse, translate, build).
// Target: under 2 s and under 4 GB. The counters give the model size and the peak RSS of a
// child process that imports the file once (forked after the generator's memory is freed).
#include "io/onnx_import.h"

#include <benchmark/benchmark.h>
#include <onnx/onnx_pb.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

using namespace lf;

namespace {

struct Gen {
    onnx::GraphProto* g;
    int n = 0;
    int64_t weights = 0;

    std::string tensor(const std::vector<int64_t>& dims) {
        auto* t = g->add_initializer();
        t->set_name("w" + std::to_string(n++));
        t->set_data_type(onnx::TensorProto::FLOAT);
        int64_t count = 1;
        for (int64_t d : dims) {
            t->add_dims(d);
            count *= d;
        }
        weights += count;
        t->set_raw_data(std::string(size_t(count) * 4, '\0'));
        return t->name();
    }
    std::string node(const std::string& op, std::vector<std::string> in) {
        auto* nd = g->add_node();
        nd->set_op_type(op);
        nd->set_name(op + std::to_string(n));
        for (auto& i : in)
            nd->add_input(i);
        const std::string out = "t" + std::to_string(n++);
        nd->add_output(out);
        return out;
    }
    void ints(const std::string& name, std::vector<int64_t> v) {
        auto* a = g->mutable_node(g->node_size() - 1)->add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INTS);
        for (int64_t x : v)
            a->add_ints(x);
    }
    std::string convBnRelu(const std::string& x, int64_t cin, int64_t cout, int k, int s,
                           bool relu = true) {
        std::string y = node("Conv", {x, tensor({cout, cin, k, k})});
        ints("strides", {s, s});
        ints("pads", {k / 2, k / 2, k / 2, k / 2});
        y = node("BatchNormalization",
                 {y, tensor({cout}), tensor({cout}), tensor({cout}), tensor({cout})});
        return relu ? node("Relu", {y}) : y;
    }
};

std::string resnet50Bytes(int64_t* weights) {
    onnx::ModelProto m;
    m.set_ir_version(8);
    m.add_opset_import()->set_version(13);
    Gen G{m.mutable_graph()};
    auto* in = G.g->add_input();
    in->set_name("image");
    auto* shape = in->mutable_type()->mutable_tensor_type();
    shape->set_elem_type(onnx::TensorProto::FLOAT);
    for (int64_t d : {1, 3, 224, 224})
        shape->mutable_shape()->add_dim()->set_dim_value(d);
    std::string x = G.convBnRelu("image", 3, 64, 7, 2);
    x = G.node("MaxPool", {x});
    G.ints("kernel_shape", {3, 3});
    G.ints("strides", {2, 2});
    G.ints("pads", {1, 1, 1, 1});
    int64_t cin = 64;
    const int blocks[4] = {3, 4, 6, 3};
    for (int stage = 0; stage < 4; ++stage) {
        const int64_t mid = 64 << stage, out = mid * 4;
        for (int b = 0; b < blocks[stage]; ++b) {
            const int s = b == 0 && stage > 0 ? 2 : 1;
            std::string y = G.convBnRelu(x, cin, mid, 1, 1);
            y = G.convBnRelu(y, mid, mid, 3, s);
            y = G.convBnRelu(y, mid, out, 1, 1, false);
            const std::string sc = b == 0 ? G.convBnRelu(x, cin, out, 1, s, false) : x;
            x = G.node("Relu", {G.node("Add", {y, sc})});
            cin = out;
        }
    }
    x = G.node("Flatten", {G.node("GlobalAveragePool", {x})});
    x = G.node("Gemm", {x, G.tensor({1000, 2048}), G.tensor({1000})});
    auto* a = G.g->mutable_node(G.g->node_size() - 1)->add_attribute();
    a->set_name("transB");
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(1);
    G.g->add_output()->set_name(x);
    *weights = G.weights;
    return m.SerializeAsString();
}

const std::string& modelPath(int64_t* bytes, int64_t* weights) {
    static int64_t b = 0, w = 0;
    static const std::string path = [] {
        const std::string p =
            (std::filesystem::temp_directory_path() / "layerfuse-bench-resnet50.onnx").string();
        std::ofstream f(p, std::ios::binary | std::ios::trunc);
        const std::string bytes = resnet50Bytes(&w);
        f << bytes;
        b = int64_t(bytes.size());
        return p;
    }();
    *bytes = b;
    *weights = w;
    return path;
}

// Peak RSS (MB) of a child that imports the file once.
double childPeakRssMb(const std::string& path) {
    const pid_t pid = fork();
    if (pid == 0) _exit(importOnnx(path).ok() ? 0 : 1);
    int status = 0;
    struct rusage ru {};
    if (pid < 0 || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        return -1;
    return double(ru.ru_maxrss) / 1024.0;
}

void BM_ImportOnnx100MB(benchmark::State& st) {
    int64_t bytes = 0, weights = 0;
    const std::string& path = modelPath(&bytes, &weights);
    for (auto _ : st) {
        auto r = importOnnx(path);
        if (!r) {
            st.SkipWithError(r.error().toString().c_str());
            break;
        }
        benchmark::DoNotOptimize(r);
    }
    st.counters["model_MB"] = double(bytes) / 1e6;
    st.counters["weights_M"] = double(weights) / 1e6;
    st.counters["peak_rss_MB"] = childPeakRssMb(path);
}
BENCHMARK(BM_ImportOnnx100MB)->Unit(benchmark::kMillisecond)->Iterations(3);

} // namespace

BENCHMARK_MAIN();
