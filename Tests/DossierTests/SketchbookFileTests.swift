import DossierFixtures
import Foundation
import XCTest

/// Sketchbook's reading of a file from anyone, through the program Dossier runs for its
/// thumbnails and previews (`sketchbook --thumbnail`): a good sketch gives a PNG of the asked
/// size; a hostile or damaged one ends on an error a person can read, with no picture, at once.
final class SketchbookFileTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUp() async throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: SketchbookUITests.binary), "sketchbook is not built")
        folder = try TemporaryFolder("sketchbook-files")
    }

    private func thumbnail(_ name: String, _ contents: Data) throws -> (OtherProgram.Result, exists: Bool) {
        let input = folder.url.appendingPathComponent(name)
        try contents.write(to: input)
        let output = folder.url.appendingPathComponent(name + ".png")
        let result = try OtherProgram.run(SketchbookUITests.binary, ["--thumbnail", input.path, output.path, "128"])
        return (result, FileManager.default.fileExists(atPath: output.path))
    }

    func testASketchIsDrawnAtTheAskedSize() throws {
        let sketch = "SKETCHBOOK 1\n{\"height\":300,\"strokes\":[{\"color\":\"#c01c28\",\"points\":[[10,10],[590,290]],\"width\":8}],\"width\":600}\n"
        let (result, exists) = try thumbnail("good.sketch", Data(sketch.utf8))
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(exists)
        let png = try Data(contentsOf: folder.url.appendingPathComponent("good.sketch.png"))
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        XCTAssertEqual([width, height], [128, 64], "the long side is the asked size, the sheet's proportions kept")
    }

    func testHostileAndDamagedFilesEndOnAnErrorWithoutAPicture() throws {
        let manyPoints = "[" + Array(repeating: "[1,1]", count: 200_001).joined(separator: ",") + "]"
        let cases: [(name: String, contents: Data, message: String)] = [
            ("empty.sketch", Data(), "“empty.sketch” is not a Sketchbook drawing."),
            ("photo.sketch", Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]), "“photo.sketch” is not a Sketchbook drawing."),
            ("newer.sketch", Data("SKETCHBOOK 9\n{}\n".utf8), "“newer.sketch” cannot be opened: it was written by a newer Sketchbook."),
            ("cut.sketch", Data("SKETCHBOOK 1\n{\"height\":300,\"strokes\":[{\"co".utf8), "“cut.sketch” cannot be opened: its drawing cannot be read."),
            ("huge-sheet.sketch", Data("SKETCHBOOK 1\n{\"height\":1e300,\"strokes\":[],\"width\":600}\n".utf8),
             "“huge-sheet.sketch” cannot be opened: its sheet size is out of range."),
            ("bad-point.sketch", Data("SKETCHBOOK 1\n{\"height\":300,\"strokes\":[{\"color\":\"#c01c28\",\"points\":[[1,2,3]],\"width\":8}],\"width\":600}\n".utf8),
             "“bad-point.sketch” cannot be opened: one of its strokes cannot be read."),
            ("bad-colour.sketch", Data("SKETCHBOOK 1\n{\"height\":300,\"strokes\":[{\"color\":\"red\",\"points\":[[1,2]],\"width\":8}],\"width\":600}\n".utf8),
             "“bad-colour.sketch” cannot be opened: one of its strokes cannot be read."),
            ("points.sketch", Data("SKETCHBOOK 1\n{\"height\":300,\"strokes\":[{\"color\":\"#c01c28\",\"points\":\(manyPoints),\"width\":8}],\"width\":600}\n".utf8),
             "“points.sketch” is too large for Sketchbook."),
            ("big.sketch", Data("SKETCHBOOK 1\n".utf8) + Data(repeating: 0x20, count: 9 << 20), "“big.sketch” is too large for Sketchbook."),
        ]
        for (name, contents, message) in cases {
            let (result, exists) = try thumbnail(name, contents)
            XCTAssertEqual(result.status, 1, "\(name): \(result.errors)")
            XCTAssertEqual(result.errors.trimmingCharacters(in: .whitespacesAndNewlines), message, name)
            XCTAssertFalse(exists, "\(name): no picture")
        }
    }
}
