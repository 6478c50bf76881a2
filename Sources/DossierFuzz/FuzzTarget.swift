import Foundation

/// One parser of data that comes from outside Dossier, fed the fuzzer's bytes through the
/// same function Dossier reads that data with (a file written first where Dossier reads a
/// file). A target crashes only for a bug: `expect` states what must hold of any input.
struct FuzzTarget: Sendable {
    let name: String
    let summary: String
    /// Runs once, before the first input (folders, environment).
    let prepare: @Sendable () -> Void
    let run: @Sendable (Data) -> Void

    init(_ name: String, _ summary: String, prepare: @escaping @Sendable () -> Void = {},
         run: @escaping @Sendable (Data) -> Void) {
        self.name = name
        self.summary = summary
        self.prepare = prepare
        self.run = run
    }

    /// Every target, in the order `make fuzz` runs them.
    static let all: [FuzzTarget] = [
        .markdown, .delimitedTable, .bookmark, .recents, .trashInfo, .mimeApps, .desktopEntry, .previewer,
        .thumbnailer, .tags, .previewRequest, .windowState, .imageHeader, .archive, .exif, .favorites, .userDirs,
        .thumbnailText, .remoteContent, .pdfAnswer,
    ]

    static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }

    /// The target this process runs: set once in main, before the first input.
    nonisolated(unsafe) static var selected: FuzzTarget?
}

// swift-format-ignore: AlwaysUseLowerCamelCase
// (the name is libFuzzer's, for its entry point: main.swift hands it to libFuzzer's driver)
/// libFuzzer's callback: one input for the selected target.
@_cdecl("LLVMFuzzerTestOneInput")
func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let target = FuzzTarget.selected else { return 0 }
    target.run(data.map { Data(bytes: $0, count: size) } ?? Data())
    return 0
}

/// Stops the run with `message` when `condition` does not hold: the fuzzer keeps the input.
func expect(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("DossierFuzz: \(message())") }
}
