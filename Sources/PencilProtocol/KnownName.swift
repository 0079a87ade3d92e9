/// A name as an event stores it, whichever side's enumeration it is read into: the daemon's
/// closed case (`known`) and, for a name only a client's open enumeration holds (one that its
/// version of the interface does not declare), the name's text (`unknown`).
///
/// `EventOf` keeps its names as the daemon's one-byte enums whatever its name set, so that its
/// layout does not depend on the names: the compiler then copies every event field by field,
/// where a layout that depends on them is copied through the runtime's generic value witnesses
/// at several hundred instructions a copy, once or twice for every event the daemon reports.
public protocol KnownName<Known>: Hashable, Sendable {
    associatedtype Known: RawRepresentable<String>, CaseIterable, Hashable, Sendable = Self
    /// With `unknown` nil, the case `known`; otherwise the name `unknown`.
    init(known: Known, unknown: String?)
    /// The daemon's case; for an unknown name, some case that stands in for it.
    var known: Known { get }
    /// The text of a name the daemon's enumeration does not have; nil for every other.
    var unknown: String? { get }
}

/// The daemon's closed enums (Names.swift) are their own known names and have no unknown ones.
extension KnownName where Known == Self {
    @inlinable public init(known: Known, unknown: String?) { self = known }
    @inlinable public var known: Known { self }
    @inlinable public var unknown: String? { nil }
}
