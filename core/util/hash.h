// SHA-256 (OpenSSL) as a lowercase hex string.
#pragma once

#include <string>
#include <string_view>

namespace lf {
std::string sha256Hex(std::string_view data);
}
