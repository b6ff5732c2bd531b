import MapTestSupport

extension PythonEnvironment {
    /// PyPI's `pmtiles` package at major version 3 (the reference Python reader and writer of
    /// PMTiles v3), in `test-python/pmtiles-3`.
    static let pmtiles = PythonEnvironment(
        name: "pmtiles-3",
        requirements: ["pmtiles>=3,<4"],
        check: "import pmtiles.reader, pmtiles.writer"
    )
}
