#include "teaching/loop_nest_highlighter.h"

#include "teaching/teaching_style.h"

#include <QRegularExpression>
#include <QTextCharFormat>

#include <algorithm>
#include <functional>

namespace lf {

namespace {

// Where the code of a line ends in its displayed text (the comment follows).
qsizetype codeEnd(const CodeLine& l) {
    return qsizetype(l.indent) * 2 + QString::fromStdString(l.code).size();
}

const QRegularExpression& keywordPattern() {
    static const QRegularExpression re(
        QStringLiteral("\\b(for|int|alloc|load|store|compute|new|slice)\\b"));
    return re;
}
// zo, yi, ii2, n, m1, the tile loop t, the sub-group loop sub and the group loop g.
const QRegularExpression& loopVariablePattern() {
    static const QRegularExpression re(
        QStringLiteral("\\b([zyxi][oi][0-9]*|[nm][0-9]*|t|sub|g)\\b"));
    return re;
}
const QRegularExpression& numberPattern() {
    static const QRegularExpression re(QStringLiteral("\\b[0-9]+\\b"));
    return re;
}
// X, Y, W and their per-layer names (X_conv1, W_conv2) and the Optimus parameter block.
const QRegularExpression& arrayPattern() {
    static const QRegularExpression re(
        QStringLiteral("\\b([XYW])(_\\w+)?\\b|\\b(params|ofmap)\\b"));
    return re;
}

} // namespace

LoopNestHighlighter::LoopNestHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) {}

void LoopNestHighlighter::setLines(std::vector<CodeLine> lines, bool rehighlightNow) {
    lines_ = std::move(lines);
    if (rehighlightNow) rehighlight();
}

void LoopNestHighlighter::setDark(bool dark) {
    if (dark == dark_) return;
    dark_ = dark;
    rehighlight();
}

QString LoopNestHighlighter::lineText(const CodeLine& l) {
    QString s(qsizetype(l.indent) * 2, QLatin1Char(' '));
    s += QString::fromStdString(l.code);
    if (!l.comment.empty()) {
        if (!l.code.empty()) s += QStringLiteral("  ");
        s += QString::fromStdString(l.comment);
    }
    return s;
}

void LoopNestHighlighter::highlightBlock(const QString& text) {
    const int index = currentBlock().blockNumber();
    const CodeLine* line =
        index >= 0 && size_t(index) < lines_.size() ? &lines_[size_t(index)] : nullptr;
    const qsizetype end = line ? std::min(codeEnd(*line), text.size()) : text.size();
    const teaching::CodeColors colors = teaching::codeColors(dark_);

    auto paint = [&](const QRegularExpression& re,
                     const std::function<QTextCharFormat(const QRegularExpressionMatch&)>& fmt) {
        auto it = re.globalMatch(text.left(end));
        while (it.hasNext()) {
            const QRegularExpressionMatch m = it.next();
            setFormat(int(m.capturedStart()), int(m.capturedLength()), fmt(m));
        }
    };
    QTextCharFormat keyword;
    keyword.setForeground(colors.keyword);
    keyword.setFontWeight(QFont::Bold);
    QTextCharFormat variable;
    variable.setForeground(colors.loopVariable);
    QTextCharFormat number;
    number.setForeground(colors.number);

    paint(numberPattern(), [&](const QRegularExpressionMatch&) { return number; });
    paint(loopVariablePattern(), [&](const QRegularExpressionMatch&) { return variable; });
    paint(keywordPattern(), [&](const QRegularExpressionMatch&) { return keyword; });
    paint(arrayPattern(), [&](const QRegularExpressionMatch& m) {
        QTextCharFormat f;
        Arr a = Arr::W;
        if (m.captured(1) == QLatin1String("X"))
            a = Arr::X;
        else if (m.captured(1) == QLatin1String("Y") || m.captured(3) == QLatin1String("ofmap"))
            a = Arr::Y;
        f.setForeground(teaching::arrayColor(a, dark_));
        f.setFontWeight(QFont::Bold);
        return f;
    });

    // Buffer statements: the whole statement in its array's colour, so the placement of
    // allocations, loads and stores between the loops reads at a glance.
    if (line && line->array >= 0 &&
        (line->kind == CodeLine::Kind::alloc || line->kind == CodeLine::Kind::load ||
         line->kind == CodeLine::Kind::store)) {
        const qsizetype start = qsizetype(line->indent) * 2;
        QTextCharFormat f;
        f.setForeground(teaching::arrayColor(Arr(line->array), dark_));
        f.setFontWeight(QFont::Bold);
        if (end > start) setFormat(int(start), int(end - start), f);
    }

    if (end < text.size()) {
        QTextCharFormat comment;
        comment.setForeground(colors.comment);
        comment.setFontItalic(true);
        // Volume annotations of buffer statements keep the array's colour.
        if (line && line->array >= 0 && line->kind != CodeLine::Kind::comment)
            comment.setForeground(teaching::arrayColor(Arr(line->array), dark_));
        setFormat(int(end), int(text.size() - end), comment);
    }
}

} // namespace lf
