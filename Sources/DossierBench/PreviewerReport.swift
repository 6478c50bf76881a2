import Foundation

/// What the previewer bench prints: the machine's state, how many showings, the Sushi it
/// measured, and a line per cell with the aims: every cell ≤ 0.5× Sushi's time, and a warm
/// showing within two frames wherever Sushi takes longer than that.
struct PreviewerReport {
    static let ratioAim = 0.5
    static let warmAim = 0.033

    let rounds: PreviewerBenchmark.Rounds
    let sushiVersion: String

    func printHeader() {
        print("Previewer: ShowFile to content on screen, Dossier vs \(sushiVersion), cold and warm")
        print("  \(rounds.passes) passes; in each, per kind and previewer, \(rounds.cold) cold then \(rounds.warm) warm showings,"
              + " Dossier's and Sushi's series one after the other (who goes first alternates);"
              + " a series stops at its second showing over \(Int(PreviewerBenchmark.slow)) s")
        print("  at start: \(Self.machineState())")
    }

    func printFooter() {
        print("  at end:   \(Self.machineState())")
    }

    func printCells(_ inputs: [PreviewerInput], _ results: PreviewerResults) {
        print("  Median of the \(rounds.passes) passes' medians (min–max of the \(rounds.passes)); ratio: Dossier's time / Sushi's,"
              + " median of the passes' ratios (min–max)")
        print("  " + Self.pad("kind", 20) + Self.pad("", 6) + Self.pad("Dossier ms", 18) + Self.pad("Sushi ms", 18) + Self.pad("ratio", 19) + "aim")
        var misses = 0
        var timedOut = false
        for input in inputs {
            guard input.url != nil else {
                print("  " + Self.pad(input.label, 20) + (input.note ?? "skipped"))
                continue
            }
            for temperature in PreviewerResults.Temperature.allCases {
                let ours = results.medians(kind: input.label, temperature: temperature, previewer: .dossier)
                let theirs = results.medians(kind: input.label, temperature: temperature, previewer: .sushi)
                let ratios = Self.ratios(ours, theirs)
                let ratio = Measure.median(ratios.values.filter { !$0.isNaN })
                let verdict = aim(ratio: ratio, ours: Measure.median(ours), theirs: Measure.median(theirs), temperature: temperature)
                if verdict != "holds" { misses += 1 }
                if (ours + theirs).contains(where: \.isInfinite) { timedOut = true }
                print("  " + Self.pad(input.label, 20) + Self.pad(temperature.rawValue, 6) + Self.pad(Self.milliseconds(ours), 18)
                      + Self.pad(Self.milliseconds(theirs), 18)
                      + Self.pad(Self.ratioSpread(ratios), 19) + verdict)
            }
        }
        for input in inputs where input.url != nil {
            if let note = input.note { print("  \(input.label): \(note)") }
        }
        if timedOut {
            print("  \"none in \(Int(Self.patience)) s\": nothing on screen \(Int(Self.patience)) s after ShowFile. Sushi's time is then only known"
                  + " to be longer, and \"< r\" is Dossier's time over \(Int(Self.patience)) s, rounded up: a bound on the ratio")
        }
        print("  \(misses == 0 ? "Every cell meets its aim" : "\(misses) cells miss their aim") (≤ \(Self.ratioAim)× Sushi;"
              + " warm ≤ \(Int(Self.warmAim * 1000)) ms where Sushi is slower)")
    }

    /// The floor in each setting, and Dossier's cold showing of each kind against the floor with
    /// GL off (the aim: ≤ 1.2×), as ratios per pass like the cells'.
    func printFloor(_ floor: FloorBenchmark.Floor, _ inputs: [PreviewerInput], _ results: PreviewerResults) {
        print("  Floor: \(floor.description); \(rounds.cold) starts per setting in each pass, median of the passes' medians (min–max)")
        for setting in FloorBenchmark.Setting.allCases {
            print("    " + Self.pad(floor.label(setting), 46) + Self.milliseconds(results.floor(setting)) + " ms")
        }
        print("  Dossier's cold showing / the floor (\(FloorBenchmark.Setting.glOff.rawValue)), median of the passes' ratios (min–max);"
              + " aim ≤ \(FloorBenchmark.aim)×")
        let floors = results.floor(.glOff)
        for input in inputs where input.url != nil {
            let ratios = zip(results.medians(kind: input.label, temperature: .cold, previewer: .dossier), floors)
                .map { $0 / $1 }.filter { $0.isFinite }
            let ratio = Measure.median(ratios)
            let verdict = !ratio.isFinite ? "not measured" : ratio <= FloorBenchmark.aim ? "holds" : "misses: > \(FloorBenchmark.aim)×"
            print("    " + Self.pad(input.label, 20) + Self.pad(Self.spread(ratios, format: "%.2f"), 19) + verdict)
        }
    }

    /// Each pass's ratio, Dossier's time over Sushi's. Where Sushi's content did not come within
    /// the patience (infinity), Dossier's time over the patience: the ratio is below that, so
    /// `bounded`. The median of the values then bounds the median of the true ratios from above,
    /// as each value bounds its own. NaN where either was not measured, or Dossier's did not come.
    static func ratios(_ ours: [Double], _ theirs: [Double]) -> (values: [Double], bounded: Bool) {
        var bounded = false
        let values = zip(ours, theirs).map { ours, theirs -> Double in
            guard ours.isFinite else { return .nan }
            if theirs.isInfinite {
                bounded = true
                return ours / patience
            }
            return ours / theirs
        }
        return (values, bounded)
    }

    /// The ratios' spread; a bound with "< " and rounded up, so that what is printed is a bound too.
    static func ratioSpread(_ ratios: (values: [Double], bounded: Bool)) -> String {
        guard ratios.bounded else { return spread(ratios.values, format: "%.2f") }
        return "< " + spread(ratios.values.map { ($0 * 100).rounded(.up) / 100 }, format: "%.2f")
    }

    private func aim(ratio: Double, ours: Double, theirs: Double, temperature: PreviewerResults.Temperature) -> String {
        if ours.isInfinite { return "misses: none in \(Int(Self.patience)) s" }
        guard ratio.isFinite, ours.isFinite, !theirs.isNaN else { return "not measured" }
        var missed: [String] = []
        if ratio > Self.ratioAim { missed.append("> \(Self.ratioAim)×") }
        if temperature == .warm, theirs > Self.warmAim, ours > Self.warmAim { missed.append("> \(Int(Self.warmAim * 1000)) ms") }
        return missed.isEmpty ? "holds" : "misses: " + missed.joined(separator: ", ")
    }

    static func milliseconds(_ seconds: [Double]) -> String {
        spread(seconds.map { $0 * 1000 }, format: "%.0f")
    }

    /// How long a showing may take, in seconds (`WindowContent.patience`).
    static let patience = Measure.seconds(WindowContent.patience)

    /// "median (min–max)" of `values`, or "no showing" when none was measured. An infinite value
    /// (content that did not come within the patience) counts as the longest, and reads "none";
    /// "none in 30 s" when every value is one.
    static func spread(_ values: [Double], format: String) -> String {
        let measured = values.filter { !$0.isNaN }
        guard let low = measured.min(), let high = measured.max() else { return "no showing" }
        let missing = values.count - measured.count
        let failed = missing > 0 ? " \(missing) failed" : ""
        guard low.isFinite else { return "none in \(Int(patience)) s" + failed }
        func text(_ value: Double) -> String { value.isFinite ? String(format: format, value) : "none" }
        return text(Measure.median(measured)) + " (" + text(low) + "–" + text(high) + ")" + failed
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    /// The Sushi that was measured, as Debian's package names it.
    static func sushiVersion() -> String {
        let version = sushiPackageVersion()
        guard !version.isEmpty else { return "Sushi (version not known: dpkg-query found no gnome-sushi)" }
        // "43.0-2" is upstream 43.0, Debian revision 2.
        let upstream = version.split(separator: ":").last.map { String($0.split(separator: "-").first ?? $0) } ?? version
        return "Sushi \(upstream) (gnome-sushi \(version))"
    }

    /// Sushi's major version (43 for "43.0-2"), nil when dpkg-query knows no gnome-sushi.
    static func sushiMajorVersion() -> Int? {
        let version = sushiPackageVersion()
        return (version.split(separator: ":").last?.split(separator: ".").first).flatMap { Int($0) }
    }

    private static func sushiPackageVersion() -> String {
        (try? Measure.run("/usr/bin/dpkg-query", ["-W", "-f", "${Version}", "gnome-sushi"]))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    /// The CPU frequencies the kernel reports (cpufreq's current, else /proc/cpuinfo's "cpu MHz")
    /// and the load averages.
    static func machineState() -> String {
        var megahertz: [Int] = []
        for cpu in 0..<256 {
            let path = "/sys/devices/system/cpu/cpu\(cpu)/cpufreq/scaling_cur_freq"
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { break }
            if let kilohertz = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) { megahertz.append(kilohertz / 1000) }
        }
        if megahertz.isEmpty, let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) {
            for line in cpuinfo.split(separator: "\n") where line.hasPrefix("cpu MHz") {
                if let value = line.split(separator: ":").last.flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }) {
                    megahertz.append(Int(value.rounded()))
                }
            }
        }
        let frequency = megahertz.isEmpty ? "CPU frequency not reported"
            : "CPU " + megahertz.map(String.init).joined(separator: ", ") + " MHz"
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))
            .map { "load " + $0.split(separator: " ").prefix(3).joined(separator: " ") + " (1, 5, 15 min)" } ?? "load not reported"
        return "\(frequency); \(load); \(ProcessInfo.processInfo.activeProcessorCount) cores"
    }
}
