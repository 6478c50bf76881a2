import Foundation

extension MarkdownDocument {
    /// The document as a plain HTML page, for WebKit to lay out on paper: the same blocks the
    /// previewer shows, in the elements HTML has for them, with a small print style sheet.
    /// The inline Pango markup is nearly HTML already (`<b>`, `<i>`, `<s>`, `<a href>`, the
    /// same entities); only code spans and line breaks are written differently.
    package func html(title: String) -> String {
        var page = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>\(escapeMarkup(title))</title>\n"
        page += "<style>\(Self.printStyle)</style></head>\n<body>\n"
        for block in blocks { page += Self.html(block) }
        return page + "</body></html>\n"
    }

    private static let printStyle = """
        body { font-family: sans-serif; font-size: 11pt; line-height: 1.4; color: black; }
        pre, code { font-family: monospace; font-size: 9.5pt; background: #f0f0f0; }
        pre { padding: 6pt; white-space: pre-wrap; }
        blockquote { margin-left: 0; padding-left: 12pt; border-left: 3pt solid #ccc; color: #444; }
        table { border-collapse: collapse; } th, td { border: 1px solid #999; padding: 3pt 6pt; }
        img { max-width: 100%; } h1, h2, h3 { break-after: avoid; }
        """

    private static func html(_ block: Block) -> String {
        switch block {
        case .heading(let level, let markup):
            let tag = "h\(min(max(level, 1), 6))"
            return "<\(tag)>\(html(markup: markup))</\(tag)>\n"
        case .paragraph(let pieces):
            let content = pieces.map { piece -> String in
                switch piece {
                case .markup(let markup): html(markup: markup)
                case .image(let image):
                    "<img src=\"\(escapeMarkup(image.source?.absoluteString ?? ""))\" alt=\"\(escapeMarkup(image.alternative))\">"
                }
            }.joined(separator: " ")
            return "<p>\(content)</p>\n"
        case .code(_, let text):
            return "<pre><code>\(escapeMarkup(text))</code></pre>\n"
        case .quote(let blocks):
            return "<blockquote>\n\(blocks.map(html).joined())</blockquote>\n"
        case .list(let ordered, let start, let items):
            let open = ordered ? (start == 1 ? "<ol>" : "<ol start=\"\(start)\">") : "<ul>"
            let entries = items.map { item -> String in
                let box = item.checked.map { $0 ? "☑ " : "☐ " } ?? ""
                return "<li>\(box)\(item.blocks.map(html).joined())</li>\n"
            }.joined()
            return "\(open)\n\(entries)\(ordered ? "</ol>" : "</ul>")\n"
        case .table(let header, let alignments, let rows):
            func cells(_ row: [String], _ tag: String) -> String {
                "<tr>" + row.enumerated().map { index, markup in
                    let alignment = index < alignments.count ? alignments[index] : .leading
                    let style = switch alignment {
                    case .leading: ""
                    case .center: " style=\"text-align: center\""
                    case .trailing: " style=\"text-align: right\""
                    }
                    return "<\(tag)\(style)>\(html(markup: markup))</\(tag)>"
                }.joined() + "</tr>\n"
            }
            return "<table>\n<thead>\(cells(header, "th"))</thead>\n<tbody>\n\(rows.map { cells($0, "td") }.joined())</tbody></table>\n"
        case .rule:
            return "<hr>\n"
        }
    }

    /// Inline Pango markup as HTML: a code span (the only `<span>` the inlines write) becomes
    /// `<code>`, a hard line break `<br>`; the rest is the same in both.
    static func html(markup: String) -> String {
        markup
            .replacingOccurrences(of: MarkdownInlines.codeSpanOpening, with: "<code>")
            .replacingOccurrences(of: "</span>", with: "</code>")
            .replacingOccurrences(of: "\n", with: "<br>\n")
    }
}
