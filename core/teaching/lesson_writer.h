// Writing lessons (`*.lesson.yaml`, layerfuse/lesson@1), for a teacher who saves the open
// network, hardware and schedule as an exercise: the network and hardware by their bundled
// names when they are bundled ones, else inline; the start and the solution as schedule
// bodies; targets that the solution meets. readLessonYaml(writeLessonYaml(l)) gives l back.
#pragma once

#include "metrics/metrics.h"
#include "teaching/lesson.h"

#include <string>
#include <vector>

namespace lf {

std::string writeLessonYaml(const Lesson& lesson);

// Targets the solution's metrics meet, for a lesson that starts elsewhere: DRAM accesses,
// buffer peak and latency at most the solution's (rounded up to 3 significant digits so a
// student may match it without copying it), and the buffer fits.
std::vector<LessonTarget> targetsMetBy(const Metrics& solution);

// A lesson from the studio's document: `network` and `hardware` as they are (the bundled
// names are found when they are bundled ones), `start` the default schedule, `solution` the
// schedule now.
Lesson lessonFromDocument(std::string name, std::string title, std::string task,
                          const Network& network, const Hardware& hardware,
                          const Schedule& solution, std::vector<LessonTarget> targets);

} // namespace lf
