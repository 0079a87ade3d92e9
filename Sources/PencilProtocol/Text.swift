extension StringProtocol {
    /// Without leading and trailing spaces, tabs and carriage returns: how the INI-style
    /// files (pencild's configuration, pencil-actions' bindings) read keys and values.
    public func trimmingWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" || first == "\r" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" || last == "\r" { slice = slice.dropLast() }
        return String(slice)
    }
}
