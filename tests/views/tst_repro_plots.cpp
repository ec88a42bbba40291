// The report's plots drawn offscreen with Qt Charts (views/repro_plots): a curve with the
// paper's points becomes an SVG document with the series names, a bar chart too, a dense
// front a PNG data URL; log axes drop values they cannot show instead of failing.
#include "repro_plots/repro_plots.h"

#include <QtTest>

using namespace lf::repro;

namespace {

Plot curve() {
    Plot p;
    p.id = "c";
    p.where = "Fig. 1";
    p.title = "time by width";
    p.x_label = "w";
    p.y_label = "us";
    p.series.push_back({"model curve", {{16, 60}, {32, 40}, {64, 25}}, false, true});
    p.series.push_back({"paper points", {{32, 84}, {64, 58}}, true, false});
    return p;
}

} // namespace

class TstReproPlots : public QObject {
    Q_OBJECT
  private slots:
    void curveIsSvg() {
        const std::string svg = renderPlot(curve());
        QVERIFY(svg.find("<svg") != std::string::npos);
        QVERIFY(svg.find("paper points") != std::string::npos);
        QVERIFY(svg.find("Fig. 1: time by width") != std::string::npos);
    }

    void barsAreSvg() {
        Plot p = curve();
        p.categories = {"AlexNet", "VGG16"};
        p.series = {{"Optimus", {{0, 1}, {1, 1}}, false, false},
                    {"DNNVM", {{0, 1.5}, {1, 2.0}}, false, false}};
        const std::string svg = renderPlot(p);
        QVERIFY(svg.find("<svg") != std::string::npos);
        QVERIFY(svg.find("AlexNet") != std::string::npos);
    }

    void denseFrontIsPngAndLogAxesSkipZeros() {
        Plot p = curve();
        p.log_x = p.log_y = true;
        Series s{"front", {}, false, false};
        for (int k = 0; k < 3000; ++k)
            s.points.emplace_back(1.0 + k, k == 0 ? 0.0 : 1e6 / (1.0 + k)); // one y of 0
        p.series = {s};
        const std::string png = renderPlot(p);
        QVERIFY(png.rfind("data:image/png;base64,", 0) == 0);
        QVERIFY(png.size() > 1000);
    }

    void everyPlotOfAReport() {
        PaperReport r;
        r.plots = {curve()};
        r.plots.back().id = "one";
        const auto all = renderPlots({r});
        QCOMPARE(all.size(), size_t(1));
        QVERIFY(all.count("one"));
    }
};

QTEST_MAIN(TstReproPlots)
#include "tst_repro_plots.moc"
