import Foundation

/// The order people expect file names in: "file2" before "file10", case-insensitive, in the
/// user's locale — Foundation's `localizedStandardCompare`, which Finder and Nautilus match —
/// made total (names that compare equal there are ordered by their bytes) and fast.
///
/// Foundation's comparison goes through an ICU collator for every pair, which is too slow
/// for a folder of 100,000 files. Names that are plain printable ASCII — almost
/// all of them — are compared here instead, with the weights of the root collation (spaces,
/// then punctuation and symbols in ICU's order, then numbers by value, then letters without
/// case); ties fall to the first difference in case (lower case first) or in leading zeros
/// (fewer first), as Foundation does. Other names, and every name in a locale whose collation
/// reorders ASCII (Danish "aa", Czech "ch", Turkish "I"…), go to Foundation.
package enum NaturalSort {
    /// Compares two names; `.orderedSame` only for the same bytes (file names are bytes: "é"
    /// and "e\u{301}", equal as Swift strings, are two different files).
    package static func compare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        if fastPathAgreesWithLocale, let result = asciiCompare(lhs, rhs) {
            return result
        }
        return localizedCompare(lhs, rhs)
    }

    /// True when `lhs` sorts before `rhs`: for `sort(by:)`.
    package static func areInIncreasingOrder(_ lhs: String, _ rhs: String) -> Bool {
        compare(lhs, rhs) == .orderedAscending
    }

    /// Foundation's natural comparison in the current locale, with a byte-wise tie-break.
    static func localizedCompare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        let result = lhs.localizedStandardCompare(rhs)
        if result != .orderedSame || lhs.utf8.elementsEqual(rhs.utf8) { return result }
        return lhs.utf8.lexicographicallyPrecedes(rhs.utf8) ? .orderedAscending : .orderedDescending
    }

    /// The comparison of two printable-ASCII names with root-collation weights, or nil when
    /// either has another byte.
    static func asciiCompare(_ lhs: String, _ rhs: String) -> ComparisonResult? {
        // Native strings lend their bytes without a copy (or a retain); others are made native.
        let borrowed = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in compareIfPrintableASCII(left, right) }
        }
        if let borrowed, let result = borrowed { return result }
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in rhs.withUTF8 { right in compareIfPrintableASCII(left, right) } }
    }

    private static func compareIfPrintableASCII(
        _ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>
    ) -> ComparisonResult? {
        guard isPrintableASCII(left), isPrintableASCII(right) else { return nil }
        return compareBytes(left, right)
    }

    private static func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte < 0x20 || byte > 0x7E { return false }
        return true
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    private static func compareBytes(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> ComparisonResult {
        var i = 0
        var j = 0
        // The first difference that only case or leading zeros make, used when nothing else differs.
        var tie = ComparisonResult.orderedSame
        while i < left.count && j < right.count {
            let a = left[i]
            let b = right[j]
            if isDigit(a) && isDigit(b) {
                // Numbers compare by value: skip leading zeros, then the longer is larger, then digit by digit.
                var startA = i
                while startA < left.count && left[startA] == 0x30 { startA += 1 }
                var startB = j
                while startB < right.count && right[startB] == 0x30 { startB += 1 }
                var endA = startA
                while endA < left.count && isDigit(left[endA]) { endA += 1 }
                var endB = startB
                while endB < right.count && isDigit(right[endB]) { endB += 1 }
                if endA - startA != endB - startB {
                    return endA - startA < endB - startB ? .orderedAscending : .orderedDescending
                }
                for offset in 0..<(endA - startA) where left[startA + offset] != right[startB + offset] {
                    return left[startA + offset] < right[startB + offset] ? .orderedAscending : .orderedDescending
                }
                if tie == .orderedSame && startA - i != startB - j {
                    tie = startA - i < startB - j ? .orderedAscending : .orderedDescending
                }
                i = endA
                j = endB
                continue
            }
            let weightA = weights[Int(a)]
            let weightB = weights[Int(b)]
            if weightA != weightB {
                return weightA < weightB ? .orderedAscending : .orderedDescending
            }
            if tie == .orderedSame && a != b {
                // Same letter, different case: lower case first, as ICU's tertiary level has it.
                tie = a >= 0x61 ? .orderedAscending : .orderedDescending
            }
            i += 1
            j += 1
        }
        if i < left.count { return .orderedDescending }
        if j < right.count { return .orderedAscending }
        return tie
    }

    /// Primary weights of printable ASCII in the root collation (CLDR): space, punctuation and
    /// symbols in this order, then digits (one weight: numbers are compared by value), then
    /// letters without case. Other bytes never reach the table.
    private static let weights: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 128)
        var next: UInt8 = 1
        for character in " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$".utf8 {
            table[Int(character)] = next
            next += 1
        }
        for digit in UInt8(0x30)...0x39 { table[Int(digit)] = next }
        next += 1
        for letter in UInt8(0x61)...0x7A {
            table[Int(letter)] = next
            table[Int(letter - 0x20)] = next
            next += 1
        }
        return table
    }()

    /// Names whose order differs between the root collation and tailored ones: every letter
    /// and the contractions some languages sort as one letter.
    private static let localeProbes = [
        "a", "A", "b", "c", "d", "e", "f", "g", "h", "i", "I", "j", "k", "l", "m", "n", "o", "p", "q",
        "r", "s", "t", "u", "v", "w", "x", "y", "z", "aa", "ae", "ch", "cs", "cz", "dz", "dzs", "gy", "ij",
        "ll", "ly", "ng", "ny", "oe", "rr", "sz", "th", "ty", "ue", "zs", "0", "1", "9", "10", "_", "-", " ",
        ".", "$", "~", "a1", "a01", "A1",
    ]

    /// Checked once: the ASCII weights give the same order as the current locale's collation.
    static let fastPathAgreesWithLocale: Bool = {
        for (index, lhs) in localeProbes.enumerated() {
            for rhs in localeProbes[(index + 1)...] {
                guard let fast = asciiCompare(lhs, rhs), fast == lhs.localizedStandardCompare(rhs) else { return false }
            }
        }
        return true
    }()
}
