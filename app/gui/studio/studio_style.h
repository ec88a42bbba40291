// The studio's look: Fusion style with a light or dark palette (or the system's), tinted
// SVG icons that stay sharp on HiDPI screens and follow the palette, and the resources.
#pragma once

#include <QIcon>
#include <QString>

class QApplication;

namespace lf::gui {

enum class ThemeMode { system, light, dark };

QString themeModeName(ThemeMode m); // "system", "light", "dark"
ThemeMode themeModeFromName(const QString& s);

// Registers the compiled-in resources (icons); safe to call more than once.
void initResources();
// Fusion style and the palette of the mode; remembers the platform palette for `system`.
void applyStudioStyle(QApplication& app, ThemeMode mode);
// Whether the current application palette is dark.
bool paletteIsDark();

// An icon from resources/icons/<name>.svg drawn in the palette's text colour at any size.
QIcon studioIcon(const QString& name);
// The application icon (full colour).
QIcon appIcon();

} // namespace lf::gui
