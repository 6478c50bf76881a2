import DecoderWire
import DossierFixtures
import Foundation
import XCTest

@testable import DocumentCore

/// What a media file holds is found by GStreamer's discoverer in a decoder worker, and its cover
/// art decoded there: the tags, the kind of stream and the cover's pixels come back, checked.
/// A damaged file ends on its message; a worker that dies or hangs ends that request only.
final class MediaInspectionTests: XCTestCase {
    private var samples: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../data/samples").standardized
    }

    func testTheSampleSongGivesItsTagsAndNoPictures() throws {
        let details = try MediaInspection.inspectNow(samples.appendingPathComponent("sound.ogg").rawPath)
        XCTAssertEqual(details.title, "A440 test tone")
        XCTAssertEqual(details.artist, "Dossier")
        XCTAssertEqual(details.album, "Dossier samples")
        XCTAssertFalse(details.hasVideo)
        XCTAssertTrue(details.hasAudio)
        XCTAssertNil(details.cover)
        let seconds = try XCTUnwrap(details.duration).components.seconds
        XCTAssertTrue((1...2).contains(seconds), "about 2 s: \(String(describing: details.duration))")
    }

    /// Where bubblewrap cannot run, the worker reads the registry where the caller keeps it.
    func testASongIsInspectedUnderTheLockDownAloneToo() throws {
        let worker = DecoderWorker(confinement: .seccompOnly, limits: PreviewWorkers.limits)
        let fd = open(samples.appendingPathComponent("sound.ogg").path, O_RDONLY | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        try MediaPlayback.load()
        let details = try MediaInspection.details(from: worker.perform(.media, input: FileDescriptor(rawValue: fd)))
        XCTAssertEqual(details.title, "A440 test tone")
        XCTAssertFalse(details.hasVideo)
    }

    func testTheSampleClipHasMovingPictures() throws {
        let details = try MediaInspection.inspectNow(samples.appendingPathComponent("clip.webm").rawPath)
        XCTAssertTrue(details.hasVideo)
        XCTAssertTrue(details.hasAudio)
        XCTAssertEqual(details.title, "Dossier test clip", "Matroska's title, a tag of the container")
        XCTAssertNil(details.cover)
    }

    /// Ogg (a Vorbis comment's picture block), MP3 (ID3's APIC) and MP4 (covr, the index at the
    /// end, which the demuxer seeks to): the cover comes back as pixels no larger than 512 on its
    /// long side, the picture it was.
    func testCoverArtComesBackAsPixelsOfTheCover() throws {
        let ffmpeg = "/usr/bin/ffmpeg"
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: ffmpeg), "ffmpeg makes the songs with covers")
        let folder = try TemporaryFolder()
        let cover = try folder.write("cover.png", bytes: TestImage.encode(TestImage.gradient(width: 600, height: 400), as: "png"))
        let tags = ["-metadata", "title=Harbour Lights", "-metadata", "artist=The Quartet", "-metadata", "album=Tones"]
        let tone = ["-f", "lavfi", "-i", "sine=frequency=440:duration=3"]
        let ogg = folder.url.appendingPathComponent("song.ogg")
        try run(ffmpeg, tone + ["-c:a", "libvorbis"] + tags
            + ["-metadata", "METADATA_BLOCK_PICTURE=" + Data(pictureBlock(png: [UInt8](Data(contentsOf: cover)))).base64EncodedString(), ogg.path])
        let mp3 = folder.url.appendingPathComponent("song.mp3")
        try run(ffmpeg, tone + ["-i", cover.path, "-map", "0:a", "-map", "1", "-c:a", "libmp3lame", "-c:v", "png",
                                "-disposition:v", "attached_pic", "-id3v2_version", "3"] + tags + [mp3.path])
        // MP3 in MP4: Debian's GStreamer has no AAC decoder without the "bad" or libav plugins.
        let mp4 = folder.url.appendingPathComponent("song.mp4")
        try run(ffmpeg, tone + ["-i", cover.path, "-map", "0:a", "-map", "1", "-c:a", "libmp3lame", "-c:v", "png",
                                "-disposition:v", "attached_pic"] + tags + [mp4.path])
        for song in [ogg, mp3, mp4] {
            let details: MediaDetails
            do { details = try MediaInspection.inspectNow(song.rawPath) } catch {
                XCTFail("\(song.lastPathComponent): \(error)")
                continue
            }
            XCTAssertEqual(details.title, "Harbour Lights", song.lastPathComponent)
            XCTAssertEqual(details.artist, "The Quartet", song.lastPathComponent)
            XCTAssertEqual(details.album, "Tones", song.lastPathComponent)
            XCTAssertFalse(details.hasVideo, "\(song.lastPathComponent): a cover is not a video")
            let pixels = try XCTUnwrap(details.cover, "\(song.lastPathComponent) has its cover").pixels
            XCTAssertEqual([pixels.width, pixels.height], [512, 341], song.lastPathComponent)
            // The gradient: red grows to the right, green downwards, blue stays.
            let channels = pixels.hasAlpha ? 4 : 3
            for (x, y) in [(10, 10), (500, 20), (256, 170), (30, 330), (500, 330)] {
                let colour = pixels.blob.withUnsafeBytes { bytes in
                    (0..<3).map { Int(bytes[pixels.offset + y * pixels.stride + x * channels + $0]) }
                }
                let expected = [x * 255 / 511, y * 255 / 340, 96]
                XCTAssertTrue(zip(colour, expected).allSatisfy { abs($0 - $1) <= 8 },
                              "\(song.lastPathComponent) at (\(x), \(y)): \(colour), not \(expected)")
            }
        }
    }

    func testADamagedFileEndsOnItsMessage() throws {
        let folder = try TemporaryFolder()
        for name in ["damaged.ogg", "damaged.webm"] {
            let damaged = try XCTUnwrap(DamagedFiles.kinds.first { $0.name == name })
            let file = try folder.write(name, bytes: damaged.content)
            XCTAssertThrowsError(try MediaInspection.inspectNow(file.rawPath)) { error in
                let error = error as? MediaError
                // GStreamer 1.28 (Debian testing) waits out the discoverer's 5 s on damaged.ogg
                // rather than failing it: that too ends on a message.
                XCTAssertTrue([.missingPlugins, .nothingPlayable, .inspectionTimedOut].contains(error) || {
                    if case .unreadable = error { return true } else { return false }
                }(), "\(name): \(String(describing: error))")
                XCTAssertFalse(error?.description.isEmpty ?? true)
            }
        }
    }

    /// A worker killed while it was kept (as a crash would end it): that inspection ends on the
    /// worker's end, said plainly; the next gets a new worker.
    func testAWorkerThatDiedEndsThatInspectionAndTheNextWorks() throws {
        let song = samples.appendingPathComponent("sound.ogg").rawPath
        let pool = DecoderWorkerPool(count: 1)
        let before = ProcessTree.decoderWorkers()
        XCTAssertEqual(try MediaInspection.inspectNow(song, workers: pool).title, "A440 test tone")
        let started = ProcessTree.decoderWorkers().subtracting(before)
        XCTAssertEqual(started.count, 1, "one worker started for the pool")
        for pid in started { kill(pid, SIGKILL) }
        XCTAssertThrowsError(try MediaInspection.inspectNow(song, workers: pool)) { error in
            guard case .decoderStopped(let how)? = error as? MediaError else { return XCTFail("\(error)") }
            XCTAssertTrue((error as? MediaError)?.description.hasPrefix("The media decoder stopped (") ?? false, how)
        }
        XCTAssertEqual(try MediaInspection.inspectNow(song, workers: pool).title, "A440 test tone")
    }

    /// A worker that does not answer (a decoder in a loop) is stopped after its time; the next
    /// file is inspected.
    func testAWorkerThatHangsIsStoppedAndTheNextWorks() throws {
        var limits = PreviewWorkers.limits
        // Long enough for a fresh worker to start and decode the next file on a loaded machine
        // (GStreamer's first load in a worker can take seconds under load).
        limits.timeout = .seconds(10)
        let pool = DecoderWorkerPool(count: 1, limits: limits, testFormats: true)
        let folder = try TemporaryFolder()
        let hanging = try folder.write("hang.ogg", bytes: Array("OggS".utf8) + Array("\(misbehaviourMarker)test.loop\n".utf8))
        XCTAssertThrowsError(try MediaInspection.inspectNow(hanging.rawPath, workers: pool)) { error in
            XCTAssertEqual(error as? MediaError, .timedOut(seconds: 10))
        }
        XCTAssertEqual(try MediaInspection.inspectNow(samples.appendingPathComponent("sound.ogg").rawPath, workers: pool).title,
                       "A440 test tone")
    }

    /// A worker cannot make GStreamer's plugin registry (that runs a program): it reads the
    /// caller's. One started before the registry existed says so and leaves; the one started
    /// after it is given the registry.
    func testAWorkerStartedBeforeTheRegistryExistedGivesWayToOneThatHasIt() throws {
        try MediaPlayback.load()
        let registry = GStreamerRegistry.path
        XCTAssertTrue(GStreamerRegistry.exists, "initialising GStreamer here made the registry")
        let folder = try TemporaryFolder()
        let later = folder.url.appendingPathComponent("registry.bin").path
        setenv("GST_REGISTRY_1_0", later, 1)
        defer { unsetenv("GST_REGISTRY_1_0") }
        let pool = DecoderWorkerPool(count: 1)
        pool.prestart()
        let song = samples.appendingPathComponent("sound.ogg").rawPath
        XCTAssertThrowsError(try MediaInspection.inspectNow(song, workers: pool)) { error in
            XCTAssertEqual(error as? MediaError, .noRegistry)
        }
        try FileManager.default.copyItem(atPath: registry, toPath: later)
        XCTAssertEqual(try MediaInspection.inspectNow(song, workers: pool).title, "A440 test tone")
    }

    /// The worker can say anything: texts are cut, pixels outside the memfd refuse the answer.
    func testAnAnswerThatDoesNotHoldTogetherIsRefused() throws {
        XCTAssertThrowsError(try MediaInspection.details(from: DecoderWorker.Output(values: ["title": "x"], blob: nil)))
        let long = String(repeating: "é", count: 100_000)
        let cut = try MediaInspection.details(from: DecoderWorker.Output(values: ["hasVideo": "0", "hasAudio": "1", "title": long,
                                                                                  "duration": "99999999999999999999"], blob: nil))
        XCTAssertEqual(cut.title?.count, MediaInspection.textLimit)
        XCTAssertNil(cut.duration, "a duration past any believable one")
        let bytes = [UInt8](repeating: 7, count: 100)
        let fd = try XCTUnwrap(bytes.withUnsafeBytes { SealedBlob.seal($0, name: "test") })
        let blob = try XCTUnwrap(SealedBlob(adopting: fd))
        let lying = ["hasVideo": "0", "hasAudio": "1", "width": "512", "height": "512", "stride": "1536", "channels": "3"]
        XCTAssertThrowsError(try MediaInspection.details(from: DecoderWorker.Output(values: lying, blob: blob))) { error in
            XCTAssertEqual(error as? MediaError, .malformedResult)
        }
    }

    /// The previewer's process never runs the discoverer: only the worker's side calls it.
    func testOnlyTheWorkerCallsTheDiscoverer() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources").standardized
        let callers = try FileManager.default.subpathsOfDirectory(atPath: sources.path).filter { path in
            guard path.hasSuffix(".swift") else { return false }
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            return text.contains("dossier_media_discover") || text.contains("gst_discoverer")
        }
        XCTAssertEqual(callers, ["DecoderService/MediaDiscoverer.swift"])
    }

    /// The parsers of outside data that only the worker opens (poppler, libarchive, cmark-gfm)
    /// are imported by the worker's target alone.
    func testOnlyTheWorkersTargetImportsTheParsers() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources").standardized
        let importers = try FileManager.default.subpathsOfDirectory(atPath: sources.path).filter { path in
            guard path.hasSuffix(".swift") else { return false }
            let lines = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8).split(separator: "\n")
            return lines.contains { ["import CPoppler", "import CArchive", "import CMarkdown"].contains($0) }
        }
        XCTAssertFalse(importers.isEmpty)
        XCTAssertEqual(importers.filter { !$0.hasPrefix("DecoderService/") }, [], "parsers imported outside the worker's target")
    }

    /// A FLAC METADATA_BLOCK_PICTURE body: a front cover (type 3) of a PNG.
    private func pictureBlock(png: [UInt8]) -> [UInt8] {
        func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xff) } }
        let mime = Array("image/png".utf8), description = Array("Cover".utf8)
        return be32(3) + be32(mime.count) + mime + be32(description.count) + description
            + be32(600) + be32(400) + be32(24) + be32(0) + be32(png.count) + png
    }

    private func run(_ program: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(program) \(arguments)")
    }
}
