import Foundation

/// The inspector's time axis: milliseconds since it was made, read from the monotonic clock, and wall-clock
/// dates (``RequestMetrics/startDate``) placed on the same axis.
struct InspectorClock: Sendable {
    private let origin: UInt64
    private let originDate: Date

    init() {
        // The inspector only displays time, it decides nothing by it: the layer's clock isn't its to read.
        origin = DispatchTime.now().uptimeNanoseconds
        originDate = Date()
    }

    /// Milliseconds since the inspector was made.
    func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - origin) / 1_000_000
    }

    /// `date` on the axis.
    func milliseconds(at date: Date) -> Double {
        date.timeIntervalSince(originDate) * 1_000
    }
}
