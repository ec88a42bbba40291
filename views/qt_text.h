// Text at the border between the Qt-free core (std::string, UTF-8) and the widgets (QString):
// the one conversion every view and the studio use.
#pragma once

#include "util/result.h"

#include <QString>

#include <string>
#include <string_view>

namespace lf {

inline QString qs(const std::string& s) {
    return QString::fromStdString(s);
}
inline QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}
inline QString qs(const char* s) {
    return QString::fromUtf8(s);
}
// A core error as the user sees it: FILE:LINE:COLUMN: message.
inline QString qs(const Error& e) {
    return QString::fromStdString(e.toString());
}

} // namespace lf
