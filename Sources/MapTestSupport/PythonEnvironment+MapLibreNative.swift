extension PythonEnvironment {
    /// PyPI's `mapli` 0.4.1 (MapLibre Native in Python, drawing on Mesa's CPU renderer under
    /// Xvfb), in `test-python/mapli-0`: the outside reference that MapLibre Native reads the
    /// style.json `serve` gives GL clients and draws it as `render` does.
    public static let mapLibreNative = PythonEnvironment(
        name: "mapli-0",
        requirements: ["mapli==0.4.1"],
        check: "import mapli"
    )
}
