import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

// The Swift samples of the NetworkLayer catalog's "Getting started" article (Sources/NetworkLayer/
// NetworkLayer.docc/GettingStarted.md) that no other file of this target holds, verbatim, so they keep
// compiling. `ReadmeSyncTests` fails when a sample in an article no longer appears in a compiled file.
// The article's presenter is `EmployeesPresenter` in ClassicPresenter.swift; its async model is
// `TodoScreenModel` in ReadmeLoadingExamples.swift.

final class EmployeesPresenterTests: XCTestCase {
    func testLoadShowsTheEmployees() {
        let network = DummyNetworkLayer()
        let view = SpyEmployeesView()
        network.successResponse = [Employee(name: "Ann", salary: "1", age: "30")]

        EmployeesPresenter(view: view, networkLayer: network).load()

        // No waiting: the dummy runs the handler before load() returns.
        XCTAssertEqual(view.shown?.map(\.name), ["Ann"])
        XCTAssertEqual(network.recordedRequests.first?.url.path, "/employees")
    }
}

/// The article's configuration sample: one value holds every setting of a layer.
enum ConfiguredLayer {
    static func make() -> NetworkLayer {
        var configuration = NetworkLayer.Configuration()
        configuration.baseURL = URL(string: "https://api.example.com/v1")
        configuration.timeout = 20
        let network = NetworkLayer(configuration: configuration)
        return network
    }
}
