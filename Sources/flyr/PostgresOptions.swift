import ArgumentParser
import Campaign
import Dispatch
import Foundation

/// The product database and the campaign in it.
struct PostgresOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The product database: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.", valueName: "URL"))
    var postgres: String?
    @Option(name: .long, help: ArgumentHelp("With --postgres: the campaign's id.", valueName: "ID"))
    var campaign: String?

    func validate() throws {
        if let postgres {
            do { _ = try PostGISURL(parsing: postgres) } catch { throw ValidationError(error.description) }
            if campaign == nil { throw ValidationError("--postgres needs --campaign ID (the id flyr push printed)") }
        } else if campaign != nil {
            throw ValidationError("--campaign goes with --postgres URL, e.g. --postgres postgres://flyr@127.0.0.1/flyr --campaign ID")
        }
    }
}

/// Connects to the database at `url`, runs `body`, and closes the connection (also when
/// `body` throws). The calling thread waits: commands stay synchronous.
func withPostGIS<T: Sendable>(_ url: String, _ body: @escaping @Sendable (PostGISStore) async throws -> T) throws -> T {
    let parsed = try PostGISURL(parsing: url)
    return try waitFor { try await PostGISStore.using(parsed, body) }
}

/// Runs async work from synchronous code: a detached task does it while this thread waits on
/// a semaphore. Never call it from a task of the cooperative pool.
func waitFor<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = Outcome<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do { outcome.value = .success(try await work()) } catch { outcome.value = .failure(error) }
        done.signal()
    }
    done.wait()
    return try outcome.value!.get()
}

/// The result of `waitFor`'s task: written before the semaphore is signalled, read after the wait.
private final class Outcome<T>: @unchecked Sendable { var value: Result<T, Error>? }
