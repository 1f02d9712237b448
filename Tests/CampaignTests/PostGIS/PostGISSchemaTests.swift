@testable import Campaign
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

    /// Statements end at a `;` that ends a line, never inside a dollar-quoted body; `$1` is no quote.
    @Test func statementsKeepFunctionBodiesWhole() {
        let sql = """
            CREATE TABLE t (a int);
            CREATE FUNCTION f(x int) RETURNS int LANGUAGE plpgsql AS $$
            BEGIN
              RETURN $1 + 1;
            END
            $$;
            SELECT flyr_define_function('g()', $fn$
            CREATE FUNCTION g() RETURNS text LANGUAGE sql AS $$ SELECT 'a;
            b' $$
            $fn$);

            SELECT 1
            """
        #expect(PostGISStore.statements(sql) == [
            "CREATE TABLE t (a int)",
            "CREATE FUNCTION f(x int) RETURNS int LANGUAGE plpgsql AS $$\nBEGIN\n  RETURN $1 + 1;\nEND\n$$",
            "SELECT flyr_define_function('g()', $fn$\nCREATE FUNCTION g() RETURNS text LANGUAGE sql AS $$ SELECT 'a;\nb' $$\n$fn$)",
            "SELECT 1",
        ])
        #expect(PostGISStore.statements("SELECT 1;\nSELECT 2;") == ["SELECT 1", "SELECT 2"])
    }
}
