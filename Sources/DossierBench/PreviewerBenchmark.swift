import CGLib
import CX11
import Foundation

/// The time from Nautilus's `ShowFile` D-Bus call to the window showing the content, measured
/// from outside the same way for Dossier and for Sushi (GNOME's previewer), on the same files
/// in the same run: warm (the service already running) and cold (started by the call), for
/// every kind Sushi previews (`PreviewerInputs`). Needs a display and a session bus (`make
/// bench` starts both).
///
/// The machine is shared and cold starts swing widely between runs (Sushi's own too), so the
/// noise is handled here rather than by a quiet machine: for each kind, a series
/// of cold showings then warm ones, Dossier's and Sushi's one after the other (who goes first
/// alternates), and the whole pass three times. Each series gives a median; a cell prints the
/// median of its three medians and their spread (min–max), and the ratio likewise from the
/// three passes' ratios. CPU frequency and load are printed at the start and the end. Each pass
/// also starts the floor (`FloorBenchmark`) a few times: Dossier's cold showings are printed
/// against it too.
enum PreviewerBenchmark {
    /// Showings per series and passes over every kind: `DOSSIER_BENCH_ROUNDS="cold,warm,passes"`.
    struct Rounds {
        var cold = 3, warm = 3, passes = 3
    }

    static func run() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let session = BenchSession("Previewer", peer: Previewer.sushiProgram, named: "Sushi (Debian's gnome-sushi)") else { return }
        defer { session.close() }
        let display = session.display
        let bus = session.bus

        let executableFolder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let inputFolder = environment["DOSSIER_BENCH_INPUTS"].map { URL(fileURLWithPath: $0) }
            ?? executableFolder.deletingLastPathComponent().appendingPathComponent("bench-inputs")
        let rounds = Rounds(environment["DOSSIER_BENCH_ROUNDS"])
        let only = environment["DOSSIER_BENCH_KINDS"].map { Set($0.split(separator: ",").map { $0.lowercased() }) }

        print("Previewer: making or reusing the inputs in \(inputFolder.path)")
        let inputs = try PreviewerInputs.prepare(in: inputFolder).filter { input in
            only.map { only in only.contains { input.label.lowercased().contains($0) } } ?? true
        }
        let content = WindowContent(display: display, screenshots: environment["DOSSIER_BENCH_SCREENSHOTS"].map { URL(fileURLWithPath: $0) })
        // As the suite's Nautilus calls it: with an activation token from Nautilus and Sushi 50.
        let service = PreviewerService(content: content, bus: bus, dossier: executableFolder.appendingPathComponent("dossier").path,
                                       withActivationToken: (PreviewerReport.sushiMajorVersion() ?? 0) >= 50)
        let floor: FloorBenchmark.Floor?
        do {
            floor = try FloorBenchmark.Floor(content: content)
        } catch {
            print("Previewer: the floor is not measured: \(error)")
            floor = nil
        }
        let report = PreviewerReport(rounds: rounds, sushiVersion: PreviewerReport.sushiVersion())
        report.printHeader()

        var results = PreviewerResults()
        for pass in 0..<rounds.passes {
            if let floor {
                service.stop()
                for setting in FloorBenchmark.Setting.allCases {
                    results.addFloor(floor.median(setting, starts: rounds.cold), setting: setting)
                }
            }
            let order = pass % 2 == 0 ? Previewer.allCases : Previewer.allCases.reversed()
            for input in inputs {
                guard let file = input.url else { continue }
                for previewer in order {
                    try service.use(previewer)
                    let name = "\(input.label)-\(previewer.rawValue)".replacingOccurrences(of: " ", with: "-")
                    let cold = series(rounds.cold) {
                        service.stop()
                        return service.show(file, readiness: input.readiness, name: name + "-cold")
                    }
                    let warm = series(rounds.warm) { service.show(file, readiness: input.readiness, name: name + "-warm") }
                    results.add(Measure.median(cold), kind: input.label, temperature: .cold, previewer: previewer)
                    results.add(Measure.median(warm), kind: input.label, temperature: .warm, previewer: previewer)
                }
            }
        }
        try service.use(nil)
        report.printCells(inputs, results)
        if let floor { report.printFloor(floor, inputs, results) }
        report.printFooter()
    }

    /// A showing this slow is far from any aim, and its noise small against its size.
    static let slow = 3.0

    /// Up to `count` showings' times; a series stops at its second showing slower than `slow`
    /// (Sushi on the ODT, which it converts at every showing), or at its first whose
    /// content did not come within the patience (infinity: Sushi on the 1,000,000-row CSV, whose
    /// window stays undrawn for minutes; the next showing would wait as long to say the same).
    /// A failed call is left out.
    private static func series(_ count: Int, _ showing: () -> Double?) -> [Double] {
        var times: [Double] = []
        for _ in 0..<count {
            guard let time = showing() else { continue }
            times.append(time)
            if time.isInfinite || times.filter({ $0 > slow }).count >= 2 { break }
        }
        return times
    }
}

extension PreviewerBenchmark.Rounds {
    /// "cold,warm,passes", each optional: `3,5,3`, `1,1,1`; the defaults where a number is missing.
    init(_ text: String?) {
        let numbers = (text ?? "").split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        if numbers.count > 0, let cold = numbers[0], cold > 0 { self.cold = cold }
        if numbers.count > 1, let warm = numbers[1], warm > 0 { self.warm = warm }
        if numbers.count > 2, let passes = numbers[2], passes > 0 { self.passes = passes }
    }
}

/// Each series' median, by kind, temperature and previewer, in pass order; and the floor's.
struct PreviewerResults {
    enum Temperature: String, CaseIterable { case cold, warm }

    private var medians: [String: [Double]] = [:]
    private var floorMedians: [FloorBenchmark.Setting: [Double]] = [:]

    mutating func add(_ median: Double, kind: String, temperature: Temperature, previewer: Previewer) {
        medians["\(kind)|\(temperature)|\(previewer)", default: []].append(median)
    }

    func medians(kind: String, temperature: Temperature, previewer: Previewer) -> [Double] {
        medians["\(kind)|\(temperature)|\(previewer)"] ?? []
    }

    mutating func addFloor(_ median: Double, setting: FloorBenchmark.Setting) {
        floorMedians[setting, default: []].append(median)
    }

    /// The floor's median in each pass, in pass order.
    func floor(_ setting: FloorBenchmark.Setting) -> [Double] {
        floorMedians[setting] ?? []
    }
}
