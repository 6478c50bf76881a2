import DocumentCore
import DossierFixtures
import Foundation

/// Coordinated read+write round trips against the same reads and writes with no locks, in
/// the same run: what coordination costs per access.
enum CoordinationBenchmark {
    static let roundTrips = 2_000
    static let rounds = 5

    static func run() throws {
        let folder = try TemporaryFolder("dossier-bench-coordination")
        let file = folder.url.appendingPathComponent("counter.txt")
        try Data("0\n".utf8).write(to: file)
        let coordinator = FileCoordinator()

        func increment(_ url: URL) throws {
            let value = Int(try String(contentsOf: url, encoding: .utf8).dropLast()) ?? 0
            try Data("\(value + 1)\n".utf8).write(to: url)
        }

        let plain = try Measure.median(rounds: rounds) {
            for _ in 0..<roundTrips { try increment(file) }
        }
        let coordinated = try Measure.median(rounds: rounds) {
            for _ in 0..<roundTrips {
                let value = try coordinator.coordinate(readingItemAt: file) { url in
                    Int(try String(contentsOf: url, encoding: .utf8).dropLast()) ?? 0
                }
                try coordinator.coordinate(writingItemAt: file) { url in
                    try Data("\(value + 1)\n".utf8).write(to: url)
                }
            }
        }
        let safeSaved = try Measure.median(rounds: rounds) {
            for _ in 0..<roundTrips {
                try coordinator.coordinate(writingItemAt: file) { url in
                    let value = Int(try String(contentsOf: url, encoding: .utf8).dropLast()) ?? 0
                    _ = try SafeSave.write(Data("\(value + 1)\n".utf8), to: url)
                }
            }
        }
        print("Coordination: \(roundTrips) read+write round trips on one file, median of \(rounds) rounds")
        print(String(format: "  plain read + write (no locks)             %9.0f round trips/s   1.00×", Double(roundTrips) / plain))
        print(String(format: "  coordinated read + coordinated write      %9.0f round trips/s   %.2f× plain",
                     Double(roundTrips) / coordinated, plain / coordinated))
        print(String(format: "  coordinated write with a safe save        %9.0f round trips/s   %.2f× plain (fsync file and folder)",
                     Double(roundTrips) / safeSaved, plain / safeSaved))
    }
}
