// libFuzzer target: the project reader (io/project_yaml.h): a project that loads writes back
// and reads again to the same project.
#include "io/project_yaml.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto p = lf::readProjectYaml(text, "fuzz.lfproj");
    if (!p) {
        if (p.error().message.empty()) std::abort();
        return 0;
    }
    const auto again = lf::readProjectYaml(lf::writeProjectYaml(*p), "again.lfproj");
    if (!again) std::abort();
    return 0;
}
