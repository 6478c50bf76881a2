import DocumentCore
import DossierFixtures
import Foundation

// `make bench`: Dossier's speed against a peer measured in the same run, as ratios of medians.
// Each benchmark is a file in this folder; run them all, or name some: `DossierBench types`.

let benchmarks: [String: () throws -> Void] = [
    "types": TypeDetectionBenchmark.run,
    "coordination": CoordinationBenchmark.run,
    "thumbnails": ThumbnailBenchmark.run,
    "query": DirectoryQueryBenchmark.run,
    "bookmarks": BookmarkBenchmark.run,
    "previewer": PreviewerBenchmark.run,
    "floor": FloorBenchmark.run,
    "browser": BrowserBenchmark.run,
    "photo-folder": PhotoFolderBenchmark.run,
    "memory": MemoryBenchmark.run,
    "remote": RemoteListingBenchmark.run,
]

let selected = CommandLine.arguments.dropFirst().isEmpty ? benchmarks.keys.sorted() : Array(CommandLine.arguments.dropFirst())
for name in selected {
    guard let benchmark = benchmarks[name] else {
        FileHandle.standardError.write(Data("unknown benchmark '\(name)'; known: \(benchmarks.keys.sorted())\n".utf8))
        exit(2)
    }
    try benchmark()
}
