import PencilProtocol

extension PenFrame {
    /// Appends the events that take the pen from `previous` to `next` at `time`, and notes
    /// the buttons pressed and released and the gestures' places. The tracker calls it for
    /// every frame; a user's eraser-button stage calls it for the pen as it presents it.
    ///
    /// The contract's order within one frame: proximityOut of a replaced tool, proximityIn,
    /// hover ended (tip went down), tipDown/tipUp, motion, hover began/changed,
    /// buttonDown/buttonUp, [gestures], hover ended (tool leaving), proximityOut.
    public mutating func appendTransitions(from previous: PenState, to next: PenState, time: Int64, identity: borrowing PenIdentity) {
        let id = device
        var before = previous
        // A tool replaced by another closes like a tool leaving, ahead of everything else.
        if let old = previous.tool, let new = next.tool, !old.isSameTool(as: new) {
            let pose = previous.pose
            if previous.tipDown {
                events.append(Event(type: .tipUp, time: time, device: id, tool: old, pose: pose.lifted))
            }
            for button in previous.buttons.buttons {
                events.append(Event(type: .buttonUp, time: time, device: id, tool: old, pose: pose, button: button))
            }
            replacedTool = old
            replacedGestureIndex = events.count
            if previous.isHovering {
                events.append(Event(type: .hover, time: time, device: id, tool: old, pose: pose, phase: .ended))
            }
            events.append(Event(type: .proximityOut, time: time, device: id, tool: old, pose: pose))
            before = PenState(pose: previous.pose)
        }

        guard let tool = next.tool ?? before.tool else {
            gestureIndex = events.count
            return
        }
        let leaving = next.tool == nil
        // Closing events of a tool that leaves carry the last pose before this 
        let pose = leaving ? before.pose : next.pose

        if before.tool == nil, !leaving {
            events.append(Event.proximityIn(time: time, device: id, tool: tool, pose: pose, stylus: identity.stylus(for: tool)))
        }
        if before.isHovering, next.tipDown {
            events.append(Event(type: .hover, time: time, device: id, tool: tool, pose: pose, phase: .ended))
        }
        if next.tipDown, !before.tipDown {
            events.append(Event(type: .tipDown, time: time, device: id, tool: tool, pose: pose))
        } else if before.tipDown, !next.tipDown {
            events.append(Event(type: .tipUp, time: time, device: id, tool: tool, pose: pose.lifted))
        }
        if before.tipDown, next.tipDown, before.pose != next.pose {
            events.append(Event(type: .motion, time: time, device: id, tool: tool, pose: pose))
        }
        if next.isHovering, !before.isHovering {
            events.append(Event(type: .hover, time: time, device: id, tool: tool, pose: pose, phase: .began))
        } else if next.isHovering, before.isHovering, before.pose != next.pose {
            events.append(Event(type: .hover, time: time, device: id, tool: tool, pose: pose, phase: .changed))
        }
        for button in PenButton.allCases {
            let was = before.buttons.contains(button)
            let isHeld = next.buttons.contains(button)
            if isHeld, !was {
                pressed.insert(ButtonSet(button))
                events.append(Event(type: .buttonDown, time: time, device: id, tool: tool, pose: pose, button: button))
            } else if was, !isHeld {
                released.insert(ButtonSet(button))
                events.append(Event(type: .buttonUp, time: time, device: id, tool: tool, pose: pose, button: button))
            }
        }
        gestureIndex = events.count
        if leaving {
            if before.isHovering {
                events.append(Event(type: .hover, time: time, device: id, tool: tool, pose: pose, phase: .ended))
            }
            events.append(Event(type: .proximityOut, time: time, device: id, tool: tool, pose: pose))
        }
    }
}

extension Pose {
    /// The pose a tipUp carries: where the tip left the surface, with no pressure.
    public var lifted: Pose {
        var lifted = self
        lifted.pressure = 0
        return lifted
    }
}
