import ImageCodec
import ImageCompare
import Testing

struct CompareTests {
    // MARK: - Counting

    @Test func identicalImagesHaveNoDifferingPixels() throws {
        let image = makeEdgeImage(edgeColumn: 5)
        let result = try compare(image, image)
        #expect(result.differentPixels == 0)
        #expect(result.totalPixels == 120)
        #expect(result.ratio == 0)
    }

    @Test func oneChangedPixelCountsOne() throws {
        let expected = makeEdgeImage(edgeColumn: 5)
        var actual = expected
        actual[x: 8, y: 3] = RGBAPixel(red: 255, green: 0, blue: 0)
        let result = try compare(expected, actual)
        #expect(result.differentPixels == 1)
        #expect(result.ratio == 1.0 / 120)
    }

    @Test func shiftedAntiAliasedEdgeCountsOnlyWhenAntiAliasingIsIncluded() throws {
        let expected = makeEdgeImage(edgeColumn: 5)
        let actual = makeEdgeImage(edgeColumn: 6)
        #expect(try compare(expected, actual).differentPixels == 0)
        // Columns 5 and 6 change in all 10 rows.
        let included = try compare(expected, actual, options: DiffOptions(includeAntiAliased: true))
        #expect(included.differentPixels == 20)
    }

    @Test func smallColourChangesStayBelowTheThreshold() throws {
        let expected = RGBAImage(width: 4, height: 4, filledWith: RGBAPixel(red: 100, green: 100, blue: 100))
        let actual = RGBAImage(width: 4, height: 4, filledWith: RGBAPixel(red: 104, green: 100, blue: 100))
        #expect(try compare(expected, actual).differentPixels == 0)
        #expect(try compare(expected, actual, options: DiffOptions(threshold: 0)).differentPixels == 16)
        // A 4-level red change is a squared YIQ distance of about 2.56: above 35215 * 0.005², below 35215 * 0.01².
        #expect(try compare(expected, actual, options: DiffOptions(threshold: 0.01)).differentPixels == 0)
        #expect(try compare(expected, actual, options: DiffOptions(threshold: 0.005)).differentPixels == 16)
    }

    // MARK: - Alpha

    @Test func pixelsAreBlendedOntoWhiteBeforeComparison() throws {
        // Each column pairs an expected and an actual pixel; only the last two columns differ.
        let pairs: [(RGBAPixel, RGBAPixel)] = [
            // Fully transparent pixels are white, whatever their colour.
            (RGBAPixel(red: 0, green: 0, blue: 0, alpha: 0), RGBAPixel(red: 255, green: 0, blue: 0, alpha: 0)),
            (.white, .transparent),
            // Black at half opacity over white is the gray 127.
            (RGBAPixel(red: 0, green: 0, blue: 0, alpha: 128), RGBAPixel(red: 127, green: 127, blue: 127)),
            // A slightly transparent black is nearly black.
            (.black, RGBAPixel(red: 0, green: 0, blue: 0, alpha: 250)),
            // Opaque black against transparent (white) differs, as does a large alpha change.
            (.black, .transparent),
            (RGBAPixel(red: 0, green: 0, blue: 200, alpha: 255), RGBAPixel(red: 0, green: 0, blue: 200, alpha: 60)),
        ]
        var expected = RGBAImage(width: pairs.count, height: 1)
        var actual = expected
        for (x, pair) in pairs.enumerated() {
            expected[x: x, y: 0] = pair.0
            actual[x: x, y: 0] = pair.1
        }
        let result = try compare(expected, actual, options: DiffOptions(includeAntiAliased: true), makeDiffImage: true)
        #expect(result.differentPixels == 2)
        let red = RGBAPixel(red: 255, green: 0, blue: 0)
        #expect(
            (0..<pairs.count).map { result.diffImage![x: $0, y: 0] == red } == [false, false, false, false, true, true])
    }

    // MARK: - Sizes

    @Test func imagesOfDifferentSizesAreATypedError() {
        let expected = RGBAImage(width: 4, height: 3)
        let actual = RGBAImage(width: 3, height: 4)
        #expect(
            throws: ImageCompareError.sizeMismatch(
                expected: ImageSize(width: 4, height: 3), actual: ImageSize(width: 3, height: 4))
        ) {
            try compare(expected, actual)
        }
        let message = "\(ImageCompareError.sizeMismatch(expected: expected.size, actual: actual.size))"
        #expect(message == "the images differ in size: expected 4x3 pixels, actual 3x4 pixels")
    }

    @Test func largeImagesCompareInParallelBandsWithTheSameCount() throws {
        // 512 x 512 splits into bands; one changed pixel per 64 rows, on band edges and inside.
        let expected = RGBAImage(width: 512, height: 512, filledWith: RGBAPixel(red: 30, green: 120, blue: 200))
        var actual = expected
        for y in stride(from: 0, to: 512, by: 64) {
            actual[x: y % 500, y: y] = .white
            actual[x: 511, y: y + 63] = .black
        }
        #expect(try compare(expected, actual).differentPixels == 16)
        #expect(try compare(expected, actual, makeDiffImage: true).differentPixels == 16)
    }

    // MARK: - Diff image

    @Test func diffImageShowsUnchangedPixelsFadedAndDifferencesInColour() throws {
        let expected = makeEdgeImage(edgeColumn: 5)
        var actual = makeEdgeImage(edgeColumn: 6)
        actual[x: 1, y: 1] = .white
        let diff = try #require(try compare(expected, actual, makeDiffImage: true).diffImage)
        // Black faded to 10 % over white: 255 - 255 * 0.1 = 229.5, truncated as pixelmatch does.
        #expect(diff[x: 0, y: 0] == RGBAPixel(red: 229, green: 229, blue: 229))
        #expect(diff[x: 11, y: 0] == .white)
        #expect(diff[x: 1, y: 1] == RGBAPixel(red: 255, green: 0, blue: 0))
        #expect(diff[x: 5, y: 4] == RGBAPixel(red: 255, green: 255, blue: 0))
        #expect(diff[x: 6, y: 4] == RGBAPixel(red: 255, green: 255, blue: 0))
    }

    @Test func diffColoursAreConfigurableAndDarkenedPixelsCanUseTheAlternativeColour() throws {
        let expected = RGBAImage(width: 3, height: 3, filledWith: RGBAPixel(red: 128, green: 128, blue: 128))
        var actual = expected
        actual[x: 0, y: 0] = .white
        actual[x: 2, y: 2] = .black
        let options = DiffOptions(
            alpha: 0, diffColor: RGBColor(red: 0, green: 0, blue: 255),
            diffColorAlt: RGBColor(red: 0, green: 255, blue: 0)
        )
        let diff = try #require(try compare(expected, actual, options: options, makeDiffImage: true).diffImage)
        #expect(diff[x: 0, y: 0] == RGBAPixel(red: 0, green: 0, blue: 255))
        #expect(diff[x: 2, y: 2] == RGBAPixel(red: 0, green: 255, blue: 0))
        // alpha 0: the expected image does not show at all.
        #expect(diff[x: 1, y: 1] == .white)
    }

    @Test func diffMaskDrawsOnlyDifferencesOverTransparency() throws {
        let expected = makeEdgeImage(edgeColumn: 5)
        var actual = makeEdgeImage(edgeColumn: 6)
        actual[x: 1, y: 1] = .white
        let diff = try #require(
            try compare(expected, actual, options: DiffOptions(diffMask: true), makeDiffImage: true).diffImage
        )
        #expect(diff[x: 1, y: 1] == RGBAPixel(red: 255, green: 0, blue: 0))
        #expect(diff[x: 0, y: 0] == .transparent)
        #expect(diff[x: 5, y: 4] == .transparent)
        let identical = try #require(
            try compare(expected, expected, options: DiffOptions(diffMask: true), makeDiffImage: true).diffImage
        )
        #expect(identical == RGBAImage(width: expected.width, height: expected.height))
    }

    @Test func identicalImagesStillGetAFadedDiffImage() throws {
        let image = makeEdgeImage(edgeColumn: 5)
        let diff = try #require(try compare(image, image, makeDiffImage: true).diffImage)
        #expect(diff[x: 0, y: 9] == RGBAPixel(red: 229, green: 229, blue: 229))
        #expect(diff[x: 11, y: 9] == .white)
    }

    // MARK: - Fixtures

    /// 12 x 10 pixels: black up to `edgeColumn`, a mid-gray anti-aliased column there, then white.
    private func makeEdgeImage(edgeColumn: Int) -> RGBAImage {
        var image = RGBAImage(width: 12, height: 10, filledWith: .white)
        for y in 0..<10 {
            for x in 0..<edgeColumn { image[x: x, y: y] = .black }
            image[x: edgeColumn, y: y] = RGBAPixel(red: 128, green: 128, blue: 128)
        }
        return image
    }
}
