import Foundation

/// `DossierBench remote`'s table: per way to the server, the first items and the whole
/// listing of each app, median (min–max) of the passes, and Dossier's time over Nautilus' (the
/// median of the passes' ratios).
struct RemoteListingReport {
    typealias Peer = RemoteListingBenchmark.Peer
    let passes: Int
    let lines: [String]
    let results: [String: [Peer: [RemoteListingBenchmark.Pass]]]
    /// The machine's load averages at the start and the end of the passes.
    let load: String

    func print() {
        let nautilus = (try? Measure.run("/usr/bin/dpkg-query", ["-W", "-f", "${Version}", "nautilus"]))
            .flatMap { $0.isEmpty ? nil : $0 } ?? "version not known"
        let count = RemoteListingBenchmark.fileCount
        Swift.print("Remote: a folder of \(count) files on SFTP (the tests' sshd on 127.0.0.1, mounted through GVFS), "
                    + "Dossier vs Nautilus \(nautilus), median (min–max) of \(passes) passes, the apps alternating")
        Swift.print("  Each pass: a new process and window of each app on the folder's sftp:// URI, thumbnails and downloaded copies emptied."
                    + " GVFS warm: mounted, and the folder listed once by each app, before the passes; gvfsd-sftp keeps its SSH"
                    + " connection but no listing, so every pass lists the \(count) entries from sshd again.")
        Swift.print("  First items: the view's area stops being flat (as the browser bench). Whole listing: the view's scrollable height"
                    + " (its scroll bar's range, through AT-SPI every 20 ms) reaches its final value, no earlier than the first items.")
        Swift.print("  " + PreviewerReport.pad("", 36) + PreviewerReport.pad("Dossier ms", 22) + PreviewerReport.pad("Nautilus ms", 22)
                    + "Dossier's time / Nautilus'")
        for line in lines {
            let ours = results[line]?[.dossier] ?? [], theirs = results[line]?[.nautilus] ?? []
            row("\(line): first items drawn", ours.map(\.firstItems), theirs.map(\.firstItems))
            row("\(line): whole listing shown", ours.map(\.wholeListing), theirs.map(\.wholeListing))
        }
        let all = results.values.flatMap { $0 }
        for peer in Peer.allCases {
            let passes = all.filter { $0.key == peer }.flatMap(\.value)
            let windows = Set(passes.map(\.window)).sorted().joined(separator: ", ")
            let lengths = Set(passes.compactMap(\.length).map { String(format: "%.0f", $0) }).sorted().joined(separator: ", ")
            Swift.print("  \(peer.rawValue): window \(windows) (X), view's final height \(lengths.isEmpty ? "not seen" : lengths) px")
            let ended = passes.compactMap(\.ended)
            if !ended.isEmpty {
                Swift.print("  \(peer.rawValue): \(ended.count) of \(passes.count) timed launches ended by themselves before the view stood still"
                            + " (\(Set(ended).sorted().joined(separator: ", "))): their whole listing is not counted")
            }
        }
        Swift.print("  Load average: \(load) (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
        Swift.print("  Screenshots of an untimed launch of each (first items, listed, End pressed): .build/bench-shots/remote-*")
    }

    private func row(_ label: String, _ ours: [Double?], _ theirs: [Double?]) {
        let ratios = zip(ours, theirs).map { pair -> Double in
            guard let mine = pair.0, let peer = pair.1 else { return .nan }
            return mine / peer
        }
        Swift.print("  " + PreviewerReport.pad(label, 36)
                    + PreviewerReport.pad(PreviewerReport.milliseconds(ours.map { $0 ?? .nan }), 22)
                    + PreviewerReport.pad(PreviewerReport.milliseconds(theirs.map { $0 ?? .nan }), 22)
                    + PreviewerReport.spread(ratios, format: "%.2f"))
    }
}
