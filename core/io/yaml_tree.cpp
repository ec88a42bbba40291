#include "io/yaml_tree.h"

#include "util/format.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <istream>
#include <streambuf>

namespace lf::yamlio {

// --- TNode ----------------------------------------------------------------------------------

bool TNode::IsNull() const {
    return tree_ && tree_->at(index_).kind() == Tree::Kind::null;
}
bool TNode::IsScalar() const {
    return tree_ && tree_->at(index_).kind() == Tree::Kind::scalar;
}
bool TNode::IsSequence() const {
    return tree_ && tree_->at(index_).kind() == Tree::Kind::sequence;
}
bool TNode::IsMap() const {
    return tree_ && tree_->at(index_).kind() == Tree::Kind::map;
}

std::string_view TNode::Scalar() const {
    if (!IsScalar()) return {};
    const Tree::Node& n = tree_->at(index_);
    return std::string_view(tree_->pool_).substr(n.a, n.b);
}

size_t TNode::size() const {
    if (IsSequence()) return tree_->at(index_).b;
    if (IsMap()) return tree_->at(index_).b / 2;
    return 0;
}

TNode TNode::item(size_t i) const {
    if (!IsSequence() || i >= size()) return {};
    return TNode(tree_, tree_->kids_[tree_->at(index_).a + i]);
}

TNode TNode::key(size_t i) const {
    if (!IsMap() || i >= size()) return {};
    return TNode(tree_, tree_->kids_[tree_->at(index_).a + 2 * i]);
}

TNode TNode::value(size_t i) const {
    if (!IsMap() || i >= size()) return {};
    return TNode(tree_, tree_->kids_[tree_->at(index_).a + 2 * i + 1]);
}

TNode TNode::operator[](std::string_view k) const {
    const size_t n = size();
    if (!IsMap()) return {};
    for (size_t i = 0; i < n; ++i) {
        const TNode kn = key(i);
        if (kn.IsScalar() && kn.Scalar() == k) return value(i);
    }
    return {};
}

SourcePos TNode::pos() const {
    if (!tree_) return {};
    const Tree::Node& n = tree_->at(index_);
    return SourcePos{int(n.line), int(n.column())};
}

TNode::Iterator TNode::begin() const {
    return Iterator(*this, 0);
}
TNode::Iterator TNode::end() const {
    return Iterator(*this, size());
}

TNode::Entry TNode::Iterator::operator*() const {
    Entry e;
    if (node_.IsMap()) {
        e.first = node_.key(i_);
        e.second = node_.value(i_);
    } else {
        static_cast<TNode&>(e) = node_.item(i_);
    }
    return e;
}

// --- building ---------------------------------------------------------------------------------

namespace {

struct TreeError {
    SourcePos pos;
    std::string message;
};

SourcePos toPos(const YAML::Mark& m) {
    if (m.is_null()) return {};
    return SourcePos{m.line + 1, m.column + 1};
}

// Reads straight from the caller's buffer (no copy of a possibly large text).
class ViewBuf : public std::streambuf {
  public:
    ViewBuf(const char* data, size_t size) {
        char* p = const_cast<char*>(data); // get area only: never written
        setg(p, p, p + size);
    }
};

// yaml-cpp's messages about tab indentation rarely say "tab"; say it when the line the
// error points at is indented with one.
std::string tabHint(std::string_view text, const YAML::Mark& mark) {
    if (mark.is_null() || mark.line < 0) return {};
    size_t begin = 0;
    for (int line = 0; line < mark.line && begin != std::string_view::npos; ++line) {
        begin = text.find('\n', begin);
        if (begin != std::string_view::npos) ++begin;
    }
    if (begin == std::string_view::npos) return {};
    for (size_t i = begin; i < text.size() && (text[i] == ' ' || text[i] == '\t'); ++i)
        if (text[i] == '\t') return " (indent with spaces, not tabs)";
    return {};
}

} // namespace

class TreeBuilder : public YAML::EventHandler {
  public:
    explicit TreeBuilder(Tree& t) : t_(t) {}

    bool sawDocument() const { return started_; }

    void OnDocumentStart(const YAML::Mark& mark) override {
        if (started_) throw TreeError{toPos(mark), "the file holds more than one YAML document"};
        started_ = true;
    }
    void OnDocumentEnd() override {}

    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
        const uint32_t n = add(mark, Tree::Kind::null, 0, 0);
        remember(anchor, n, 1);
    }

    void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  const std::string& value) override {
        // The file's bytes are checked before parsing (Tree::parse's caller); yaml-cpp 0.7 turns
        // the escapes \_ and \xA0-\xFF into single Latin-1 bytes, which no writer can give back.
        if (!isValidUtf8(value))
            throw TreeError{toPos(mark), "an escape gives text that is not UTF-8 (write the "
                                         "character itself, not a \\x or \\_ escape)"};
        const uint32_t n =
            add(mark, Tree::Kind::scalar, uint32_t(t_.pool_.size()), uint32_t(value.size()));
        t_.pool_ += value;
        remember(anchor, n, 1);
    }

    void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
        if (anchor >= anchors_.size() || anchors_[anchor].node == kNone)
            throw TreeError{toPos(mark), "an alias refers to an unknown anchor"};
        const Anchor& a = anchors_[anchor];
        if (!a.complete)
            throw TreeError{toPos(mark), "an alias refers to the collection that contains it"};
        count(mark, a.expanded);
        attach(a.node);
    }

    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value) override {
        open(mark, Tree::Kind::sequence, anchor);
    }
    void OnSequenceEnd() override { close(); }

    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value) override {
        open(mark, Tree::Kind::map, anchor);
    }
    void OnMapEnd() override {
        checkDuplicateKeys();
        close();
    }

  private:
    static constexpr uint32_t kNone = UINT32_MAX;
    struct Frame {
        uint32_t node;
        size_t firstPending;
        int64_t expandedAtOpen;
        YAML::anchor_t anchor;
    };
    struct Anchor {
        uint32_t node = kNone;
        int64_t expanded = 0;
        bool complete = false;
    };

    // Counts `n` more nodes of the expanded document (aliases repeat their target).
    void count(const YAML::Mark& mark, int64_t n) {
        expanded_ += n;
        if (expanded_ > TreeLimits::kMaxNodes)
            throw TreeError{toPos(mark), "the document is too large: more than " +
                                             std::to_string(TreeLimits::kMaxNodes) +
                                             " nodes (counting what aliases repeat)"};
    }

    uint32_t add(const YAML::Mark& mark, Tree::Kind kind, uint32_t a, uint32_t b) {
        count(mark, 1);
        const SourcePos p = toPos(mark);
        Tree::Node n;
        n.line = uint32_t(std::max(p.line, 0));
        n.col_kind =
            (std::min<uint32_t>(uint32_t(std::max(p.column, 0)), 0xFFFFFF) << 8) | uint32_t(kind);
        n.a = a;
        n.b = b;
        const uint32_t index = uint32_t(t_.nodes_.size());
        t_.nodes_.push_back(n);
        attach(index);
        return index;
    }

    void attach(uint32_t index) {
        if (stack_.empty())
            t_.root_ = index;
        else
            pending_.push_back(index);
    }

    void remember(YAML::anchor_t anchor, uint32_t node, int64_t expanded) {
        if (anchor == YAML::NullAnchor) return;
        if (anchor >= anchors_.size()) anchors_.resize(anchor + 1);
        anchors_[anchor] = Anchor{node, expanded, true};
    }

    void open(const YAML::Mark& mark, Tree::Kind kind, YAML::anchor_t anchor) {
        if (stack_.size() >= size_t(TreeLimits::kMaxDepth))
            throw TreeError{toPos(mark), "the document is nested too deeply (more than " +
                                             std::to_string(TreeLimits::kMaxDepth) + " levels)"};
        const int64_t before = expanded_;
        const uint32_t n = add(mark, kind, 0, 0);
        if (anchor != YAML::NullAnchor) {
            if (anchor >= anchors_.size()) anchors_.resize(anchor + 1);
            anchors_[anchor] = Anchor{n, 0, false};
        }
        stack_.push_back(Frame{n, pending_.size(), before, anchor});
    }

    void close() {
        const Frame f = stack_.back();
        stack_.pop_back();
        Tree::Node& n = t_.nodes_[f.node];
        n.a = uint32_t(t_.kids_.size());
        n.b = uint32_t(pending_.size() - f.firstPending);
        t_.kids_.insert(t_.kids_.end(), pending_.begin() + std::ptrdiff_t(f.firstPending),
                        pending_.end());
        pending_.resize(f.firstPending);
        if (f.anchor != YAML::NullAnchor) {
            anchors_[f.anchor].expanded = expanded_ - f.expandedAtOpen;
            anchors_[f.anchor].complete = true;
        }
    }

    // yaml-cpp keeps the first of two equal keys silently; a LayerFuse file must not say two
    // things at once. Keys of the map being closed are the even entries of its pending kids.
    void checkDuplicateKeys() {
        const Frame& f = stack_.back();
        const size_t n = (pending_.size() - f.firstPending) / 2;
        if (n < 2) return;
        auto keyAt = [&](size_t i) { return TNode(&t_, pending_[f.firstPending + 2 * i]); };
        // The first entry (in document order) whose key appeared before it.
        size_t repeat = SIZE_MAX;
        if (n <= 16) {
            for (size_t i = 1; i < n && repeat == SIZE_MAX; ++i)
                for (size_t j = 0; j < i; ++j)
                    if (keyAt(i).IsScalar() && keyAt(j).IsScalar() &&
                        keyAt(i).Scalar() == keyAt(j).Scalar()) {
                        repeat = i;
                        break;
                    }
        } else {
            keys_.clear();
            for (size_t i = 0; i < n; ++i)
                if (keyAt(i).IsScalar()) keys_.emplace_back(keyAt(i).Scalar(), uint32_t(i));
            std::sort(keys_.begin(), keys_.end()); // equal texts: by entry index
            for (size_t i = 1; i < keys_.size(); ++i)
                if (keys_[i].first == keys_[i - 1].first)
                    repeat = std::min<size_t>(repeat, keys_[i].second);
        }
        if (repeat == SIZE_MAX) return;
        const TNode k = keyAt(repeat);
        throw TreeError{k.pos(), "duplicate key " + quoteValue(k.Scalar())};
    }

    Tree& t_;
    bool started_ = false;
    std::vector<Frame> stack_;
    std::vector<uint32_t> pending_;
    std::vector<Anchor> anchors_;
    std::vector<std::pair<std::string_view, uint32_t>> keys_; // scratch: key text, entry
    int64_t expanded_ = 0;
};

Result<std::shared_ptr<const Tree>> Tree::parse(std::string_view text, const std::string& file) {
    auto tree = std::make_shared<Tree>();
    try {
        ViewBuf buf(text.data(), text.size());
        std::istream in(&buf);
        YAML::Parser parser(in);
        TreeBuilder builder(*tree);
        // The first document, then only the start of a second one (refused at once).
        if (parser.HandleNextDocument(builder)) parser.HandleNextDocument(builder);
        if (tree->nodes_.empty()) {
            Node n;
            n.line = 1;
            n.col_kind = (1u << 8) | uint32_t(Kind::null);
            tree->nodes_.push_back(n);
            tree->root_ = 0;
        }
    } catch (const TreeError& e) {
        return Error(file, e.pos, e.message);
    } catch (const YAML::Exception& e) {
        return Error(file, toPos(e.mark), "invalid YAML: " + e.msg + tabHint(text, e.mark));
    }
    tree->nodes_.shrink_to_fit();
    tree->kids_.shrink_to_fit();
    return std::shared_ptr<const Tree>(std::move(tree));
}

} // namespace lf::yamlio
