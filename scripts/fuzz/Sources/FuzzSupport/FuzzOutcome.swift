import Glibc

/// How an input fared, printed only when `MAPWRIGHT_FUZZ_VERBOSE` is set: running a target on
/// files (`MAPWRIGHT_FUZZ_VERBOSE=1 .build/debug/FuzzPNG corpus/FuzzPNG/*`) then says which
/// seeds parse and what error each of the others gets.
public enum FuzzOutcome {
    private static let verbose = getenv("MAPWRIGHT_FUZZ_VERBOSE") != nil

    /// Runs `body`; a thrown error is an expected outcome, kept quiet unless verbose.
    public static func run(_ what: String, _ body: () throws -> Void) {
        do {
            try body()
            if verbose { print("\(what): read") }
        } catch {
            if verbose { print("\(what): \(type(of: error)): \(error)") }
        }
    }
}
