import Foundation
import MapCore

/// What is wrong with one entry of a source, before the source adds the file and the entry's name.
struct EntryProblem: Error {
    var message: String

    init(_ message: String) { self.message = message }

    init(_ error: MapCoreError) { self.message = error.description }
}
