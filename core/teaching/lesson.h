// Guided lessons (`*.lesson.yaml`, format layerfuse/lesson@1): a network, a hardware
// config, a starting schedule, a task for the student, measurable targets on the metrics,
// hints, and a known solution (what the tests apply, and "Show solution" in the studio).
#pragma once

#include "hardware/hardware.h"
#include "metrics/metrics.h"
#include "network/network.h"
#include "schedule/schedule.h"
#include "util/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace lf {

struct LessonTarget {
    enum class Op : uint8_t { le, lt, ge, gt, eq };
    std::string metric; // see lessonMetricNames()
    std::string scope;  // "totals", "layer:<name>" or "group:<layer name>" (the group holding it)
    Op op = Op::le;
    double value = 0;
    std::string label; // what the student reads, e.g. "DRAM accesses of conv2 ≤ 5,000"
};

struct Lesson {
    std::string name; // short name (file name without .lesson.yaml)
    std::string title;
    std::string task; // markdown
    std::vector<std::string> hints;
    std::string network_ref, hardware_ref; // bundled names
    Network network;
    Hardware hardware;
    Schedule start;
    Schedule solution;
    std::vector<LessonTarget> targets;
};

// Metrics a target may name: dram_accesses, dram_input, dram_weight, dram_output,
// dram_psum, dram_bytes, buffer_bytes (layer: X+Y+W elements; group/totals: bytes),
// buffer_x, buffer_y, buffer_w (layer), macs, recompute_macs, latency_cycles,
// compute_cycles, memory_cycles, energy_pj, utilization, fits (1 or 0).
const std::vector<std::string>& lessonMetricNames();

Result<Lesson> readLessonYaml(std::string_view text, const std::string& file);

struct TargetStatus {
    LessonTarget target;
    double actual = 0;
    bool met = false;
    bool found = true; // the scope exists in the current schedule
};

struct LessonStatus {
    std::vector<TargetStatus> targets;
    bool met = false; // all targets met
};

LessonStatus checkLesson(const Lesson& lesson, const Network& net, const Schedule& sched,
                         const Metrics& m);

} // namespace lf
