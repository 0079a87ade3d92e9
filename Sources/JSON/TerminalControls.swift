/// The code points that make a terminal act or reorder what it shows: C0 (newline and tab
/// included), DEL, C1, and the bidirectional marks, embeddings, overrides and isolates. Text
/// from devices, recordings and the daemon is untrusted, so none of these reaches a terminal
/// or a log line raw: `escapedForTerminal` (PencilProtocol) shows each as a visible escape,
/// and the JSON writer writes each as `\uXXXX`. The one list, here below both.
extension Unicode.Scalar {
    public var isTerminalControl: Bool {
        switch value {
        case 0x00...0x1f, 0x7f...0x9f: return true
        // ALM, LRM and RLM; LRE, RLE, PDF, LRO and RLO; LRI, RLI, FSI and PDI.
        case 0x061c, 0x200e, 0x200f, 0x202a...0x202e, 0x2066...0x2069: return true
        default: return false
        }
    }
}
