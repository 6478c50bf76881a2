import CGLib
import DocumentCore
import DossierFixtures
import Foundation
import Synchronization

/// DirectoryQuery on a folder of 100,000 files: time to the first batch, the full gathering
/// (sorted, types by name) next to `find DIR -maxdepth 1 -printf '%s %T@ %f\n'` into a pipe in
/// the same run, memory per item, natural sort against Foundation's, and one live change.
enum DirectoryQueryBenchmark {
    static let fileCount = 100_000
    static let rounds = 5
    static let extensions = [
        "txt", "pdf", "png", "jpg", "md", "swift", "c", "h", "tar.gz", "zip", "html", "json", "csv", "mp3", "ogg",
        "webm", "svg", "py", "docx", "odt",
    ]

    static func run() throws {
        let folder = try TemporaryFolder("dossier-bench-query")
        for index in 0..<fileCount {
            let name = "file\(index).\(extensions[index % extensions.count])"
            let descriptor = open(folder.url.appendingPathComponent(name).path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
            if descriptor >= 0 { close(descriptor) }
        }
        let findArguments = [folder.url.path, "-maxdepth", "1", "-printf", "%s %T@ %f\\n"]

        // Warm the page cache, the MIME database and the collation check before anything is timed.
        try Measure.run("/usr/bin/find", findArguments)
        _ = DocumentType(fileName: "warm.txt")
        _ = NaturalSort.compare("a", "b")

        // Memory, while the heap is fresh: resident size (RSS, after malloc_trim so memory the
        // gathering freed is not counted) and bytes allocated (mallinfo2, every arena) with the
        // gathered list held, less before. RSS also holds one-time costs: worker threads and
        // their allocator arenas.
        let residentBefore = residentBytes()
        let allocatedBefore = allocatedBytes()
        var held = Gathering.run(folder.url)
        let itemCount = max(held.items.count, 1)
        let resident = Double(residentBytes() - residentBefore) / Double(itemCount)
        let allocated = Double(allocatedBytes() - allocatedBefore) / Double(itemCount)
        held = Gathering.Result()

        var firstBatches: [Double] = []
        var firstBatchSizes: [Int] = []
        var gatherings: [Double] = []
        for _ in 0..<rounds {
            let result = Gathering.run(folder.url)
            firstBatches.append(result.firstBatch)
            firstBatchSizes.append(result.firstBatchSize)
            gatherings.append(result.gathered)
        }
        let find = try Measure.median(rounds: rounds) { try Measure.run("/usr/bin/find", findArguments) }
        let firstBatch = median(firstBatches)
        let gathered = median(gatherings)

        let names = (0..<fileCount).map { "file\($0 * 7919 % fileCount).\(extensions[$0 % extensions.count])" }
        let natural = Measure.median(rounds: 3) { _ = names.sorted(by: NaturalSort.areInIncreasingOrder) }
        let foundation = Measure.median(rounds: 3) {
            _ = names.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        }
        let change = try changeLatency(in: folder.url)

        print("Directory query: \(itemCount) empty files of \(extensions.count) kinds, median of \(rounds) rounds")
        print("  first batch (\(firstBatchSizes.min() ?? 0) items, sorted)       \(ms(firstBatch))")
        print("  full gathering, typed, sorted      \(ms(gathered))   \(String(format: "%5.2f×", gathered / find)) find's time")
        print("  find -maxdepth 1 -printf …         \(ms(find))    1.00× (peer, a subprocess into a pipe)")
        print(String(format: "  memory per item                    %7.0f bytes allocated (an item is %d bytes + a name longer than 15)", allocated, MemoryLayout<QueryItem>.stride))
        print(String(format: "  resident memory per item           %7.0f bytes (RSS; with threads and allocator arenas)", resident))
        print("  natural sort of \(fileCount) names      \(ms(natural))   \(String(format: "%5.1f×", foundation / natural)) faster than localizedStandardCompare (\(ms(foundation)))")
        print("  one change among \(itemCount)          \(ms(change))   (noteChange to change set delivered, median of 20)")
    }

    /// One query's gathering of `folder`, timed from `start` on the caller's side.
    enum Gathering {
        struct Result {
            var firstBatch = 0.0
            var firstBatchSize = 0
            var gathered = 0.0
            var items: [QueryItem] = []
        }

        private final class Recorder: Sendable {
            let result = Mutex(Result())
            let done = DispatchSemaphore(value: 0)
        }

        static func run(_ folder: URL) -> Result {
            let recorder = Recorder()
            let query = DirectoryQuery(folder: folder, options: QueryOptions(observesChanges: false))
            let start = ContinuousClock.now
            query.start { event in
                let elapsed = seconds(ContinuousClock.now - start)
                switch event {
                case .batch(let items):
                    recorder.result.withLock { result in
                        if result.firstBatchSize == 0 {
                            result.firstBatch = elapsed
                            result.firstBatchSize = items.count
                        }
                    }
                case .reload(let items, _):
                    recorder.result.withLock { result in
                        result.gathered = elapsed
                        result.items = items
                    }
                    recorder.done.signal()
                case .failed: recorder.done.signal()
                default: break
                }
            }
            recorder.done.wait()
            query.stop()
            return recorder.result.withLock { $0 }
        }
    }

    /// Median time from `noteChange` to the change set, in a live query of the whole folder.
    private static func changeLatency(in folder: URL) throws -> Double {
        final class Changes: Sendable {
            let gathered = DispatchSemaphore(value: 0)
            let changed = DispatchSemaphore(value: 0)
        }
        let changes = Changes()
        let query = DirectoryQuery(folder: folder)
        query.start { event in
            switch event {
            case .reload: changes.gathered.signal()
            case .changes: changes.changed.signal()
            default: break
            }
        }
        changes.gathered.wait()
        let file = folder.appendingPathComponent("file5.md")
        var samples: [Double] = []
        for round in 0..<20 {
            try Data(String(repeating: "x", count: round + 1).utf8).write(to: file)
            let start = ContinuousClock.now
            DirectoryQuery.noteChange(at: file)
            changes.changed.wait()
            samples.append(seconds(ContinuousClock.now - start))
            usleep(150_000)  // let inotify's own report of the write pass, so it is not counted next round
            while changes.changed.wait(timeout: .now()) == .success {}
        }
        query.stop()
        return median(samples)
    }

    private static func residentBytes() -> Int {
        malloc_trim(0)
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    private static func allocatedBytes() -> Int {
        let info = mallinfo2()
        return Int(info.uordblks + info.hblkhd)
    }

    private static func median(_ samples: [Double]) -> Double {
        let sorted = samples.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func ms(_ seconds: Double) -> String {
        String(format: "%7.1f ms", seconds * 1000)
    }
}
