// A one-line label that shortens its text with "…" when there is not enough room (the full
// text stays in its tooltip) instead of forcing its parent wider — for the status bar.
#pragma once

#include <QWidget>

namespace lf {

class ElidedLabel : public QWidget {
    Q_OBJECT
  public:
    explicit ElidedLabel(QWidget* parent = nullptr);
    void setText(const QString& text);
    QString text() const { return text_; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    QString text_;
};

} // namespace lf
