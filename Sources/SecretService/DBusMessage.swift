internal import CSDBus

/// One D-Bus message (sd-bus's `sd_bus_message`), read or written one value at a time: with
/// `DBusConnection`, the funnel to sd-bus. It holds its own reference, taken in `init` and
/// dropped in `deinit`, so no message outlives its owner or is freed under it. Every string a
/// read gives back is copied out of the message before the call returns (sd-bus's pointers point
/// into the message).
///
/// Reading follows the signature: `string()`, `objectPath()`, `bytes()`, and `enter`/`exit` for
/// a container (`a`, `v`, `r`, `e` with its contents' signature). A value of another type than
/// asked is `DBusFailure.invalidArguments`, which the server answers as
/// `org.freedesktop.DBus.Error.InvalidArgs`.
final class DBusMessage {
    let pointer: OpaquePointer

    /// Takes a reference of its own to `pointer`.
    init(referencing pointer: OpaquePointer) {
        self.pointer = sd_bus_message_ref(pointer)
    }

    /// Adopts the one reference the caller holds (a message sd-bus just made for it).
    init(adopting pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { sd_bus_message_unref(pointer) }

    var path: String? { sd_bus_message_get_path(pointer).map { String(cString: $0) } }
    var interface: String? { sd_bus_message_get_interface(pointer).map { String(cString: $0) } }
    var member: String? { sd_bus_message_get_member(pointer).map { String(cString: $0) } }
    /// The sender's unique name (`:1.42`), as the bus daemon stamped it.
    var sender: String? { sd_bus_message_get_sender(pointer).map { String(cString: $0) } }
    /// The whole body's signature.
    var signature: String { sd_bus_message_get_signature(pointer, 1).map { String(cString: $0) } ?? "" }

    // MARK: Reading

    func string() throws(DBusFailure) -> String { try text(Self.code("s")) }
    func objectPath() throws(DBusFailure) -> String { try text(Self.code("o")) }

    private func text(_ type: CChar) throws(DBusFailure) -> String {
        var value: UnsafePointer<CChar>?
        let status = sd_bus_message_read_basic(pointer, type, &value)
        guard status > 0, let value else { throw .invalidArguments("expected a \(Self.name(type)) here") }
        return String(cString: value)
    }

    func bool() throws(DBusFailure) -> Bool {
        var value: Int32 = 0
        guard sd_bus_message_read_basic(pointer, Self.code("b"), &value) > 0 else {
            throw .invalidArguments("expected a boolean here")
        }
        return value != 0
    }

    /// Skips the next value, whatever it holds (`types`: its signature, `v` for a variant).
    func skip(_ types: String) throws(DBusFailure) {
        let status = types.withCString { sd_bus_message_skip(pointer, $0) }
        guard status >= 0 else { throw .invalidArguments("expected a value of type \(types) here") }
    }

    /// The pid of the process that sent this message, as the bus daemon knows it (never the
    /// sender's word); nil when the daemon cannot say.
    var senderPID: Int32? {
        var credentials: OpaquePointer?
        guard sd_bus_query_sender_creds(pointer, UInt64(SD_BUS_CREDS_PID), &credentials) >= 0, let credentials
        else { return nil }
        defer { sd_bus_creds_unref(credentials) }
        var pid: pid_t = 0
        return sd_bus_creds_get_pid(credentials, &pid) >= 0 ? pid : nil
    }

    /// An `ay`: not for secrets (a plain session's secret is read with `bytes(into:)`).
    func bytes() throws(DBusFailure) -> [UInt8] {
        try withBytes { Array($0) }
    }

    /// Lends an `ay`'s bytes where they are in the message; they must not escape `body`.
    func withBytes<Result: ~Copyable>(
        _ body: (UnsafeRawBufferPointer) throws(DBusFailure) -> Result
    ) throws(DBusFailure)
        -> Result
    {
        var base: UnsafeRawPointer?
        var size = 0
        guard sd_bus_message_read_array(pointer, Self.code("y"), &base, &size) >= 0 else {
            throw .invalidArguments("expected an array of bytes here")
        }
        return try body(UnsafeRawBufferPointer(start: size == 0 ? nil : base, count: size))
    }

    /// Enters a container: `type` one of `a`, `v`, `r`, `e`; `contents` its signature (`s` for a
    /// variant holding a string, `{ss}` for an array of string pairs). False at an array's end.
    @discardableResult
    func enter(_ type: Character, _ contents: String) throws(DBusFailure) -> Bool {
        let status = contents.withCString { sd_bus_message_enter_container(pointer, Self.code(type), $0) }
        guard status >= 0 else { throw .invalidArguments("expected \(type)(\(contents)) here") }
        return status > 0
    }

    func exit() throws(DBusFailure) {
        guard sd_bus_message_exit_container(pointer) >= 0 else { throw .invalidArguments("a container did not end") }
    }

    /// The next value's type code and, for a container, its contents' signature; nil at the end.
    func peek() -> (type: Character, contents: String)? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        guard sd_bus_message_peek_type(pointer, &type, &contents) > 0 else { return nil }
        return (Character(Unicode.Scalar(UInt8(bitPattern: type))), contents.map { String(cString: $0) } ?? "")
    }

    // MARK: Writing

    func append(string: String) throws(DBusFailure) { try append(text: string, as: Self.code("s")) }
    func append(objectPath: String) throws(DBusFailure) { try append(text: objectPath, as: Self.code("o")) }

    private func append(text: String, as type: CChar) throws(DBusFailure) {
        let status = text.withCString { sd_bus_message_append_basic(pointer, type, $0) }
        guard status >= 0 else { throw .failed("could not append a \(Self.name(type)) (\(-status))") }
    }

    func append(bool: Bool) throws(DBusFailure) {
        var value: Int32 = bool ? 1 : 0
        let status = sd_bus_message_append_basic(pointer, Self.code("b"), &value)
        guard status >= 0 else { throw .failed("could not append a boolean (\(-status))") }
    }

    func append(uint64: UInt64) throws(DBusFailure) {
        var value = uint64
        let status = sd_bus_message_append_basic(pointer, Self.code("t"), &value)
        guard status >= 0 else { throw .failed("could not append a number (\(-status))") }
    }

    /// An `ay` copied into the message. A plain session's secret goes this way too: sd-bus's
    /// buffer is ordinary memory, which is what `plain` means.
    func append(bytes: UnsafeRawBufferPointer) throws(DBusFailure) {
        let status = appending(bytes)
        guard status >= 0 else { throw .failed("could not append \(bytes.count) bytes (\(-status))") }
    }

    func append(bytes: [UInt8]) throws(DBusFailure) {
        let status = bytes.withUnsafeBytes { appending($0) }
        guard status >= 0 else { throw .failed("could not append \(bytes.count) bytes (\(-status))") }
    }

    /// sd-bus wants a pointer even for no bytes; it reads none.
    private func appending(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        let none: UInt8 = 0
        return withUnsafePointer(to: none) { empty in
            sd_bus_message_append_array(
                pointer, Self.code("y"), bytes.baseAddress ?? UnsafeRawPointer(empty), bytes.count)
        }
    }

    func open(_ type: Character, _ contents: String) throws(DBusFailure) {
        let status = contents.withCString { sd_bus_message_open_container(pointer, Self.code(type), $0) }
        guard status >= 0 else { throw .failed("could not open \(type)(\(contents)) (\(-status))") }
    }

    func close() throws(DBusFailure) {
        let status = sd_bus_message_close_container(pointer)
        guard status >= 0 else { throw .failed("could not close a container (\(-status))") }
    }

    // MARK: Type codes

    static func code(_ type: Character) -> CChar {
        CChar(bitPattern: type.asciiValue ?? 0)
    }

    private static func name(_ type: CChar) -> String {
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "s"): return "string"
        case UInt8(ascii: "o"): return "object path"
        default: return "value of type \(Character(Unicode.Scalar(UInt8(bitPattern: type))))"
        }
    }
}
