import PencilTestSupport
import Testing
import Foundation
import PencilDaemon

@Suite("The interface description")
struct InterfaceDescriptionTests {
    /// The daemon serves interfaces/org.pencild.Pen.varlink as it is: the copy compiled into
    /// the daemon must be the file's text to the byte.
    @Test func servedTextIsTheRepositoryFile() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let file = try String(contentsOf: repository.appendingPathComponent("interfaces/org.pencild.Pen.varlink"), encoding: .utf8)
        #expect(InterfaceDescriptions.pen == file,
                "run scripts/generate-from-interface after editing interfaces/org.pencild.Pen.varlink")
    }
}
