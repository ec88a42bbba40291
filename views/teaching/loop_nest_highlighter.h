// Syntax colours of a generated loop nest: keywords, loop variables, numbers and comments,
// and the arrays X, Y, W in their own colours so that each buffer's alloc, load and store
// statements stand out. One text block per CodeLine; the highlighter knows where each
// line's code ends and its comment begins, so comments are never tokenized as code.
#pragma once

#include "teaching/loop_nest.h"

#include <QSyntaxHighlighter>

#include <vector>

namespace lf {

class LoopNestHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
  public:
    explicit LoopNestHighlighter(QTextDocument* document);

    // The lines the document shows (block k = lines[k]) and the palette to colour for. Set
    // the lines before replacing the text (the new text is coloured as it is set), or
    // rehighlight to recolour the text in place.
    void setLines(std::vector<CodeLine> lines, bool rehighlightNow = true);
    void setDark(bool dark);
    bool isDark() const { return dark_; }

    // The text of one line as the document shows it (two spaces per indent).
    static QString lineText(const CodeLine& line);

  protected:
    void highlightBlock(const QString& text) override;

  private:
    std::vector<CodeLine> lines_;
    bool dark_ = false;
};

} // namespace lf
