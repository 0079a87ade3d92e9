// Generated from interfaces/org.pencild.Pen.varlink by scripts/generate-from-interface: do not edit.
// One machine for each of the interface's gestures, in its order: docs/gestures.md orders a
// frame's gestures the same way. Each is `<Gesture>Machine` in Machines/.

/// The machines of one recogniser.
struct GestureMachines: Sendable {
    var doubleTap = DoubleTapMachine()
    var squeeze = SqueezeMachine()

    /// Calls `visitor` with each machine, in order.
    mutating func visit<Visitor: GestureMachineVisitor>(_ visitor: inout Visitor) {
        visitor.visit(&doubleTap)
        visitor.visit(&squeeze)
    }

    /// Calls `visitor` with each kind of machine, in order.
    static func visitTypes<Visitor: GestureMachineTypeVisitor>(_ visitor: inout Visitor) {
        visitor.visit(DoubleTapMachine.self)
        visitor.visit(SqueezeMachine.self)
    }
}
