import Foundation
import NetworkLayer

// This target is built with `.defaultIsolation(MainActor.self)`, as Xcode 26 creates app targets:
// every declaration here is MainActor-isolated, conformances included, unless it says otherwise.
//
// The layer decodes replies on a background queue, so every type it decodes conforms to `Decodable`
// without isolation: it is `nonisolated` (`Employee`, in StaffPresenter.swift, and the types below).
// Without that its conformance is main-actor-isolated, and the compiler refuses to hand the type to the
// layer ("main actor-isolated conformance of 'Employee' to 'Decodable' cannot satisfy conformance
// requirement for a 'Sendable' type parameter") rather than let `init(from:)` run off the main actor;
// Tests/CompileChecks/IsolatedConformance checks that it does.

nonisolated struct Payslip: Codable, Equatable {
    let employeeID: Int
    let amount: Int
}

/// Records, while it is decoded, whether that happens on the main thread.
nonisolated struct WhereDecoded: Decodable {
    let onMainThread: Bool

    init(from decoder: any Decoder) throws {
        onMainThread = Thread.isMainThread
    }
}

// What the app only sends may stay MainActor: the layer encodes a body and reads an endpoint inside the
// call that sends it, on the caller's thread. (Both conformances below are main-actor-isolated.)

/// A request body, encoded by the layer and decoded again only by tests, on the main actor.
struct NewEmployee: Codable, Equatable {
    let name: String
}

/// The API, described once.
enum StaffAPI: Endpoint {
    case payslip(employeeID: Int)
    case fire(employeeID: Int)

    var path: String {
        switch self {
        case .payslip(let id): "employees/\(id)/payslip"
        case .fire(let id): "employees/\(id)"
        }
    }

    var method: HTTPMethod {
        switch self {
        case .payslip: .get
        case .fire: .delete
        }
    }
}
