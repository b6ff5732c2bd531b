import MapCLI

Mapwright.runAndExit()
