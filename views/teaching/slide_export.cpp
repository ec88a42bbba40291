#include "teaching/slide_export.h"

#include "teaching/tile_pyramid_scene.h"
#include "teaching/tile_pyramid_view.h"

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QPlainTextEdit>
#include <QSvgGenerator>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextLayout>

#include <algorithm>
#include <cmath>

namespace lf {

QString writePicture(const QString& path, QSizeF size, const QColor& background,
                     const std::function<void(QPainter&)>& draw) {
    const QSize px(std::max(1, int(std::ceil(size.width()))),
                   std::max(1, int(std::ceil(size.height()))));
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(px);
        svg.setViewBox(QRect(QPoint(0, 0), px));
        QPainter p;
        if (!p.begin(&svg)) return QObject::tr("cannot write %1").arg(path);
        p.fillRect(QRect(QPoint(0, 0), px), background);
        draw(p);
        p.end();
        return QFileInfo(path).isFile() ? QString() : QObject::tr("cannot write %1").arg(path);
    }
    QImage image(px * 2, QImage::Format_ARGB32_Premultiplied); // twice the pixels: sharp slides
    image.setDevicePixelRatio(2);
    image.fill(background);
    {
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        p.setRenderHint(QPainter::TextAntialiasing);
        draw(p);
    }
    if (!image.save(path))
        return QObject::tr("cannot write %1 (unknown image format or unwritable place)").arg(path);
    return {};
}

QString writeLoopNestPicture(const QPlainTextEdit& code, const QString& path) {
    // A rich-text copy carrying the highlighter's colours (they live in each block's layout,
    // which a plain-text document does not draw off screen).
    QTextDocument copy;
    copy.setDefaultFont(code.font());
    copy.setDocumentMargin(12);
    QTextCursor out(&copy);
    bool first = true;
    for (QTextBlock b = code.document()->begin(); b.isValid(); b = b.next()) {
        if (!first) out.insertBlock();
        first = false;
        const QString text = b.text();
        QTextCharFormat plain;
        plain.setForeground(code.palette().color(QPalette::Text));
        std::vector<QTextCharFormat> formats(size_t(text.size()), plain);
        if (const QTextLayout* layout = b.layout())
            for (const QTextLayout::FormatRange& r : layout->formats())
                for (int k = r.start; k < r.start + r.length && k < text.size(); ++k) {
                    QTextCharFormat f = plain;
                    f.merge(r.format);
                    formats[size_t(k)] = f;
                }
        for (int k = 0; k < text.size(); ++k)
            out.insertText(QString(text[k]), formats[size_t(k)]);
    }
    copy.setTextWidth(-1); // one line per line of code
    const QSizeF size = copy.size();
    return writePicture(path, size, code.palette().color(QPalette::Base),
                        [&](QPainter& p) { copy.drawContents(&p); });
}

QString writePyramidSteps(TilePyramidView& view, const QString& directory, const QString& suffix,
                          int maxSteps, QStringList* written) {
    const int steps = view.stepCount();
    if (steps <= 0) return QObject::tr("no tile pyramid is shown: select a fusion group");
    if (!QDir().mkpath(directory)) return QObject::tr("cannot create %1").arg(directory);
    std::vector<int> chosen;
    const int n = std::clamp(maxSteps, 1, steps);
    for (int i = 0; i < n; ++i) {
        const int k = n == 1 ? 0 : int(std::lround(double(i) * (steps - 1) / (n - 1)));
        if (chosen.empty() || chosen.back() != k) chosen.push_back(k);
    }
    const int shown = view.step();
    const bool playing = view.isPlaying();
    view.setPlaying(false);
    QString error;
    TilePyramidScene* scene = view.scene();
    for (int k : chosen) {
        view.setStep(k);
        const QRectF area = scene->itemsBoundingRect().adjusted(-8, -8, 8, 8);
        const QString file = QDir(directory).filePath(
            QStringLiteral("pyramid-step-%1%2").arg(k + 1, 3, 10, QLatin1Char('0')).arg(suffix));
        error = writePicture(
            file, area.size(),
            scene->backgroundBrush().color().isValid() &&
                    scene->backgroundBrush().style() != Qt::NoBrush
                ? scene->backgroundBrush().color()
                : view.palette().color(QPalette::Base),
            [&](QPainter& p) { scene->render(&p, QRectF(QPointF(0, 0), area.size()), area); });
        if (!error.isEmpty()) break;
        if (written) *written << file;
    }
    view.setStep(shown);
    view.setPlaying(playing);
    return error;
}

} // namespace lf
