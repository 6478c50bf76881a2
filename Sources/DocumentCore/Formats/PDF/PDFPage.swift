import Foundation

/// A link to a URI on a drawn page, in the drawing's pixels (top-left origin).
package struct PDFLink: Sendable, Equatable {
    package let x1: Double, y1: Double, x2: Double, y2: Double
    package let uri: String

    package init(x1: Double, y1: Double, x2: Double, y2: Double, uri: String) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
        self.uri = uri
    }

    /// The link's target, when it is a URL.
    package var url: URL? { URL(string: uri) }
}

/// A character of a page's text and its box, in the drawing's pixels (top-left origin).
package struct PDFGlyph: Sendable, Equatable {
    package let scalar: Unicode.Scalar
    package let x1: Double, y1: Double, x2: Double, y2: Double

    package init(scalar: Unicode.Scalar, x1: Double, y1: Double, x2: Double, y2: Double) {
        self.scalar = scalar
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }
}

/// One page drawn by a worker on white: `height` rows of `width` premultiplied ARGB32 pixels
/// (cairo's format, in the machine's byte order), `stride` bytes apart, at the start of `blob`
/// (a sealed memfd, mapped read-only); its links and, when asked for, its text's characters.
/// Checked against the blob's size before it is made: the worker is not trusted.
package struct PDFPageDrawing: Sendable {
    package let blob: SealedBlob
    package let width: Int
    package let height: Int
    package let stride: Int
    package let links: [PDFLink]
    package let glyphs: [PDFGlyph]
}

/// The form a drawn page travels in: the pixel rows, then the links and the characters in a
/// compact binary form (a page can have tens of thousands of characters: more than a packet, and
/// JSON would be slow), all in the one memfd. Little-endian fixed-width fields:
/// `u32 count` then per link `4 × f64, u32 length, UTF-8 bytes`; `u32 count` then per character
/// `u32 scalar, 4 × f64`.
package enum PDFPageCoding {
    /// The most links and characters one page may bring, and the longest URI.
    package static let linkLimit = 4096
    package static let glyphLimit = 1 << 20
    static let uriLimit = 1 << 16
    /// The most pages a document may have (their sizes come back as 16 bytes each).
    package static let pageLimit = 200_000
    /// The largest drawing, in pixels a side and in all (64 megapixels: 256 MiB).
    package static let sideLimit = 1 << 15
    package static let pixelLimit = 1 << 26

    package static func encode(links: [PDFLink], glyphs: [PDFGlyph]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 + links.count * 64 + glyphs.count * 36)
        func append<Value: FixedWidthInteger>(_ value: Value) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        func append(_ value: Double) { append(value.bitPattern) }
        let kept = links.filter { $0.uri.utf8.count <= uriLimit }.prefix(linkLimit)
        append(UInt32(kept.count))
        for link in kept {
            [link.x1, link.y1, link.x2, link.y2].forEach(append)
            append(UInt32(link.uri.utf8.count))
            bytes += link.uri.utf8
        }
        let characters = glyphs.prefix(glyphLimit)
        append(UInt32(characters.count))
        for glyph in characters {
            append(glyph.scalar.value)
            [glyph.x1, glyph.y1, glyph.x2, glyph.y2].forEach(append)
        }
        return bytes
    }

    /// The links and characters in `bytes`, each box clamped into a `width` × `height` drawing;
    /// nil when anything is out of bounds (a count past its limit or past the bytes, a length
    /// past the end, a character that is not one, a coordinate that is not a number).
    package static func decode(_ bytes: UnsafeRawBufferPointer, width: Int, height: Int) -> (links: [PDFLink], glyphs: [PDFGlyph])? {
        var offset = 0
        func read<Value: FixedWidthInteger>(_: Value.Type) -> Value? {
            guard bytes.count - offset >= MemoryLayout<Value>.size else { return nil }
            var value = Value.zero
            withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + MemoryLayout<Value>.size])) }
            offset += MemoryLayout<Value>.size
            return Value(littleEndian: value)
        }
        func box() -> (Double, Double, Double, Double)? {
            var values: [Double] = []
            for limit in [width, height, width, height] {
                guard let bits = read(UInt64.self) else { return nil }
                let value = Double(bitPattern: bits)
                guard value.isFinite else { return nil }
                values.append(min(max(value, 0), Double(limit)))
            }
            return (values[0], values[1], values[2], values[3])
        }
        guard let linkCount = read(UInt32.self).map(Int.init), linkCount <= linkLimit else { return nil }
        var links: [PDFLink] = []
        for _ in 0..<linkCount {
            guard let (x1, y1, x2, y2) = box(), let length = read(UInt32.self).map(Int.init), length <= uriLimit,
                  bytes.count - offset >= length else { return nil }
            let uri = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
            offset += length
            links.append(PDFLink(x1: x1, y1: y1, x2: x2, y2: y2, uri: uri))
        }
        guard let glyphCount = read(UInt32.self).map(Int.init), glyphCount <= glyphLimit,
              glyphCount <= (bytes.count - offset) / 36 else { return nil }
        var glyphs: [PDFGlyph] = []
        glyphs.reserveCapacity(glyphCount)
        for _ in 0..<glyphCount {
            guard let value = read(UInt32.self), let scalar = Unicode.Scalar(value), let (x1, y1, x2, y2) = box() else { return nil }
            glyphs.append(PDFGlyph(scalar: scalar, x1: x1, y1: y1, x2: x2, y2: y2))
        }
        guard offset == bytes.count else { return nil }
        return (links, glyphs)
    }
}
