import CImaging
import Foundation

/// One kind of file the previewer bench shows, made once and kept between runs.
struct PreviewerInput {
    /// How the screen says the content is there.
    enum Readiness {
        /// The middle of the window has content (not a flat colour) and it has stood still for
        /// `WindowContent.stillness`; the time is when it last changed. A spinner never counts:
        /// it is nearly flat and keeps turning; nor does a state the previewer passes through on its way.
        case steady
        /// The same over the whole window below its header: for a folder, where Sushi turns a
        /// spinner beside the name until it has counted the items (Dossier counts before it
        /// shows the page). Not for the rest: a PDF's page sidebar fills in after the page, and
        /// an overlay scrollbar fades out a second after a text shows.
        case steadyEverywhere
        /// The first picture of a moving image: Sushi plays a video at once, so it never stands
        /// still; the picture is far busier than any window without it.
        case firstFrame
    }

    let label: String
    let url: URL?
    let readiness: Readiness
    /// Printed with the cells: why a kind was left out, or how Sushi shows it.
    let note: String?

    static func skipped(_ label: String, because reason: String) -> PreviewerInput {
        PreviewerInput(label: label, url: nil, readiness: .steady, note: "skipped: " + reason)
    }
}

/// The files the previewer bench shows: a photo, a PDF and a long text, and every other kind
/// Sushi previews. Made in `folder`, under a version stamp: a run reuses what an
/// earlier run made, and a change to any generator changes the stamp (old stamps are removed).
enum PreviewerInputs {
    /// Raise when a generator changes what it writes.
    static let stamp = "previewer-inputs-1"

    static func prepare(in folder: URL) throws -> [PreviewerInput] {
        try removeOtherStamps(in: folder)
        let inputs = folder.appendingPathComponent(stamp)
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        func made(_ name: String, _ make: (URL) throws -> Void) throws -> URL {
            let url = inputs.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path) { return url }
            // Made under another name and renamed when complete: an interrupted run leaves no half file.
            let partial = inputs.appendingPathComponent("partial-" + name)
            try? FileManager.default.removeItem(at: partial)
            try make(partial)
            try FileManager.default.moveItem(at: partial, to: url)
            return url
        }
        // A file made earlier is shown even where its maker is missing: `make bench-distros` shows
        // the host's inputs in chroots that have no ffmpeg.
        func maker(_ program: String?, orMade name: String) -> String? {
            program ?? (FileManager.default.fileExists(atPath: inputs.appendingPathComponent(name).path) ? "" : nil)
        }
        let ffmpeg = program("ffmpeg")
        let office = program("soffice") ?? program("libreoffice")
        let asText = "Sushi shows it as plain text"
        return [
            PreviewerInput(label: "12 MP JPEG", url: try made("photo.jpg") { _ = try ThumbnailBenchmark.makePhoto(at: $0) },
                           readiness: .steady, note: nil),
            PreviewerInput(label: "50-page PDF", url: try made("document.pdf") { try GeneratedDocuments.pdf(at: $0, pages: 50) },
                           readiness: .steady, note: nil),
            PreviewerInput(label: "10 MB text", url: try made("log.txt") { try GeneratedDocuments.log(at: $0, bytes: 10 << 20) },
                           readiness: .steady, note: nil),
            PreviewerInput(label: "HTML page", url: try made("page") { try GeneratedDocuments.webPage(in: $0) }
                               .appendingPathComponent("index.html"),
                           readiness: .steady, note: nil),
            try maker(ffmpeg, orMade: "video.webm").map { ffmpeg in
                PreviewerInput(label: "1080p video", url: try made("video.webm") { try GeneratedMedia.video(at: $0, ffmpeg: ffmpeg) },
                               readiness: .firstFrame, note: "10 s of VP9, to its first frame")
            } ?? .skipped("1080p video", because: "ffmpeg is not installed"),
            try maker(ffmpeg, orMade: "song.ogg").map { ffmpeg in
                PreviewerInput(label: "Ogg + cover", url: try made("song.ogg") { try GeneratedMedia.song(at: $0, ffmpeg: ffmpeg) },
                               readiness: .steady, note: nil)
            } ?? .skipped("Ogg + cover", because: "ffmpeg is not installed"),
            PreviewerInput(label: "TrueType font", url: try made("font.ttf") { try GeneratedDocuments.font(at: $0) },
                           readiness: .steady, note: nil),
            office == nil
                ? .skipped("ODT, 4 pages", because: "LibreOffice is not installed")
                : PreviewerInput(label: "ODT, 4 pages", url: try made("letter.odt") { try GeneratedDocuments.openDocumentText(at: $0, pages: 4) },
                                 readiness: .steady, note: "both convert it with LibreOffice"),
            PreviewerInput(label: "10,000-file folder", url: try made("folder") { try GeneratedDocuments.folder(at: $0, files: 10_000) },
                           readiness: .steadyEverywhere, note: "both show the folder's icon, item count and size, not a list"),
            PreviewerInput(label: "1,000-entry zip", url: try made("archive.zip") { try GeneratedDocuments.zip(at: $0, entries: 1000) },
                           readiness: .steady, note: "Sushi shows the file's size and type, not a list"),
            PreviewerInput(label: "200 KB Markdown", url: try made("notes.md") { try GeneratedDocuments.markdown(at: $0, bytes: 200 << 10) },
                           readiness: .steady, note: asText),
            PreviewerInput(label: "1,000,000-row CSV", url: try made("table.csv") { try GeneratedDocuments.csv(at: $0, rows: 1_000_000) },
                           readiness: .steady, note: asText),
        ]
    }

    /// The full path of `name` in `PATH`, or nil.
    static func program(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func removeOtherStamps(in folder: URL) throws {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix("previewer-inputs-") && name != stamp {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }
}
