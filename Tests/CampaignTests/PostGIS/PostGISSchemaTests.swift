import Campaign
import Testing

/// Where a database's flyr_migrations stand, as input/expected pairs (no server needed).
struct PostGISSchemaTests {
    static let all = PostGISSchema.migrations.map { (id: $0.id, name: $0.name) }

    @Test func migrationsAreNumberedInOrderWithUniqueNames() {
        let ms = PostGISSchema.migrations
        #expect(ms.map(\.id) == Array(1...ms.count))
        #expect(Set(ms.map(\.name)).count == ms.count)
        for m in ms { #expect(m.name.hasPrefix(String(format: "%03d ", m.id))) }
    }

    @Test func state() {
        #expect(PostGISSchema.state(applied: []) == .behind(applied: 0))
        #expect(PostGISSchema.state(applied: Array(Self.all.prefix(1))) == .behind(applied: 1))
        #expect(PostGISSchema.state(applied: Self.all) == .current)
        #expect(PostGISSchema.state(applied: Self.all + [(id: 99, name: "099 later")]) == .ahead(unknown: ["099 later"]))
        #expect(PostGISSchema.state(applied: [(id: 1, name: "001 something else")])
                == .diverged(id: 1, database: "001 something else", expected: PostGISSchema.migrations[0].name))
    }
}
