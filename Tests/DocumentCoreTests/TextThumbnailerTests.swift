import CImaging
import DossierFixtures
import Foundation
import XCTest

@testable import DecoderService
@testable import DocumentCore

/// A text file's thumbnail shows its text in its encoding: a GB18030 or UTF-16 file draws
/// the same page as the same text in UTF-8, not mojibake.
final class TextThumbnailerTests: XCTestCase {
    private func thumbnail(_ file: URL) throws -> Pixbuf {
        var source = try ThumbnailSource(url: file)
        return try TextThumbnailer.thumbnail(of: &source, edge: 256)
    }

    /// Kept with the UI tests' screenshots, to be looked at.
    private func keep(_ image: Pixbuf, as name: String) throws {
        try FileManager.default.createDirectory(at: Screenshots.folder, withIntermediateDirectories: true)
        try image.savePNG(to: Screenshots.folder.appendingPathComponent(name + ".png"), text: [])
    }

    private func pixels(_ image: Pixbuf) -> Data {
        let length = Int(gdk_pixbuf_get_byte_length(image.pointer))
        return Data(bytes: gdk_pixbuf_read_pixels(image.pointer), count: length)
    }

    /// Each of the seven encodings the previewer is tested in draws the page its text in UTF-8
    /// draws.
    func testEveryEncodingOfThePreviewerDrawsItsText() throws {
        let folder = try TemporaryFolder()
        for sample in try EncodedTexts.samples() {
            let file = try folder.write(sample.name, bytes: Array(sample.bytes))
            let utf8 = try folder.write("utf8-" + sample.name, sample.text)
            XCTAssertEqual(TextThumbnailer.page(of: sample.bytes), sample.text, "\(sample.name): the page's text")
            let image = try thumbnail(file)
            XCTAssertEqual(pixels(image), pixels(try thumbnail(utf8)), "\(sample.name): drawn as the same text in UTF-8 is")
            try keep(image, as: "thumbnail-" + (sample.name as NSString).deletingPathExtension)
        }
    }
}
