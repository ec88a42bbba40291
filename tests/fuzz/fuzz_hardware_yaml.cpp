// libFuzzer target: the hardware YAML reader (io/hardware_yaml.h). A config that loads is
// valid and writes back to the same config.
#include "io/hardware_yaml.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto hw = lf::readHardwareYaml(text, "fuzz.hw.yaml");
    if (!hw) {
        if (hw.error().message.empty()) std::abort();
        return 0;
    }
    if (!lf::validate(*hw).empty()) std::abort(); // loaded means usable
    const auto again = lf::readHardwareYaml(lf::writeHardwareYaml(*hw), "again.hw.yaml");
    if (!again || !(*again == *hw)) std::abort();
    return 0;
}
