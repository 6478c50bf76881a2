import CImaging
import DocumentCore
import DossierFixtures
import Foundation
import XCTest

/// Thumbnails Dossier makes itself, in its decoder workers, for kinds Debian installs no
/// thumbnailer for: fonts ("Aa"), office documents (the picture they keep of themselves) and
/// audio (its cover art).
final class OwnThumbnailersTests: XCTestCase {
    /// The share of a picture's pixels that are dark.
    private func ink(_ url: URL) throws -> Double {
        let picture = try TestImage.load(url)
        let (width, height) = TestImage.size(picture)
        var dark = 0
        for y in 0..<height {
            for x in 0..<width {
                let (red, green, blue) = TestImage.pixel(picture, x, y)
                if red + green + blue < 3 * 96 { dark += 1 }
            }
        }
        return Double(dark) / Double(width * height)
    }

    func testAFontsThumbnailIsAaInItsOwnGlyphsWhateverItsFormat() throws {
        let folder = try TemporaryFolder()
        let generator = ThumbnailGenerator(cache: ThumbnailCache(root: folder.url.appendingPathComponent("thumbnails")))
        let fonts = [try folder.write("box.ttf", bytes: BoxFont.ttf), try folder.write("box.woff", bytes: BoxFont.woff),
                     try folder.write("box.bdf", BoxFont.bdf)]
        // Two boxes fill much of the square; "Aa" in another font leaves it mostly white.
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../data/samples").standardized
        let dejaVu = try generator.thumbnail(of: samples.appendingPathComponent("font.ttf"), size: .normal, outputFolder: folder.url)
        XCTAssertEqual(dejaVu.thumbnailer, "font")
        XCTAssertLessThan(try ink(dejaVu.url), 0.18, "DejaVu Sans Mono's Aa")
        for font in fonts {
            let thumbnail = try generator.thumbnail(of: font, size: .normal)
            XCTAssertEqual(thumbnail.thumbnailer, "font", font.lastPathComponent)
            XCTAssertGreaterThan(try ink(thumbnail.url), 0.18, "\(font.lastPathComponent): drawn in its boxes")
        }
        // A Type 1 font is a font, not the PostScript that evince's thumbnailer would take it for.
        let type1 = URL(fileURLWithPath: "/usr/share/fonts/type1/urw-base35/NimbusSans-Regular.t1")
        if FileManager.default.fileExists(atPath: type1.path) {
            let thumbnail = try generator.thumbnail(of: type1, size: .normal, outputFolder: folder.url)
            XCTAssertEqual(thumbnail.thumbnailer, "font")
            XCTAssertGreaterThan(try ink(thumbnail.url), 0.03, "Nimbus Sans's Aa has ink")
        }
    }

    func testAnOfficeDocumentsThumbnailIsThePictureItKeepsOfItself() throws {
        let folder = try TemporaryFolder()
        let generator = ThumbnailGenerator(cache: ThumbnailCache(root: folder.url.appendingPathComponent("thumbnails")))
        // As LibreOffice saves it: a portrait picture of the first page in Thumbnails/.
        let page = TestImage.encode(TestImage.gradient(width: 100, height: 140), as: "png")
        let odt = try folder.write("letter.odt", bytes: SampleFiles.zip(entries: [
            ("mimetype", Array("application/vnd.oasis.opendocument.text".utf8)),
            ("content.xml", Array("<office:document-content/>".utf8)), ("Thumbnails/thumbnail.png", page),
        ]))
        let thumbnail = try generator.thumbnail(of: odt, size: .normal)
        XCTAssertEqual(thumbnail.thumbnailer, "office")
        let (width, height) = TestImage.size(try TestImage.load(thumbnail.url))
        XCTAssertEqual(height, 128)
        XCTAssertEqual(width, 91, "the picture's shape kept")
        // One that keeps no picture says so.
        let bare = try folder.write("bare.odt", bytes: SampleFiles.zip(entries: [
            ("mimetype", Array("application/vnd.oasis.opendocument.text".utf8)), ("content.xml", Array("<x/>".utf8)),
        ]))
        XCTAssertThrowsError(try generator.thumbnail(of: bare, size: .normal)) { error in
            XCTAssertTrue("\(error)".contains("it keeps no picture of itself"), "\(error)")
        }
    }

    func testASongsThumbnailIsItsCoverArt() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "ffmpeg is not installed")
        let folder = try TemporaryFolder()
        let generator = ThumbnailGenerator(cache: ThumbnailCache(root: folder.url.appendingPathComponent("thumbnails")))
        let cover = try folder.write("cover.png", bytes: TestImage.encode(TestImage.gradient(width: 300, height: 300), as: "png"))
        let song = folder.url.appendingPathComponent("song.mp3"), plain = folder.url.appendingPathComponent("plain.mp3")
        OtherProgram.output(of: ["/usr/bin/ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=1",
                                 "-i", cover.path, "-map", "0", "-map", "1", "-c:a", "libmp3lame", "-c:v", "png",
                                 "-id3v2_version", "3", "-disposition:v", "attached_pic", song.path])
        OtherProgram.output(of: ["/usr/bin/ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=1",
                                 "-c:a", "libmp3lame", plain.path])
        let thumbnail = try generator.thumbnail(of: song, size: .normal)
        XCTAssertEqual(thumbnail.thumbnailer, "audio")
        XCTAssertEqual(TestImage.size(try TestImage.load(thumbnail.url)).0, 128)
        XCTAssertThrowsError(try generator.thumbnail(of: plain, size: .normal)) { error in
            XCTAssertTrue("\(error)".contains("it has no cover art"), "\(error)")
        }
    }
}
