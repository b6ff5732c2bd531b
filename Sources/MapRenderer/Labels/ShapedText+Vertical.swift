import Foundation

/// Vertical writing for labels from the style's glyphs, as GL writes it (`script_detection.ts`,
/// `verticalizePunctuation`, the vertical branch of `shapeLines` and `getGlyphQuads`): a label
/// with characters that stand upright in vertical text (CJK ideographs, kana, Hangul, fullwidth
/// forms) is also shaped vertically: those characters advance by one em and are turned a quarter
/// left, so that on a steep line they stand upright in a column read from the top, and
/// punctuation takes its vertical form. Other characters (Latin, digits) lie along the column.
extension ShapedText {
    /// Whether `codePoint` stands upright in vertical text (GL's
    /// `charHasUprightVerticalOrientation`).
    static func isUprightInVerticalText(_ codePoint: UInt32) -> Bool {
        let c = codePoint
        if c == 0x02EA || c == 0x02EB { return true }
        if c < 0x1100 { return false }
        switch c {
        case 0xFE30...0xFE4F: return !(0xFE49...0xFE4F).contains(c)  // CJK Compatibility Forms
        case 0x3300...0x33FF, 0x31C0...0x31EF, 0x3200...0x32FF, 0x2FF0...0x2FFF, 0x3190...0x319F: return true
        case 0x3000...0x303F:  // CJK Symbols and Punctuation
            if (0x3008...0x3011).contains(c) || (0x3014...0x301F).contains(c) || c == 0x3030 { break }
            return true
        case 0x30A0...0x30FF: if c != 0x30FC { return true }  // Katakana
        case 0xFF00...0xFFEF:  // Halfwidth and Fullwidth Forms
            let excluded =
                c == 0xFF08 || c == 0xFF09 || c == 0xFF0D || (0xFF1A...0xFF1E).contains(c) || c == 0xFF3B || c == 0xFF3D
                || c == 0xFF3F || (0xFF5B...0xFFDF).contains(c) || c == 0xFFE3 || (0xFFE8...0xFFEF).contains(c)
            if !excluded { return true }
        // Small Form Variants
        case 0xFE50...0xFE6F: return !(0xFE58...0xFE5E).contains(c) && !(0xFE63...0xFE66).contains(c)
        case 0xFE10...0xFE1F, 0x4DC0...0x4DFF: return true  // Vertical Forms, Yijing Hexagram Symbols
        default: break
        }
        // Scripts written upright: Canadian syllabics, Hangul, and the ideographic scripts
        // (Bopomofo, Han, Hiragana, Katakana, Khitan, Nüshu, Tangut, Yi).
        switch c {
        case 0x1400...0x167F, 0x18B0...0x18FF, 0x11AB0...0x11ABF,
            0x1100...0x11FF, 0x3131...0x318E, 0xA960...0xA97F, 0xAC00...0xD7FB, 0xFFA0...0xFFDC,
            0x3100...0x312F, 0x31A0...0x31BF,
            0x2E80...0x2FD5, 0x3005, 0x3007, 0x3021...0x3029, 0x3038...0x303B, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xF900...0xFAFF,
            0x20000...0x323AF,
            0x3041...0x309F, 0x30A1...0x30FA, 0x30FD...0x30FF, 0x31F0...0x31FF, 0x32D0...0x32FE, 0xFF66...0xFF6F,
            0xFF71...0xFF9D,
            0x1AFF0...0x1B16F, 0x1B170...0x1B2FF, 0x16FE0...0x16FE4, 0x17000...0x18D08, 0xA000...0xA4CF, 0x1F200:
            return true
        default:
            return false
        }
    }

    /// Whether `codePoint` keeps the orientation of its neighbours (GL's
    /// `charHasNeutralVerticalOrientation`).
    static func isNeutralInVerticalText(_ codePoint: UInt32) -> Bool {
        let c = codePoint
        switch c {
        case 0x00A7, 0x00A9, 0x00AE, 0x00B1, 0x00BC, 0x00BD, 0x00BE, 0x00D7, 0x00F7,
            0x2016, 0x2020, 0x2021, 0x2030, 0x2031, 0x203B, 0x203C, 0x2042, 0x2047, 0x2048, 0x2049, 0x2051,
            0x2100...0x214F, 0x2150...0x218F,  // Letterlike Symbols, Number Forms
            0x2300...0x2307, 0x230C...0x231F, 0x2324...0x2328, 0x232B, 0x237D...0x239A, 0x23BE...0x23CD, 0x23CF,
            0x23D1...0x23DB,
            0x23E2...0x23FF,
            0x2440...0x245F, 0x2460...0x24FF, 0x25A0...0x25FF,  // OCR, Enclosed Alphanumerics, Geometric Shapes
            0x2B12...0x2B2F, 0x2B50...0x2B59, 0x2BB8...0x2BEB,
            0x3000...0x303F, 0x30A0...0x30FF, 0xE000...0xF8FF, 0xFE30...0xFE4F, 0xFE50...0xFE6F, 0xFF00...0xFFEF,
            0x221E, 0x2234, 0x2235, 0x2700...0x2767, 0x2776...0x2793, 0xFFFC, 0xFFFD:
            return true
        case 0x2400...0x243F: return c != 0x2423  // Control Pictures
        case 0x2600...0x26FF: return !(0x261A...0x261F).contains(c)  // Miscellaneous Symbols
        default: return false
        }
    }

    /// Whether `text` can be written vertically: it holds a character that stands upright (GL's
    /// `allowsVerticalWritingMode`).
    static func allowsVerticalWriting(_ text: String) -> Bool {
        text.unicodeScalars.contains { isUprightInVerticalText($0.value) }
    }

    /// `text` with its punctuation in vertical forms where its neighbours are not rotated
    /// (GL's `verticalizePunctuation`).
    static func verticalizingPunctuation(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        func rotated(_ scalar: Unicode.Scalar) -> Bool {
            !(isUprightInVerticalText(scalar.value) || isNeutralInVerticalText(scalar.value))
        }
        var output = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            let previous = index > 0 ? scalars[index - 1] : nil
            let canReplace =
                (next.map { !rotated($0) || verticalForms[$0] != nil } ?? true)
                && (previous.map { !rotated($0) || verticalForms[$0] != nil } ?? true)
            output.append(canReplace ? verticalForms[scalar] ?? scalar : scalar)
        }
        return String(output)
    }

    /// GL's `verticalizedCharacterMap`: punctuation and its vertical presentation form.
    private static let verticalForms: [Unicode.Scalar: Unicode.Scalar] = {
        let pairs: [(UInt32, UInt32)] = [
            (0x21, 0xFE15), (0x23, 0xFF03), (0x24, 0xFF04), (0x25, 0xFF05), (0x26, 0xFF06), (0x28, 0xFE35),
            (0x29, 0xFE36),
            (0x2A, 0xFF0A), (0x2B, 0xFF0B), (0x2C, 0xFE10), (0x2D, 0xFE32), (0x2E, 0x30FB), (0x2F, 0xFF0F),
            (0x3A, 0xFE13),
            (0x3B, 0xFE14), (0x3C, 0xFE3F), (0x3D, 0xFF1D), (0x3E, 0xFE40), (0x3F, 0xFE16), (0x40, 0xFF20),
            (0x5B, 0xFE47),
            (0x5C, 0xFF3C), (0x5D, 0xFE48), (0x5E, 0xFF3E), (0x5F, 0xFE33), (0x60, 0xFF40), (0x7B, 0xFE37),
            (0x7C, 0x2015),
            (0x7D, 0xFE38), (0x7E, 0xFF5E), (0xA2, 0xFFE0), (0xA3, 0xFFE1), (0xA5, 0xFFE5), (0xA6, 0xFFE4),
            (0xAC, 0xFFE2),
            (0xAF, 0xFFE3), (0x2013, 0xFE32), (0x2014, 0xFE31), (0x2018, 0xFE43), (0x2019, 0xFE44), (0x201C, 0xFE41),
            (0x201D, 0xFE42), (0x2026, 0xFE19), (0x22EF, 0xFE19), (0x2027, 0x30FB), (0x20A9, 0xFFE6), (0x3001, 0xFE11),
            (0x3002, 0xFE12),
            (0x3008, 0xFE3F), (0x3009, 0xFE40), (0x300A, 0xFE3D), (0x300B, 0xFE3E), (0x300C, 0xFE41), (0x300D, 0xFE42),
            (0x300E, 0xFE43), (0x300F, 0xFE44), (0x3010, 0xFE3B), (0x3011, 0xFE3C), (0x3014, 0xFE39), (0x3015, 0xFE3A),
            (0x3016, 0xFE17), (0x3017, 0xFE18), (0xFF01, 0xFE15), (0xFF08, 0xFE35), (0xFF09, 0xFE36), (0xFF0C, 0xFE10),
            (0xFF0D, 0xFE32), (0xFF0E, 0x30FB), (0xFF1A, 0xFE13), (0xFF1B, 0xFE14), (0xFF1C, 0xFE3F), (0xFF1E, 0xFE40),
            (0xFF1F, 0xFE16), (0xFF3B, 0xFE47), (0xFF3D, 0xFE48), (0xFF3F, 0xFE33), (0xFF5B, 0xFE37), (0xFF5C, 0x2015),
            (0xFF5D, 0xFE38), (0xFF5F, 0xFE35), (0xFF60, 0xFE36), (0xFF61, 0xFE12), (0xFF62, 0xFE41), (0xFF63, 0xFE42),
        ]
        var forms: [Unicode.Scalar: Unicode.Scalar] = [:]
        for (from, to) in pairs { forms[Unicode.Scalar(from)!] = Unicode.Scalar(to)! }
        return forms
    }()
}
