/// An employee, as the demo API serves it.
struct Employee: Codable, Equatable {
    var id: Int?
    var name: String
    var role: String
}
