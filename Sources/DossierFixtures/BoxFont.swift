import Foundation

/// A small real TrueType font whose every printable ASCII character is the same filled box: a
/// glyph no installed font has, so text drawn in it shows at once whether the file's own glyphs
/// were used (a line of it is more than half ink; the same line in any other font is mostly blank).
public enum BoxFont {
    /// The font's family name.
    public static let family = "Dossier Box"
    /// The box, in font units of an em of 1000: 100…900 across, 0…700 up.
    static let box = (left: 100, bottom: 0, right: 900, top: 700)

    /// The font file's bytes.
    public static var ttf: [UInt8] { sfnt(tables) }

    /// The same font as a 16-pixel BDF bitmap font (X11's text format, which `bdftopcf` turns
    /// into PCF): every printable ASCII character a box 14 pixels wide and 12 tall, the space
    /// blank.
    public static var bdf: String {
        let blank = "0000"
        var font = """
            STARTFONT 2.1
            FONT -dossier-Dossier Box-Medium-R-Normal--16-160-75-75-C-160-ISO10646-1
            SIZE 16 75 75
            FONTBOUNDINGBOX 16 16 0 -2
            STARTPROPERTIES 5
            FAMILY_NAME "\(family)"
            FONT_ASCENT 14
            FONT_DESCENT 2
            CHARSET_REGISTRY "ISO10646"
            CHARSET_ENCODING "1"
            ENDPROPERTIES
            CHARS 95

            """
        for code in 32...126 {
            let rows = code == 32 ? Array(repeating: blank, count: 16)
                : [blank, blank] + Array(repeating: "7FFE", count: 12) + [blank, blank]
            font += "STARTCHAR U+\(String(code, radix: 16, uppercase: true))\nENCODING \(code)\nSWIDTH 1000 0\nDWIDTH 16 0\n"
            font += "BBX 16 16 0 -2\nBITMAP\n" + rows.joined(separator: "\n") + "\nENDCHAR\n"
        }
        return font + "ENDFONT\n"
    }

    /// The same font as WOFF (its tables stored uncompressed), which FreeType reads and Pango's
    /// HarfBuzz does not.
    public static var woff: [UInt8] {
        let tables = tables
        var directory = Bytes(), body = Bytes()
        var offset = 44 + 20 * tables.count
        var sfntSize = 12 + 16 * tables.count
        for (tag, data) in tables {
            let padded = data.bytes + [UInt8](repeating: 0, count: (4 - data.count % 4) % 4)
            directory.append(Array(tag.utf8)); directory.uint32(offset); directory.uint32(data.count)
            directory.uint32(data.count); directory.uint32(Int(checksum(padded)))
            body.append(padded)
            offset += padded.count
            sfntSize += padded.count
        }
        var file = Bytes()
        file.append(Array("wOFF".utf8)); file.uint32(0x0001_0000); file.uint32(offset); file.uint16(tables.count); file.uint16(0)
        file.uint32(sfntSize); file.uint16(1); file.uint16(0)
        for _ in 0..<5 { file.uint32(0) }
        file.append(directory.bytes)
        file.append(body.bytes)
        return file.bytes
    }

    /// The font's tables, sorted by tag.
    private static var tables: [(tag: String, data: Bytes)] {
        // Glyph 0 is .notdef (empty), 1 the space, 2… the box for U+0021…U+007E.
        let printable = 0x21...0x7E
        let glyphCount = 2 + printable.count
        var box = Bytes()
        box.int16(1)  // one contour
        box.int16(Self.box.left); box.int16(Self.box.bottom); box.int16(Self.box.right); box.int16(Self.box.top)
        box.uint16(3)  // its last point
        box.uint16(0)  // no instructions
        box.append([1, 1, 1, 1])  // four points on the curve, coordinates as 16-bit deltas
        for x in [Self.box.left, 0, Self.box.right - Self.box.left, 0] { box.int16(x) }
        for y in [Self.box.bottom, Self.box.top - Self.box.bottom, 0, Self.box.bottom - Self.box.top] { box.int16(y) }

        var glyf = Bytes(), loca = Bytes(), hmtx = Bytes()
        for glyph in 0..<glyphCount {
            loca.uint16(glyf.count / 2)
            if glyph >= 2 { glyf.append(box.bytes) }
            hmtx.uint16(glyph >= 2 ? 1000 : 500)
            hmtx.int16(glyph >= 2 ? Self.box.left : 0)
        }
        loca.uint16(glyf.count / 2)

        var head = Bytes()
        head.uint32(0x0001_0000); head.uint32(0x0001_0000); head.uint32(0); head.uint32(0x5F0F_3CF5)
        head.uint16(0x000B); head.uint16(1000)
        head.append([UInt8](repeating: 0, count: 16))  // created, modified
        head.int16(0); head.int16(-200); head.int16(1000); head.int16(800)
        head.uint16(0); head.uint16(8); head.int16(2); head.int16(0); head.int16(0)  // short offsets

        var hhea = Bytes()
        hhea.uint32(0x0001_0000); hhea.int16(800); hhea.int16(-200); hhea.int16(0); hhea.uint16(1000)
        hhea.int16(0); hhea.int16(0); hhea.int16(Self.box.right); hhea.int16(1); hhea.int16(0); hhea.int16(0)
        for _ in 0..<4 { hhea.int16(0) }
        hhea.int16(0); hhea.uint16(glyphCount)

        var maxp = Bytes()
        maxp.uint32(0x0001_0000); maxp.uint16(glyphCount); maxp.uint16(4); maxp.uint16(1)
        maxp.uint16(0); maxp.uint16(0); maxp.uint16(2)
        for _ in 0..<8 { maxp.uint16(0) }

        // cmap: Windows Unicode BMP, format 4: the space, the printable range, the end.
        var cmap = Bytes()
        cmap.uint16(0); cmap.uint16(1); cmap.uint16(3); cmap.uint16(1); cmap.uint32(12)
        let segments: [(start: Int, end: Int, delta: Int)] = [(0x20, 0x20, 1 - 0x20), (0x21, 0x7E, 2 - 0x21), (0xFFFF, 0xFFFF, 1)]
        cmap.uint16(4); cmap.uint16(16 + 8 * segments.count); cmap.uint16(0)
        cmap.uint16(2 * segments.count); cmap.uint16(4); cmap.uint16(1); cmap.uint16(2 * segments.count - 4)
        for segment in segments { cmap.uint16(segment.end) }
        cmap.uint16(0)
        for segment in segments { cmap.uint16(segment.start) }
        for segment in segments { cmap.uint16(segment.delta & 0xFFFF) }
        for _ in segments { cmap.uint16(0) }

        let names = [(1, family), (2, "Regular"), (4, family + " Regular"), (6, "DossierBox-Regular")]
        var name = Bytes(), strings = Bytes()
        name.uint16(0); name.uint16(names.count); name.uint16(6 + 12 * names.count)
        for (id, text) in names {
            let utf16 = Array(text.utf16)
            name.uint16(3); name.uint16(1); name.uint16(0x0409); name.uint16(id); name.uint16(2 * utf16.count); name.uint16(strings.count)
            for unit in utf16 { strings.uint16(Int(unit)) }
        }
        name.append(strings.bytes)

        var post = Bytes()
        post.uint32(0x0003_0000); post.uint32(0); post.int16(-100); post.int16(50)
        for _ in 0..<5 { post.uint32(0) }

        return [("cmap", cmap), ("glyf", glyf), ("head", head), ("hhea", hhea), ("hmtx", hmtx),
                ("loca", loca), ("maxp", maxp), ("name", name), ("post", post)]
    }

    /// The offset table, the table records (sorted by tag) and the tables, each on 4 bytes.
    private static func sfnt(_ tables: [(tag: String, data: Bytes)]) -> [UInt8] {
        var file = Bytes()
        file.uint32(0x0001_0000); file.uint16(tables.count); file.uint16(128); file.uint16(3); file.uint16(16 * tables.count - 128)
        var offset = 12 + 16 * tables.count
        var body = Bytes()
        for (tag, data) in tables {
            var padded = data.bytes
            while padded.count % 4 != 0 { padded.append(0) }
            file.append(Array(tag.utf8)); file.uint32(Int(checksum(padded))); file.uint32(offset); file.uint32(data.count)
            body.append(padded)
            offset += padded.count
        }
        file.append(body.bytes)
        return file.bytes
    }

    /// A table's checksum: the sum of its 32-bit words (it is padded to 4 bytes).
    private static func checksum(_ padded: [UInt8]) -> UInt32 {
        var sum: UInt32 = 0
        for index in stride(from: 0, to: padded.count, by: 4) {
            sum &+= padded[index..<(index + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        return sum
    }

    /// Big-endian bytes, as OpenType writes them.
    private struct Bytes {
        var bytes: [UInt8] = []
        var count: Int { bytes.count }
        mutating func append(_ more: [UInt8]) { bytes += more }
        mutating func uint16(_ value: Int) { bytes += [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)] }
        mutating func int16(_ value: Int) { uint16(value & 0xFFFF) }
        mutating func uint32(_ value: Int) {
            bytes += [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
                      UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
        }
    }
}
