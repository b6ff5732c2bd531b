// Times ImageCompare's compare on two generated 4096x4096 images with scattered differences, times
// palette PNG encoding of a generated 2400x1600 map, and writes a generated 1024x1024 pair for the
// cross-check against PyPI's pixelmatch.
//
// Usage: ImageDiffBenchmark [--iterations N] [--write-pair DIRECTORY]
// Build in release: scripts/bench/compare.sh runs it.
import Foundation
import ImageCodec
import ImageCompare

var iterations = 20
var pairDirectory: URL?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--iterations":
        guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
            FileHandle.standardError.write(Data("--iterations needs a positive integer\n".utf8))
            exit(2)
        }
        iterations = value
    case "--write-pair":
        guard let value = arguments.popFirst() else {
            FileHandle.standardError.write(Data("--write-pair needs a directory\n".utf8))
            exit(2)
        }
        pairDirectory = URL(fileURLWithPath: value)
    default:
        FileHandle.standardError.write(
            Data("usage: ImageDiffBenchmark [--iterations N] [--write-pair DIRECTORY]\n".utf8))
        exit(2)
    }
}

/// Runs `body` `iterations` times and returns the median and the fastest wall-clock time, in milliseconds.
@MainActor
func time(_ body: () throws -> Void) rethrows -> (medianMilliseconds: Double, minimumMilliseconds: Double) {
    var samples: [Double] = []
    for _ in 0..<iterations {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
    }
    samples.sort()
    return (samples[samples.count / 2], samples[0])
}

func report(_ label: String, _ timing: (medianMilliseconds: Double, minimumMilliseconds: Double), pixels: Int) {
    let megapixelsPerSecond = Double(pixels) / 1_000_000 / (timing.medianMilliseconds / 1000)
    print(
        label.padding(toLength: 34, withPad: " ", startingAt: 0)
            + String(
                format: "median %7.1f ms  min %7.1f ms  %7.0f Mpx/s", timing.medianMilliseconds,
                timing.minimumMilliseconds, megapixelsPerSecond)
    )
}

do {
    let side = 4096
    var generator = SceneGenerator(seed: 2024)
    let (expected, actual) = generator.makePair(side: side)
    let pixels = side * side
    print("cores: \(ProcessInfo.processInfo.activeProcessorCount), iterations: \(iterations)")

    var count = 0
    let plain = try time { count = try compare(expected, actual).differentPixels }
    print("4096x4096: \(count) differing pixels (anti-aliased excluded)")
    report("compare", plain, pixels: pixels)
    report(
        "compare --include-aa",
        try time {
            _ = try compare(expected, actual, options: DiffOptions(includeAntiAliased: true))
        }, pixels: pixels)
    report(
        "compare + diff image",
        try time {
            _ = try compare(expected, actual, makeDiffImage: true)
        }, pixels: pixels)
    report("compare identical (fast path)", try time { _ = try compare(expected, expected) }, pixels: pixels)

    var mapGenerator = MapSceneGenerator(seed: 2400)
    let map = mapGenerator.makeMap(width: 2400, height: 1600)
    let mapPixels = map.width * map.height
    var rgbaBytes = 0
    var paletteBytes = 0
    var indexed = map.quantized()
    report("quantize 2400x1600 map", time { indexed = map.quantized() }, pixels: mapPixels)
    report("quantize 2400x1600, dithered", time { _ = map.quantized(dithering: true) }, pixels: mapPixels)
    let paletteTiming = try time { paletteBytes = try map.pngData(colorMode: .palette).count }
    report("palette PNG 2400x1600 (level 6)", paletteTiming, pixels: mapPixels)
    let rgbaTiming = try time { rgbaBytes = try map.pngData().count }
    report("RGBA PNG 2400x1600 (level 6)", rgbaTiming, pixels: mapPixels)
    let error = try compare(map, indexed.expanded())
    print(
        String(
            format:
                "palette PNG 2400x1600: %.1f ms, %d bytes vs %d bytes RGBA (%.0f%%); %d colours, %d pixels differ at threshold 0.1",
            paletteTiming.medianMilliseconds, paletteBytes, rgbaBytes, 100 * Double(paletteBytes) / Double(rgbaBytes),
            indexed.palette.count, error.differentPixels
        ))

    if let pairDirectory {
        var smallGenerator = SceneGenerator(seed: 1024)
        let pair = smallGenerator.makePair(side: 1024)
        try FileManager.default.createDirectory(at: pairDirectory, withIntermediateDirectories: true)
        try pair.expected.writePNG(to: pairDirectory.appendingPathComponent("expected-1024.png"))
        try pair.actual.writePNG(to: pairDirectory.appendingPathComponent("actual-1024.png"))
        let smallCount = try compare(pair.expected, pair.actual).differentPixels
        let smallTiming = try time { _ = try compare(pair.expected, pair.actual) }
        print("1024x1024: \(smallCount) differing pixels, written to \(pairDirectory.path)")
        report("compare 1024x1024", smallTiming, pixels: 1024 * 1024)
        // For scripts/bench/compare.sh, which sets these against pixelmatch's.
        let summary =
            "{\"differentPixels\": \(smallCount), \"medianMilliseconds\": \(smallTiming.medianMilliseconds)}\n"
        try Data(summary.utf8).write(to: pairDirectory.appendingPathComponent("swift-1024.json"))
    }
} catch {
    FileHandle.standardError.write(Data("ImageDiffBenchmark: \(error)\n".utf8))
    exit(2)
}
