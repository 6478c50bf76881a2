import DocumentCore
import Foundation

/// A drawing: strokes made with the pointer on a sheet of a fixed size. The file is the line
/// `SKETCHBOOK 1` (the magic the MIME package matches), then the drawing as JSON.
struct Sketch: Equatable, Sendable, Codable {
    /// One line drawn without lifting the pen: its points in sheet coordinates.
    struct Stroke: Equatable, Sendable, Codable {
        var color: String
        var width: Double
        var points: [[Double]]
    }

    var width: Double = 800
    var height: Double = 600
    var strokes: [Stroke] = []

    /// The document type this app owns, declared in data/io.github.dossier.Sketchbook.xml.
    static let type = DocumentType(mimeType: "application/x-sketchbook")
    static let magic = "SKETCHBOOK"
    static let header = Data((magic + " 1\n").utf8)

    /// The limits a file from anyone is held to: larger ones end on an error, not on a stall.
    static let largestFile = 8 << 20
    static let mostPoints = 200_000
    static let largestSide = 10_000.0

    /// The colours the pen cycles through, one per stroke.
    static let inks = ["#c01c28", "#1a5fb4", "#26a269", "#a347ba", "#e66100"]

    /// The file's bytes.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Self.header + (try encoder.encode(self)) + Data("\n".utf8)
    }

    /// Reads a file's bytes; `name` is for the error's message.
    init(reading data: Data, name: String) throws(SketchError) {
        guard data.count <= Self.largestFile else { throw .tooLarge(name: name) }
        guard data.starts(with: Data(Self.magic.utf8)), let newline = data.firstIndex(of: 0x0a) else {
            throw .notASketch(name: name)
        }
        guard data[data.startIndex..<newline] == Self.header.dropLast() else {
            throw .damaged(name: name, reason: tr("it was written by a newer Sketchbook"))
        }
        let decoded: Sketch
        do {
            decoded = try JSONDecoder().decode(Sketch.self, from: data[(newline + 1)...])
        } catch {
            throw .damaged(name: name, reason: tr("its drawing cannot be read"))
        }
        try decoded.check(name: name)
        self = decoded
    }

    init() {}

    /// Refuses what would make drawing it fail or take forever: sizes out of range, points
    /// that are not pairs of finite numbers, too many of them.
    private func check(name: String) throws(SketchError) {
        guard width.isFinite, height.isFinite, (1...Self.largestSide).contains(width), (1...Self.largestSide).contains(height) else {
            throw .damaged(name: name, reason: tr("its sheet size is out of range"))
        }
        var count = 0
        for stroke in strokes {
            count += stroke.points.count
            guard count <= Self.mostPoints else { throw .tooLarge(name: name) }
            guard stroke.width.isFinite, (0.5...200).contains(stroke.width), Color(hex: stroke.color) != nil,
                  stroke.points.allSatisfy({ $0.count == 2 && $0[0].isFinite && $0[1].isFinite }) else {
                throw .damaged(name: name, reason: tr("one of its strokes cannot be read"))
            }
        }
    }
}

/// A colour from `#rrggbb`.
struct Color: Equatable, Sendable {
    var red, green, blue: Double

    init?(hex: String) {
        guard hex.count == 7, hex.first == "#", let value = UInt32(hex.dropFirst(), radix: 16) else { return nil }
        red = Double(value >> 16 & 0xff) / 255
        green = Double(value >> 8 & 0xff) / 255
        blue = Double(value & 0xff) / 255
    }
}

/// Why a sketch could not be read or drawn.
enum SketchError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case notASketch(name: String)
    case tooLarge(name: String)
    case damaged(name: String, reason: String)
    case cannotDraw(name: String, reason: String)

    var description: String {
        switch self {
        case .notASketch(let name): tr("“%s” is not a Sketchbook drawing.", name)
        case .tooLarge(let name): tr("“%s” is too large for Sketchbook.", name)
        case .damaged(let name, let reason): tr("“%s” cannot be opened: %s.", name, reason)
        case .cannotDraw(let name, let reason): tr("“%s” could not be drawn: %s.", name, reason)
        }
    }

    var errorDescription: String? { description }
}
