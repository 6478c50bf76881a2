/// The block structure of a Markdown document: a subset of CommonMark (ATX and setext
/// headings, paragraphs, bullet and ordered lists with nesting, fenced and indented code,
/// block quotes, thematic breaks, link reference definitions) plus GitHub's pipe tables and
/// task list items. Inline text is kept raw here; `MarkdownInlines` parses it once every
/// link reference definition is known.
indirect enum MarkdownBlock: Sendable, Equatable {
    case heading(level: Int, text: String)
    case paragraph(String)
    case code(language: String?, text: String)
    case quote([MarkdownBlock])
    case list(ordered: Bool, start: Int, items: [MarkdownListItem])
    case table(header: [String], alignments: [MarkdownAlignment], rows: [[String]])
    case rule
}

struct MarkdownListItem: Sendable, Equatable {
    /// nil for an ordinary item; true or false for a task item (`- [x]`, `- [ ]`).
    var checked: Bool?
    var blocks: [MarkdownBlock]
}

enum MarkdownAlignment: Sendable, Equatable { case leading, center, trailing }

/// A link reference definition: `[label]: destination "title"`.
struct MarkdownReference: Sendable, Equatable {
    var destination: String
    var title: String?
}

/// Splits Markdown text into blocks. Containers (quotes, list items) are parsed recursively
/// on their lines with the container's marker or indentation removed.
struct MarkdownBlockParser {
    private(set) var references: [String: MarkdownReference] = [:]
    /// Nesting deeper than this is kept as plain paragraphs: a file of 10,000 `>` cannot
    /// recurse the parser off its stack.
    static let maximumDepth = 32

    mutating func parse(_ text: String) -> [MarkdownBlock] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var line = String(line)
            if line.hasSuffix("\r") { line.removeLast() }
            return Self.expandingLeadingTabs(line)
        }
        if lines.last == "" { lines.removeLast() }
        return parseBlocks(lines[...], depth: 0)
    }

    /// Tabs in a line's indentation count to the next multiple of four columns.
    static func expandingLeadingTabs(_ line: String) -> String {
        guard line.first == " " || line.first == "\t", line.contains("\t") else { return line }
        var result = ""
        var column = 0
        var rest = Substring(line)
        while let character = rest.first, character == " " || character == "\t" {
            let width = character == "\t" ? 4 - column % 4 : 1
            result += String(repeating: " ", count: width)
            column += width
            rest = rest.dropFirst()
        }
        return result + rest
    }

    // MARK: Blocks

    private mutating func parseBlocks(_ lines: ArraySlice<String>, depth: Int) -> [MarkdownBlock] {
        var blocks: [MarkdownBlock] = []
        var index = lines.startIndex
        while index < lines.endIndex {
            let line = lines[index]
            if isBlank(line) {
                index += 1
                continue
            }
            let indent = indentation(line)
            let trimmed = String(line.dropFirst(min(indent, 3)))
            if indent >= 4 {
                // Indented code: runs to the first non-blank line indented less than four.
                var code: [String] = []
                while index < lines.endIndex, isBlank(lines[index]) || indentation(lines[index]) >= 4 {
                    code.append(String(lines[index].dropFirst(min(4, indentation(lines[index])))))
                    index += 1
                }
                while code.last.map(isBlank) == true { code.removeLast() }
                blocks.append(.code(language: nil, text: code.joined(separator: "\n")))
            } else if let fence = Self.fence(trimmed) {
                index += 1
                var code: [String] = []
                while index < lines.endIndex {
                    let candidate = lines[index]
                    let candidateIndent = indentation(candidate)
                    if candidateIndent < 4, let closing = Self.fence(String(candidate.dropFirst(candidateIndent))),
                       closing.character == fence.character, closing.length >= fence.length, closing.info.isEmpty {
                        index += 1
                        break
                    }
                    code.append(String(candidate.dropFirst(min(indent, candidateIndent))))
                    index += 1
                }
                let language = fence.info.split(separator: " ").first.map(String.init)
                blocks.append(.code(language: language, text: code.joined(separator: "\n")))
            } else if let heading = Self.atxHeading(trimmed) {
                blocks.append(.heading(level: heading.level, text: heading.text))
                index += 1
            } else if Self.isThematicBreak(trimmed) {
                blocks.append(.rule)
                index += 1
            } else if trimmed.hasPrefix(">") && depth < Self.maximumDepth {
                var inner: [String] = []
                while index < lines.endIndex, !isBlank(lines[index]) {
                    let current = lines[index]
                    let currentTrimmed = current.dropFirst(min(indentation(current), 3))
                    if currentTrimmed.hasPrefix(">") {
                        var content = currentTrimmed.dropFirst()
                        if content.first == " " { content = content.dropFirst() }
                        inner.append(Self.expandingLeadingTabs(String(content)))
                    } else if !inner.isEmpty, !startsBlock(current) {
                        inner.append(current)  // a lazy continuation of the quoted paragraph
                    } else {
                        break
                    }
                    index += 1
                }
                blocks.append(.quote(parseBlocks(inner[...], depth: depth + 1)))
            } else if let marker = Self.listMarker(line), depth < Self.maximumDepth {
                let (list, next) = parseList(lines, from: index, first: marker, depth: depth)
                blocks.append(list)
                index = next
            } else if let table = parseTable(lines, from: index) {
                blocks.append(table.block)
                index = table.next
            } else {
                // A paragraph: up to a blank line or the start of another block; a setext
                // underline turns it into a heading.
                var text: [String] = []
                while index < lines.endIndex, !isBlank(lines[index]) {
                    let current = lines[index]
                    if !text.isEmpty {
                        let underline = current.trimmingSpaces()
                        if indentation(current) < 4, !underline.isEmpty,
                           underline.allSatisfy({ $0 == "=" }) || underline.allSatisfy({ $0 == "-" }) {
                            index += 1
                            blocks.append(.heading(level: underline.first == "=" ? 1 : 2, text: text.joined(separator: "\n")))
                            text = []
                            break
                        }
                        if startsBlock(current) { break }
                    }
                    text.append(current.trimmingLeadingSpaces())
                    index += 1
                }
                guard !text.isEmpty else { continue }
                // Link reference definitions open a paragraph and are not shown.
                while let first = text.first, let (label, reference) = Self.referenceDefinition(first) {
                    if references[label] == nil { references[label] = reference }
                    text.removeFirst()
                }
                if !text.isEmpty { blocks.append(.paragraph(text.joined(separator: "\n"))) }
            }
        }
        return blocks
    }

    /// True when `line` would start a block that interrupts a paragraph.
    private func startsBlock(_ line: String) -> Bool {
        let indent = indentation(line)
        guard indent < 4 else { return false }
        let trimmed = String(line.dropFirst(indent))
        if trimmed.hasPrefix(">") || Self.fence(trimmed) != nil || Self.atxHeading(trimmed) != nil
            || Self.isThematicBreak(trimmed) {
            return true
        }
        // Only a bullet or an ordered list starting at 1 interrupts a paragraph, and not empty.
        if let marker = Self.listMarker(line), !marker.isEmptyItem {
            return !marker.ordered || marker.number == 1
        }
        return false
    }

    // MARK: Lists

    struct ListMarker {
        var ordered: Bool
        var character: Character  // the bullet, or the delimiter after the number
        var number: Int
        /// The column the item's content starts at.
        var contentIndent: Int
        var content: String
        var isEmptyItem: Bool { content.trimmingSpaces().isEmpty }
    }

    static func listMarker(_ line: String) -> ListMarker? {
        let indent = line.prefix { $0 == " " }.count
        guard indent < 4 else { return nil }
        var rest = line.dropFirst(indent)
        var marker: ListMarker
        if let first = rest.first, first == "-" || first == "*" || first == "+" {
            rest = rest.dropFirst()
            marker = ListMarker(ordered: false, character: first, number: 0, contentIndent: indent + 1, content: "")
        } else {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard (1...9).contains(digits.count), let number = Int(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let delimiter = rest.first, delimiter == "." || delimiter == ")" else { return nil }
            rest = rest.dropFirst()
            marker = ListMarker(ordered: true, character: delimiter, number: number,
                                contentIndent: indent + digits.count + 1, content: "")
        }
        if rest.isEmpty {
            marker.contentIndent += 1
            return marker
        }
        guard rest.first == " " else { return nil }
        let spaces = rest.prefix { $0 == " " }.count
        // Five or more spaces: the content is indented code, one space belongs to the marker.
        let used = spaces >= 5 || rest.dropFirst(spaces).isEmpty ? 1 : spaces
        marker.contentIndent += used
        marker.content = String(rest.dropFirst(used))
        return marker
    }

    private mutating func parseList(_ lines: ArraySlice<String>, from start: Int, first: ListMarker,
                                    depth: Int) -> (MarkdownBlock, Int) {
        var items: [MarkdownListItem] = []
        var index = start
        var marker = first
        while true {
            var itemLines = [marker.content]
            index += 1
            var previousBlank = false
            while index < lines.endIndex {
                let line = lines[index]
                if isBlank(line) {
                    itemLines.append("")
                    previousBlank = true
                    index += 1
                    continue
                }
                let indent = indentation(line)
                if indent >= marker.contentIndent {
                    itemLines.append(String(line.dropFirst(marker.contentIndent)))
                } else if !previousBlank, Self.listMarker(line) == nil, !startsBlock(line),
                          let last = itemLines.last, !isBlank(last) {
                    itemLines.append(line.trimmingLeadingSpaces())  // lazy continuation
                } else {
                    break
                }
                previousBlank = false
                index += 1
            }
            while itemLines.last.map(isBlank) == true { itemLines.removeLast() }
            var checked: Bool?
            if let firstLine = itemLines.first {
                for (prefix, state) in [("[ ] ", false), ("[x] ", true), ("[X] ", true)] where firstLine.hasPrefix(prefix) {
                    checked = state
                    itemLines[0] = String(firstLine.dropFirst(prefix.count))
                }
            }
            items.append(MarkdownListItem(checked: checked, blocks: parseBlocks(itemLines[...], depth: depth + 1)))
            // The next item must be the same kind of list.
            guard index < lines.endIndex, let next = Self.listMarker(lines[index]),
                  next.ordered == first.ordered, next.character == first.character,
                  indentation(lines[index]) < marker.contentIndent
            else { break }
            marker = next
        }
        return (.list(ordered: first.ordered, start: first.number, items: items), index)
    }

    // MARK: Tables (GitHub)

    private func parseTable(_ lines: ArraySlice<String>, from start: Int) -> (block: MarkdownBlock, next: Int)? {
        guard start + 1 < lines.endIndex, lines[start].contains("|") else { return nil }
        let header = Self.tableCells(lines[start])
        let delimiters = Self.tableCells(lines[start + 1])
        guard !header.isEmpty, header.count == delimiters.count else { return nil }
        var alignments: [MarkdownAlignment] = []
        for cell in delimiters {
            let core = cell.trimmingSpaces()
            let dashes = core.trimming([":"])
            guard !dashes.isEmpty, dashes.allSatisfy({ $0 == "-" }) else { return nil }
            switch (core.hasPrefix(":"), core.hasSuffix(":")) {
            case (true, true): alignments.append(.center)
            case (false, true): alignments.append(.trailing)
            default: alignments.append(.leading)
            }
        }
        var rows: [[String]] = []
        var index = start + 2
        while index < lines.endIndex, !isBlank(lines[index]), !startsBlock(lines[index]) {
            var cells = Self.tableCells(lines[index])
            cells = Array(cells.prefix(header.count)) + Array(repeating: "", count: max(0, header.count - cells.count))
            rows.append(cells)
            index += 1
        }
        return (.table(header: header, alignments: alignments, rows: rows), index)
    }

    /// The cells of a table row: split on `|` that are not escaped or inside a code span.
    static func tableCells(_ line: String) -> [String] {
        var row = line.trimmingSpaces()
        if row.hasPrefix("|") { row.removeFirst() }
        if row.hasSuffix("|") && !row.hasSuffix("\\|") { row.removeLast() }
        var cells: [String] = []
        var current = ""
        var inCode = false
        var escaped = false
        for character in row {
            if escaped {
                // `\|` inside a table is a literal bar; other escapes stay for the inline parser.
                if character != "|" { current.append("\\") }
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "`" {
                inCode.toggle()
                current.append(character)
            } else if character == "|" && !inCode {
                cells.append(current.trimmingSpaces())
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaped { current.append("\\") }
        cells.append(current.trimmingSpaces())
        return cells
    }

    // MARK: Single lines

    struct Fence {
        var character: Character
        var length: Int
        var info: String
    }

    static func fence(_ trimmed: String) -> Fence? {
        guard let first = trimmed.first, first == "`" || first == "~" else { return nil }
        let length = trimmed.prefix { $0 == first }.count
        guard length >= 3 else { return nil }
        let info = trimmed.dropFirst(length).trimmingSpaces()
        if first == "`" && info.contains("`") { return nil }
        return Fence(character: first, length: length, info: info)
    }

    static func atxHeading(_ trimmed: String) -> (level: Int, text: String)? {
        let level = trimmed.prefix { $0 == "#" }.count
        guard (1...6).contains(level) else { return nil }
        let rest = trimmed.dropFirst(level)
        guard rest.isEmpty || rest.first == " " else { return nil }
        var text = rest.trimmingSpaces()
        // An optional closing sequence of #s after a space.
        let closing = text.reversed().prefix { $0 == "#" }.count
        if closing > 0 {
            let before = text.dropLast(closing)
            if before.isEmpty || before.last == " " { text = before.trimmingSpaces() }
        }
        return (level, text)
    }

    static func isThematicBreak(_ trimmed: String) -> Bool {
        guard let first = trimmed.first, first == "-" || first == "*" || first == "_" else { return false }
        var count = 0
        for character in trimmed {
            if character == first {
                count += 1
            } else if character != " " {
                return false
            }
        }
        return count >= 3
    }

    static func referenceDefinition(_ line: String) -> (String, MarkdownReference)? {
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return nil }
        let label = line[line.index(after: line.startIndex)..<close]
        let afterLabel = line[line.index(after: close)...]
        guard !label.trimmingSpaces().isEmpty, afterLabel.hasPrefix(":") else { return nil }
        var rest = afterLabel.dropFirst().trimmingSpaces()[...]
        guard !rest.isEmpty else { return nil }
        var destination: String
        if rest.hasPrefix("<"), let end = rest.firstIndex(of: ">") {
            destination = String(rest[rest.index(after: rest.startIndex)..<end])
            rest = rest[rest.index(after: end)...]
        } else {
            destination = String(rest.prefix { $0 != " " })
            rest = rest.dropFirst(destination.count)
        }
        var title: String?
        let remainder = rest.trimmingSpaces()
        if let open = remainder.first, remainder.count >= 2,
           let close = ["\"": "\"", "'": "'", "(": ")"][String(open)], remainder.hasSuffix(close) {
            title = String(remainder.dropFirst().dropLast())
        } else if !remainder.isEmpty {
            return nil
        }
        destination = destination.replacingBackslashEscapes()
        return (normalizedLabel(String(label)), MarkdownReference(destination: destination, title: title))
    }

    /// Labels match case-insensitively with runs of white space collapsed.
    static func normalizedLabel(_ label: String) -> String {
        label.lowercased().split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
    }

    private func isBlank(_ line: String) -> Bool { line.allSatisfy { $0 == " " || $0 == "\t" } }
    private func indentation(_ line: String) -> Int { line.prefix { $0 == " " }.count }
}

extension StringProtocol {
    func trimmingSpaces() -> String { trimming([" ", "\t"]) }

    func trimmingLeadingSpaces() -> String { String(drop { $0 == " " || $0 == "\t" }) }

    func trimming(_ set: Set<Character>) -> String {
        guard let first = firstIndex(where: { !set.contains($0) }),
              let last = lastIndex(where: { !set.contains($0) }) else { return "" }
        return String(self[first...last])
    }

    /// Removes backslashes before ASCII punctuation (CommonMark's backslash escapes).
    func replacingBackslashEscapes() -> String {
        var result = ""
        var escaped = false
        for character in self {
            if escaped {
                if !(character.isASCII && character.isPunctuationOrSymbol) { result.append("\\") }
                result.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        if escaped { result.append("\\") }
        return result
    }
}

extension Character {
    var isPunctuationOrSymbol: Bool { isPunctuation || isSymbol }
}
