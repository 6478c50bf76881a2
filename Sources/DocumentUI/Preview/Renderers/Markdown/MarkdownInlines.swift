import CGtk
import Foundation
import GObjectSupport

/// A run of a block's text as the widgets show it: Pango markup, or an image of its own.
enum MarkdownPiece: Sendable, Equatable {
    case markup(String)
    case image(MarkdownImage)
}

struct MarkdownImage: Sendable, Equatable {
    /// The image's address, resolved against the document's folder.
    var source: URL?
    var alternative: String
}

/// Parses CommonMark inlines — code spans, emphasis and strong emphasis (`*` and `_`, with the
/// flanking rules), `~~strikethrough~~`, inline and reference links and images, autolinks,
/// backslash escapes, entities, hard line breaks — and writes them as Pango markup. Every piece
/// of text is escaped with `g_markup_escape_text`, so nothing in the file becomes markup.
struct MarkdownInlines: Sendable {
    let references: [String: MarkdownReference]
    /// The document's folder: relative links and images are resolved against it.
    let base: URL

    /// The text as markup with images given separately (top-level images only: an image inside
    /// a link or emphasis shows its alternative text).
    func pieces(_ text: String) -> [MarkdownPiece] {
        var pieces: [MarkdownPiece] = []
        var markup = ""
        for node in parse(text) {
            if node.kind == .image {
                if !markup.trimmingSpaces().isEmpty { pieces.append(.markup(markup.trimmingSpaces())) }
                markup = ""
                pieces.append(.image(MarkdownImage(source: resolve(node.destination), alternative: plainText(node.children))))
            } else {
                markup += render([node])
            }
        }
        if !markup.trimmingSpaces().isEmpty { pieces.append(.markup(markup.trimmingSpaces())) }
        return pieces
    }

    /// The text as markup, images shown by their alternative text.
    func markup(_ text: String) -> String { render(parse(text)) }

    // MARK: Parsing

    final class Node {
        enum Kind { case text, code, emphasis, strong, strikethrough, link, image, lineBreak, delimiter, bracket }
        var kind: Kind
        var text = ""
        var children: [Node] = []
        var destination = ""
        var title: String?
        // A delimiter run (`*`, `_`, `~`): what is left of it, and whether it may open or close.
        var count = 0
        var canOpen = false
        var canClose = false
        // A bracket (`[` or `![`): where its text starts, and whether it may still make a link.
        var sourceStart = 0
        var isActive = true

        init(_ kind: Kind, text: String = "") {
            self.kind = kind
            self.text = text
        }
    }

    /// More delimiter runs than this in one block are left as text: matching them is quadratic.
    static let delimiterLimit = 2000

    func parse(_ text: String) -> [Node] {
        let characters = Array(text)
        var nodes: [Node] = []
        var brackets: [Int] = []
        var buffer = ""
        var delimiters = 0
        var unclosedBackticks: Set<Int> = []
        func flush() {
            if !buffer.isEmpty { nodes.append(Node(.text, text: buffer)) }
            buffer = ""
        }
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "\\":
                if index + 1 < characters.count, characters[index + 1] == "\n" {
                    flush()
                    nodes.append(Node(.lineBreak))
                    index += 2
                    while index < characters.count, characters[index] == " " { index += 1 }
                } else if index + 1 < characters.count, characters[index + 1].isASCII, characters[index + 1].isPunctuationOrSymbol {
                    buffer.append(characters[index + 1])
                    index += 2
                } else {
                    buffer.append("\\")
                    index += 1
                }
            case "`":
                let run = Self.run(of: "`", in: characters, at: index)
                // A run length with no closer after some point has none after any later point.
                if !unclosedBackticks.contains(run), let close = Self.closingBackticks(run, in: characters, from: index + run) {
                    flush()
                    var code = String(characters[(index + run)..<close]).replacingOccurrences(of: "\n", with: " ")
                    if code.count >= 2, code.hasPrefix(" "), code.hasSuffix(" "), code.contains(where: { $0 != " " }) {
                        code = String(code.dropFirst().dropLast())
                    }
                    nodes.append(Node(.code, text: code))
                    index = close + run
                } else {
                    unclosedBackticks.insert(run)
                    buffer += String(repeating: "`", count: run)
                    index += run
                }
            case "*", "_", "~":
                let run = Self.run(of: character, in: characters, at: index)
                delimiters += 1
                guard delimiters <= Self.delimiterLimit else {
                    buffer += String(repeating: character, count: run)
                    index += run
                    continue
                }
                flush()
                let before = index > 0 ? characters[index - 1] : " "
                let after = index + run < characters.count ? characters[index + run] : " "
                let leftFlanking = !after.isWhitespace && (!after.isPunctuationOrSymbol || before.isWhitespace || before.isPunctuationOrSymbol)
                let rightFlanking = !before.isWhitespace && (!before.isPunctuationOrSymbol || after.isWhitespace || after.isPunctuationOrSymbol)
                let node = Node(.delimiter, text: String(character))
                node.count = run
                if character == "_" {
                    node.canOpen = leftFlanking && (!rightFlanking || before.isPunctuationOrSymbol)
                    node.canClose = rightFlanking && (!leftFlanking || after.isPunctuationOrSymbol)
                } else {
                    node.canOpen = leftFlanking
                    node.canClose = rightFlanking
                }
                nodes.append(node)
                index += run
            case "!" where index + 1 < characters.count && characters[index + 1] == "[":
                flush()
                let node = Node(.bracket, text: "![")
                node.sourceStart = index + 2
                nodes.append(node)
                brackets.append(nodes.count - 1)
                index += 2
            case "[":
                flush()
                let node = Node(.bracket, text: "[")
                node.sourceStart = index + 1
                nodes.append(node)
                brackets.append(nodes.count - 1)
                index += 1
            case "]":
                guard let openerIndex = brackets.popLast() else {
                    buffer.append("]")
                    index += 1
                    continue
                }
                let opener = nodes[openerIndex]
                flush()
                guard opener.isActive, let target = linkTarget(characters, closing: index, opener: opener) else {
                    opener.kind = .text  // not a link after all: the bracket is plain text
                    buffer.append("]")
                    index += 1
                    continue
                }
                let isImage = opener.text == "!["
                let link = Node(isImage ? .image : .link)
                var children = Array(nodes[(openerIndex + 1)...])
                Self.processEmphasis(&children)
                link.children = children
                link.destination = target.destination
                link.title = target.title
                nodes.replaceSubrange(openerIndex..., with: [link])
                if !isImage {
                    // Links cannot contain links: earlier `[` can no longer make one.
                    for earlier in brackets where nodes[earlier].text == "[" { nodes[earlier].isActive = false }
                }
                index = target.next
            case "<":
                if let (link, next) = autolink(characters, at: index) {
                    flush()
                    nodes.append(link)
                    index = next
                } else {
                    buffer.append("<")
                    index += 1
                }
            case "&":
                if let (decoded, next) = Self.entity(characters, at: index) {
                    buffer += decoded
                    index = next
                } else {
                    buffer.append("&")
                    index += 1
                }
            case "\n":
                let trailing = buffer.reversed().prefix { $0 == " " }.count
                buffer.removeLast(trailing)
                if trailing >= 2 {
                    flush()
                    nodes.append(Node(.lineBreak))
                } else {
                    buffer.append(" ")  // a soft break: the label reflows it
                }
                index += 1
                while index < characters.count, characters[index] == " " { index += 1 }
            default:
                buffer.append(character)
                index += 1
            }
        }
        flush()
        for node in nodes where node.kind == .bracket { node.kind = .text }
        Self.processEmphasis(&nodes)
        return nodes
    }

    /// Pairs delimiter runs into emphasis, strong emphasis and strikethrough (CommonMark's
    /// "process emphasis", including the rule of three), innermost first.
    static func processEmphasis(_ nodes: inout [Node]) {
        var closerIndex = 0
        while closerIndex < nodes.count {
            let closer = nodes[closerIndex]
            guard closer.kind == .delimiter, closer.canClose, closer.count > 0 else {
                closerIndex += 1
                continue
            }
            var openerIndex: Int?
            var candidate = closerIndex - 1
            while candidate >= 0 {
                let opener = nodes[candidate]
                if opener.kind == .delimiter, opener.text == closer.text, opener.canOpen, opener.count > 0 {
                    let ruleOfThree = (opener.canClose || closer.canOpen) && (opener.count + closer.count) % 3 == 0
                        && !(opener.count % 3 == 0 && closer.count % 3 == 0)
                    let strikeOK = closer.text != "~" || (opener.count >= 2 && closer.count >= 2)
                    if !ruleOfThree && strikeOK {
                        openerIndex = candidate
                        break
                    }
                }
                candidate -= 1
            }
            guard let openerIndex else {
                closerIndex += 1
                continue
            }
            let opener = nodes[openerIndex]
            let used = closer.text == "~" ? 2 : (opener.count >= 2 && closer.count >= 2 ? 2 : 1)
            let kind: Node.Kind = closer.text == "~" ? .strikethrough : used == 2 ? .strong : .emphasis
            let wrapper = Node(kind)
            wrapper.children = Array(nodes[(openerIndex + 1)..<closerIndex])
            opener.count -= used
            closer.count -= used
            nodes.replaceSubrange((openerIndex + 1)..<closerIndex, with: [wrapper])
            closerIndex = openerIndex + 2  // the closer again: it may close more
        }
    }

    private static func run(of character: Character, in characters: [Character], at index: Int) -> Int {
        var end = index
        while end < characters.count, characters[end] == character { end += 1 }
        return end - index
    }

    private static func closingBackticks(_ length: Int, in characters: [Character], from start: Int) -> Int? {
        var index = start
        while index < characters.count {
            if characters[index] == "`" {
                let run = run(of: "`", in: characters, at: index)
                if run == length { return index }
                index += run
            } else {
                index += 1
            }
        }
        return nil
    }

    private struct LinkTarget {
        var destination: String
        var title: String?
        var next: Int
    }

    /// What follows `]`: an inline destination `(…)`, a full `[label]` or collapsed `[]`
    /// reference, or the bracketed text itself as a shortcut reference.
    private func linkTarget(_ characters: [Character], closing: Int, opener: Node) -> LinkTarget? {
        let after = closing + 1
        if after < characters.count, characters[after] == "(", let inline = Self.inlineDestination(characters, at: after) {
            return inline
        }
        guard closing - opener.sourceStart <= Self.labelLimit else { return nil }
        let ownLabel = String(characters[opener.sourceStart..<closing])
        if after < characters.count, characters[after] == "[",
           let end = characters[(after + 1)...].prefix(Self.labelLimit).firstIndex(of: "]") {
            let label = String(characters[(after + 1)..<end])
            let key = MarkdownBlockParser.normalizedLabel(label.isEmpty ? ownLabel : label)
            guard let reference = references[key] else { return nil }
            return LinkTarget(destination: reference.destination, title: reference.title, next: end + 1)
        }
        guard let reference = references[MarkdownBlockParser.normalizedLabel(ownLabel)] else { return nil }
        return LinkTarget(destination: reference.destination, title: reference.title, next: after)
    }

    /// The longest link label and inline destination looked for: scanning further for each
    /// `]` of a long paragraph would make it quadratic.
    static let labelLimit = 1000
    static let destinationLimit = 8192

    private static func inlineDestination(_ all: [Character], at open: Int) -> LinkTarget? {
        let characters = all[..<min(all.count, open + destinationLimit)]
        var index = open + 1
        func skipSpace() { while index < characters.count, characters[index].isWhitespace { index += 1 } }
        skipSpace()
        var destination = ""
        if index < characters.count, characters[index] == "<" {
            index += 1
            while index < characters.count, characters[index] != ">" {
                if characters[index] == "\n" || characters[index] == "<" { return nil }
                destination.append(characters[index])
                index += 1
            }
            guard index < characters.count else { return nil }
            index += 1
        } else {
            var depth = 0
            while index < characters.count {
                let character = characters[index]
                if character.isWhitespace { break }
                if character == "\\", index + 1 < characters.count {
                    destination.append(character)
                    destination.append(characters[index + 1])
                    index += 2
                    continue
                }
                if character == "(" {
                    depth += 1
                    if depth > 32 { return nil }  // CommonMark's limit on nested parentheses
                }
                if character == ")" {
                    if depth == 0 { break }
                    depth -= 1
                }
                destination.append(character)
                index += 1
            }
        }
        skipSpace()
        var title: String?
        if index < characters.count, let close = ["\"": "\"", "'": "'", "(": ")"][String(characters[index])] {
            let closeCharacter = Character(close)
            index += 1
            var text = ""
            while index < characters.count, characters[index] != closeCharacter {
                if characters[index] == "\\", index + 1 < characters.count { index += 1 }
                text.append(characters[index])
                index += 1
            }
            guard index < characters.count else { return nil }
            index += 1
            title = text
            skipSpace()
        }
        guard index < characters.count, characters[index] == ")" else { return nil }
        return LinkTarget(destination: destination.replacingBackslashEscapes(), title: title, next: index + 1)
    }

    /// `<https://example.org>` and `<someone@example.org>`.
    private func autolink(_ characters: [Character], at start: Int) -> (Node, Int)? {
        var index = start + 1
        var content = ""
        while index < characters.count, characters[index] != ">" {
            let character = characters[index]
            if character == "<" || character.isWhitespace || content.count > 2048 { return nil }
            content.append(character)
            index += 1
        }
        guard index < characters.count else { return nil }
        let link = Node(.link)
        link.children = [Node(.text, text: content)]
        if let colon = content.firstIndex(of: ":"), Self.isScheme(content[..<colon]) {
            link.destination = content
        } else if content.contains("@"), !content.contains("/"), content.first != "@", content.last != "@" {
            link.destination = "mailto:" + content
        } else {
            return nil
        }
        return (link, index + 1)
    }

    private static func isScheme(_ text: Substring) -> Bool {
        guard (2...32).contains(text.count), let first = text.first, first.isASCII, first.isLetter else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "." || $0 == "-") }
    }

    private static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}", "copy": "©",
        "reg": "®", "trade": "™", "hellip": "…", "mdash": "—", "ndash": "–", "laquo": "«", "raquo": "»",
        "ldquo": "“", "rdquo": "”", "lsquo": "‘", "rsquo": "’", "times": "×", "deg": "°", "euro": "€",
        "middot": "·", "bull": "•", "rarr": "→", "larr": "←", "para": "¶", "sect": "§",
    ]

    private static func entity(_ characters: [Character], at start: Int) -> (String, Int)? {
        guard let end = characters[start...].prefix(34).firstIndex(of: ";"), end > start + 1 else { return nil }
        let name = String(characters[(start + 1)..<end])
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            guard let value else { return nil }
            let scalar = Unicode.Scalar(value).flatMap { $0 == "\0" ? nil : $0 } ?? "\u{FFFD}"
            return (String(Character(scalar)), end + 1)
        }
        guard let decoded = namedEntities[name] else { return nil }
        return (decoded, end + 1)
    }

    // MARK: Markup

    /// How a code span starts in the markup (the HTML for printing finds it by this).
    static let codeSpanOpening = "<span font_family=\"monospace\" bgcolor=\"#808080\" bgalpha=\"20%\">"

    func render(_ nodes: [Node]) -> String {
        var markup = ""
        for node in nodes {
            switch node.kind {
            case .text, .bracket: markup += escapeMarkup(node.text)
            case .delimiter: markup += escapeMarkup(String(repeating: node.text, count: node.count))
            case .code: markup += Self.codeSpanOpening + escapeMarkup(node.text) + "</span>"
            case .emphasis: markup += "<i>\(render(node.children))</i>"
            case .strong: markup += "<b>\(render(node.children))</b>"
            case .strikethrough: markup += "<s>\(render(node.children))</s>"
            case .lineBreak: markup += "\n"
            case .image: markup += "<i>\(escapeMarkup(plainText(node.children)))</i>"
            case .link:
                let target = resolve(node.destination)?.absoluteString ?? ""
                var open = "<a href=\"\(escapeMarkup(target))\""
                if let title = node.title, !title.isEmpty { open += " title=\"\(escapeMarkup(title))\"" }
                markup += open + ">" + render(node.children) + "</a>"
            }
        }
        return markup
    }

    func plainText(_ nodes: [Node]) -> String {
        nodes.map { node in
            switch node.kind {
            case .text, .code, .bracket: node.text
            case .delimiter: String(repeating: node.text, count: node.count)
            case .lineBreak: " "
            default: plainText(node.children)
            }
        }.joined()
    }

    /// A link or image address: absolute as written, or relative to the document's folder.
    func resolve(_ destination: String) -> URL? {
        // A link to a heading in the same document: nothing to open.
        guard !destination.isEmpty, !destination.hasPrefix("#") else { return nil }
        if let colon = destination.firstIndex(of: ":"), Self.isScheme(destination[..<colon]) {
            return URL(string: destination)
        }
        let encoded = destination.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed.union(CharacterSet(charactersIn: "%#"))) ?? destination
        return URL(string: encoded, relativeTo: base)?.absoluteURL
    }
}
