import Foundation
import MapUtilities

extension ExternalProgram {
    /// Runs an outside tool a build drives (tilemaker, GDAL's gdalinfo and gdalwarp) to its end,
    /// as ``MapUtilities/ExternalProgram/run(_:_:in:environment:standardInput:mergingErrors:onOutput:)``
    /// does; one that cannot be started ends with status -1 and `it could not be started: REASON`
    /// as its errors, which the builds report as the tool's last words.
    static func runTool(
        _ executable: URL, _ arguments: [String], in folder: URL? = nil, mergingErrors: Bool = false,
        onOutput: (Data) -> Void = { _ in }
    ) -> Outcome {
        do { return try run(executable, arguments, in: folder, mergingErrors: mergingErrors, onOutput: onOutput) } catch
        {
            return Outcome(status: -1, output: Data(), errors: Data("it could not be started: \(error.reason)".utf8))
        }
    }
}
