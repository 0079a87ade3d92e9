/// Whether each uid has an active session on a local seat, as sd-login last said; bounded.
final class SeatedUsers {
    private var answers: [UInt32: Bool] = [:]
    static let capacity = 1024

    func answer(for uid: UInt32, _ ask: (UInt32) -> Bool) -> Bool {
        if let known = answers[uid] { return known }
        if answers.count >= Self.capacity { answers.removeAll(keepingCapacity: true) }
        let answer = ask(uid)
        answers[uid] = answer
        return answer
    }

    func forget() { answers.removeAll(keepingCapacity: true) }
}
