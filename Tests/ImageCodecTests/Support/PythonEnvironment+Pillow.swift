import MapTestSupport

extension PythonEnvironment {
    /// PyPI's Pillow from major version 10 (which reads animated PNG frame by frame), in
    /// `test-python/pillow-10`.
    static let pillow = PythonEnvironment(
        name: "pillow-10",
        requirements: ["Pillow>=10"],
        check: "import PIL, PIL.PngImagePlugin"
    )
}
