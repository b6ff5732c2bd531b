import CFuzzDriver
import Glibc

/// The fuzzer's entry: libFuzzer's driver on the process's arguments (`-max_total_time=20`,
/// corpus folders and the like), calling the target's `LLVMFuzzerTestOneInput` for each input.
///
/// Each target's `@main` calls ``run()``: SwiftPM renames an executable's entry point and links it
/// as `main`, which keeps libFuzzer's own `main` out.
public enum FuzzDriver {
    public static func run() -> Never {
        exit(mapwright_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv))
    }
}
