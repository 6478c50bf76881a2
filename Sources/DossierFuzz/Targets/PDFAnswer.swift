import DocumentCore
import Foundation

extension FuzzTarget {
    /// A decoder worker's answer for a drawn PDF page (its links and characters after the pixel
    /// rows, `PDFPageCoding`), read as the previewer reads it: the worker is not trusted, so any
    /// bytes must end on a page refused or on boxes inside the drawing, and what is read must
    /// read back the same once written again.
    static let pdfAnswer = FuzzTarget("pdf-answer", "a PDF worker's page answer: links and characters (PDFPageCoding)") { data in
        let width = 1000, height = 1400
        guard let answer = data.withUnsafeBytes({ PDFPageCoding.decode($0, width: width, height: height) }) else { return }
        let inside = { (x1: Double, y1: Double, x2: Double, y2: Double) in
            [x1, x2].allSatisfy { (0...Double(width)).contains($0) } && [y1, y2].allSatisfy { (0...Double(height)).contains($0) }
        }
        expect(answer.links.allSatisfy { inside($0.x1, $0.y1, $0.x2, $0.y2) }, "a link's box outside the drawing")
        expect(answer.glyphs.allSatisfy { inside($0.x1, $0.y1, $0.x2, $0.y2) }, "a character's box outside the drawing")
        let again = PDFPageCoding.encode(links: answer.links, glyphs: answer.glyphs).withUnsafeBytes {
            PDFPageCoding.decode($0, width: width, height: height)
        }
        expect(again?.links == answer.links && again?.glyphs == answer.glyphs, "an answer does not read back the same")
    }
}
