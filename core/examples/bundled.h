// The bundled examples (bundled/bundled_files.h) read as networks and hardware, and the
// NETWORK / HW arguments of the CLI and the studio: a file path or a bundled short name.
#pragma once

#include "bundled/bundled_files.h"
#include "hardware/hardware.h"
#include "io/onnx_import.h"
#include "network/network.h"
#include "util/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace lf {

Result<Network> loadBundledNetwork(std::string_view name);
Result<Hardware> loadBundledHardware(std::string_view name);

// A NETWORK / HW argument: an existing file path, else a bundled short name. Network files
// ending in `.onnx` are imported (with `onnx` options); others are read as network YAML.
// Hardware files are LayerFuse hardware YAML or ZigZag accelerators (io/zigzag_hardware_yaml.h);
// `notes` (optional) receives what the import of a ZigZag accelerator assumed.
Result<Network> resolveNetwork(const std::string& arg);
Result<Network> resolveNetwork(const std::string& arg, const OnnxImportOptions& onnx,
                               OnnxImportReport* report = nullptr);
Result<Hardware> resolveHardware(const std::string& arg, std::vector<std::string>* notes = nullptr);

// The hardware a schedule file names with `hardware: {name: NAME}` (`name_pos` is where NAME
// is written): a bundled preset, else a hardware file at the relative path NAME from the
// schedule file's directory — never from the working directory, never an absolute path.
// When neither exists the error points at NAME in the schedule (FILE:LINE:COLUMN). The file
// may be a ZigZag accelerator, as for resolveHardware (`notes` then says what was assumed).
Result<Hardware> resolveScheduleHardware(const std::string& name, SourcePos name_pos,
                                         const std::string& schedule_file,
                                         std::vector<std::string>* notes = nullptr);

} // namespace lf
