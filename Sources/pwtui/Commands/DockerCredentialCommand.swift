import ArgumentParser
import Commands

/// `docker-credential-pwtui` (the link `make install` puts beside pwtui) or
/// `pwtui docker-credential OPERATION`: docker's and podman's credential-helper protocol
/// (`DockerCredentialHelper`; docs/containers.md).
struct DockerCredentialCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "docker-credential",
        abstract: "docker's and podman's credential helper: get, store, erase, list.",
        discussion: """
            Set up with "credsStore": "pwtui" in ~/.docker/config.json, or podman's "credHelpers"; see \
            docs/containers.md.

            Example: what docker runs (the server URL on stdin)
              echo registry.example:5000 | pwtui docker-credential get
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "What docker asks: get, store, erase, list or version.")
    var operation: String

    /// "Not found" is an answer, not a failure (podman asks before every login): the helper says it
    /// on stdout and throws it answered, so `CommandRunner` exits 1 without a word on stderr.
    func run() throws {
        try DockerCredentialHelper(context: global.context()).run(operation: operation)
    }
}
