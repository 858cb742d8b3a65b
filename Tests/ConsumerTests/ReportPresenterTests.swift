import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

// The test of the "retrying" banner in PoliciesAndAuthentication.md, verbatim (`ReadmeSyncTests`).

final class SpyReportView: ReportView {
    var banners: [String?] = []
    var report: DailyReport?
    var onBannerHidden: () -> Void = {}
    var onReport: () -> Void = {}

    func showBanner(_ text: String?) {
        banners.append(text)
        if text == nil { onBannerHidden() }
    }

    func show(_ report: DailyReport) {
        self.report = report
        onReport()
    }

    func showError(_ message: String) {}
}

final class ReportPresenterTests: XCTestCase {
    @MainActor
    func testTheBannerShowsWhileTheLayerWaitsAndHidesWhenTheRequestIsOver() async throws {
        let server = MockServer()
        try server.start()
        defer { server.stop() }
        server.enqueue(MockResponse(status: 503, headers: ["Retry-After": "1"]))  // fails once
        server.enqueue(try .json(DailyReport(title: "Sales", total: 42)))
        let view = SpyReportView()
        let hidden = expectation(description: "banner hidden")
        let shown = expectation(description: "report shown")
        view.onBannerHidden = { hidden.fulfill() }
        view.onReport = { shown.fulfill() }

        let presenter = ReportPresenter(view: view, networkLayer: NetworkLayer(baseURL: server.baseURL))
        presenter.load()
        await fulfillment(of: [shown, hidden], timeout: 10)

        XCTAssertEqual(view.banners, ["Retrying in 1 s…", nil])
        XCTAssertEqual(view.report, DailyReport(title: "Sales", total: 42))
        XCTAssertEqual(server.requestCount, 2)
    }
}
