import DocumentCore
import DossierFixtures
import Foundation

/// Type detection of 10,000 generated files of mixed kinds, by name and by content, next to
/// `file --mime-type -b -f LIST` (one file(1) process over the same list) in the same run.
enum TypeDetectionBenchmark {
    static let fileCount = 10_000
    static let rounds = 5

    /// Where file(1) and shared-mime-info use different names for the same kind.
    static let fileNames: [String: String] = [
        "text/x-shellscript": "application/x-shellscript",
        "text/x-script.python": "text/x-python3",
        "application/vnd.ms-opentype": "font/otf",
        "font/sfnt": "font/ttf",
        "text/x-c": "text/x-csrc",
    ]

    static func run() throws {
        let folder = try TemporaryFolder("dossier-bench-types")
        var paths: [String] = []
        var names: [String] = []
        for index in 0..<fileCount {
            let kind = SampleFiles.kinds[index % SampleFiles.kinds.count]
            let name = String(format: "%05d-", index) + kind.name
            let url = folder.url.appendingPathComponent(name)
            try Data(kind.content).write(to: url)
            paths.append(url.path)
            names.append(name)
        }
        let list = folder.url.appendingPathComponent("list.txt")
        try Data((paths.joined(separator: "\n") + "\n").utf8).write(to: list)

        // Warm the page cache and the MIME database for both sides before timing.
        var ours: [DocumentType] = try paths.map { try DocumentType(contentsOf: $0) }
        let theirs = try Measure.run("/usr/bin/file", ["--mime-type", "-b", "-f", list.path])
            .split(separator: "\n").map { line in
                // "application/x-executable, no program header": the type is the first word.
                let type = String(line.prefix { $0 != "," && $0 != ";" })
                return fileNames[type] ?? type
            }

        let byName = Measure.median(rounds: rounds) {
            for name in names { _ = DocumentType(fileName: name) }
        }
        let byContent = try Measure.median(rounds: rounds) {
            ours = try paths.map { try DocumentType(contentsOf: $0) }
        }
        let file = try Measure.median(rounds: rounds) {
            try Measure.run("/usr/bin/file", ["--mime-type", "-b", "-f", list.path])
        }

        print("Type detection: \(fileCount) files of \(SampleFiles.kinds.count) kinds, median of \(rounds) rounds, one core")
        print("  Dossier by name      \(Measure.rate(fileCount, byName))   \(String(format: "%6.1f×", file / byName)) file(1)")
        print("  Dossier by content   \(Measure.rate(fileCount, byContent))   \(String(format: "%6.1f×", file / byContent)) file(1)   (stat + open + read 16 KiB + sniff)")
        print("  file --mime-type -f  \(Measure.rate(fileCount, file))     1.0× (peer, one process over the list)")

        // Agreement on the kinds both recognise: the same type, or one a subtype of the other
        // (file(1) says audio/ogg where shared-mime-info says audio/x-vorbis+ogg).
        var agree = 0
        var compared = 0
        var disagreements: [String: (String, String)] = [:]
        for (index, answer) in theirs.enumerated() where index < ours.count {
            let peer = DocumentType(mimeType: answer)
            guard !peer.isUnknown, answer != "text/plain" else { continue }
            compared += 1
            let mine = ours[index]
            if mine == peer || mine.conforms(to: peer) || peer.conforms(to: mine) {
                agree += 1
            } else {
                disagreements[SampleFiles.kinds[index % SampleFiles.kinds.count].name] = (mine.identifier, answer)
            }
        }
        print(String(format: "  Agreement with file(1) on the %d files it types specifically: %.1f%%", compared,
                     100 * Double(agree) / Double(max(compared, 1))))
        for (kind, pair) in disagreements.sorted(by: { $0.key < $1.key }) {
            print("    \(kind): Dossier \(pair.0), file(1) \(pair.1)")
        }
    }
}
