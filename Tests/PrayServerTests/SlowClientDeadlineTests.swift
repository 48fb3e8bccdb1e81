// The server is libmicrohttpd, a Linux dependency of PrayServer (Package.swift).
#if canImport(CMicroHTTPD)
    import Testing

    @testable import PrayServer

    /// The server's deadline for a connection to send its request head (the slowloris defence).
    @Suite struct SlowClientDeadlineTests {
        @Test func aConnectionIsOverdueOnlyAfterTheTimeout() {
            let second: UInt64 = 1_000_000_000
            // Given: a 15 s timeout
            let timeout = 15 * second
            // Then: waiting 14 s is not overdue, 16 s is, and a request in progress never is
            #expect(!MicroHTTPDContext.isOverdue(waitingSince: 100 * second, now: 114 * second, timeout: timeout))
            #expect(MicroHTTPDContext.isOverdue(waitingSince: 100 * second, now: 116 * second, timeout: timeout))
            #expect(!MicroHTTPDContext.isOverdue(waitingSince: nil, now: 116 * second, timeout: timeout))
        }

        @Test func aConnectionThatJustFinishedARequestIsNotCutOff() {
            // Given: a connection whose wait began a moment after the sweep read the clock (another thread
            // finished its request in between)
            let now: UInt64 = 5_000_000_000
            // Then: it is not overdue (a wrapping difference once made it look 584 years late, and the sweep
            // cut off a healthy keep-alive connection under load)
            #expect(!MicroHTTPDContext.isOverdue(waitingSince: now + 1, now: now, timeout: 15_000_000_000))
            #expect(!MicroHTTPDContext.isOverdue(waitingSince: now, now: now, timeout: 0))
        }
    }
#endif
