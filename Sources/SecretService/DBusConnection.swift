internal import CSDBus
import Glibc

/// A connection to a session bus through sd-bus: with `DBusMessage`, the funnel to libsystemd.
///
/// Lifetimes, explicitly: the `sd_bus` is made in `init` and flushed, closed and dropped in
/// `deinit`; each handler's slot (`sd_bus_slot`) is kept in `routes` beside the object its
/// callback reaches through `userdata`, and both go with the connection. sd-bus is not
/// thread-safe: a connection is made, served and dropped on one thread (`serve`'s caller's).
///
/// Method calls under a path are routed to a Swift handler (`route`), which answers with a
/// reply it built (`DBusMessage.methodReturn`) or a `DBusFailure`, sent as the D-Bus error of
/// that name; or says it will answer later (it keeps the call, and sends its reply or error from
/// this thread when it has one); or "not mine", and sd-bus answers `UnknownMethod` or
/// `UnknownObject` itself.
final class DBusConnection {
    typealias Handler = (DBusMessage) throws(DBusFailure) -> DBusAnswer

    /// What a handler did with a call.
    enum DBusAnswer {
        case reply(DBusMessage)
        case later
        case notMine
    }

    /// One handler and the slot sd-bus calls it through; `userdata` is this object, unretained:
    /// `routes` keeps it alive as long as the slot. A signal's handler answers nothing.
    private final class Route {
        let handler: Handler
        let isSignal: Bool
        var slot: OpaquePointer?

        init(_ handler: @escaping Handler, isSignal: Bool = false) {
            self.handler = handler
            self.isSignal = isSignal
        }

        func handle(_ pointer: OpaquePointer) -> Int32 {
            let call = DBusMessage(referencing: pointer)
            if isSignal {
                _ = try? handler(call)
                return 0
            }
            do {
                switch try handler(call) {
                case .reply(let reply): try reply.send()
                case .later: break
                case .notMine: return 0
                }
            } catch {
                call.replyError(error)
            }
            return 1
        }
    }

    private let bus: OpaquePointer
    private var routes: [Route] = []

    /// Connects to the bus at `address` (a D-Bus address: `unix:path=…`) and says hello.
    init(address: String) throws(SecretServiceError) {
        var made: OpaquePointer?
        guard sd_bus_new(&made) >= 0, let made else { throw .cannotConnect(address: address, errno: ENOMEM) }
        var status = address.withCString { sd_bus_set_address(made, $0) }
        if status >= 0 { status = sd_bus_set_bus_client(made, 1) }
        if status >= 0 { status = sd_bus_start(made) }
        guard status >= 0 else {
            sd_bus_flush_close_unref(made)
            throw .cannotConnect(address: address, errno: -status)
        }
        bus = made
    }

    deinit {
        for route in routes { sd_bus_slot_unref(route.slot) }
        sd_bus_flush_close_unref(bus)
    }

    /// This connection's unique name on the bus (`:1.42`).
    var uniqueName: String {
        var name: UnsafePointer<CChar>?
        guard sd_bus_get_unique_name(bus, &name) >= 0, let name else { return "" }
        return String(cString: name)
    }

    /// Owns `name` on the bus, or `nameTaken` when another connection does.
    func requestName(_ name: String) throws(SecretServiceError) {
        let status = name.withCString { sd_bus_request_name(bus, $0, 0) }
        if status == -EEXIST || status == -EALREADY { throw .nameTaken(name) }
        guard status >= 0 else { throw .bus("requesting \(name)", errno: -status) }
    }

    /// Routes every method call to `path` and the paths under it to `handler`.
    func route(_ path: String, to handler: @escaping Handler) throws(SecretServiceError) {
        let route = Route(handler)
        let status = path.withCString { prefix in
            sd_bus_add_fallback(
                bus, &route.slot, prefix,
                { message, userdata, _ in
                    guard let message, let userdata else { return 0 }
                    return Unmanaged<Route>.fromOpaque(userdata).takeUnretainedValue().handle(message)
                }, Unmanaged.passUnretained(route).toOpaque())
        }
        guard status >= 0 else { throw .bus("serving \(path)", errno: -status) }
        routes.append(route)
    }

    /// Broadcasts the signal `interface.member` from `path` carrying one object path.
    func emit(from path: String, _ interface: String, _ member: String, objectPath: String) throws(DBusFailure) {
        try emit(from: path, interface, member) { (signal) throws(DBusFailure) in
            try signal.append(objectPath: objectPath)
        }
    }

    /// Broadcasts the signal `interface.member` from `path`, its body written by `body`.
    func emit(
        from path: String, _ interface: String, _ member: String, body: (DBusMessage) throws(DBusFailure) -> Void
    ) throws(DBusFailure) {
        var made: OpaquePointer?
        let status = path.withCString { path in
            interface.withCString { interface in
                member.withCString { member in sd_bus_message_new_signal(bus, &made, path, interface, member) }
            }
        }
        guard status >= 0, let made else { throw .failed("could not make the signal \(member) (\(-status))") }
        let signal = DBusMessage(adopting: made)
        try body(signal)
        try signal.send()
    }

    /// Calls `departed` with the unique name of each connection that leaves the bus (the bus
    /// daemon's `NameOwnerChanged` for a unique name, its new owner empty).
    func watchDepartures(_ departed: @escaping (String) -> Void) throws(SecretServiceError) {
        let route = Route(
            { (signal) throws(DBusFailure) in
                let name = try signal.string()
                _ = try signal.string()
                if try signal.string().isEmpty, name.hasPrefix(":") { departed(name) }
                return .notMine
            }, isSignal: true)
        let status = sd_bus_match_signal(
            bus, &route.slot, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "NameOwnerChanged",
            { message, userdata, _ in
                guard let message, let userdata else { return 0 }
                return Unmanaged<Route>.fromOpaque(userdata).takeUnretainedValue().handle(message)
            }, Unmanaged.passUnretained(route).toOpaque())
        guard status >= 0 else { throw .bus("watching connections leave", errno: -status) }
        routes.append(route)
    }

    /// Answers calls until `keepGoing` says no (it is asked at least every `tick`) or the bus
    /// goes away: a session's bus ends with the session (`dbus-run-session`'s command, a logout),
    /// and so does a service on it, as gnome-keyring's does. `eachTurn` runs on this thread
    /// between messages and at least every `tick`: work other threads left for the bus.
    func serve(
        tick: Duration = .milliseconds(250), eachTurn: () -> Void = {}, while keepGoing: () -> Bool
    ) throws(SecretServiceError) {
        let wait = UInt64(tick.components.seconds) * 1_000_000 + UInt64(tick.components.attoseconds / 1_000_000_000_000)
        while keepGoing() {
            eachTurn()
            let processed = sd_bus_process(bus, nil)
            if [-ECONNRESET, -ENOTCONN, -EPIPE].contains(processed) { return }
            guard processed >= 0 else { throw .bus("reading the bus", errno: -processed) }
            if processed > 0 { continue }
            let waited = sd_bus_wait(bus, wait)
            guard waited >= 0 || waited == -EINTR else { throw .bus("waiting on the bus", errno: -waited) }
        }
    }
}

extension DBusMessage {
    /// A reply to this call, to fill and `send`.
    func methodReturn() throws(DBusFailure) -> DBusMessage {
        var reply: OpaquePointer?
        let status = sd_bus_message_new_method_return(pointer, &reply)
        guard status >= 0, let reply else { throw .failed("could not make a reply (\(-status))") }
        return DBusMessage(adopting: reply)
    }

    /// Sends this message on the bus it belongs to.
    func send() throws(DBusFailure) {
        let status = sd_bus_send(nil, pointer, nil)
        guard status >= 0 else { throw .failed("could not send the reply (\(-status))") }
    }

    /// Answers this call with `error` as a D-Bus error: a `DBusFailure` by its name, anything
    /// else as `org.freedesktop.DBus.Error.Failed`.
    func replyError(_ error: any Error) {
        let failure = error as? DBusFailure ?? .failed("\(error)")
        var busError = sd_bus_error()
        failure.name.withCString { name in
            failure.description.withCString { message in _ = sd_bus_error_set(&busError, name, message) }
        }
        _ = sd_bus_reply_method_error(pointer, &busError)
        sd_bus_error_free(&busError)
    }
}
