// Times glyph ranges generated from installed fonts (FontGlyphs, as serve's /fonts makes them
// for faces no --fonts folder has) in a release build: each range's generation, median of N.
//
// Usage: GlyphsBenchmark [--iterations N] [--font "Open Sans Semibold"] [START ...]
// Default ranges: 0 (Basic Latin, Latin-1), 256 (Latin Extended-A/B), 1024 (Cyrillic).
// Prints one line per range: `START-END: MS ms median, N glyphs, BYTES bytes`.
import Dispatch
import FontGlyphs
import Foundation

var iterations = 20
var fontName = "Open Sans Semibold"
var starts: [Int] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--iterations": iterations = Int(arguments.popFirst() ?? "") ?? iterations
    case "--font": fontName = arguments.popFirst() ?? fontName
    default:
        guard let start = Int(argument) else { fatalError("not a range start: \(argument)") }
        starts.append(start)
    }
}
if starts.isEmpty { starts = [0, 256, 1024] }

let directories = [
    "/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/wqy", "/usr/share/fonts/truetype/noto",
    "/usr/share/fonts/truetype/open-sans", "/usr/share/fonts/truetype/roboto/unhinted",
]
let listStart = DispatchTime.now().uptimeNanoseconds
let fonts = try InstalledFonts(directories: directories)
print(
    "listing \(fonts.fonts.count) faces: \(Double(DispatchTime.now().uptimeNanoseconds - listStart) / 1e6) ms")
guard let font = fonts.font(named: fontName) ?? fonts.fallback(for: fontName) else {
    fatalError("no face for \(fontName)")
}
print("font: \(font.name) (\(font.path))")
for start in starts {
    var times: [Double] = []
    var bytes: [UInt8] = []
    for _ in 0..<iterations {
        let begin = DispatchTime.now().uptimeNanoseconds
        bytes = try GlyphGenerator.rangeFile(of: font, start: start)
        times.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e6)
    }
    let count = try GlyphGenerator.glyphs(of: font, start: start).count
    let median = times.sorted()[times.count / 2]
    print("\(start)-\(start + 255): \(String(format: "%.1f", median)) ms median, \(count) glyphs, \(bytes.count) bytes")
}
