public import MapCore
public import MapUtilities

// The foundations below MapUtilities (MapCore) cannot see `ExitStatusError`; their errors are
// bad input, status 2, like every other module's.

/// Bad input: exit status 2.
extension MapCoreError: ExitStatusError {}
