#include "network/network.h"

#include "network/network_data.h"

namespace lf {

namespace {
const std::vector<LayerId> kNoIds;
} // namespace

Network::Network() : d_(std::make_shared<Data>()) {}

const std::string& Network::name() const {
    return d_->name;
}
const std::string& Network::description() const {
    return d_->description;
}
const std::vector<Layer>& Network::layers() const {
    return d_->layers;
}
const Layer& Network::layer(LayerId id) const {
    return d_->layers[size_t(id)];
}
int32_t Network::size() const {
    return int32_t(d_->layers.size());
}
LayerId Network::find(std::string_view name) const {
    auto it = d_->by_name.find(name);
    return it == d_->by_name.end() ? kNoLayer : it->second;
}
const std::vector<LayerId>& Network::successors(LayerId id) const {
    if (id < 0 || size_t(id) >= d_->succ.size()) return kNoIds;
    return d_->succ[size_t(id)];
}
const std::vector<LayerId>& Network::inputIds() const {
    return d_->input_ids;
}
const std::vector<LayerId>& Network::computeIds() const {
    return d_->compute_ids;
}
Shape Network::inputShape(LayerId id, size_t k) const {
    const Layer& l = layer(id);
    if (k >= l.inputs.size()) return {};
    return layer(l.inputs[k]).out;
}
const std::string& Network::canonicalHash() const {
    return d_->hash;
}

bool operator==(const Network& a, const Network& b) {
    if (a.d_ == b.d_) return true;
    return a.d_->name == b.d_->name && a.d_->description == b.d_->description &&
           a.d_->hash == b.d_->hash;
}

NetworkSpec Network::toSpec() const {
    NetworkSpec spec;
    spec.name = d_->name;
    spec.description = d_->description;
    for (const Layer& l : d_->layers) {
        if (l.type == LayerType::input) {
            spec.inputs.push_back(InputSpec{l.name, l.out, l.pos, {}});
            continue;
        }
        LayerSpec ls;
        ls.layer = l;
        ls.layer.inputs.clear();
        ls.layer.operands.clear();
        for (LayerId p : l.operandIds())
            ls.input_names.push_back(layer(p).name);
        spec.layers.push_back(std::move(ls));
    }
    return spec;
}

} // namespace lf
