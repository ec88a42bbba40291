// The figures the compare views line up side by side (network totals and one group's), each
// read from lf::Metrics, formatted in human units and with the direction that is better.
#pragma once

#include "hardware/hardware.h"
#include "metrics/metric_format.h"
#include "metrics/metrics.h"

#include <QString>

#include <functional>
#include <vector>

namespace lf::teaching {

template <class M> struct Figure {
    QString key;   // "dram_bytes"
    QString label; // "DRAM traffic"
    Better better = Better::lower;
    std::function<double(const M&)> value;
    std::function<QString(double, const Hardware&)> format;
};

const std::vector<Figure<Totals>>& totalsFigures();
const std::vector<Figure<GroupMetrics>>& groupFigures();

} // namespace lf::teaching
