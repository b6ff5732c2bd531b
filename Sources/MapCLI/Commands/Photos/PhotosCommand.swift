import ArgumentParser
import Foundation
import MapAssembly
import MapCore
import MapJSON
import MapUtilities
import PhotoLibrary
import PhotoSources

/// `mapwright photos`: the photo library, as Photomania keeps it: import, list, add, remove, move.
struct PhotosCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photos",
        abstract:
            "Keep photographers and their photos in a library file (SQLite) that render, tiles export and serve read with --library.",
        subcommands: [
            PhotosImportCommand.self, PhotosListCommand.self, PhotosPhotographersCommand.self, PhotosAddCommand.self,
            PhotosRemoveCommand.self, PhotosSetLocationCommand.self,
        ]
    )
}

/// `--library FILE` for the `photos` subcommands, with the user's default library.
struct LibraryOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help:
            "The library file. The default is $XDG_DATA_HOME/mapwright/library.sqlite (~/.local/share/mapwright/library.sqlite)."
    )
    var library: String?

    var file: URL { library.map { URL(fileURLWithPath: $0) } ?? PhotoLibrary.defaultFile() }

    /// Opens (creating when `create`: only commands that add photos create one) the library; its
    /// error names the file.
    func open(create: Bool = true) throws -> PhotoLibrary {
        try PhotoLibrary(file: file, create: create)
    }
}

/// `mapwright photos import`.
struct PhotosImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract:
            "Import photos from folders of JPEGs, Flickr JSON, GeoJSON or CSV files; importing again updates, never duplicates.",
        discussion:
            "Photos are matched by id, unique across sources: a JPEG's absolute path; for a file, its absolute path, '#' and the photo's own id (a CSV id column, the GeoJSON feature id, the Flickr id), else the row's image, else its line (FILE:LINE). A photo already in the library is updated when a field changed and left alone otherwise. One line sums up what was added, updated, unchanged and skipped, and why."
    )

    @Argument(help: "Photo sources: folders of JPEGs, or .json, .geojson or .csv files.")
    var sources: [String] = []

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(help: "Fail on the first file of a photo folder that cannot be read as a photo instead of skipping it.")
    var strict = false

    func validate() throws {
        guard !sources.isEmpty else {
            throw ValidationError(
                "give at least one photo source: a folder of JPEGs, or a .json, .geojson or .csv file")
        }
    }

    func run() throws {
        let start = DispatchTime.now().uptimeNanoseconds
        let summary = try PhotoInputs(sources: sources, strict: strict).importPhotos(into: libraryOptions.file)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let count = summary.count
        let total = summary.photos
        var line =
            "imported \(count.formatted()) photo\(count == 1 ? "" : "s") from \(sources.count) source\(sources.count == 1 ? "" : "s") into \(summary.library.displayPath): \(total.added.formatted()) added, \(total.updated.formatted()) updated, \(total.unchanged.formatted()) unchanged"
        if let warning = summary.skipped.warningLine { line += "; \(warning)" }
        print(line + String(format: " (%.1f s)", seconds))
    }
}

/// `mapwright photos list`.
struct PhotosListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the library's photos: a section per photographer (yours first, then by name), photos by title.")

    @OptionGroup var libraryOptions: LibraryOptions

    @Option(parsing: .unconditional, help: "Only this photographer's photos (case ignored).")
    var photographer: String?

    @Flag(help: "Print JSON: an array of sections, each with the photographer and the photos.")
    var json = false

    func run() throws {
        let library = try libraryOptions.open(create: false)
        let sections = try library.sections(photographer: photographer)
        if let photographer, sections.isEmpty {
            let names = try library.photographers().map(\.name)
            throw PhotoSourceError.unknownPhotographer(photographer, found: names)
        }
        if json {
            var writer = JSONWriter()
            writer.value(
                .array(
                    sections.map { section in
                        .object([
                            "photographer": section.photographer.map { .string($0.name) } ?? .null,
                            "isUser": .bool(section.photographer?.isUser ?? false),
                            "photos": .array(section.photos.map(Self.json)),
                        ])
                    }))
            print(writer.text)
            return
        }
        for (index, section) in sections.enumerated() {
            if index > 0 { print("") }
            let name = section.photographer.map { $0.name + ($0.isUser ? " (you)" : "") } ?? "Unknown photographer"
            print("\(name): \(section.photos.count) photo\(section.photos.count == 1 ? "" : "s")")
            for photo in section.photos {
                var line = "  \(photo.calloutTitle)"
                if let subtitle = photo.calloutSubtitle { line += " · \(subtitle)" }
                line +=
                    "  \(ArgumentValues.number(photo.coordinate.latitude)),\(ArgumentValues.number(photo.coordinate.longitude))  \(photo.id)"
                print(line)
            }
        }
    }

    static func json(_ photo: Photo) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(photo.id), "latitude": .number(photo.coordinate.latitude),
            "longitude": .number(photo.coordinate.longitude),
        ]
        if let title = photo.title { object["title"] = .string(title) }
        if let subtitle = photo.subtitle { object["subtitle"] = .string(subtitle) }
        if let altitude = photo.altitudeMeters { object["altitudeMeters"] = .number(altitude) }
        if let accuracy = photo.horizontalAccuracyMeters { object["horizontalAccuracyMeters"] = .number(accuracy) }
        if let date = photo.dateTaken { object["takenAt"] = .string(date.formatted(.iso8601)) }
        if let image = photo.storedImage { object["image"] = .string(image) }
        if let thumbnail = photo.storedThumbnail { object["thumbnail"] = .string(thumbnail) }
        return .object(object)
    }
}

/// `mapwright photos photographers`.
struct PhotosPhotographersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photographers",
        abstract: "List the library's photographers, yours first, with their numbers of photos.")

    @OptionGroup var libraryOptions: LibraryOptions

    @Flag(help: "Print JSON: an array of {name, isUser, photos}.")
    var json = false

    func run() throws {
        let library = try libraryOptions.open(create: false)
        let photographers = try library.photographers()
        if json {
            var writer = JSONWriter()
            writer.value(
                .array(
                    photographers.map {
                        .object([
                            "name": .string($0.name), "isUser": .bool($0.isUser),
                            "photos": .number(Double($0.photoCount)),
                        ])
                    }))
            print(writer.text)
            return
        }
        for photographer in photographers {
            print(
                "\(photographer.name)\(photographer.isUser ? " (you)" : ""): \(photographer.photoCount) photo\(photographer.photoCount == 1 ? "" : "s")"
            )
        }
    }
}

/// `mapwright photos add`.
struct PhotosAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add one photo, as Photomania's add-photo screen does; prints its new id.",
        discussion:
            "Checked in this order, the first failure wins and nothing is written: an image is required, then a title, then a location (--at, else the image's EXIF GPS position). The image is copied into the library's folder (LIBRARY.photos/) under a new UUID name with a thumbnail beside it."
    )

    @OptionGroup var libraryOptions: LibraryOptions

    @Option(parsing: .unconditional, help: "The photo: a JPEG file.")
    var image: String?

    @Option(parsing: .unconditional, help: "The title (required).")
    var title: String?

    @Option(parsing: .unconditional, help: "A second line (optional).")
    var subtitle: String?

    @Option(
        parsing: .unconditional, help: "Where it was taken, as LAT,LON; by default the image's EXIF GPS position.",
        transform: ArgumentValues.coordinate)
    var at: Coordinate?

    @Option(
        parsing: .unconditional,
        help: "Whose photo it is; by default yours (the library's user, named after your account the first time).")
    var photographer: String?

    func run() throws {
        let new = PhotoLibrary.NewPhoto(
            image: image.map { URL(fileURLWithPath: $0) }, title: title ?? "", subtitle: subtitle, coordinate: at,
            photographer: photographer)
        // Checked before the library is opened, so a refused photo creates no library either.
        let prepared = try PhotoLibrary.prepare(new)
        let library = try libraryOptions.open()
        let photo = try library.add(prepared, userName: Self.userName)
        print(photo.id)
    }

    /// The name the library's user gets: the account's full name, else its login name.
    static var userName: String {
        let full = NSFullUserName().trimmingCharacters(in: .whitespaces)
        return full.isEmpty ? NSUserName() : full
    }
}

/// `mapwright photos remove`.
struct PhotosRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a photo; the image and thumbnail `photos add` copied in go with it.")

    @OptionGroup var libraryOptions: LibraryOptions

    @Argument(help: "The photo's id.")
    var id: String

    func run() throws {
        let library = try libraryOptions.open(create: false)
        let photo = try library.remove(id: id)
        print("removed \(photo.id) (\(photo.calloutTitle))")
    }
}

/// `mapwright photos set-location`.
struct PhotosSetLocationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-location", abstract: "Move a photo to another place.")

    @OptionGroup var libraryOptions: LibraryOptions

    @Argument(help: "The photo's id.")
    var id: String

    /// The new place: collected raw, so that a southern or western one (`-33.9,18.4`) is not
    /// taken for an option.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The new place, as LAT,LON.", valueName: "lat,lon"))
    var place: [String] = []

    func validate() throws {
        guard place.count == 1 else {
            throw ValidationError(
                place.isEmpty
                    ? "give the new place as LAT,LON, e.g. -33.9,18.4"
                    : "give one place as LAT,LON, not \(place.joined(separator: " "))")
        }
    }

    func run() throws {
        let location: Coordinate
        do { location = try ArgumentValues.coordinate(place[0]) } catch {
            throw CommandFailure("\(place[0]): \(error)")
        }
        let library = try libraryOptions.open(create: false)
        let before = try library.setLocation(id: id, to: location)
        print(
            "moved \(before.id) from \(ArgumentValues.number(before.coordinate.latitude)),\(ArgumentValues.number(before.coordinate.longitude)) to \(ArgumentValues.number(location.latitude)),\(ArgumentValues.number(location.longitude))"
        )
    }
}
