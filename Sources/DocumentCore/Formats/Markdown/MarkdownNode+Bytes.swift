/// The tree's form on the wire: compact bytes, written in the worker and read back, checked
/// as untrusted, by the previewer's process. Not JSON: reading every node's keyed fields would
/// take many times longer than cmark-gfm takes to parse the document.
///
/// A node is its kind (one byte, `Kind`'s order), a bit set of the fields it has (two bytes),
/// those fields in the order of the bits, then its children's count (four bytes) and the
/// children. Strings are a four-byte length and UTF-8; numbers four bytes; flags one byte;
/// alignments a two-byte count and a byte each. Everything is little-endian. The bytes start
/// with `bytesVersion`.
extension MarkdownNode {
    /// The form's version, its first byte: raised with every change to it.
    package static let bytesVersion: UInt8 = 1

    private enum Field: Int {
        case literal, url, title, level, info, ordered, start, tight, checked, isHeader, alignments
    }

    /// The tree as bytes.
    package func encoded() -> [UInt8] {
        var bytes: [UInt8] = [Self.bytesVersion]
        bytes.reserveCapacity(4096)
        encode(into: &bytes)
        return bytes
    }

    private func encode(into bytes: inout [UInt8]) {
        bytes.append(UInt8(Kind.allCases.firstIndex(of: kind)!))
        var fields: UInt16 = 0
        func has(_ field: Field, _ value: Any?) { if value != nil { fields |= 1 << field.rawValue } }
        has(.literal, literal); has(.url, url); has(.title, title); has(.level, level); has(.info, info)
        has(.ordered, ordered); has(.start, start); has(.tight, tight); has(.checked, checked)
        has(.isHeader, isHeader); has(.alignments, alignments)
        Self.append(fields, to: &bytes)
        for text in [literal, url, title] { if let text { Self.append(text, to: &bytes) } }
        if let level { Self.append(UInt32(truncatingIfNeeded: level), to: &bytes) }
        if let info { Self.append(info, to: &bytes) }
        if let ordered { bytes.append(ordered ? 1 : 0) }
        if let start { Self.append(UInt32(truncatingIfNeeded: start), to: &bytes) }
        for flag in [tight, checked, isHeader] { if let flag { bytes.append(flag ? 1 : 0) } }
        if let alignments {
            Self.append(UInt16(truncatingIfNeeded: alignments.count), to: &bytes)
            for alignment in alignments.prefix(Int(UInt16.max)) { bytes.append(UInt8(Alignment.allCases.firstIndex(of: alignment)!)) }
        }
        Self.append(UInt32(truncatingIfNeeded: content.count), to: &bytes)
        for child in content { child.encode(into: &bytes) }
    }

    private static func append<Number: FixedWidthInteger>(_ number: Number, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: number.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func append(_ text: String, to bytes: inout [UInt8]) {
        append(UInt32(truncatingIfNeeded: text.utf8.count), to: &bytes)
        bytes.append(contentsOf: text.utf8)
    }

    /// The tree in `bytes`; nil when they are not one `encoded()` writes, or hold a tree deeper
    /// than a worker makes or with more than `nodeLimit` nodes.
    package init?(decoding bytes: UnsafeRawBufferPointer) {
        var reader = Reader(bytes: bytes)
        guard reader.byte() == Self.bytesVersion, let node = Self.decode(&reader, depth: 0), reader.isAtEnd else { return nil }
        self = node
    }

    private static func decode(_ reader: inout Reader, depth: Int) -> MarkdownNode? {
        reader.count += 1
        guard depth <= depthLimit + 1, reader.count <= nodeLimit,
              let kindIndex = reader.byte(), Int(kindIndex) < Kind.allCases.count,
              let fields: UInt16 = reader.number()
        else { return nil }
        func has(_ field: Field) -> Bool { fields & (1 << field.rawValue) != 0 }
        var node = MarkdownNode(Kind.allCases[Int(kindIndex)])
        if has(.literal) { guard let text = reader.text() else { return nil }; node.literal = text }
        if has(.url) { guard let text = reader.text() else { return nil }; node.url = text }
        if has(.title) { guard let text = reader.text() else { return nil }; node.title = text }
        if has(.level) { guard let number: UInt32 = reader.number() else { return nil }; node.level = Int(Int32(bitPattern: number)) }
        if has(.info) { guard let text = reader.text() else { return nil }; node.info = text }
        if has(.ordered) { guard let flag = reader.flag() else { return nil }; node.ordered = flag }
        if has(.start) { guard let number: UInt32 = reader.number() else { return nil }; node.start = Int(Int32(bitPattern: number)) }
        if has(.tight) { guard let flag = reader.flag() else { return nil }; node.tight = flag }
        if has(.checked) { guard let flag = reader.flag() else { return nil }; node.checked = flag }
        if has(.isHeader) { guard let flag = reader.flag() else { return nil }; node.isHeader = flag }
        if has(.alignments) {
            guard let count: UInt16 = reader.number(), Int(count) <= reader.remaining else { return nil }
            var alignments: [Alignment] = []
            alignments.reserveCapacity(Int(count))
            for _ in 0..<count {
                guard let index = reader.byte(), Int(index) < Alignment.allCases.count else { return nil }
                alignments.append(Alignment.allCases[Int(index)])
            }
            node.alignments = alignments
        }
        // Each child takes seven bytes at least: a count past what is left is a lie.
        guard let count: UInt32 = reader.number(), Int(count) <= reader.remaining / 7 else { return nil }
        if count > 0 {
            var children: [MarkdownNode] = []
            children.reserveCapacity(Int(count))
            for _ in 0..<count {
                guard let child = decode(&reader, depth: depth + 1) else { return nil }
                children.append(child)
            }
            node.children = children
        }
        return node
    }

    /// Reads the bytes front to back, never past their end.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        /// The nodes read so far.
        var count = 0

        var remaining: Int { bytes.count - offset }
        var isAtEnd: Bool { offset == bytes.count }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func flag() -> Bool? {
            switch byte() {
            case 0: false
            case 1: true
            default: nil
            }
        }

        mutating func number<Number: FixedWidthInteger>() -> Number? {
            let size = MemoryLayout<Number>.size
            guard remaining >= size else { return nil }
            defer { offset += size }
            return Number(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Number.self))
        }

        mutating func text() -> String? {
            guard let length: UInt32 = number(), Int(length) <= remaining else { return nil }
            defer { offset += Int(length) }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + Int(length))]), as: UTF8.self)
        }
    }
}
