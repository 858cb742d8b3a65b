import Foundation
import NetworkLayer

// The samples of PoliciesAndAuthentication.md that no other file of this target holds; compiled, not run.

enum PoliciesAndAuthenticationSnippets {
    @MainActor
    final class SignInScreen {
        func show() {}
    }

    static func signOutWhenTheSessionEnds(
        _ authenticator: BearerTokenAuthenticator, signIn: SignInScreen
    ) {
        authenticator.sessionEndedHandler = { _ in
            Task { @MainActor in signIn.show() }  // called off the main queue: hop
        }
    }
}

// The "retrying" banner: a per-request monitor; ReportPresenterTests runs it against a MockServer.

struct DailyReport: Codable, Equatable {
    let title: String
    let total: Int
}

protocol ReportView: AnyObject {
    func showBanner(_ text: String?)
    func show(_ report: DailyReport)
    func showError(_ message: String)
}

/// Shows "Retrying in N s…" while a request waits to be sent again, and hides it when the request is
/// over. Monitors run on a queue of the layer's, in order: each event hops to the main queue, so the
/// banner is shown and hidden in that order too.
struct RetryBanner: NetworkMonitor {
    let update: @MainActor @Sendable (_ text: String?) -> Void

    func willRetry(_ attempt: MonitoredAttempt, after delay: TimeInterval, because error: NetworkError) {
        let text = "Retrying in \(max(1, Int(delay.rounded()))) s…"
        DispatchQueue.main.async { update(text) }
    }

    func didFinish(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics
    ) {
        DispatchQueue.main.async { update(nil) }
    }
}

@MainActor
final class ReportPresenter {
    private let networkLayer: NetworkLayer
    private weak var view: ReportView?

    init(view: ReportView, networkLayer: NetworkLayer) {
        self.view = view
        self.networkLayer = networkLayer
    }

    func load() {
        var request = NetworkRequest<DailyReport>(urlString: "reports/today")
        request.retryPolicy = RetryPolicy(maximumAttempts: 3, initialDelay: 1)
        request.monitors = [RetryBanner { [weak self] text in self?.view?.showBanner(text) }]
        networkLayer.send(
            request,
            successHandler: { response in self.view?.show(response.value) },
            errorHandler: { error in self.view?.showError(error.message) })
    }
}
