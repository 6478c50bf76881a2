import Foundation

/// A few lines of text in each script people keep files in, and those texts written in the
/// legacy encodings by iconv(1): samples for the encoding detection, the previewer and the
/// thumbnails. Real sentences, as a detector needs (a word or two is anyone's guess).
public enum EncodedTexts {
    public static let chinese = """
        北京是中华人民共和国的首都，也是全国的政治中心和文化中心。
        这座城市有三千多年的建城史，保存着大量的古代建筑，例如故宫、天坛和颐和园。
        每年都有成千上万的游客来这里参观，品尝烤鸭，感受胡同里的日常生活。

        """
    public static let traditionalChinese = """
        臺北是臺灣最大的城市，也是政治、經濟與文化的中心。
        這座城市以美食聞名，夜市裡有各式各樣的小吃，例如滷肉飯、蚵仔煎和珍珠奶茶。
        每到週末，許多人會到陽明山散步，或是在淡水河邊欣賞夕陽。

        """
    public static let japanese = """
        東京は日本の首都であり、世界でも有数の大都市です。
        春になると上野公園や千鳥ヶ淵の桜が満開になり、多くの人がお花見を楽しみます。
        私は毎朝電車に乗って会社へ行きますが、とても混雑しているので本を読むことはできません。

        """
    public static let korean = """
        서울은 대한민국의 수도이며 한강을 따라 발전한 큰 도시입니다.
        봄에는 여의도에서 벚꽃 축제가 열리고, 가을에는 북한산의 단풍이 아름답습니다.
        저는 주말마다 친구들과 함께 시장에 가서 떡볶이와 김밥을 먹습니다.

        """
    public static let western = """
        Größere Städte wie München, Köln und Düsseldorf liegen nicht weit voneinander entfernt.
        Im Frühling trifft man sich gern im Café, trinkt einen Kaffee und isst ein Stück Käsekuchen.
        Les élèves français étudient à l'école jusqu'à l'âge de dix-huit ans, même le samedi matin — « voilà ».

        """

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `text` in `charset` (an iconv name: "GB18030", "UTF-16LE"), as iconv(1) writes it.
    public static func encoded(_ text: String, as charset: String) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/iconv")
        process.arguments = ["-f", "UTF-8", "-t", charset]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(description: "iconv could not write \(charset)") }
        return data
    }

    /// The seven encodings the previewer is shown in, by file name: the text, and its bytes
    /// (UTF-16 with a byte order mark, as Windows' Notepad writes it).
    public static func samples() throws -> [(name: String, text: String, bytes: Data)] {
        [
            ("gb18030.txt", chinese, try encoded(chinese, as: "GB18030")),
            ("big5.txt", traditionalChinese, try encoded(traditionalChinese, as: "BIG5")),
            ("shift-jis.txt", japanese, try encoded(japanese, as: "SHIFT_JIS")),
            ("euc-kr.txt", korean, try encoded(korean, as: "EUC-KR")),
            ("windows-1252.txt", western, try encoded(western, as: "WINDOWS-1252")),
            ("utf-16le.txt", chinese + western, Data([0xFF, 0xFE]) + (try encoded(chinese + western, as: "UTF-16LE"))),
            ("utf-16be.txt", korean + japanese, Data([0xFE, 0xFF]) + (try encoded(korean + japanese, as: "UTF-16BE"))),
        ]
    }
}
