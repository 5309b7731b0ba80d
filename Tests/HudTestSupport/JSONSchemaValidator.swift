// SPDX-License-Identifier: MIT
import HudRegistry
import HudScenes
import HudPresentation

/// A small JSON Schema (2020-12) validator for the subset our schemas use:
/// type, enum, const, properties, required, additionalProperties, items,
/// pattern, minimum, maximum, exclusiveMinimum, minLength, maxLength,
/// minItems, maxItems, uniqueItems, allOf, anyOf, oneOf and local `$ref`s
/// into `$defs`. An unsupported keyword is an error, so a
/// schema can never pass by being misunderstood.
package struct JSONSchemaValidator {
    package let root: JSONValue

    package init(root: JSONValue) { self.root = root }

    package static let supported: Set<String> = [
        "$schema", "$id", "$defs", "$ref", "$comment", "title", "description", "type", "enum", "const", "properties", "required",
        "additionalProperties", "items", "pattern", "minimum", "maximum", "exclusiveMinimum", "minLength", "maxLength", "minItems", "maxItems",
        "uniqueItems", "allOf", "anyOf", "oneOf", "examples",
    ]

    /// Every violation, as `path: reason`.
    package func validate(_ value: JSONValue) -> [String] {
        var errors: [String] = []
        check(value, against: root, path: "$", errors: &errors)
        return errors
    }

    private func resolve(_ ref: String) -> JSONValue? {
        guard ref.hasPrefix("#/") else { return nil }
        var node = root
        for part in ref.dropFirst(2).split(separator: "/") {
            guard let next = node[String(part)] else { return nil }
            node = next
        }
        return node
    }

    private func check(_ value: JSONValue, against schema: JSONValue, path: String, errors: inout [String]) {
        guard let keywords = schema.objectValue else {
            if schema.boolValue == false { errors.append("\(path): not allowed") }
            return
        }
        for (key, _) in keywords where !Self.supported.contains(key) {
            errors.append("\(path): schema keyword '\(key)' is not supported by the test validator")
        }
        if let ref = schema["$ref"]?.stringValue {
            guard let target = resolve(ref) else {
                errors.append("\(path): unresolvable $ref \(ref)")
                return
            }
            check(value, against: target, path: path, errors: &errors)
        }
        if let type = schema["type"] {
            let types = type.arrayValue?.compactMap(\.stringValue) ?? [type.stringValue ?? ""]
            if !types.contains(where: { Self.matches(value, type: $0) }) {
                errors.append("\(path): is \(value.typeName), expected \(types.joined(separator: " or "))")
                return
            }
        }
        if let options = schema["enum"]?.arrayValue, !options.contains(value) {
            errors.append("\(path): \(value.serialized(pretty: false)) is not one of \(JSONValue.array(options).serialized(pretty: false))")
        }
        if let constant = schema["const"], constant != value {
            errors.append("\(path): must be \(constant.serialized(pretty: false))")
        }
        if let members = value.objectValue {
            let properties = schema["properties"]?.objectValue ?? []
            for required in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where !members.contains(where: { $0.0 == required }) {
                errors.append("\(path): missing required key '\(required)'")
            }
            for (key, member) in members {
                if let property = properties.first(where: { $0.0 == key }) {
                    check(member, against: property.1, path: "\(path).\(key)", errors: &errors)
                } else if let additional = schema["additionalProperties"] {
                    if additional.boolValue == false {
                        errors.append("\(path): unexpected key '\(key)'")
                    } else if additional.objectValue != nil {
                        check(member, against: additional, path: "\(path).\(key)", errors: &errors)
                    }
                }
            }
        }
        if let items = value.arrayValue {
            if let itemSchema = schema["items"] {
                for (index, item) in items.enumerated() { check(item, against: itemSchema, path: "\(path)[\(index)]", errors: &errors) }
            }
            if let min = schema["minItems"]?.numberValue, Double(items.count) < min { errors.append("\(path): fewer than \(Int(min)) items") }
            if let max = schema["maxItems"]?.numberValue, Double(items.count) > max { errors.append("\(path): more than \(Int(max)) items") }
            if schema["uniqueItems"]?.boolValue == true, Set(items).count != items.count { errors.append("\(path): items are not unique") }
        }
        if let string = value.stringValue {
            if let pattern = schema["pattern"]?.stringValue {
                if let regex = try? Regex(pattern) {
                    if (try? regex.firstMatch(in: string)) == nil { errors.append("\(path): '\(string)' does not match \(pattern)") }
                } else {
                    errors.append("\(path): invalid pattern \(pattern)")
                }
            }
            if let min = schema["minLength"]?.numberValue, Double(string.count) < min { errors.append("\(path): shorter than \(Int(min))") }
            if let max = schema["maxLength"]?.numberValue, Double(string.count) > max { errors.append("\(path): longer than \(Int(max))") }
        }
        if let number = value.numberValue {
            if let min = schema["minimum"]?.numberValue, number < min { errors.append("\(path): \(number) < minimum \(min)") }
            if let max = schema["maximum"]?.numberValue, number > max { errors.append("\(path): \(number) > maximum \(max)") }
            if let min = schema["exclusiveMinimum"]?.numberValue, number <= min { errors.append("\(path): \(number) <= exclusiveMinimum \(min)") }
        }
        for option in schema["allOf"]?.arrayValue ?? [] {
            check(value, against: option, path: path, errors: &errors)
        }
        if let anyOf = schema["anyOf"]?.arrayValue {
            let passing = anyOf.filter { option in var e: [String] = []; check(value, against: option, path: path, errors: &e); return e.isEmpty }
            if passing.isEmpty { errors.append("\(path): matches none of anyOf") }
        }
        if let oneOf = schema["oneOf"]?.arrayValue {
            let passing = oneOf.filter { option in var e: [String] = []; check(value, against: option, path: path, errors: &e); return e.isEmpty }
            if passing.count != 1 {
                errors.append("\(path): matches \(passing.count) of oneOf, expected exactly 1")
                if passing.isEmpty, let first = oneOf.first {
                    check(value, against: first, path: path, errors: &errors)
                }
            }
        }
    }

    private static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object), ("number", .number): true
        case ("integer", .number(let n)): n == n.rounded()
        default: false
        }
    }
}
