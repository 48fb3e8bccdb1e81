import PrayCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The screen of `praykit serve --display` and its month page, following the saved place: when
/// ``update(_:)`` is given a screen other than the one shown (`config set city` moved the place, or
/// another method was saved), their routes are made again for it, and the event streams of the old
/// ones end, so that every open page reconnects, hears the new model's tag and fetches it. What the
/// routes read at each answer (iqama, Jumu'ah, the chosen mosque) needs none of this.
final class FollowedScreen: Sendable {
    private struct Current {
        var screen: DisplayAPI.Screen
        var display: any ServerRoutes
        var pages: any ServerRoutes
    }

    private let current: Mutex<Current>
    private let make: @Sendable (DisplayAPI.Screen) -> (display: any ServerRoutes, pages: any ServerRoutes)

    /// Routes for `screen`, made by `make` (the screen's and the pages'), now and at each change.
    init(
        _ screen: DisplayAPI.Screen,
        make: @escaping @Sendable (DisplayAPI.Screen) -> (display: any ServerRoutes, pages: any ServerRoutes)
    ) {
        let routes = make(screen)
        current = Mutex(Current(screen: screen, display: routes.display, pages: routes.pages))
        self.make = make
    }

    /// The screen shown now.
    var screen: DisplayAPI.Screen { current.withLock { $0.screen } }

    /// The screen's routes (`/display…`), whichever screen is current.
    var display: any ServerRoutes { Part(owner: self, isDisplay: true) }

    /// The pages' routes (`/month…`, `/m/…`), whichever screen is current.
    var pages: any ServerRoutes { Part(owner: self, isDisplay: false) }

    /// Shows `screen` from now on, when it is another place, zone, method or name than the one shown
    /// (the day it was resolved on does not count).
    /// - Returns: Whether the routes were made again.
    @discardableResult
    func update(_ screen: DisplayAPI.Screen) -> Bool {
        guard !Self.same(screen, self.screen) else { return false }
        let routes = make(screen)
        let old = current.withLock { current in
            defer { current = Current(screen: screen, display: routes.display, pages: routes.pages) }
            return current
        }
        old.display.endStreams()
        old.pages.endStreams()
        return true
    }

    /// Whether two screens show the same, whatever day each was resolved on.
    static func same(_ first: DisplayAPI.Screen, _ second: DisplayAPI.Screen) -> Bool {
        var first = first
        first.prepared.request.date = second.prepared.request.date
        first.prepared.request.days = second.prepared.request.days
        return first == second
    }

    /// One of the two: answers with the current routes.
    private struct Part: ServerRoutes {
        let owner: FollowedScreen
        let isDisplay: Bool

        func respond(to request: ServerAPI.Request) -> ServerAPI.Response { routes.respond(to: request) }
        func storeChanged() { routes.storeChanged() }
        func endStreams() { routes.endStreams() }

        private var routes: any ServerRoutes {
            owner.current.withLock { isDisplay ? $0.display : $0.pages }
        }
    }
}
