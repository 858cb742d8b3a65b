/// The sample model the tests send and receive.
struct Employee: Codable, Equatable, Sendable {
    var name: String
    var salary: String
    var age: String
}
