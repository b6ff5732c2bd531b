/// An error a person reads, in one line (``description``), and the exit status a command that
/// fails with it ends with: what every module's typed error conforms to, so the executable maps
/// failures to statuses in one place (`Mapwright.handle(_:)`).
///
/// - 1: a negative outcome of work that ran as asked (no photo has a location, images differ);
/// - 2: bad input (the default): a file that cannot be read, a name that matches nothing;
/// - 130: interrupted (Ctrl-C), what was done kept.
public protocol ExitStatusError: Error, CustomStringConvertible {
    /// The process's exit status for this failure. The default is 2, bad input.
    var exitStatus: Int32 { get }
}

extension ExitStatusError {
    /// 2: bad input.
    public var exitStatus: Int32 { 2 }
}

extension MapUtilitiesError: ExitStatusError {}
