import PencilActions

/// `actions.conf` as the tests write it, read as pencil-actions reads it.
enum ActionsConfigText {
    static func parse(_ text: String) throws(ActionsConfigError) -> ActionBindings {
        try ActionsConfig.parse(text, file: "actions.conf")
    }

    /// The error `text` gives, with its line and message; nil when it reads.
    static func failure(_ text: String) -> ActionsConfigError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }
}
