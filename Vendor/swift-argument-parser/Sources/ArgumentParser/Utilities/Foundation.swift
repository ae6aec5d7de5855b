//===----------------------------------------------------------------------===//
//
// This source file is part of the Swift Argument Parser open source project
//
// Copyright (c) 2025 Apple Inc. and the Swift project authors
// Licensed under Apache License v2.0 with Runtime Library Exception
//
// See https://swift.org/LICENSE.txt for license information
//
//===----------------------------------------------------------------------===//

// PixelBoop's one change to swift-argument-parser 1.8.2 (see ../../../README.boop.md): the two
// things this file took from FoundationEssentials are done without it, so a program that links the
// parser does not link FoundationEssentials (2.5 MB, with _FoundationCollections and the regex
// modules another 1.6 MB of a static binary).
// - `describe()`: FoundationEssentials' LocalizedError is a protocol no error of PixelBoop's
//   adopts; the description is the one it fell back to.
// - `JSONEncoder.encode`: `--experimental-dump-help` (read by generate-manual) writes the tool's
//   description through the small encoder below: pretty-printed, keys sorted, as Foundation's did.

extension Error {
  func describe() -> String {
    String(describing: self)
  }
}

enum JSONEncoder {
  static func encode<T: Encodable>(_ value: T) -> String {
    let encoder = _JSONTreeEncoder(path: [])
    guard (try? value.encode(to: encoder)) != nil else { return "" }
    var out = ""
    encoder.box.value.write(to: &out, indent: 0)
    return out
  }
}

/// A JSON value being built; a class so that nested containers fill their parent's slot.
final class _JSONBox {
  var value: _JSONValue
  init(_ value: _JSONValue) { self.value = value }
}

enum _JSONValue {
  case null
  case bool(Bool)
  case number(String)
  case string(String)
  case array([_JSONBox])
  case object([String: _JSONBox])

  func write(to out: inout String, indent: Int) {
    let pad = String(repeating: " ", count: indent + 2)
    let end = String(repeating: " ", count: indent)
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let n): out += n
    case .string(let s): _JSONValue.quote(s, into: &out)
    case .array(let items):
      out += "[\n"
      for (i, item) in items.enumerated() {
        out += pad
        item.value.write(to: &out, indent: indent + 2)
        out += i + 1 < items.count ? ",\n" : "\n"
      }
      out += end + "]"
    case .object(let members):
      out += "{\n"
      let keys = members.keys.sorted()
      for (i, key) in keys.enumerated() {
        out += pad
        _JSONValue.quote(key, into: &out)
        out += " : "
        members[key]!.value.write(to: &out, indent: indent + 2)
        out += i + 1 < keys.count ? ",\n" : "\n"
      }
      out += end + "}"
    }
  }

  static func quote(_ s: String, into out: inout String) {
    out += "\""
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "/": out += "\\/"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      default:
        if u.value < 0x20 {
          let hex = String(u.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(u)
        }
      }
    }
    out += "\""
  }
}

struct _JSONTreeEncoder: Encoder {
  let box = _JSONBox(.null)
  var codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(path: [any CodingKey]) { codingPath = path }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .object = box.value {} else { box.value = .object([:]) }
    return KeyedEncodingContainer(_JSONKeyed<Key>(box: box, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array = box.value {} else { box.value = .array([]) }
    return _JSONUnkeyed(box: box, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    _JSONSingle(box: box, codingPath: codingPath)
  }

  /// The JSON of one value: a scalar directly, anything else through its own `encode(to:)`.
  static func value<T: Encodable>(_ v: T, path: [any CodingKey]) throws -> _JSONValue {
    switch v {
    case let s as String: return .string(s)
    case let b as Bool: return .bool(b)
    case let d as Double:
      guard d.isFinite else {
        throw EncodingError.invalidValue(d, .init(codingPath: path, debugDescription: "not finite"))
      }
      return .number(d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d))
    case let f as Float: return try value(Double(f), path: path)
    case let i as any BinaryInteger: return .number(String(describing: i))
    default:
      let encoder = _JSONTreeEncoder(path: path)
      try v.encode(to: encoder)
      return encoder.box.value
    }
  }
}

struct _JSONKeyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let box: _JSONBox
  var codingPath: [any CodingKey]

  private func set(_ value: _JSONValue, _ key: Key) -> _JSONBox {
    let child = _JSONBox(value)
    if case .object(var members) = box.value {
      members[key.stringValue] = child
      box.value = .object(members)
    }
    return child
  }

  mutating func encodeNil(forKey key: Key) throws { _ = set(.null, key) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    _ = set(try _JSONTreeEncoder.value(value, path: codingPath + [key]), key)
  }
  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(_JSONKeyed<NestedKey>(box: set(.object([:]), key), codingPath: codingPath + [key]))
  }
  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    _JSONUnkeyed(box: set(.array([]), key), codingPath: codingPath + [key])
  }
  mutating func superEncoder() -> any Encoder { _JSONTreeEncoder(path: codingPath) }
  mutating func superEncoder(forKey key: Key) -> any Encoder { _JSONTreeEncoder(path: codingPath + [key]) }
}

struct _JSONIndexKey: CodingKey {
  var stringValue: String { String(intValue!) }
  var intValue: Int?
  init(_ i: Int) { intValue = i }
  init?(stringValue: String) { return nil }
  init?(intValue: Int) { self.intValue = intValue }
}

struct _JSONUnkeyed: UnkeyedEncodingContainer {
  let box: _JSONBox
  var codingPath: [any CodingKey]
  var count: Int {
    if case .array(let items) = box.value { return items.count }
    return 0
  }

  private func append(_ value: _JSONValue) -> _JSONBox {
    let child = _JSONBox(value)
    if case .array(var items) = box.value {
      items.append(child)
      box.value = .array(items)
    }
    return child
  }

  mutating func encodeNil() throws { _ = append(.null) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    _ = append(try _JSONTreeEncoder.value(value, path: codingPath + [_JSONIndexKey(count)]))
  }
  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let path = codingPath + [_JSONIndexKey(count)]
    return KeyedEncodingContainer(_JSONKeyed<NestedKey>(box: append(.object([:])), codingPath: path))
  }
  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let path = codingPath + [_JSONIndexKey(count)]
    return _JSONUnkeyed(box: append(.array([])), codingPath: path)
  }
  mutating func superEncoder() -> any Encoder { _JSONTreeEncoder(path: codingPath) }
}

struct _JSONSingle: SingleValueEncodingContainer {
  let box: _JSONBox
  var codingPath: [any CodingKey]

  mutating func encodeNil() throws { box.value = .null }
  mutating func encode<T: Encodable>(_ value: T) throws {
    box.value = try _JSONTreeEncoder.value(value, path: codingPath)
  }
}
