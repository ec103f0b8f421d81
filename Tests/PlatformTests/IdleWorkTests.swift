// Long work under the idle scheduling policy (the agent's audit): on a thread of its own, so that
// the thread that asked for it, which may serve other requests, keeps its own priority.

import Platform
import Testing

@Suite struct IdleWorkTests {
    struct Refusal: Error, Equatable {}

    @Test("the work runs under SCHED_IDLE; the calling thread does not, before or after")
    func theWorkAloneIsIdle() throws {
        #expect(!IdleWork.isCurrentThreadIdle)
        let inside = try IdleWork.run { IdleWork.isCurrentThreadIdle }
        #expect(inside)
        #expect(!IdleWork.isCurrentThreadIdle)
    }

    @Test("its result and its error come back to the caller")
    func resultAndError() throws {
        #expect(try IdleWork.run { (1 ... 100).reduce(0, +) } == 5050)
        #expect(throws: Refusal()) { try IdleWork.run { () throws -> Int in throw Refusal() } }
    }
}
