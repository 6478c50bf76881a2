import DossierFixtures
import Foundation
import XCTest

@testable import DecoderService
@testable import DocumentCore

/// A font's specimen is drawn in a decoder worker, with the file's own glyphs, as coverage (the
/// colour is the shower's); asks for the same drawing share it; a damaged font or a worker that
/// fails ends on a message, and the next font draws.
final class FontSpecimenTests: XCTestCase {
    /// DejaVu Sans Mono, the sample the previewer shows.
    private var sample: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../data/samples/font.ttf").standardized
    }

    private let appearance = FontSpecimen.Appearance(width: 600, scale: 1, dpi: 96)

    /// The share of a line's box that is ink (alpha past one half).
    private func ink(_ line: FontSpecimen.Line) -> Double {
        let pixels = line.pixels
        var inked = 0
        pixels.blob.withUnsafeBytes { bytes in
            for row in pixels.box {
                for column in 0..<pixels.width where bytes[pixels.offset + row * pixels.stride + column * 4 + 3] > 128 {
                    inked += 1
                }
            }
        }
        return Double(inked) / Double(pixels.width * pixels.box.count)
    }

    func testTheSpecimenIsDrawnInTheWorkerWithTheFontsOwnGlyphsAsCoverage() async throws {
        let folder = try TemporaryFolder()
        let box = try folder.write("box.ttf", bytes: BoxFont.ttf)
        let specimen = try await FontSpecimen.draw(fileAt: box.rawPath, appearance: appearance)

        XCTAssertEqual(specimen.family, BoxFont.family)
        XCTAssertEqual(specimen.style, "Regular")
        XCTAssertEqual(specimen.faceCount, 1)
        XCTAssertTrue(specimen.coversLatin && specimen.coversFamily)
        XCTAssertEqual(specimen.sample, "The quick brown fox jumps over the lazy dog.")
        XCTAssertEqual(specimen.lines.map(\.role), [.name] + Array(repeating: .alphabet, count: 3) + Array(repeating: .sample, count: 6))
        XCTAssertEqual(specimen.lines.filter { $0.role == .sample }.map(\.points), FontSpecimen.sampleSizes)
        XCTAssertEqual(specimen.lines.first?.text, BoxFont.family)
        for line in specimen.lines {
            XCTAssertLessThanOrEqual(line.pixels.width, 600, "\(line.text) wraps at the width asked for")
            // Every letter is a box: more than a quarter of each line's box is ink (the same
            // lines in DejaVu Sans Mono: 7 to 21 %).
            XCTAssertGreaterThan(ink(line), 0.25, "\(line.text) at \(line.points) points is drawn in the file's boxes")
        }
        // A pixel inside a box is full coverage: white, opaque (cairo's premultiplied ARGB,
        // little-endian: B G R A); the page tints it.
        let name = try XCTUnwrap(specimen.lines.first).pixels
        var found: [UInt8] = []
        name.blob.withUnsafeBytes { bytes in
            let row = name.box.lowerBound + name.box.count * 2 / 3
            for column in 0..<name.width {
                let at = name.offset + row * name.stride + column * 4
                if bytes[at + 3] == 255 { found = Array(bytes[at..<(at + 4)]); break }
            }
        }
        XCTAssertEqual(found, [255, 255, 255, 255], "a solid pixel of the name is full coverage")
    }

    /// Waits (60 s at most) until `condition` holds.
    private func waitFor(_ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }

    func testAsksForTheSameDrawingWhileItIsUnderWayShareOneDrawing() async throws {
        let folder = try TemporaryFolder()
        let box = try folder.write("box.ttf", bytes: BoxFont.ttf)
        let before = FontSpecimen.drawingsSent
        let appearance = appearance
        // The fonts' queue is held until all three have asked: the first is still waiting then.
        let held = DispatchSemaphore(value: 0)
        FontSpecimen.requests.async { held.wait() }
        async let first = FontSpecimen.draw(fileAt: box.rawPath, appearance: appearance)
        async let second = FontSpecimen.draw(fileAt: box.rawPath, appearance: appearance)
        var narrow = appearance
        narrow.width = 300
        async let other = FontSpecimen.draw(fileAt: box.rawPath, appearance: narrow)
        let asked = await waitFor { SharedDrawing.waiters(for: box.rawPath) == 3 }
        held.signal()
        XCTAssertTrue(asked, "the three asks wait")
        let drawn = try await [first, second, other]
        XCTAssertEqual(drawn.map(\.family), Array(repeating: BoxFont.family, count: 3))
        XCTAssertEqual(FontSpecimen.drawingsSent - before, 2, "one drawing for both asks of one key, one for the other key")
        XCTAssertTrue(drawn[0].lines[0].pixels.blob === drawn[1].lines[0].pixels.blob, "the two asks got the same drawing")
    }

    func testADrawingWhoseAskersWentAwayIsNotDrawnAndTheNextAskDrawsAnew() async throws {
        let folder = try TemporaryFolder()
        let box = try folder.write("box.ttf", bytes: BoxFont.ttf)
        let before = FontSpecimen.drawingsSent
        let appearance = appearance
        let held = DispatchSemaphore(value: 0)
        FontSpecimen.requests.async { held.wait() }
        let asker = Task { try await FontSpecimen.draw(fileAt: box.rawPath, appearance: appearance) }
        let asked = await waitFor { SharedDrawing.waiters(for: box.rawPath) == 1 }
        XCTAssertTrue(asked)
        asker.cancel()
        let left = await waitFor { SharedDrawing.waiters(for: box.rawPath) == 0 }
        XCTAssertTrue(left)
        held.signal()
        do {
            _ = try await asker.value
            XCTFail("a drawing nobody waits for is not drawn")
        } catch {
            XCTAssertEqual(error as? FontSpecimenError, .cancelled)
        }
        XCTAssertEqual(FontSpecimen.drawingsSent, before, "nothing was sent to the worker")
        let specimen = try await FontSpecimen.draw(fileAt: box.rawPath, appearance: appearance)
        XCTAssertEqual(specimen.family, BoxFont.family)
        XCTAssertEqual(FontSpecimen.drawingsSent, before + 1)
    }

    func testADrawingAheadIsTakenOnceByAnAskOfItsKeyAndAnotherKeyDrawsAnew() async throws {
        let folder = try TemporaryFolder()
        let box = try folder.write("box.ttf", bytes: BoxFont.ttf)
        let before = FontSpecimen.drawingsSent
        FontSpecimen.drawAhead(fileAt: box.rawPath, appearance: appearance)
        let taken = try await FontSpecimen.draw(fileAt: box.rawPath, appearance: appearance)
        XCTAssertEqual(FontSpecimen.drawingsSent - before, 1, "the ask took the drawing made ahead")
        XCTAssertEqual(taken.appearance, appearance)

        // Taken once: the next ask of that key draws again; an ask of another key never takes it.
        _ = try await FontSpecimen.draw(fileAt: box.rawPath, appearance: appearance)
        XCTAssertEqual(FontSpecimen.drawingsSent - before, 2)
        FontSpecimen.drawAhead(fileAt: box.rawPath, appearance: appearance)
        let sent = await waitFor { FontSpecimen.drawingsSent - before == 3 }
        XCTAssertTrue(sent, "the drawing ahead is sent")
        var wider = appearance
        wider.width = 700
        let other = try await FontSpecimen.draw(fileAt: box.rawPath, appearance: wider)
        XCTAssertEqual(other.appearance, wider)
        XCTAssertEqual(FontSpecimen.drawingsSent - before, 4, "another key is drawn anew")
        FontSpecimen.dropDrawingAhead(fileAt: box.rawPath)
    }

    func testFontsDrawnOneAfterAnotherInOneWorkerEachShowTheirOwnGlyphs() async throws {
        // cairo keeps FreeType faces by file name: with the same /proc/self/fd/N for both, the
        // second font was laid out with its own metrics and drawn with the first one's glyphs.
        // Under bubblewrap (its own /proc) and under the worker's lock-down alone.
        let folder = try TemporaryFolder()
        let box = try folder.write("box.ttf", bytes: BoxFont.ttf)
        let confinements: [DecoderWorker.Confinement] = DecoderWorker.Confinement.best == .bubblewrap
            ? [.bubblewrap, .seccompOnly] : [.seccompOnly]
        for confinement in confinements {
            try await assertEachShowsItsOwnGlyphs(box, in: DecoderWorker(confinement: confinement))
        }
    }

    private func assertEachShowsItsOwnGlyphs(_ box: URL, in worker: DecoderWorker) async throws {
        for (file, boxes) in [(box, true), (sample, false), (box, true), (sample, false)] {
            let specimen = try await FontSpecimen.draw(fileAt: file.rawPath, appearance: appearance, worker: worker)
            let line = try XCTUnwrap(specimen.lines.last)
            if boxes {
                XCTAssertGreaterThan(ink(line), 0.3, "\(file.lastPathComponent) is drawn in boxes")
            } else {
                XCTAssertEqual(specimen.family, "DejaVu Sans Mono")
                XCTAssertLessThan(ink(line), 0.2, "\(file.lastPathComponent) is drawn in its own letters, not in boxes")
                XCTAssertGreaterThan(ink(line), 0.02, "\(file.lastPathComponent) is drawn")
            }
        }
    }

    func testAWorkerThatRunsOutOfDescriptorNumbersLeavesAfterItsReplyAndTheNextFontIsDrawn() async throws {
        // Each font is read through a descriptor number of its own, up to the open-file limit; a
        // worker started with room for a few fonts leaves once it has used them, and the next
        // request starts another. The limit is this process's while the worker starts: a little
        // above the descriptors this process has open, so that its own opens still work.
        let folder = try TemporaryFolder()
        let box = try folder.write("box.ttf", bytes: BoxFont.ttf)
        let worker = DecoderWorker()
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { Int32($0) }
        var limit = rlimit()
        XCTAssertEqual(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit), 0)
        var few = limit
        few.rlim_cur = rlim_t(max(open.max() ?? 0, DescriptorNames.first) + 16)
        let room = Int(few.rlim_cur) - Int(DescriptorNames.first)
        XCTAssertEqual(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &few), 0)
        // The worker is started (with the low limit) at the first request.
        var first: FontSpecimenError?
        do {
            _ = try await FontSpecimen.draw(fileAt: box.rawPath, appearance: appearance, worker: worker)
        } catch {
            first = error
        }
        XCTAssertEqual(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit), 0)
        XCTAssertNil(first, "the first font is drawn")
        for index in 1..<(room + 3) {
            let specimen = try await FontSpecimen.draw(fileAt: box.rawPath, appearance: appearance, worker: worker)
            XCTAssertGreaterThan(ink(try XCTUnwrap(specimen.lines.last)), 0.3, "font \(index + 1) of \(room + 3) is drawn")
        }
    }

    func testADamagedFontEndsOnAMessageAndTheNextFontIsDrawn() async throws {
        let folder = try TemporaryFolder()
        let damaged = try XCTUnwrap(DamagedFiles.kinds.first { $0.name.hasSuffix(".ttf") })
        let file = try folder.write(damaged.name, bytes: damaged.content)
        let worker = DecoderWorker()
        do {
            _ = try await FontSpecimen.draw(fileAt: file.rawPath, appearance: appearance, worker: worker)
            XCTFail("a damaged font is not drawn")
        } catch {
            XCTAssertEqual(error, .notDrawable("The file is not a font that can be read, or it is damaged."))
            XCTAssertEqual(error.description, "The file is not a font that can be read, or it is damaged.")
        }
        let specimen = try await FontSpecimen.draw(fileAt: sample.rawPath, appearance: appearance, worker: worker)
        XCTAssertEqual(specimen.family, "DejaVu Sans Mono")
    }

    func testFontsPangoCannotLayOutAreDrawnByFreeTypeInTheirOwnGlyphs() async throws {
        // FreeType reads WOFF, BDF and PCF (gzipped too); HarfBuzz, which Pango lays out with,
        // reads none of them: their specimens are drawn unshaped, glyph after glyph.
        let folder = try TemporaryFolder()
        var fonts = [try folder.write("box.woff", bytes: BoxFont.woff), try folder.write("box.bdf", BoxFont.bdf)]
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/bdftopcf") {
            let pcf = folder.url.appendingPathComponent("box.pcf")
            OtherProgram.output(of: ["/usr/bin/bdftopcf", "-o", pcf.path, fonts[1].path])
            OtherProgram.output(of: ["/bin/sh", "-c", #"gzip -c "$0" > "$0.gz""#, pcf.path])
            fonts += [pcf, folder.url.appendingPathComponent("box.pcf.gz")]
        }
        for font in fonts {
            let specimen = try await FontSpecimen.draw(fileAt: font.rawPath, appearance: appearance)
            XCTAssertEqual(specimen.family, BoxFont.family, font.lastPathComponent)
            XCTAssertTrue(specimen.coversLatin && specimen.coversFamily, font.lastPathComponent)
            XCTAssertEqual(specimen.lines.map(\.role), [.name] + Array(repeating: .alphabet, count: 3) + Array(repeating: .sample, count: 6),
                           font.lastPathComponent)
            for line in specimen.lines {
                XCTAssertLessThanOrEqual(line.pixels.width, 600, "\(font.lastPathComponent): \(line.text) wraps at the width asked for")
                XCTAssertGreaterThan(ink(line), 0.25, "\(font.lastPathComponent): \(line.text) at \(line.points) points is drawn in its boxes")
            }
        }
    }

    func testAType1FontIsDrawn() async throws {
        // URW's Nimbus Sans, as Ghostscript and TeX install it (fonts-urw-base35).
        let type1 = URL(fileURLWithPath: "/usr/share/fonts/type1/urw-base35/NimbusSans-Regular.t1")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: type1.path), "fonts-urw-base35 is not installed")
        let specimen = try await FontSpecimen.draw(fileAt: type1.rawPath, appearance: appearance)
        XCTAssertEqual(specimen.family, "Nimbus Sans")
        XCTAssertEqual(specimen.sample, "The quick brown fox jumps over the lazy dog.")
        for line in specimen.lines {
            XCTAssertGreaterThan(ink(line), 0.03, "\(line.text) at \(line.points) points has ink")
        }
    }

    func testAWorkerThatCrashesOrHangsEndsTheFontOnAMessage() async throws {
        // A worker with almost no address space dies at its first allocation after its lock-down.
        var starved = DecoderWorker.Limits()
        starved.addressSpace = 1 << 20
        do {
            _ = try await FontSpecimen.draw(fileAt: sample.rawPath, appearance: appearance, worker: DecoderWorker(limits: starved))
            XCTFail("a worker that dies draws nothing")
        } catch {
            guard case .decoderStopped = error else { return XCTFail("\(error)") }
            XCTAssertTrue(error.description.hasPrefix("The font could not be drawn: its decoder stopped ("), error.description)
        }
        var hasty = DecoderWorker.Limits()
        hasty.timeout = .milliseconds(1)
        do {
            _ = try await FontSpecimen.draw(fileAt: sample.rawPath, appearance: appearance, worker: DecoderWorker(limits: hasty))
            XCTFail("a worker past its timeout draws nothing")
        } catch {
            XCTAssertEqual(error, .timedOut(seconds: 0))
        }
        // Another font is drawn by the fonts' own worker.
        let specimen = try await FontSpecimen.draw(fileAt: sample.rawPath, appearance: appearance)
        XCTAssertEqual(specimen.family, "DejaVu Sans Mono")
    }

    func testAnAnswerThatDoesNotHoldTogetherIsRefused() throws {
        // The worker is not trusted: a line outside the pixels it sent is not shown.
        let fd = try XCTUnwrap([UInt8](repeating: 0, count: 64).withUnsafeBytes { SealedBlob.seal($0, name: "test") })
        let blob = try XCTUnwrap(SealedBlob(adopting: fd))
        func output(_ line: DrawnSpecimen.Line) throws -> DecoderWorker.Output {
            let drawn = DrawnSpecimen(family: "F", style: nil, faceCount: 1, coversLatin: true, coversFamily: true, sample: "s",
                                      width: 4, height: 4, stride: 16, lines: [line])
            return DecoderWorker.Output(values: ["specimen": String(decoding: try JSONEncoder().encode(drawn), as: UTF8.self)], blob: blob)
        }
        let inside = DrawnSpecimen.Line(role: .name, text: "F", points: 40, top: 0, width: 4, height: 4, boxTop: 0, boxHeight: 4)
        XCTAssertNotNil(FontSpecimen(try output(inside), appearance: appearance))
        for outside in [DrawnSpecimen.Line(role: .name, text: "F", points: 40, top: 2, width: 4, height: 4, boxTop: 0, boxHeight: 4),
                        DrawnSpecimen.Line(role: .name, text: "F", points: 40, top: 0, width: 5, height: 4, boxTop: 0, boxHeight: 4),
                        DrawnSpecimen.Line(role: .name, text: "F", points: 40, top: 0, width: 4, height: 4, boxTop: 1, boxHeight: 4)] {
            XCTAssertNil(FontSpecimen(try output(outside), appearance: appearance), "\(outside)")
        }
    }
}
