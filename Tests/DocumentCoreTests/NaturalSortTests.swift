import DocumentCore
import Foundation
import XCTest

final class NaturalSortTests: XCTestCase {
    private func sorted(_ names: [String]) -> [String] {
        names.sorted(by: NaturalSort.areInIncreasingOrder)
    }

    func testNumbersCompareByValue() {
        XCTAssertEqual(sorted(["file10", "file2", "file1", "file20", "file3"]), ["file1", "file2", "file3", "file10", "file20"])
        XCTAssertEqual(sorted(["img12.png", "img2.png", "img100.png"]), ["img2.png", "img12.png", "img100.png"])
        XCTAssertEqual(sorted(["v1.10", "v1.9", "v1.2"]), ["v1.2", "v1.9", "v1.10"])
        XCTAssertEqual(sorted(["x99999999999999999999999", "x100000000000000000000000", "x2"]),
                       ["x2", "x99999999999999999999999", "x100000000000000000000000"])
    }

    func testCaseIsIgnoredExceptToBreakTies() {
        XCTAssertEqual(sorted(["banana", "Apple", "cherry", "apple"]), ["apple", "Apple", "banana", "cherry"])
        XCTAssertEqual(sorted(["Zeta", "alpha"]), ["alpha", "Zeta"])
    }

    func testLeadingZerosOnlyBreakTies() {
        XCTAssertEqual(sorted(["a01", "a1", "a001", "a2"]), ["a1", "a01", "a001", "a2"])
    }

    func testPunctuationBeforeDigitsBeforeLetters() {
        XCTAssertEqual(sorted(["a", "9", "_x", "-y", " z", "~"]), [" z", "_x", "-y", "~", "9", "a"])
        XCTAssertEqual(sorted(["ab", "a b", "a-b", "a.b"]), ["a b", "a-b", "a.b", "ab"])
    }

    func testNonASCIINamesFollowTheLocale() {
        // Accents weigh less than letters: "Äpfel" is "apfel" first, so before "apple".
        XCTAssertEqual(sorted(["zebra", "apple", "Äpfel", "eve", "émile"]), ["Äpfel", "apple", "émile", "eve", "zebra"])
        XCTAssertEqual(sorted(["Zoë", "zoe", "zoe2"]), ["zoe", "Zoë", "zoe2"])
        XCTAssertEqual(sorted(["文件10", "文件2"]), ["文件2", "文件10"])
    }

    func testOrderIsTotal() {
        let names = ["a", "A", "a1", "a01", "é", "e\u{301}", "b", "B2", "b02"]
        for lhs in names {
            for rhs in names {
                let forward = NaturalSort.compare(lhs, rhs)
                let backward = NaturalSort.compare(rhs, lhs)
                // Names are bytes: canonically equivalent spellings are different files.
                XCTAssertEqual(forward == .orderedSame, lhs.utf8.elementsEqual(rhs.utf8), "\(lhs) \(rhs)")
                if forward == .orderedAscending { XCTAssertEqual(backward, .orderedDescending, "\(lhs) \(rhs)") }
            }
        }
    }

    /// The fast comparison of ASCII names gives Foundation's `localizedStandardCompare` order.
    func testAgreesWithLocalizedStandardCompareOnGeneratedNames() {
        var generator = SplitMix64(seed: 20_240_501)
        let alphabet = Array(" _-.,;!~$()[]{}@#%&+=0123456789azAZbcBC")
        var compared = 0
        for _ in 0..<20_000 {
            let lhs = String((0..<Int(generator.next() % 7)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            let rhs = String((0..<Int(generator.next() % 7)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            let reference = lhs.localizedStandardCompare(rhs)
            guard reference != .orderedSame else { continue }
            compared += 1
            XCTAssertEqual(NaturalSort.compare(lhs, rhs), reference, "'\(lhs)' vs '\(rhs)'")
        }
        XCTAssertGreaterThan(compared, 15_000)
    }
}

/// A small seeded generator, so generated cases are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
