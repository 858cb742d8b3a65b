// expect: switch must be exhaustive
// expect-note: add missing case: '.staleHit'
// expect-note: add missing case: '.staleWhileRevalidating'
import Foundation
import NetworkLayer

func before(response: NetworkResponse<[Todo]>, screen: Screen) {
    switch response.cacheStatus {
    case .network, .revalidated:
        screen.show(response.value, total: nil)
    case .hit:
        screen.show(response.value, total: "saved")
    case .stale:
        screen.show(response.value, total: "offline")
    }
}
