#include "graph/graphviz_context_p.h"

#include <dlfcn.h>

#include <cassert>
#include <clocale>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace lf::graph::detail {

namespace {

struct PluginTable {
    bool preloaded = false;
    bool core = false;
    std::vector<void*> handles;
    lt_symlist_t symbols[3] = {{nullptr, nullptr}, {nullptr, nullptr}, {nullptr, nullptr}};
};

// The plugin directory of the Graphviz we are linked against: "<dir of libgvc>/graphviz".
std::filesystem::path pluginDirectory() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&gvLayout), &info) == 0 || !info.dli_fname) return {};
    std::error_code ec;
    const std::filesystem::path lib = std::filesystem::canonical(info.dli_fname, ec);
    if (ec) return {};
    return lib.parent_path() / "graphviz";
}

void* openPlugin(const std::filesystem::path& dir, const char* stem) {
    for (const char* suffix : {".so.6", ".so"}) {
        const std::filesystem::path p = dir / (std::string("libgvplugin_") + stem + suffix);
        if (void* h = dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL)) return h;
    }
    return nullptr;
}

PluginTable loadPlugins() {
    PluginTable t;
    const std::filesystem::path dir = pluginDirectory();
    if (dir.empty()) return t;
    void* dot = openPlugin(dir, "dot_layout");
    void* dotLibrary = dot ? dlsym(dot, "gvplugin_dot_layout_LTX_library") : nullptr;
    if (!dotLibrary) return t;
    t.handles.push_back(dot);
    size_t n = 0;
    t.symbols[n++] = {"gvplugin_dot_layout_LTX_library", dotLibrary};
    if (void* core = openPlugin(dir, "core")) {
        if (void* coreLibrary = dlsym(core, "gvplugin_core_LTX_library")) {
            t.handles.push_back(core);
            t.symbols[n++] = {"gvplugin_core_LTX_library", coreLibrary};
            t.core = true;
        }
    }
    t.preloaded = true;
    return t;
}

struct Context {
    PluginTable plugins;
    GVC_t* gvc = nullptr;
    Context() {
        plugins = loadPlugins();
        if (plugins.preloaded) gvc = gvContextPlugins(plugins.symbols, 0);
        if (!gvc) {
            plugins.preloaded = false;
            plugins.core = true; // the installed configuration lists the core plugin
            gvc = gvContext();
        }
    }
    ~Context() {
        // The plugin libraries stay loaded: Graphviz may still reference their tables.
        if (gvc) gvFreeContext(gvc);
    }
};

Context& context() {
    static Context ctx;
    return ctx;
}

std::mutex& errorMutex() {
    static std::mutex m;
    return m;
}
std::string& errorText() {
    static std::string s;
    return s;
}
int collectError(char* message) {
    std::lock_guard lock(errorMutex());
    if (message) errorText() += message;
    return 0;
}

} // namespace

GVC_t* graphvizContext() {
    // cgraph is not thread-safe: every Graphviz call happens on the thread that made the
    // first one (the GUI thread of the studio, the main thread of layerfuse-layout).
    [[maybe_unused]] static const std::thread::id owner = std::this_thread::get_id();
    assert(std::this_thread::get_id() == owner);
    return context().gvc;
}

bool pluginsPreloaded() {
    return context().plugins.preloaded;
}
bool canRenderDot() {
    return context().plugins.core;
}

NumericLocaleGuard::NumericLocaleGuard() {
    const char* current = std::setlocale(LC_NUMERIC, nullptr);
    saved_ = current ? current : "C";
    std::setlocale(LC_NUMERIC, "C");
}

NumericLocaleGuard::~NumericLocaleGuard() {
    std::setlocale(LC_NUMERIC, saved_.c_str());
}

ErrorCapture::ErrorCapture() {
    {
        std::lock_guard lock(errorMutex());
        errorText().clear();
    }
    agseterrf(&collectError);
    agseterr(AGWARN);
}

ErrorCapture::~ErrorCapture() {
    agseterrf(nullptr);
}

std::string ErrorCapture::text() const {
    std::lock_guard lock(errorMutex());
    return errorText();
}

} // namespace lf::graph::detail
