/// What `org.freedesktop.DBus.Introspectable.Introspect` says of each object: the interfaces
/// this service answers, with exactly the methods, properties and signals it implements (a
/// method listed here that the dispatch did not answer would send a client to `UnknownMethod`).
/// Qt's QDBusInterface, `gdbus introspect` and `busctl introspect` read it; libsecret and
/// secretstorage do not need it. A method that is always refused (the collection's `Delete`) is
/// listed all the same: it is answered, with an error that says why.
enum SecretServiceIntrospection {
    static let header = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

        """

    static let standard = """
         <interface name="org.freedesktop.DBus.Introspectable">
          <method name="Introspect"><arg name="xml" type="s" direction="out"/></method>
         </interface>
         <interface name="org.freedesktop.DBus.Properties">
          <method name="Get"><arg name="interface" type="s" direction="in"/><arg name="name" type="s" direction="in"/><arg name="value" type="v" direction="out"/></method>
          <method name="GetAll"><arg name="interface" type="s" direction="in"/><arg name="properties" type="a{sv}" direction="out"/></method>
          <method name="Set"><arg name="interface" type="s" direction="in"/><arg name="name" type="s" direction="in"/><arg name="value" type="v" direction="in"/></method>
          <signal name="PropertiesChanged"><arg name="interface" type="s"/><arg name="changed" type="a{sv}"/><arg name="invalidated" type="as"/></signal>
         </interface>

        """

    static let service = """
         <interface name="org.freedesktop.Secret.Service">
          <method name="OpenSession"><arg name="algorithm" type="s" direction="in"/><arg name="input" type="v" direction="in"/><arg name="output" type="v" direction="out"/><arg name="result" type="o" direction="out"/></method>
          <method name="SearchItems"><arg name="attributes" type="a{ss}" direction="in"/><arg name="unlocked" type="ao" direction="out"/><arg name="locked" type="ao" direction="out"/></method>
          <method name="Unlock"><arg name="objects" type="ao" direction="in"/><arg name="unlocked" type="ao" direction="out"/><arg name="prompt" type="o" direction="out"/></method>
          <method name="Lock"><arg name="objects" type="ao" direction="in"/><arg name="locked" type="ao" direction="out"/><arg name="prompt" type="o" direction="out"/></method>
          <method name="GetSecrets"><arg name="items" type="ao" direction="in"/><arg name="session" type="o" direction="in"/><arg name="secrets" type="a{o(oayays)}" direction="out"/></method>
          <method name="ReadAlias"><arg name="name" type="s" direction="in"/><arg name="collection" type="o" direction="out"/></method>
          <method name="SetAlias"><arg name="name" type="s" direction="in"/><arg name="collection" type="o" direction="in"/></method>
          <method name="CreateCollection"><arg name="properties" type="a{sv}" direction="in"/><arg name="alias" type="s" direction="in"/><arg name="collection" type="o" direction="out"/><arg name="prompt" type="o" direction="out"/></method>
          <property name="Collections" type="ao" access="read"/>
         </interface>

        """

    static let collection = """
         <interface name="org.freedesktop.Secret.Collection">
          <method name="SearchItems"><arg name="attributes" type="a{ss}" direction="in"/><arg name="results" type="ao" direction="out"/></method>
          <method name="Delete"><arg name="prompt" type="o" direction="out"/></method>
          <method name="CreateItem"><arg name="properties" type="a{sv}" direction="in"/><arg name="secret" type="(oayays)" direction="in"/><arg name="replace" type="b" direction="in"/><arg name="item" type="o" direction="out"/><arg name="prompt" type="o" direction="out"/></method>
          <signal name="ItemCreated"><arg name="item" type="o"/></signal>
          <signal name="ItemDeleted"><arg name="item" type="o"/></signal>
          <signal name="ItemChanged"><arg name="item" type="o"/></signal>
          <property name="Items" type="ao" access="read"/>
          <property name="Label" type="s" access="readwrite"/>
          <property name="Locked" type="b" access="read"/>
          <property name="Created" type="t" access="read"/>
          <property name="Modified" type="t" access="read"/>
         </interface>

        """

    static let item = """
         <interface name="org.freedesktop.Secret.Item">
          <method name="Delete"><arg name="Prompt" type="o" direction="out"/></method>
          <method name="GetSecret"><arg name="session" type="o" direction="in"/><arg name="secret" type="(oayays)" direction="out"/></method>
          <method name="SetSecret"><arg name="secret" type="(oayays)" direction="in"/></method>
          <property name="Locked" type="b" access="read"/>
          <property name="Attributes" type="a{ss}" access="readwrite"/>
          <property name="Label" type="s" access="readwrite"/>
          <property name="Created" type="t" access="read"/>
          <property name="Modified" type="t" access="read"/>
         </interface>

        """

    static let prompt = """
         <interface name="org.freedesktop.Secret.Prompt">
          <method name="Prompt"><arg name="window-id" type="s" direction="in"/></method>
          <method name="Dismiss"/>
          <signal name="Completed"><arg name="dismissed" type="b"/><arg name="result" type="v"/></signal>
         </interface>

        """

    static let session = """
         <interface name="org.freedesktop.Secret.Session">
          <method name="Close"/>
         </interface>

        """

    /// The document for one object: its interfaces, then its children by name.
    static func document(interfaces: String, children: [String]) -> String {
        header + "<node>\n" + interfaces + standard + children.map { " <node name=\"\($0)\"/>\n" }.joined()
            + "</node>\n"
    }
}
