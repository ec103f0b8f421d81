// The calls around the one collection, against the server in this process over a store in
// memory, from a client over jeepney on a private bus: the aliases (SetAlias), collections made
// and unmade (CreateCollection, the collection's Delete), its Label set, and the
// `PropertiesChanged` signals that GDBus proxies (libsecret's) follow.

import PwtuiTestSupport
import SecretService
import Testing

@Suite struct SecretServiceCollectionTests {
    static let client = #"""
        import secretstorage
        ITEM = "org.freedesktop.Secret.Item"
        COLL = "org.freedesktop.Secret.Collection"
        PROPS = "org.freedesktop.DBus.Properties"
        listener = open_dbus_connection(bus="SESSION")
        rule = MatchRule(type="signal", interface=PROPS, member="PropertiesChanged")
        listener.send_and_get_reply(message_bus.AddMatch(rule))
        heard = listener.filter(rule, bufsize=64)
        def changes():
            said = []
            while True:
                try:
                    message = listener.recv_until_filtered(heard.queue, timeout=0.5)
                except TimeoutError:
                    return " ".join(said)
                interface, changed, invalidated = message.body
                def show(value):
                    signature, value = value
                    if signature == "ao":
                        return ",".join(map(last, value))
                    if signature == "a{ss}":
                        return ",".join("%s=%s" % pair for pair in sorted(value.items()))
                    if signature == "t":
                        return "now" if abs(value - time.time()) < 60 else str(value)
                    return str(value)
                said.append("%s:%s:%s" % (last(message.header.fields[HeaderFields.path]), interface.rsplit(".", 1)[1],
                                          ";".join("%s=%s" % (name, show(changed[name])) for name in sorted(changed)) + ("|" + ",".join(invalidated) if invalidated else "")))
        # Aliases: the one collection's, kept; any other refused by name.
        say("alias-default", error(lambda: service("SetAlias", "so", "default", COLLECTION)))
        say("alias-default-by-alias", error(lambda: service("SetAlias", "so", "default", ALIAS)))
        say("alias-login", error(lambda: service("SetAlias", "so", "login", COLLECTION)))
        say("alias-other", error(lambda: service("SetAlias", "so", "work", COLLECTION)))
        say("alias-removed", error(lambda: service("SetAlias", "so", "default", "/")))
        say("alias-elsewhere", error(lambda: service("SetAlias", "so", "default", SERVICE + "/collection/work")))
        say("alias-wrong-arguments", error(lambda: service("SetAlias", "s", "default")))
        say("read-alias", service("ReadAlias", "s", "default")[0])
        # Collections: the default alias's is this one, no other is made.
        label = {"org.freedesktop.Secret.Collection.Label": ("s", "Work")}
        say("create-collection", error(lambda: service("CreateCollection", "a{sv}s", label, "")))
        say("create-collection-alias", ",".join(service("CreateCollection", "a{sv}s", label, "default")))
        connection = secretstorage.dbus_init()
        try:
            secretstorage.create_collection(connection, "Work")
            say("secretstorage-create", "made")
        except DBusErrorResponse as e:
            say("secretstorage-create", e.name + " " + e.data[0])
        say("secretstorage-default", secretstorage.create_collection(connection, "Default", "default").collection_path)
        say("collections", ",".join(get(SERVICE, "org.freedesktop.Secret.Service", "Collections")))
        say("delete-collection", error(lambda: call(COLLECTION, COLL, "Delete")))
        say("delete-alias", error(lambda: call(ALIAS, COLL, "Delete")))
        say("items-after-delete", len(get(COLLECTION, COLL, "Items")))
        # The collection's label, set and heard.
        call(ALIAS, PROPS, "Set", "ssv", COLL, "Label", ("s", "Renamed"))
        say("label", get(COLLECTION, COLL, "Label"))
        say("label-other-property", error(lambda: call(COLLECTION, PROPS, "Set", "ssv", COLL, "Locked", ("b", True))))
        say("label-changes", changes())
        # Items made, changed and removed: each heard with its new values.
        (signature, output), plain = service("OpenSession", "sv", "plain", ("s", ""))
        properties = {ITEM + ".Label": ("s", "One"), ITEM + ".Attributes": ("a{ss}", {"app": "test"})}
        item, prompt = call(COLLECTION, COLL, "CreateItem", "a{sv}(oayays)b", properties, (plain, b"", b"first", "text/plain"), False)
        say("create-changes", changes())
        call(item, PROPS, "Set", "ssv", ITEM, "Label", ("s", "Two"))
        say("label-item-changes", changes())
        call(item, PROPS, "Set", "ssv", ITEM, "Attributes", ("a{ss}", {"app": "test", "more": "yes"}))
        say("attributes-changes", changes())
        call(item, ITEM, "SetSecret", "(oayays)", (plain, b"", b"second", "text/plain"))
        say("secret-changes", changes())
        properties = {ITEM + ".Label": ("s", "Three"), ITEM + ".Attributes": ("a{ss}", {"app": "test", "more": "yes"})}
        call(COLLECTION, COLL, "CreateItem", "a{sv}(oayays)b", properties, (plain, b"", b"third", "text/plain"), True)
        say("replace-changes", changes())
        call(item, ITEM, "Delete")
        say("delete-changes", changes())
        say("items-after-changes", ",".join(map(last, get(COLLECTION, COLL, "Items"))))
        document, = call(SERVICE, "org.freedesktop.DBus.Introspectable", "Introspect")
        say("introspect-service", all(m in document for m in ['<method name="SetAlias">', '<method name="CreateCollection">', 'name="PropertiesChanged"']))
        document, = call(COLLECTION, "org.freedesktop.DBus.Introspectable", "Introspect")
        say("introspect-collection", '<method name="Delete">' in document and '<property name="Label" type="s" access="readwrite"/>' in document)
        """#

    @Test(
        "SetAlias keeps the one collection's aliases, CreateCollection gives it for its alias, the rest refused by name; its Label set; PropertiesChanged after every change"
    )
    func collectionCalls() throws {
        let store = MemoryItemStore()
        store.items["a1"] = try .init("GitHub", ["service": "github.com"], "gh-secret")
        let text = try SecretServiceUnderTest.serve(.inProcess(store), to: Self.client)
        var answers: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            answers[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        let collection = "/org/freedesktop/secrets/collection/login"
        let notSupported = "org.freedesktop.DBus.Error.NotSupported"
        #expect(answers["alias-default"] == "none", "\(text)")
        #expect(answers["alias-default-by-alias"] == "none")
        #expect(answers["alias-login"] == "none")
        #expect(answers["alias-other"] == notSupported)
        #expect(answers["alias-removed"] == notSupported)
        #expect(answers["alias-elsewhere"] == notSupported)
        #expect(answers["alias-wrong-arguments"] == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(answers["read-alias"] == collection)
        #expect(answers["create-collection"] == notSupported)
        #expect(answers["create-collection-alias"] == collection + ",/", "the existing collection, no prompt")
        #expect(
            answers["secretstorage-create"]?.hasPrefix(notSupported + " pwtui keeps every item in one collection")
                == true,
            "secretstorage's create_collection gets the refusal, with what to do: \(text)")
        #expect(answers["secretstorage-default"] == collection)
        #expect(answers["collections"] == collection, "still one collection")
        #expect(answers["delete-collection"] == notSupported)
        #expect(answers["delete-alias"] == notSupported)
        #expect(answers["items-after-delete"] == "1", "nothing deleted")
        #expect(answers["label"] == "Renamed")
        #expect(answers["label-other-property"] == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(answers["label-changes"] == "login:Collection:Label=Renamed", "\(text)")
        // Items invalidated, not listed: a listing is a round trip as long as the vault.
        #expect(answers["create-changes"] == "login:Collection:|Items", "\(text)")
        #expect(answers["label-item-changes"] == "new1:Item:Label=Two;Modified=now", "\(text)")
        #expect(answers["attributes-changes"] == "new1:Item:Attributes=app=test,more=yes;Modified=now", "\(text)")
        #expect(answers["secret-changes"] == "new1:Item:Modified=now", "\(text)")
        #expect(answers["replace-changes"] == "new1:Item:Label=Three;Modified=now", "\(text)")
        #expect(answers["delete-changes"] == "login:Collection:|Items", "\(text)")
        #expect(answers["items-after-changes"] == "a1", "\(text)")
        #expect(answers["introspect-service"] == "True")
        #expect(answers["introspect-collection"] == "True")
        #expect(store.collectionLabel == "Renamed" && store.items.count == 1)
    }

    @Test(
        "a read that asks the user waits off the bus's thread: other callers are answered meanwhile, then it gets its secret (GetSecret and GetSecrets)"
    )
    func readsThatAskDoNotHoldTheBus() throws {
        let store = MemoryItemStore()
        store.items["asks"] = try .init("Chromium Safe Storage", ["application": "chromium"], "cookie-key")
        store.items["free"] = try .init("GitHub", ["service": "github.com"], "gh-secret")
        store.asking = ["asks"]
        store.askingTime = .milliseconds(1500)
        let client = #"""
            import threading
            ITEM = "org.freedesktop.Secret.Item"
            def read(method, results, name):
                connection = open_dbus_connection(bus="SESSION")
                (signature, output), session = call(SERVICE, "org.freedesktop.Secret.Service", "OpenSession", "sv", "plain", ("s", ""), connection=connection)
                started = time.time()
                if method == "GetSecret":
                    (session_path, parameters, value, content_type), = call(COLLECTION + "/asks", ITEM, "GetSecret", "o", session, connection=connection)
                else:
                    secrets, = service("GetSecrets", "aoo", [COLLECTION + "/asks", COLLECTION + "/free"], session, connection=connection)
                    value = b",".join(secrets[path][2] for path in sorted(secrets))
                results[name] = (value.decode(), time.time() - started)
            results = {}
            waiting = [threading.Thread(target=read, args=(method, results, method)) for method in ("GetSecret", "GetSecrets")]
            for thread in waiting: thread.start()
            time.sleep(0.3)
            (signature, output), plain = service("OpenSession", "sv", "plain", ("s", ""))
            slowest = 0
            for _ in range(5):
                started = time.time()
                service("SearchItems", "a{ss}", {"service": "github.com"})
                (session_path, parameters, value, content_type), = call(COLLECTION + "/free", ITEM, "GetSecret", "o", plain)
                slowest = max(slowest, time.time() - started)
            say("meanwhile", "%s %s" % (value.decode(), "fast" if slowest < 0.5 else "slow %.2f" % slowest))
            say("waiting", len(results))
            for thread in waiting: thread.join()
            for name in sorted(results):
                say(name, "%s %s" % (results[name][0], "waited" if results[name][1] > 1.2 else "early %.2f" % results[name][1]))
            """#
        let text = try SecretServiceUnderTest.serve(.inProcess(store), to: client)
        #expect(text.contains("meanwhile gh-secret fast"), "\(text)")
        #expect(text.contains("waiting 0"), "both reads still waiting for the user: \(text)")
        #expect(text.contains("GetSecret cookie-key waited"), "\(text)")
        #expect(text.contains("GetSecrets cookie-key,gh-secret waited"), "\(text)")
    }

    @Test(
        "a Get of the collection's Locked, Label or Modified lists no items (secretstorage asks Locked before every create); Items and GetAll do"
    )
    func oneProperty() throws {
        let store = MemoryItemStore()
        store.items["a1"] = try .init("GitHub", ["service": "github.com"], "gh-secret")
        let client = #"""
            COLL = "org.freedesktop.Secret.Collection"
            say("locked", "%s %s %s" % (get(COLLECTION, COLL, "Locked"), get(ALIAS, COLL, "Label"), get(COLLECTION, COLL, "Modified")))
            say("items", ",".join(map(last, get(COLLECTION, COLL, "Items"))))
            everything, = call(COLLECTION, "org.freedesktop.DBus.Properties", "GetAll", "s", COLL)
            say("all", ",".join(sorted(everything)))
            """#
        let text = try SecretServiceUnderTest.serve(.inProcess(store), to: client)
        #expect(text.contains("locked False Login 1700000060"), "\(text)")
        #expect(text.contains("items a1"), "\(text)")
        #expect(text.contains("all Created,Items,Label,Locked,Modified"), "\(text)")
        #expect(store.searches == 2, "Items and GetAll list; the three Gets before them do not")
        #expect(
            store.collectionDescriptions == 3, "Label, Modified and GetAll describe the collection; Locked does not")
    }
}
