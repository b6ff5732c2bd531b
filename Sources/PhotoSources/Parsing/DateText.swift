import Foundation

/// Dates as photo metadata writes them: EXIF's `2016:05:01 18:02:11` and Flickr's `2016-05-01 18:02:11`.
enum DateText {
    /// An EXIF date and time (DateTimeOriginal, GPSDateStamp with a time), in the zone `offset`.
    ///
    /// - Parameters:
    ///   - text: `YYYY:MM:DD HH:MM:SS`; EXIF writes unknown fields as spaces or zeros.
    ///   - offset: An EXIF OffsetTimeOriginal such as `+02:00`; `nil` reads the time as UTC.
    /// - Returns: `nil` when the date is blank or all zeros (EXIF's way to say "unknown").
    /// - Throws: ``EntryProblem`` when the text is neither a date nor blank.
    static func date(fromEXIF text: String, offset: String?) throws(EntryProblem) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\0")))
        if trimmed.allSatisfy({ $0 == "0" || $0 == ":" || $0 == " " }) { return nil }
        guard let fields = fields(of: trimmed, dateSeparator: ":") else {
            throw EntryProblem("'\(text)' is not a date of the form YYYY:MM:DD HH:MM:SS")
        }
        var secondsFromGMT = 0
        if let offset = offset?.trimmingCharacters(in: .whitespaces), !offset.isEmpty {
            guard let seconds = self.secondsFromGMT(offset) else {
                throw EntryProblem("offset '\(offset)' is not of the form +HH:MM")
            }
            secondsFromGMT = seconds
        }
        guard let date = date(fields, secondsFromGMT: secondsFromGMT) else {
            throw EntryProblem("'\(text)' is not a valid date")
        }
        return date
    }

    /// A Flickr `datetaken`, read as UTC; `nil` when Flickr could not pin it down (a zero month or day).
    static func date(fromFlickr text: String) -> Date? {
        let parsed = fields(of: text.trimmingCharacters(in: .whitespaces), dateSeparator: "-")
        return parsed.flatMap { date($0, secondsFromGMT: 0) }
    }

    /// A date from EXIF GPSDateStamp (`YYYY:MM:DD`) and GPSTimeStamp (hours, minutes, seconds), in UTC.
    static func date(gpsDateStamp: String, hours: Double, minutes: Double, seconds: Double) -> Date? {
        let parts = gpsDateStamp.trimmingCharacters(in: .whitespaces).split(separator: ":").compactMap { Int($0) }
        guard parts.count == 3, let day = date([parts[0], parts[1], parts[2], 0, 0, 0], secondsFromGMT: 0) else {
            return nil
        }
        return day.addingTimeInterval(hours * 3600 + minutes * 60 + seconds)
    }

    /// Year, month, day, hour, minute and second of `YYYY<s>MM<s>DD HH:MM:SS`, where `<s>` is `dateSeparator`.
    private static func fields(of text: String, dateSeparator: Character) -> [Int]? {
        let halves = text.split(separator: " ", omittingEmptySubsequences: true)
        guard halves.count == 2 else { return nil }
        let day = halves[0].split(separator: dateSeparator, omittingEmptySubsequences: false)
        let time = halves[1].split(separator: ":", omittingEmptySubsequences: false)
        guard day.count == 3, time.count == 3 else { return nil }
        let numbers = (day + time).map { Int($0) }
        guard numbers.allSatisfy({ $0 != nil }) else { return nil }
        return numbers.compactMap { $0 }
    }

    /// The date for six fields, or `nil` when one is out of range.
    private static func date(_ fields: [Int], secondsFromGMT: Int) -> Date? {
        let (year, month, day) = (fields[0], fields[1], fields[2])
        let (hour, minute, second) = (fields[3], fields[4], fields[5])
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              let zone = TimeZone(secondsFromGMT: secondsFromGMT)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: components),
              calendar.component(.day, from: date) == day
        else { return nil }
        return date
    }

    /// Seconds east of UTC for `+HH:MM` or `-HH:MM`.
    private static func secondsFromGMT(_ offset: String) -> Int? {
        guard let sign = offset.first, sign == "+" || sign == "-" else { return nil }
        let parts = offset.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]),
              (0...14).contains(hours), (0...59).contains(minutes)
        else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
}
