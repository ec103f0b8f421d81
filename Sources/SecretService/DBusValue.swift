/// A property's value as the Properties interface sends it, inside a variant: the few types the
/// Secret Service's properties have.
enum DBusValue: Equatable, Sendable {
    case string(String)
    case objectPaths([String])
    case attributes([String: String])
    case bool(Bool)
    case uint64(UInt64)

    /// Its D-Bus signature.
    var signature: String {
        switch self {
        case .string: "s"
        case .objectPaths: "ao"
        case .attributes: "a{ss}"
        case .bool: "b"
        case .uint64: "t"
        }
    }

    /// Appends it to `message` as a variant.
    func append(to message: DBusMessage) throws(DBusFailure) {
        try message.open("v", signature)
        switch self {
        case .string(let text): try message.append(string: text)
        case .objectPaths(let paths):
            try message.open("a", "o")
            for path in paths { try message.append(objectPath: path) }
            try message.close()
        case .attributes(let attributes):
            try message.open("a", "{ss}")
            for (name, value) in attributes.sorted(by: { $0.key < $1.key }) {
                try message.open("e", "ss")
                try message.append(string: name)
                try message.append(string: value)
                try message.close()
            }
            try message.close()
        case .bool(let value): try message.append(bool: value)
        case .uint64(let value): try message.append(uint64: value)
        }
        try message.close()
    }
}
