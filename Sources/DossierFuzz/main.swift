import CFuzzing
import DocumentCore
import Foundation

// DossierFuzz TARGET [libFuzzer options] [CORPUS_FOLDER…]
//
// Built with `-sanitize=fuzzer,address -DDOSSIER_FUZZING` (`make fuzz`), this is libFuzzer
// running one target. Built plainly (`swift build`), it runs each file given through the
// target once — a crash found by the fuzzer can be replayed in a debugger without sanitizers.
// `DossierFuzz --list` names the targets. The target may also come from DOSSIER_FUZZ_TARGET,
// which this program sets for the copies of itself libFuzzer starts (-fork, -minimize_crash).

var arguments = CommandLine.arguments
if arguments.count > 1, arguments[1] == "--list" {
    for target in FuzzTarget.all { print(target.name.padding(toLength: 16, withPad: " ", startingAt: 0) + target.summary) }
    exit(0)
}
let name: String
if arguments.count > 1, !arguments[1].hasPrefix("-") {
    name = arguments.remove(at: 1)
} else if let fromEnvironment = ProcessInfo.processInfo.environment["DOSSIER_FUZZ_TARGET"] {
    name = fromEnvironment
} else {
    FileHandle.standardError.write(Data("usage: DossierFuzz TARGET [libFuzzer options] [CORPUS…]  (DossierFuzz --list)\n".utf8))
    exit(2)
}
guard let target = FuzzTarget.named(name) else {
    FileHandle.standardError.write(Data("DossierFuzz: no target '\(name)' (DossierFuzz --list)\n".utf8))
    exit(2)
}
setenv("DOSSIER_FUZZ_TARGET", name, 1)
// The locale as Dossier applies it (tools/fuzz.sh runs in C.UTF-8): libarchive, for one,
// converts entry names through it.
Localization.setUp()
FuzzTarget.selected = target
target.prepare()

#if DOSSIER_FUZZING
// libFuzzer keeps the argument strings for the whole run: they are never freed.
var argc = Int32(arguments.count)
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = .allocate(capacity: arguments.count + 1)
for (index, argument) in arguments.enumerated() { argv![index] = strdup(argument) }
argv![arguments.count] = nil
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in LLVMFuzzerTestOneInput(data, size) })
#else
for path in arguments.dropFirst() where !path.hasPrefix("-") {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
    let files = isFolder.boolValue
        ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 }
        : [path]
    for file in files {
        guard let data = FileManager.default.contents(atPath: file) else { continue }
        print("\(target.name): \(file) (\(data.count) bytes)")
        target.run(data)
    }
}
#endif
