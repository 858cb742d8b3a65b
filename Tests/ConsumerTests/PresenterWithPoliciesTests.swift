import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// The classic presenter on a `DummyNetworkLayer` with the layer's policies: the authenticator adapts
/// what is recorded, and stubbed sequences play out across retries, all before `load()` returns.
final class PresenterWithPoliciesTests: XCTestCase {
    private let view = SpyEmployeesView()
    private let ann = Employee(name: "Ann", salary: "1", age: "30")
    private let employees = "https://api.example.com/employees"

    /// A refresh that completes synchronously, counting its calls.
    private final class SyncRefresh: @unchecked Sendable {
        var calls = 0
        var answer: Result<String, NetworkError> = .success("new")

        func refresh(_ completion: (Result<String, NetworkError>) -> Void) {
            calls += 1
            completion(answer)
        }
    }

    func testTheRecordedRequestCarriesTheAuthenticatorsToken() {
        let network = DummyNetworkLayer(
            interceptors: [BearerTokenAuthenticator(accessToken: "abc") { _ in XCTFail("no refresh") }])
        network.successResponse = [ann]
        EmployeesPresenter(view: view, networkLayer: network).load()
        XCTAssertEqual(view.shown, [ann])
        XCTAssertEqual(network.recordedRequests.first?.header("Authorization"), "Bearer abc")
    }

    func testA401ThenSuccessRefreshesOnceAndShowsTheEmployeesSynchronously() {
        let refresh = SyncRefresh()
        let network = DummyNetworkLayer(
            interceptors: [BearerTokenAuthenticator(accessToken: "old", refresh: refresh.refresh)])
        network.stub(
            .get, employees,
            outcomes: [.failure(.unacceptableStatusCode(401, body: Data(), headers: [:])), .success([ann])])

        EmployeesPresenter(view: view, networkLayer: network).load()

        XCTAssertEqual(view.shown, [ann], "the success handler ran before load() returned")
        XCTAssertNil(view.errorMessage)
        XCTAssertEqual(refresh.calls, 1)
        XCTAssertEqual(
            network.requests(.get, to: employees).map { $0.header("Authorization") },
            ["Bearer old", "Bearer new"])
    }

    func testAFailedRefreshShowsItsErrorSynchronously() {
        let refresh = SyncRefresh()
        refresh.answer = .failure("Please sign in again")
        let network = DummyNetworkLayer(
            interceptors: [BearerTokenAuthenticator(accessToken: "old", refresh: refresh.refresh)])
        network.stub(.get, employees, failingWith: .unacceptableStatusCode(401, body: Data(), headers: [:]))

        EmployeesPresenter(view: view, networkLayer: network).load()

        XCTAssertEqual(view.errorMessage, "Please sign in again")
        XCTAssertEqual(refresh.calls, 1)
        XCTAssertEqual(network.callCount(.get, employees), 1, "nothing replayed")
    }

    func testARetryPolicyPlaysAStubbedSequenceAtOnce() {
        let network = DummyNetworkLayer(retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: 30))
        network.stub(
            .get, employees,
            outcomes: [
                .failure(.unacceptableStatusCode(503, body: Data(), headers: ["Retry-After": "20"])),
                .failure(.timedOut), .success([ann]),
            ])

        EmployeesPresenter(view: view, networkLayer: network).load()

        XCTAssertEqual(view.shown, [ann], "no wait in a test")
        XCTAssertEqual(network.callCount(.get, employees), 3)
    }

    func testARetryPolicyEndsWithTheLastAttemptsError() {
        let network = DummyNetworkLayer(retryPolicy: RetryPolicy(maximumAttempts: 2))
        network.stub(
            .get, employees, outcomes: [.failure(.timedOut), .failure(.transport(URLError(.timedOut)))])
        EmployeesPresenter(view: view, networkLayer: network).load()
        XCTAssertEqual(view.errorMessage, NetworkError.transport(URLError(.timedOut)).message)
        XCTAssertEqual(network.callCount(.get, employees), 2)
    }

    func testAPOSTIsNotRetriedByDefault() {
        let network = DummyNetworkLayer(retryPolicy: .default)
        network.stub(
            .post, employees,
            outcomes: [
                .failure(.unacceptableStatusCode(503, body: Data(), headers: [:])), .success(EmptyResponse()),
            ])
        EmployeesPresenter(view: view, networkLayer: network).save(ann)
        XCTAssertFalse(view.saved)
        XCTAssertEqual(network.callCount(.post, employees), 1)
    }

    func testTheReadmesLayerSetUpOnTheDummy() {
        let session = AuthSession(accessToken: "abc", refreshToken: "r", authServer: nil)
        let network = DummyNetworkLayer(
            retryPolicy: .default,
            interceptors: [
                AppVersionHeader(), BearerTokenAuthenticator(accessToken: session.accessToken) { _ in },
            ])
        network.successResponse = [ann]
        EmployeesPresenter(view: view, networkLayer: network).load()
        XCTAssertEqual(view.shown, [ann])
        XCTAssertEqual(network.recordedRequests.first?.header("X-App-Version"), "3.2")
        XCTAssertEqual(network.recordedRequests.first?.header("Authorization"), "Bearer abc")
    }
}

/// The README's presenter test with a token refresh.
final class TodoListRefreshTests: XCTestCase {
    private let view = SpyTodoListView()

    func testAnExpiredTokenIsRefreshedAndTheTodosShown() {
        let refreshes = Counter()  // the refresh is @Sendable: no captured `var`
        let authenticator = BearerTokenAuthenticator(accessToken: "expired") { completion in
            refreshes.increment()
            completion(.success("fresh"))  // at once: the dummy stays synchronous
        }
        let network = DummyNetworkLayer(interceptors: [authenticator])
        let expired = NetworkError.unacceptableStatusCode(401, body: Data(), headers: [:])
        network.stub(
            .get, "https://api.example.com/todos",
            outcomes: [.failure(expired), .success([Todo(id: 1, title: "Write tests")])])

        TodoListPresenter(view: view, networkLayer: network).load()

        XCTAssertEqual(view.todos, [Todo(id: 1, title: "Write tests")])
        XCTAssertEqual(refreshes.value, 1)
        XCTAssertEqual(
            network.recordedRequests.map { $0.header("Authorization") }, ["Bearer expired", "Bearer fresh"])
    }
}

/// A count a `@Sendable` closure can change.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0  // guarded by `lock`

    var value: Int { lock.withLock { count } }

    func increment() {
        lock.withLock { count += 1 }
    }
}
