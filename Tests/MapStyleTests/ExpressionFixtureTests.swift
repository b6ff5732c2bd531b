import Foundation
import MapJSON
import Testing

@testable import MapStyle

/// MapLibre's expression fixtures (`Tests/Fixtures/style-spec-expression/`, BSD-licensed data
/// from maplibre-style-spec), run over Mapwright's expression parser and evaluator as MapLibre's
/// own harness runs them: each fixture's expression is parsed for its property type (a legacy
/// function converted first), the compile result (success and type, or an error at the key)
/// compared, then each input evaluated and compared to 6 significant figures; where MapLibre
/// gives an evaluation error Mapwright must too (its wording is not compared).
///
/// `Tests/Fixtures/style-spec-expression-ignores.txt` names each fixture expected to fail, with
/// its reason; a fixture that fails unlisted, or passes listed, fails the test, so the list
/// only shrinks. `MAPWRIGHT_UPDATE_EXPRESSION_IGNORES=1` rewrites the list (reasons kept).
struct ExpressionFixtureTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let folder = fixtures.appendingPathComponent("style-spec-expression")
    static let ignoresFile = fixtures.appendingPathComponent("style-spec-expression-ignores.txt")

    /// Every fixture's name (`category/name`), sorted.
    static func names() throws -> [String] {
        let root = folder.standardizedFileURL.path
        let enumerator = FileManager.default.enumerator(atPath: root)
        var names: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix("/test.json") { names.append(String(path.dropLast("/test.json".count))) }
        }
        return names.sorted()
    }

    static func ignores() throws -> [String: String] {
        guard let text = try? String(contentsOf: ignoresFile, encoding: .utf8) else { return [:] }
        var list: [String: String] = [:]
        for line in text.split(separator: "\n")
        where !line.hasPrefix("#") && !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let parts = line.split(separator: " ", maxSplits: 1)
            list[String(parts[0])] = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        }
        return list
    }

    @Test func everyFixturePassesOrIsListedWithItsReason() throws {
        let names = try Self.names()
        #expect(names.count > 500, "the fixtures are in Tests/Fixtures/style-spec-expression")
        let ignores = try Self.ignores()
        var failures: [String: String] = [:]
        for name in names {
            let data = try Data(
                contentsOf: Self.folder.appendingPathComponent(name).appendingPathComponent("test.json"))
            if let failure = Self.run(try JSONValue.parse(data)) { failures[name] = failure }
        }
        if ProcessInfo.processInfo.environment["MAPWRIGHT_UPDATE_EXPRESSION_IGNORES"] == "1" {
            var lines = [
                "# MapLibre expression fixtures expected to fail, one `fixture  reason` a line (see ExpressionFixtureTests)."
            ]
            for name in failures.keys.sorted() {
                lines.append("\(name)  \(ignores[name] ?? "TODO: \(failures[name]!)")")
            }
            try (lines.joined(separator: "\n") + "\n").write(to: Self.ignoresFile, atomically: true, encoding: .utf8)
        }
        print("expression fixtures: \(names.count - failures.count) of \(names.count) pass")
        for name in failures.keys.sorted() where ignores[name] == nil {
            Issue.record("\(name) fails and is not in the ignore list: \(failures[name]!)")
        }
        for name in ignores.keys.sorted() where failures[name] == nil {
            Issue.record("\(name) now passes: remove it from style-spec-expression-ignores.txt")
        }
    }

    // MARK: - One fixture

    /// Nil when the fixture passes, or what differs.
    static func run(_ fixture: JSONValue) -> String? {
        let spec = fixture["propertySpec"] ?? .object([:])
        let expectedType = type(of: spec)
        var json = fixture["expression"] ?? .null
        if case .object(let members) = json {
            var legacy = LegacyFunction.PropertySpec(type: spec["type"]?.text ?? "value")
            if case .bool(let interpolated)? = spec["expression"]?["interpolated"] {
                legacy.interpolated = interpolated
            }
            legacy.defaultValue = spec["default"]
            legacy.itemType = spec["value"]?.text
            if case .number(let length)? = spec["length"] { legacy.length = Int(length) }
            if case .object(let values)? = spec["values"] { legacy.enumValues = values.keys.sorted() }
            json = LegacyFunction.convert(members, spec: legacy)
        }
        var globalState: [String: ExpressionValue] = [:]
        if case .object(let members)? = fixture["globalState"] {
            globalState = members.mapValues(ExpressionValue.init(json:))
        }
        let expected = fixture["expected"] ?? .null
        let compiled = expected["compiled"] ?? .null
        let parsed: ExpressionParser.Typed
        do throws(ExpressionParseFailure) {
            parsed = try ExpressionParser.parse(
                json, expecting: expectedType, coercingStrings: spec["type"] == .string("string"),
                globalState: globalState)
        } catch {
            guard compiled["result"] == .string("error") else {
                return "compile error \(error.errors) where GL compiles"
            }
            guard case .array(let errors)? = compiled["errors"] else { return nil }
            let keys = errors.compactMap { $0["key"]?.text }
            return keys.contains(error.errors[0].key)
                ? nil : "error at \(error.errors[0].key) (\(error.errors[0].message)), GL at \(keys)"
        }
        guard compiled["result"] == .string("success") else {
            return "compiles as \(parsed.type) where GL gives an error: \(compiled)"
        }
        if let type = compiled["type"]?.text, type != parsed.type.description {
            return "type \(parsed.type), GL \(type)"
        }
        guard case .array(let inputs)? = fixture["inputs"], case .array(let outputs)? = expected["outputs"] else {
            return nil
        }
        for (input, output) in zip(inputs, outputs) {
            let context = self.context(input)
            var value: ExpressionValue
            do throws(ExpressionEvaluationError) {
                value = try parsed.expression.evaluateThrowing(in: context)
            } catch {
                if output["error"] != nil { continue }
                return "error \"\(error.message)\" where GL gives \(output.jsonText)"
            }
            if output["error"] != nil, case .object(let members) = output, members.count == 1 {
                return "\(value) where GL gives \(output.jsonText)"
            }
            if value == .null || value.number?.isNaN == true, let fallback = spec["default"] {
                value = ExpressionValue(json: fallback)
                if parsed.type == .color, let color = try? Color(css: value.text) { value = .color(color) }
            }
            let mine = self.json(value)
            if !matches(mine, output) { return "\(mine.jsonText) where GL gives \(output.jsonText)" }
        }
        return nil
    }

    static func type(of spec: JSONValue) -> ExpressionType? {
        guard let name = spec["type"]?.text else { return nil }
        switch name {
        case "number": return .number
        case "string", "enum": return .string
        case "boolean": return .boolean
        case "color": return .color
        case "formatted": return .formatted
        case "resolvedImage": return .resolvedImage
        case "padding": return .padding
        case "numberArray": return .numberArray
        case "colorArray": return .colorArray
        case "projectionDefinition": return .projectionDefinition
        case "variableAnchorOffsetCollection": return .variableAnchorOffsetCollection
        case "array":
            let item: ExpressionType
            switch spec["value"]?.text {
            case "number": item = .number
            case "string": item = .string
            case "boolean": item = .boolean
            default: item = .value
            }
            var count: Int?
            if case .number(let length)? = spec["length"] { count = Int(length) }
            return .array(item, count: count)
        default: return nil
        }
    }

    static func context(_ input: JSONValue) -> ExpressionContext {
        let globals = input[0] ?? .null
        let feature = input[1] ?? .null
        var context = ExpressionContext(zoom: globals["zoom"]?.number ?? 0)
        context.heatmapDensity = globals["heatmapDensity"]?.number
        context.lineProgress = globals["lineProgress"]?.number
        if case .array(let images)? = globals["availableImages"] {
            context.availableImages = Set(images.compactMap(\.text))
        }
        if case .object(let properties)? = feature["properties"] {
            for (key, value) in properties {
                switch value {
                case .string(let text): context.properties[key] = .string(text)
                case .number(let number): context.properties[key] = .number(number)
                case .bool(let flag): context.properties[key] = .bool(flag)
                case .null: context.properties[key] = .null
                default: context.structuredProperties[key] = ExpressionValue(json: value)
                }
            }
        }
        if let id = feature["id"] { context.featureID = ExpressionValue(json: id) }
        if let geometry = feature["geometry"] {
            context.geometry = GeoShapes(geoJSON: geometry)
            context.geometryType = geometry["type"]?.text
        }
        return context
    }

    /// The value as GL's harness writes it: colours as premultiplied `[r, g, b, a]`.
    static func json(_ value: ExpressionValue) -> JSONValue {
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let number): return .number(number)
        case .string(let text): return .string(text)
        case .color(let color):
            return .array(
                [color.red * color.alpha, color.green * color.alpha, color.blue * color.alpha, color.alpha].map(
                    JSONValue.number))
        case .array(let items): return .array(items.map(json))
        case .object(let members): return .object(members.mapValues(json))
        case .image(let image): return .object(["name": .string(image.name), "available": .bool(image.available)])
        case .collator(let collator): return .string(collator.resolvedLocale)
        case .formatted(let formatted):
            return .object([
                "sections": .array(
                    formatted.sections.map { section in
                        var color = JSONValue.null
                        if let c = section.textColor {
                            color = .object([
                                "r": .number(c.red * c.alpha), "g": .number(c.green * c.alpha),
                                "b": .number(c.blue * c.alpha), "a": .number(c.alpha),
                            ])
                        }
                        return .object([
                            "text": .string(section.text),
                            "image": section.image.map { .object(["name": .string($0), "available": .bool(true)]) }
                                ?? .null,
                            "scale": section.scale.map(JSONValue.number) ?? .null,
                            "fontStack": section.fontStack.map(JSONValue.string) ?? .null,
                            "textColor": color, "verticalAlign": section.verticalAlign.map(JSONValue.string) ?? .null,
                        ])
                    })
            ])
        }
    }

    /// Deep equality, numbers to 6 significant figures.
    static func matches(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            // GL's fixtures keep 6 significant figures, cut rather than rounded.
            return x == y || abs(x - y) <= 1e-5 * max(abs(x), abs(y))
        case (.array(let xs), .array(let ys)):
            return xs.count == ys.count && zip(xs, ys).allSatisfy { matches($0, $1) }
        case (.object(let xs), .object(let ys)):
            return xs.count == ys.count && xs.allSatisfy { key, value in ys[key].map { matches(value, $0) } ?? false }
        default:
            return a == b
        }
    }
}

extension JSONValue {
    subscript(index: Int) -> JSONValue? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }

    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }
}
