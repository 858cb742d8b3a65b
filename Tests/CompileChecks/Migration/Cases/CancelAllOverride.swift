// expect: overriding non-open instance method outside of its defining module
import Foundation
import NetworkLayer

final class SessionLayer: NetworkLayer, @unchecked Sendable {
    var onCancelAll: () -> Void = {}

    override func cancelAll() {
        onCancelAll()
        super.cancelAll()
    }
}
