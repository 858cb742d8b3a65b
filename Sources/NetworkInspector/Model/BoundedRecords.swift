/// Records by identifier in the order they were first added, at most `limit`: adding one more evicts the
/// oldest. A value; its owner locks it.
struct BoundedRecords<Record> {
    let limit: Int
    private var records: [String: Record] = [:]
    /// Identifiers, oldest first, from `head` on; the evicted ones before `head` are dropped in batches,
    /// so an eviction doesn't move the whole array.
    private var order: [String] = []
    private var head = 0

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    var count: Int { records.count }

    /// The records, oldest first.
    var all: [Record] {
        order[head...].compactMap { records[$0] }
    }

    /// Changes the record `id`, made by `make` if absent (nothing happens when `make` gives `nil`).
    ///
    /// - Returns: The record as changed, and how many records were evicted to make room (0 or 1).
    mutating func update(_ id: String, make: () -> Record?, _ change: (inout Record) -> Void) -> (
        record: Record?, evicted: Int
    ) {
        if let index = records.index(forKey: id) {
            // In place: a copy taken out and put back would copy each array the change appends to.
            change(&records.values[index])
            return (records.values[index], 0)
        }
        guard var record = make() else { return (nil, 0) }
        change(&record)
        records[id] = record
        order.append(id)
        var evicted = 0
        while records.count > limit {
            records[order[head]] = nil
            head += 1
            evicted += 1
        }
        if head > 64, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
        return (record, evicted)
    }

    mutating func removeAll() {
        records = [:]
        order = []
        head = 0
    }
}
