import DocumentCore
import Foundation

extension MarkdownDocument {
    /// The document as a plain HTML page, for WebKit to lay out on paper, with a small print
    /// style sheet. Relative addresses are left as written: the page is loaded with the file's
    /// own address as its base.
    package func html(title: String) -> String {
        var page = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>\(escapeMarkup(title))</title>\n"
        page += "<style>\(Self.printStyle)</style></head>\n<body>\n"
        return page + Self.html(tree) + "</body></html>\n"
    }

    private static let printStyle = """
        body { font-family: sans-serif; font-size: 11pt; line-height: 1.4; color: black; }
        pre, code { font-family: monospace; font-size: 9.5pt; background: #f0f0f0; }
        pre { padding: 6pt; white-space: pre-wrap; }
        blockquote { margin-left: 0; padding-left: 12pt; border-left: 3pt solid #ccc; color: #444; }
        table { border-collapse: collapse; } th, td { border: 1px solid #999; padding: 3pt 6pt; }
        img { max-width: 100%; } h1, h2, h3 { break-after: avoid; }
        """

    /// `tree` as HTML, element for element as cmark-gfm's own HTML renderer writes it, except
    /// that raw HTML in the file is written as the text it is (escaped), never as markup.
    package static func html(_ tree: MarkdownNode) -> String {
        var writer = MarkdownHTMLWriter()
        writer.write(tree, tight: false)
        return writer.html
    }
}

/// cmark-gfm's HTML renderer (`html.c` and the table, strikethrough and task list extensions'),
/// over `MarkdownNode`.
private struct MarkdownHTMLWriter {
    var html = ""
    private var inTableHeader = false

    /// A line break unless the output is empty or already ends with one (cmark's `cr`).
    private mutating func newLine() {
        if let last = html.last, last != "\n" { html += "\n" }
    }

    /// `node`; `tight`: it is in an item of a tight list (its paragraphs write no `<p>`).
    mutating func write(_ node: MarkdownNode, tight: Bool) {
        switch node.kind {
        case .document: children(node)
        case .quote:
            newLine()
            html += "<blockquote>\n"
            children(node)
            newLine()
            html += "</blockquote>\n"
        case .list:
            newLine()
            let ordered = node.ordered ?? false, start = node.start ?? 1
            html += !ordered ? "<ul>\n" : start == 1 ? "<ol>\n" : "<ol start=\"\(start)\">\n"
            for item in node.content { write(item, tight: node.tight ?? false) }
            html += ordered ? "</ol>\n" : "</ul>\n"
        case .item:
            newLine()
            html += "<li>"
            if let checked = node.checked {
                html += checked ? "<input type=\"checkbox\" checked=\"\" disabled=\"\" /> " : "<input type=\"checkbox\" disabled=\"\" /> "
            }
            for child in node.content { write(child, tight: tight) }
            html += "</li>\n"
        case .heading:
            newLine()
            let level = min(max(node.level ?? 1, 1), 6)
            html += "<h\(level)>"
            children(node)
            html += "</h\(level)>\n"
        case .codeBlock:
            newLine()
            let language = (node.info ?? "").prefix { !$0.isWhitespace }
            html += language.isEmpty ? "<pre><code>" : "<pre><code class=\"language-\(escape(String(language)))\">"
            html += escape(node.literal ?? "") + "</code></pre>\n"
        case .htmlBlock:
            newLine()
            html += "<p>" + escape(node.literal ?? "") + "</p>"
            newLine()
        case .rule:
            newLine()
            html += "<hr />\n"
        case .paragraph:
            if tight {
                children(node)
            } else {
                newLine()
                html += "<p>"
                children(node)
                html += "</p>\n"
            }
        case .table:
            newLine()
            html += "<table>"
            var openBody = false
            for row in node.content {
                newLine()
                if row.isHeader == true {
                    inTableHeader = true
                    html += "<thead>"
                    newLine()
                } else if !openBody {
                    html += "<tbody>"
                    newLine()
                    openBody = true
                }
                html += "<tr>"
                let alignments = node.alignments ?? []
                for (index, cell) in row.content.prefix(max(alignments.count, 1)).enumerated() {
                    newLine()
                    html += inTableHeader ? "<th" : "<td"
                    switch index < alignments.count ? alignments[index] : MarkdownNode.Alignment.none {
                    case .left: html += " align=\"left\""
                    case .center: html += " align=\"center\""
                    case .right: html += " align=\"right\""
                    case .none: break
                    }
                    html += ">"
                    children(cell)
                    html += inTableHeader ? "</th>" : "</td>"
                }
                newLine()
                html += "</tr>"
                if row.isHeader == true {
                    newLine()
                    html += "</thead>"
                    inTableHeader = false
                }
            }
            if openBody {
                newLine()
                html += "</tbody>"
                newLine()
            }
            newLine()
            html += "</table>"
            newLine()
        case .tableRow, .tableCell: children(node)
        case .text: html += escape(node.literal ?? "")
        case .softBreak: html += "\n"
        case .lineBreak: html += "<br />\n"
        case .code: html += "<code>" + escape(node.literal ?? "") + "</code>"
        case .htmlInline: html += escape(node.literal ?? "")
        case .emphasis: wrap(node, "em")
        case .strong: wrap(node, "strong")
        case .strikethrough: wrap(node, "del")
        case .link:
            html += "<a href=\"" + Self.escapeAddress(node.url ?? "") + "\""
            if let title = node.title, !title.isEmpty { html += " title=\"" + escape(title) + "\"" }
            html += ">"
            children(node)
            html += "</a>"
        case .image:
            html += "<img src=\"" + Self.escapeAddress(node.url ?? "") + "\" alt=\"" + escape(Self.altText(node.content)) + "\""
            if let title = node.title, !title.isEmpty { html += " title=\"" + escape(title) + "\"" }
            html += " />"
        }
    }

    private mutating func children(_ node: MarkdownNode) {
        for child in node.content { write(child, tight: false) }
    }

    private mutating func wrap(_ node: MarkdownNode, _ tag: String) {
        html += "<\(tag)>"
        children(node)
        html += "</\(tag)>"
    }

    /// An image's alternative text: its inlines' text, breaks as spaces.
    private static func altText(_ nodes: [MarkdownNode]) -> String {
        nodes.map { node in
            switch node.kind {
            case .text, .code, .htmlInline: node.literal ?? ""
            case .softBreak, .lineBreak: " "
            default: altText(node.content)
            }
        }.joined()
    }

    /// Text in HTML: `&`, `<`, `>` and `"` as entities (cmark's `escape_html`).
    private func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// An address in an attribute: the bytes cmark's `houdini_escape_href` leaves as they are,
    /// `&` and `'` as entities, every other byte percent-encoded.
    private static func escapeAddress(_ address: String) -> String {
        var result = ""
        for byte in address.utf8 {
            switch byte {
            case UInt8(ascii: "&"): result += "&amp;"
            case UInt8(ascii: "'"): result += "&#x27;"
            case _ where addressSafe.contains(byte): result.unicodeScalars.append(Unicode.Scalar(byte))
            default: result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    private static let addressSafe: Set<UInt8> = Set(
        Array("!#$%()*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~".utf8))
}
