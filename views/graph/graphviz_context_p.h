// Private to views/graph: the one Graphviz context of the program and the guards every
// Graphviz entry point needs. Includes <gvc.h>; never include it from a public header.
#pragma once

#include <gvc.h>

#include <string>

namespace lf::graph::detail {

// The program's only GVC_t, created on first use (GUI thread) and freed at exit. The dot
// layout and core plugins are loaded explicitly from their shared objects next to libgvc
// (a preloaded-symbols table) so that layout does not depend on the plugin configuration
// written at package install; when that fails the installed configuration is used.
GVC_t* graphvizContext();
// Whether the plugins were loaded explicitly (false: from the installed configuration).
bool pluginsPreloaded();
// Whether the `dot` output format (core plugin) is available for .dot dumps with positions.
bool canRenderDot();

// Graphviz parses numbers with atof: force the C numeric locale while it runs.
class NumericLocaleGuard {
  public:
    NumericLocaleGuard();
    ~NumericLocaleGuard();
    NumericLocaleGuard(const NumericLocaleGuard&) = delete;
    NumericLocaleGuard& operator=(const NumericLocaleGuard&) = delete;

  private:
    std::string saved_;
};

// Collects Graphviz error/warning messages (instead of printing them to stderr) while alive.
class ErrorCapture {
  public:
    ErrorCapture();
    ~ErrorCapture();
    ErrorCapture(const ErrorCapture&) = delete;
    ErrorCapture& operator=(const ErrorCapture&) = delete;
    std::string text() const;
};

} // namespace lf::graph::detail
