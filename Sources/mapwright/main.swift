import MapCLI

Mapwright.main()
