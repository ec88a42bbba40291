#include "studio/studio_style.h"

#include <QApplication>
#include <QIconEngine>
#include <QPainter>
#include <QPalette>
#include <QPixmapCache>
#include <QStyleFactory>
#include <QSvgRenderer>

#include <optional>

static void initLayerFuseResources() {
    Q_INIT_RESOURCE(resources);
}

namespace lf::gui {

namespace {

std::optional<QPalette>& platformPalette() {
    static std::optional<QPalette> p;
    return p;
}

QPalette lightPalette() {
    QPalette p;
    p.setColor(QPalette::Window, QColor(0xf3, 0xf4, 0xf6));
    p.setColor(QPalette::WindowText, QColor(0x1f, 0x23, 0x29));
    p.setColor(QPalette::Base, QColor(0xff, 0xff, 0xff));
    p.setColor(QPalette::AlternateBase, QColor(0xf6, 0xf7, 0xf9));
    p.setColor(QPalette::ToolTipBase, QColor(0xff, 0xff, 0xff));
    p.setColor(QPalette::ToolTipText, QColor(0x1f, 0x23, 0x29));
    p.setColor(QPalette::PlaceholderText, QColor(0x8a, 0x92, 0x9c));
    p.setColor(QPalette::Text, QColor(0x1f, 0x23, 0x29));
    p.setColor(QPalette::Button, QColor(0xf6, 0xf7, 0xf9));
    p.setColor(QPalette::ButtonText, QColor(0x1f, 0x23, 0x29));
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Light, Qt::white);
    p.setColor(QPalette::Midlight, QColor(0xe4, 0xe7, 0xeb));
    p.setColor(QPalette::Mid, QColor(0xc5, 0xcb, 0xd3));
    p.setColor(QPalette::Dark, QColor(0x9a, 0xa2, 0xad));
    p.setColor(QPalette::Shadow, QColor(0x60, 0x66, 0x70));
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x6f, 0xd6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x2f, 0x6f, 0xd6));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0xa0, 0xa6, 0xae));
    return p;
}

QPalette darkPalette() {
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x23, 0x27, 0x2e));
    p.setColor(QPalette::WindowText, QColor(0xe6, 0xe9, 0xee));
    p.setColor(QPalette::Base, QColor(0x1a, 0x1d, 0x22));
    p.setColor(QPalette::AlternateBase, QColor(0x24, 0x28, 0x2f));
    p.setColor(QPalette::ToolTipBase, QColor(0x2c, 0x31, 0x39));
    p.setColor(QPalette::ToolTipText, QColor(0xe6, 0xe9, 0xee));
    p.setColor(QPalette::PlaceholderText, QColor(0x86, 0x8e, 0x99));
    p.setColor(QPalette::Text, QColor(0xe6, 0xe9, 0xee));
    p.setColor(QPalette::Button, QColor(0x2c, 0x31, 0x39));
    p.setColor(QPalette::ButtonText, QColor(0xe6, 0xe9, 0xee));
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x3a, 0x40, 0x49));
    p.setColor(QPalette::Midlight, QColor(0x33, 0x38, 0x40));
    p.setColor(QPalette::Mid, QColor(0x4a, 0x51, 0x5c));
    p.setColor(QPalette::Dark, QColor(0x15, 0x18, 0x1c));
    p.setColor(QPalette::Shadow, QColor(0x0b, 0x0d, 0x10));
    p.setColor(QPalette::Highlight, QColor(0x4c, 0x8d, 0xf6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x7a, 0xab, 0xff));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x6b, 0x72, 0x7d));
    return p;
}

// Renders an SVG in the palette's text colour (disabled: its disabled colour) at the
// requested device size, so icons follow the light/dark palette and stay sharp on HiDPI.
class TintedSvgEngine : public QIconEngine {
  public:
    explicit TintedSvgEngine(QString path) : path_(std::move(path)) {}
    QIconEngine* clone() const override { return new TintedSvgEngine(path_); }
    void paint(QPainter* painter, const QRect& rect, QIcon::Mode mode,
               QIcon::State state) override {
        const qreal dpr = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
        QPixmap pm = pixmap(rect.size() * dpr, mode, state);
        pm.setDevicePixelRatio(dpr);
        painter->drawPixmap(rect, pm);
    }
    QPixmap pixmap(const QSize& size, QIcon::Mode mode, QIcon::State state) override {
        return scaledPixmap(size, mode, state, 1.0);
    }
    QPixmap scaledPixmap(const QSize& size, QIcon::Mode mode, QIcon::State, qreal scale) override {
        const QSize px = size * scale;
        const QPalette pal = QApplication::palette();
        const QColor color = mode == QIcon::Disabled
                                 ? pal.color(QPalette::Disabled, QPalette::ButtonText)
                                 : pal.color(QPalette::Normal, QPalette::ButtonText);
        const QString key = QStringLiteral("lf-icon:%1:%2x%3:%4")
                                .arg(path_)
                                .arg(px.width())
                                .arg(px.height())
                                .arg(color.rgba());
        QPixmap pm;
        if (QPixmapCache::find(key, &pm)) return pm;
        QImage img(px, QImage::Format_ARGB32_Premultiplied);
        img.fill(Qt::transparent);
        {
            QPainter p(&img);
            QSvgRenderer(path_).render(&p, QRectF(QPointF(0, 0), px));
            p.setCompositionMode(QPainter::CompositionMode_SourceIn);
            p.fillRect(img.rect(), color);
        }
        pm = QPixmap::fromImage(img);
        pm.setDevicePixelRatio(scale);
        QPixmapCache::insert(key, pm);
        return pm;
    }
    QSize actualSize(const QSize& size, QIcon::Mode, QIcon::State) override { return size; }

  private:
    QString path_;
};

} // namespace

QString themeModeName(ThemeMode m) {
    switch (m) {
    case ThemeMode::system:
        return QStringLiteral("system");
    case ThemeMode::light:
        return QStringLiteral("light");
    case ThemeMode::dark:
        return QStringLiteral("dark");
    }
    return QStringLiteral("system");
}

ThemeMode themeModeFromName(const QString& s) {
    if (s == QLatin1String("light")) return ThemeMode::light;
    if (s == QLatin1String("dark")) return ThemeMode::dark;
    return ThemeMode::system;
}

void initResources() {
    static const bool done = (initLayerFuseResources(), true);
    (void)done;
}

void applyStudioStyle(QApplication& app, ThemeMode mode) {
    initResources();
    if (!platformPalette()) platformPalette() = QApplication::palette();
    static bool styled = false;
    if (!styled) {
        app.setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        styled = true;
    }
    QPalette p;
    switch (mode) {
    case ThemeMode::system:
        // Our palettes, picked by whether the platform's own colours are dark.
        p = platformPalette()->color(QPalette::Window).lightnessF() < 0.5 ? darkPalette()
                                                                          : lightPalette();
        break;
    case ThemeMode::light:
        p = lightPalette();
        break;
    case ThemeMode::dark:
        p = darkPalette();
        break;
    }
    app.setPalette(p);
    QPixmapCache::clear();
}

bool paletteIsDark() {
    return QApplication::palette().color(QPalette::Window).lightnessF() < 0.5;
}

QIcon studioIcon(const QString& name) {
    initResources();
    return QIcon(new TintedSvgEngine(QStringLiteral(":/layerfuse/icons/%1.svg").arg(name)));
}

QIcon appIcon() {
    initResources();
    return QIcon(QStringLiteral(":/layerfuse/icons/layerfuse.svg"));
}

} // namespace lf::gui
