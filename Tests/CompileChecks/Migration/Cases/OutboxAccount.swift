// expect: cannot convert value of type 'OutboxRequest.Account' to specified type
import Foundation
import NetworkLayer

func before(request: OutboxRequest) -> String {
    let owner: String? = request.account
    return owner ?? "anyone"
}
