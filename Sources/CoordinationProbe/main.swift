import DocumentCore
import Foundation

// A second process for the coordination tests: it does what another program linking
// DocumentCore would do, while a test watches from outside. Not installed.
//
//   CoordinationProbe counter FILE COUNT        COUNT coordinated read-increment-writes
//   CoordinationProbe reader FILE COUNT         COUNT coordinated reads, checking each is whole
//   CoordinationProbe saver FILE FROM COUNT     safe saves of versions FROM..<FROM+COUNT, 256 KiB each
//   CoordinationProbe hold FILE SECONDS         holds the write lock, printing "locked" once it has it

/// Prints a line at once (stdout is a pipe to the test, which waits for these lines).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments.dropFirst().map { $0 }
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: CoordinationProbe counter|reader|saver|hold FILE N [COUNT]\n".utf8))
    exit(2)
}
let url = URL(fileURLWithPath: arguments[1])
let coordinator = FileCoordinator()

/// A counter file holds "<n>\n" and nothing else; anything else is a torn read.
func readCounter(_ url: URL) -> Int? {
    guard let text = try? String(contentsOf: url, encoding: .utf8), text.hasSuffix("\n") else { return nil }
    return Int(text.dropLast())
}

/// A version file: "version <k>\n", padding of the digit k%10 to 256 KiB, then "end <k>\n".
func versionContents(_ k: Int) -> Data {
    let head = "version \(k)\n"
    let tail = "end \(k)\n"
    let padding = String(repeating: String(k % 10), count: 256 * 1024 - head.utf8.count - tail.utf8.count)
    return Data((head + padding + tail).utf8)
}

switch arguments[0] {
case "counter":
    var torn = 0
    for _ in 0..<(Int(arguments[2]) ?? 0) {
        try coordinator.coordinate(writingItemAt: url) { url in
            guard let value = readCounter(url) else {
                torn += 1
                return
            }
            _ = try SafeSave.write(Data("\(value + 1)\n".utf8), to: url)
        }
    }
    say("torn \(torn)")
case "reader":
    var torn = 0
    for _ in 0..<(Int(arguments[2]) ?? 0) {
        try coordinator.coordinate(readingItemAt: url) { url in
            if readCounter(url) == nil { torn += 1 }
        }
    }
    say("torn \(torn)")
case "saver":
    let parts = arguments[2].split(separator: ":").compactMap { Int($0) }
    let (from, count) = (parts.first ?? 0, parts.last ?? 0)
    for k in from..<(from + count) {
        try coordinator.coordinate(writingItemAt: url) { url in
            _ = try SafeSave.write(versionContents(k), to: url)
        }
        say("saved \(k)")
    }
case "hold":
    try coordinator.coordinate(writingItemAt: url) { _ in
        say("locked")
        Thread.sleep(forTimeInterval: Double(arguments[2]) ?? 1)
    }
default:
    exit(2)
}
