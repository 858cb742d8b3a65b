import Foundation

extension DurableFolder {
    /// The largest sequence a record's name may carry: half the integer's range, so counting on from
    /// it never overflows. A name above it (`18446744073709551615`, put there by another program) is no
    /// record this code wrote, and is ignored: counting on from it would trap.
    package static let largestSequence = UInt64.max / 2

    /// The highest sequence a file's name in the folder starts with (`<sequence>.<suffix>`, readable or
    /// not, so none is written over), ignoring those above ``largestSequence``; 0 when there is none.
    package func lastSequence() -> UInt64 {
        names(endingWith: "").lazy.compactMap { UInt64($0.prefix { $0 != "." }) }
            .filter { $0 <= Self.largestSequence }.max() ?? 0
    }
}
