import DecoderWire
import Foundation
import XCTest

/// The decoder worker's messages, byte for byte: a change to the wire is a change to this test
/// and to `DecoderHello.currentVersion` together, never one by accident.
final class DecoderWireTests: XCTestCase {
    private static let requests: [(DecoderRequest, String)] = [
        (.probe, #"{"probe":{}}"#),
        (.image(ImageOptions(edge: 900, width: nil, enlarge: false, still: true, pixelLimit: 400_000_000, jpegThroughLibjpeg: true)),
         #"{"image":{"_0":{"edge":900,"enlarge":false,"jpegThroughLibjpeg":true,"pixelLimit":400000000,"still":true}}}"#),
        (.media, #"{"media":{}}"#),
        (.thumbnail(ThumbnailOptions(kind: .pdf, edge: 256, name: "a.pdf", type: "application/pdf")), #"{"thumbnail":{"_0":{"edge":256,"kind":"pdf","name":"a.pdf","type":"application\/pdf"}}}"#),
        (.thumbnail(ThumbnailOptions(kind: .external, edge: 128, name: "b.x", thumbnailer: "evince")), #"{"thumbnail":{"_0":{"edge":128,"kind":"external","name":"b.x","thumbnailer":"evince"}}}"#),
        (.thumbnailPicture(ThumbnailPictureOptions(source: .exif, edge: 128)), #"{"thumbnailPicture":{"_0":{"edge":128,"source":"exif"}}}"#),
        (.fontSpecimen(FontAppearance(width: 600, scale: 2, dpi: 96, antialias: 1, hintStyle: 2, hintMetrics: 1,
                                      roundsGlyphPositions: false)), #"{"fontSpecimen":{"_0":{"antialias":1,"dpi":96,"hintMetrics":1,"hintStyle":2,"roundsGlyphPositions":false,"scale":2,"width":600}}}"#),
        (.fontWarm, #"{"fontWarm":{}}"#),
        (.archiveList(ArchiveListOptions(raw: false, name: "a")), #"{"archiveList":{"_0":{"name":"a","raw":false}}}"#),
        (.archiveExtract(ArchiveEntryOptions(raw: true, index: 3, pathDigest: "ab12")), #"{"archiveExtract":{"_0":{"index":3,"pathDigest":"ab12","raw":true}}}"#),
        (.pdfOpen(session: "s1"), #"{"pdfOpen":{"session":"s1"}}"#),
        (.pdfPage(PDFPageOptions(session: "s1", page: 4, width: 800, text: true, forPrinting: false)), #"{"pdfPage":{"_0":{"forPrinting":false,"page":4,"session":"s1","text":true,"width":800}}}"#),
        (.pdfClose(session: "s1"), #"{"pdfClose":{"session":"s1"}}"#),
        (.markdown, #"{"markdown":{}}"#),
        (.misbehave(Misbehaviour(name: "test.connect", options: ["port": "4242"])), #"{"misbehave":{"_0":{"name":"test.connect","options":{"port":"4242"}}}}"#),
    ]

    func testEveryRequestHasTheShapeItHadWhenTheProtocolVersionWasSet() throws {
        for (request, pinned) in Self.requests {
            let encoded = String(decoding: try DecoderWire.encode(request), as: UTF8.self)
            XCTAssertEqual(encoded, pinned, "\(request.name)")
            XCTAssertEqual(try JSONDecoder().decode(DecoderRequest.self, from: Data(pinned.utf8)), request, "\(request.name) reads back")
        }
    }

    func testTheReplyAndTheHelloHaveTheirShape() throws {
        let reply = DecoderReply(values: ["width": "40"], error: nil, isLeaving: true)
        XCTAssertEqual(String(decoding: try DecoderWire.encode(reply), as: UTF8.self), #"{"isLeaving":true,"values":{"width":"40"}}"#)
        XCTAssertEqual(String(decoding: try DecoderWire.encode(DecoderHello()), as: UTF8.self), #"{"version":2}"#)
        XCTAssertEqual(DecoderHello.currentVersion, 2, "a new version pins the messages again")
    }

    func testAnUnknownOperationIsNotARequest() {
        XCTAssertThrowsError(try JSONDecoder().decode(DecoderRequest.self, from: Data(#"{"format":{}}"#.utf8)))
        XCTAssertThrowsError(try JSONDecoder().decode(DecoderRequest.self, from: Data(#"{"image":{"_0":{"edge":"x"}}}"#.utf8)))
    }
}
