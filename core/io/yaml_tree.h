// A compact, read-only YAML document built from yaml-cpp's event parser.
//
// YAML::Load builds a tree of shared, reference-counted nodes (several hundred bytes per
// scalar, and time that grows faster than the file); a network of 10^6 layers would need
// gigabytes. The readers of LayerFuse's own formats walk this tree instead: nodes are 16-byte
// records in one array, scalars live in one string pool. Built with hard limits: nesting
// depth, number of nodes, and the size the document would have with every alias expanded
// (so "billion laughs" documents are refused instead of walked), duplicate keys refused, one
// document per file.
#pragma once

#include "util/result.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lf::yamlio {

struct TreeLimits {
    static constexpr int kMaxDepth = 256;
    // ~770 MB of tree at most; a 2^20-layer network with every option spelled out needs
    // about 42 M nodes.
    static constexpr int64_t kMaxNodes = 48'000'000;
};

class Tree;

// A handle to one node of a Tree (the Tree must outlive it). A default-constructed or
// missing node is "undefined": operator bool is false, every accessor is safe.
class TNode {
  public:
    TNode() = default;

    bool IsDefined() const { return tree_ != nullptr; }
    explicit operator bool() const { return IsDefined(); }
    bool operator!() const { return !IsDefined(); }
    bool IsNull() const;
    bool IsScalar() const;
    bool IsSequence() const;
    bool IsMap() const;

    // Scalar text (empty for other nodes).
    std::string_view Scalar() const;
    // Entries of a sequence or map (0 for other nodes).
    size_t size() const;
    // Mapping lookup by key text; undefined when absent or not a map.
    TNode operator[](std::string_view key) const;
    // i-th element of a sequence; i-th key / value of a map.
    TNode item(size_t i) const;
    TNode key(size_t i) const;
    TNode value(size_t i) const;
    // 1-based line and column.
    SourcePos pos() const;

    // Iteration: sequences yield their elements; maps yield key/value pairs as `first` and
    // `second` (as yaml-cpp does).
    struct Entry;
    class Iterator;
    Iterator begin() const;
    Iterator end() const;

  private:
    friend class Tree;
    friend class TreeBuilder;
    TNode(const Tree* t, uint32_t i) : tree_(t), index_(i) {}
    const Tree* tree_ = nullptr;
    uint32_t index_ = 0;
};

struct TNode::Entry : TNode {
    TNode first, second;
};

class TNode::Iterator {
  public:
    Iterator(TNode n, size_t i) : node_(n), i_(i) {}
    Entry operator*() const;
    Iterator& operator++() {
        ++i_;
        return *this;
    }
    bool operator!=(const Iterator& o) const { return i_ != o.i_; }

  private:
    TNode node_;
    size_t i_;
};

class Tree {
  public:
    enum class Kind : uint8_t { null, scalar, sequence, map };

    // Parses one YAML document. `file` names the source in errors; an empty document gives
    // a tree whose root is null.
    static Result<std::shared_ptr<const Tree>> parse(std::string_view text,
                                                     const std::string& file);

    TNode root() const { return TNode(this, root_); }

  private:
    friend class TNode;
    friend class TreeBuilder;
    // 16 bytes: the column shares its word with the kind (columns above 2^24 are clamped).
    struct Node {
        uint32_t line = 0;
        uint32_t col_kind = 0; // column << 8 | kind
        uint32_t a = 0;        // scalar: offset in pool_; collection: first index in kids_
        uint32_t b = 0;        // scalar: length; collection: number of kids (maps: 2 per entry)
        Kind kind() const { return Kind(col_kind & 0xFF); }
        uint32_t column() const { return col_kind >> 8; }
    };
    const Node& at(uint32_t i) const { return nodes_[i]; }

    std::vector<Node> nodes_;
    std::vector<uint32_t> kids_;
    std::string pool_;
    uint32_t root_ = 0;
};

} // namespace lf::yamlio
