// SHA-256 (OpenSSL) as a lowercase hex string.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace lf {

std::string sha256Hex(std::string_view data);

// Incremental SHA-256 for data produced piece by piece (no need to hold it all at once).
class Sha256 {
  public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;
    void update(std::string_view data);
    // Lowercase hex digest; the hasher must not be updated afterwards.
    std::string finishHex();

  private:
    struct Ctx;
    std::unique_ptr<Ctx> ctx_;
};

} // namespace lf
