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
        if let date = utcDate(exactly: text, dateSeparator: UInt8(ascii: "-")) { return date }
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

    /// The UTC date of text that is exactly `YYYY<s>MM<s>DD HH:MM:SS` (zero-padded, years 1583 to
    /// 9999, seconds below 60), computed without a calendar; `nil` for anything else, which the
    /// calendar-based reading then handles. Equal to that reading wherever both apply: the
    /// proleptic Gregorian arithmetic matches Foundation's calendar after its 1582 switch from the Julian one.
    private static func utcDate(exactly text: String, dateSeparator: UInt8) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            guard bytes.count == 19, bytes[4] == dateSeparator, bytes[7] == dateSeparator,
                bytes[10] == UInt8(ascii: " "),
                bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
            else { return nil }
            func number(_ start: Int, _ count: Int) -> Int? {
                var value = 0
                for index in start..<(start + count) {
                    let digit = Int(bytes[index]) - Int(UInt8(ascii: "0"))
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
                let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
                (1583...9999).contains(year), (1...12).contains(month), (0...23).contains(hour),
                (0...59).contains(minute), (0...59).contains(second)
            else { return nil }
            let isLeapYear = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let daysInMonth = [31, isLeapYear ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
            guard (1...daysInMonth).contains(day) else { return nil }
            // Days from 1970-01-01 to the date (Howard Hinnant's days_from_civil).
            let shiftedYear = month <= 2 ? year - 1 : year
            let era = shiftedYear / 400
            let yearOfEra = shiftedYear - era * 400
            let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            let days = era * 146_097 + dayOfEra - 719_468
            return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
        }
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
