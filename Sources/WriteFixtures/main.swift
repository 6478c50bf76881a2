import DossierFixtures
import Foundation

// Writes the tests' fixtures into folders, for the tools that are not Swift (`make soak`):
// a real small file of every kind DossierFixtures knows into GOOD, and its damaged files (and a
// FIFO) into DAMAGED. Not installed.
//
//   WriteFixtures GOOD DAMAGED

let arguments = CommandLine.arguments.dropFirst().map { $0 }
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: WriteFixtures GOOD_FOLDER DAMAGED_FOLDER\n".utf8))
    exit(2)
}
do {
    let good = try SampleFiles.writeAll(into: URL(fileURLWithPath: arguments[0], isDirectory: true))
    let damaged = try DamagedFiles.writeAll(into: URL(fileURLWithPath: arguments[1], isDirectory: true))
    print("\(good.count) good and \(damaged.count) damaged fixtures written")
} catch {
    FileHandle.standardError.write(Data("WriteFixtures: \(error)\n".utf8))
    exit(1)
}
