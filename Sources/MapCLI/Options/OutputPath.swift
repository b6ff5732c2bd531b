import ArgumentParser
import Foundation
import MapAssembly
import MapUtilities

/// Checks on the files the commands write, made in `validate()` so a bad path fails before any
/// photo is read or any pixel drawn.
enum OutputPath {
    /// Checks that `path` can be written: its folder exists and may be written to, and the path
    /// itself is not a folder.
    ///
    /// - Parameters:
    ///   - path: The file's path as given, relative to the working directory or absolute.
    ///   - option: The option's name, such as `--output`, for the message.
    /// - Throws: `ValidationError`, one line naming the option, the path and the problem.
    static func checkWritable(_ path: String, option: String) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            throw ValidationError("\(option): '\(path)': it is a folder, not a file")
        }
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) else {
            throw ValidationError("\(option): cannot write '\(path)': the folder \(folder.displayPath) does not exist")
        }
        guard isFolder.boolValue else {
            throw ValidationError("\(option): cannot write '\(path)': \(folder.displayPath) is a file, not a folder")
        }
        guard access(folder.path, W_OK | X_OK) == 0 else {
            throw ValidationError(
                "\(option): cannot write '\(path)': the folder \(folder.displayPath) is not writable (\(String(cString: strerror(errno))))"
            )
        }
    }

    /// Checks that `path` names a file that can be read.
    ///
    /// - Throws: `ValidationError` naming the option and the path when it does not exist, is a
    ///   folder or cannot be read.
    static func checkReadableFile(_ path: String, option: String) throws {
        if let reason = AssemblyError.unreadableFileReason(path) { throw ValidationError("\(option): \(reason)") }
    }
}
