// SPDX-License-Identifier: MIT
public import HudRegistry
/// A small language for scripting the shell (`hudhost render --events`):
///
///     script := step (";" | newline) step ...
///     step   := verb [target] ["@" seconds]
///     verb   := tap | longpress | press | release | move | wait | key
///     target := topLeft | topRight | bottomLeft | bottomRight | center
///             | slot:<position> | secondary:<position> | mode:<mode id>
///             | pivot | close | backdrop | deck:<control>
///             | <x>,<y>                       (points)
///
/// `tap T` presses and releases 0.05 s later; `longpress T` holds past the
/// long-press threshold, then releases; `press T` / `release [T]` /
/// `move T` are the raw phases; `wait S` (or `wait Ss`) lets S seconds pass
/// (a held press becomes a long press, an expanded control deck may time
/// out); `key escape` presses Escape. `pivot`, `close` and `backdrop` are
/// the control deck's own controls. Each step starts 0.1 s after the
/// previous one ended, or at `@seconds` when given (absolute, never
/// backwards).
///
/// Example: `longpress center; tap mode:scattered`.
public struct EventScript: Sendable, Hashable {
    public var steps: [Step]

    public struct Step: Sendable, Hashable, CustomStringConvertible {
        public var verb: Verb
        public var target: Target?
        public var seconds: Double?
        /// The key of a `key` step.
        public var key: KeyEvent.Key?
        public var at: Double?
        /// The step as written.
        public var text: String
        public var description: String { text }
    }

    public enum Verb: String, Sendable, Hashable, CaseIterable {
        case tap, longpress, press, release, move, wait, key
    }

    public enum Target: Sendable, Hashable {
        case slot(Position)
        case secondary(Position)
        case mode(String)
        /// One of the control deck's own controls.
        case deck(HudDeckControl)
        case point(x: Double, y: Double)
    }

    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public var step: Int
        public var text: String
        public var reason: String
        public var description: String { "event \(step + 1) '\(text)': \(reason)" }
    }

    public init(parsing source: String) throws(ParseError) {
        steps = []
        let pieces = source.split(whereSeparator: { $0 == ";" || $0 == "\n" })
            .map { $0.trimmingWhitespace() }
            .filter { !$0.isEmpty }
        guard pieces.count <= 10_000 else {
            throw ParseError(step: 0, text: "", reason: "more than 10000 events")
        }
        for (index, piece) in pieces.enumerated() {
            steps.append(try Self.parseStep(piece, index: index))
        }
        guard !steps.isEmpty else { throw ParseError(step: 0, text: source, reason: "no events; e.g. \"longpress center; tap mode:scattered\"") }
    }

    private static func parseStep(_ text: String, index: Int) throws(ParseError) -> Step {
        func fail(_ reason: String) -> ParseError { ParseError(step: index, text: text, reason: reason) }
        var words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var at: Double?
        if let last = words.last, last.hasPrefix("@") {
            guard let value = Double(last.dropFirst()), value.isFinite, value >= 0, value <= 1e6 else {
                throw fail("'\(last)' is not a time; write @<seconds>, e.g. @1.5")
            }
            at = value
            words.removeLast()
        }
        guard let verbWord = words.first else { throw fail("missing verb") }
        guard let verb = Verb(rawValue: verbWord.lowercased()) else {
            throw fail("unknown verb '\(verbWord)'; use \(Verb.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let arguments = Array(words.dropFirst())
        switch verb {
        case .wait:
            // `wait 6` and `wait 6s` alike.
            let word = arguments.first.map { $0.lowercased().hasSuffix("s") ? String($0.dropLast()) : $0 } ?? ""
            guard arguments.count == 1, let seconds = Double(word), seconds.isFinite, seconds >= 0, seconds <= 3600 else {
                throw fail("wait takes a number of seconds from 0 to 3600, e.g. wait 0.5 or wait 6s")
            }
            return Step(verb: verb, target: nil, seconds: seconds, key: nil, at: at, text: text)
        case .key:
            let names = KeyEvent.Key.allCases.map(\.rawValue).joined(separator: ", ")
            guard arguments.count == 1 else { throw fail("key takes one key name, e.g. key escape (keys: \(names))") }
            let name = arguments[0].lowercased()
            guard let key = KeyEvent.Key(rawValue: name == "esc" ? "escape" : name) else {
                throw fail("unknown key '\(arguments[0])'; keys: \(names)")
            }
            return Step(verb: verb, target: nil, seconds: nil, key: key, at: at, text: text)
        case .release:
            guard arguments.count <= 1 else { throw fail("release takes at most one target") }
            let target = try arguments.first.map { word throws(ParseError) in try parseTarget(word, fail) }
            return Step(verb: verb, target: target, seconds: nil, key: nil, at: at, text: text)
        case .tap, .longpress, .press, .move:
            guard arguments.count == 1 else { throw fail("\(verb.rawValue) takes one target, e.g. \(verb.rawValue) center") }
            return Step(verb: verb, target: try parseTarget(arguments[0], fail), seconds: nil, key: nil, at: at, text: text)
        }
    }

    private static func parseTarget(_ word: String, _ fail: (String) -> ParseError) throws(ParseError) -> Target {
        if let colon = word.firstIndex(of: ":") {
            let kind = word[..<colon].lowercased()
            let value = String(word[word.index(after: colon)...])
            switch kind {
            case "mode":
                guard !value.isEmpty else { throw fail("mode: needs a mode id") }
                return .mode(value)
            case "slot", "secondary":
                guard let position = Position(name: value) else { throw fail("'\(value)' is not a position") }
                return kind == "slot" ? .slot(position) : .secondary(position)
            case "deck":
                guard let control = HudDeckControl(rawValue: value.lowercased()) else {
                    throw fail("'\(value)' is not a deck control; use \(HudDeckControl.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return .deck(control)
            default:
                throw fail("unknown target kind '\(kind)'; use slot:, secondary:, mode: or deck:")
            }
        }
        if let comma = word.firstIndex(of: ",") {
            guard let x = Double(word[..<comma]), let y = Double(word[word.index(after: comma)...]), x.isFinite, y.isFinite else {
                throw fail("'\(word)' is not a point; write x,y in points")
            }
            return .point(x: x, y: y)
        }
        if let control = HudDeckControl(rawValue: word.lowercased()) { return .deck(control) }
        guard let position = Position(name: word) else {
            throw fail("'\(word)' is not a target; use a position (topLeft, …, center), slot:/secondary:<position>, mode:<id>, pivot, close, backdrop or x,y")
        }
        return .slot(position)
    }
}

extension EventScript {
    /// A step aimed at a point outside a `width` × `height` pt screen.
    public struct PointOffScreen: Sendable, Hashable {
        public var index: Int
        public var step: Step
        public var x: Double
        public var y: Double
    }

    /// The steps whose target is an explicit point (`x,y`) outside the
    /// screen (x below 0 or above `width`, y below 0 or above `height`).
    public func points(outside width: Double, _ height: Double) -> [PointOffScreen] {
        steps.enumerated().compactMap { index, step in
            guard case .point(let x, let y)? = step.target, x < 0 || x > width || y < 0 || y > height else { return nil }
            return PointOffScreen(index: index, step: step, x: x, y: y)
        }
    }
}

/// Plays an `EventScript` against a shell.
public struct EventScriptRunner {
    public let shell: HudPhoneAppShell
    /// Gap between consecutive steps, and the length of a tap.
    public var gap = 0.1
    public var tapDuration = 0.05

    public init(shell: HudPhoneAppShell) {
        self.shell = shell
    }

    /// One step's effect.
    public struct StepResult: Sendable {
        public var step: EventScript.Step
        public var pointerEvents: [PointerEvent]
        /// The key a `key` step pressed.
        public var keyEvent: KeyEvent?
        public var events: [ShellEvent]
        public var interaction: HudInteraction
        public var style: HudPhoneComplicationsStyle
        /// The control deck after the step (nil under `.alwaysVisible`).
        public var deck: HudDeckStatus?
    }

    public enum Failure: Error, Sendable, CustomStringConvertible {
        case targetNotOnScreen(step: String, reason: String)
        case registry(RegistryError)

        public var description: String {
            switch self {
            case .targetNotOnScreen(let step, let reason): "'\(step)': \(reason)"
            case .registry(let error): error.description
            }
        }
    }

    /// Runs every step; stops at the first failure, returning what ran.
    public func run(_ script: EventScript, onStep: (StepResult) -> Void = { _ in }) throws(Failure) -> [StepResult] {
        var results: [StepResult] = []
        // Continue from the shell's own clock, so a second script never
        // replays time the shell has already seen.
        let origin = shell.clock.map { $0 + gap } ?? 0
        var clock = origin
        // An explicit `@seconds` is only kept from running backwards: it may
        // come as soon as the shell's own clock (the live preview sends
        // each pointer event as a one-step script with its real time).
        var earliest = shell.clock ?? 0
        var pointer: (x: Double, y: Double) = (0, 0)
        for step in script.steps {
            var start = results.isEmpty ? origin : clock + gap
            if let at = step.at { start = max(at, earliest) }
            var pointerEvents: [PointerEvent] = []
            var keyEvent: KeyEvent?
            switch step.verb {
            case .key:
                keyEvent = KeyEvent(step.key ?? .escape, time: start)
            case .wait:
                pointerEvents = [PointerEvent(.advance, x: pointer.x, y: pointer.y, time: start + (step.seconds ?? 0))]
                if step.at == nil { pointerEvents[0].time = clock + (step.seconds ?? 0) }
            case .tap:
                let point = try locate(step)
                pointerEvents = [PointerEvent(.down, x: point.x, y: point.y, time: start), PointerEvent(.up, x: point.x, y: point.y, time: start + tapDuration)]
            case .longpress:
                let point = try locate(step)
                let held = start + shell.longPressThreshold + tapDuration
                pointerEvents = [PointerEvent(.down, x: point.x, y: point.y, time: start), PointerEvent(.advance, x: point.x, y: point.y, time: held),
                                 PointerEvent(.up, x: point.x, y: point.y, time: held)]
            case .press:
                let point = try locate(step)
                pointerEvents = [PointerEvent(.down, x: point.x, y: point.y, time: start)]
            case .move:
                let point = try locate(step)
                pointerEvents = [PointerEvent(.move, x: point.x, y: point.y, time: start)]
            case .release:
                let point = step.target == nil ? pointer : try locate(step)
                pointerEvents = [PointerEvent(.up, x: point.x, y: point.y, time: start)]
            }
            var events: [ShellEvent] = []
            do {
                for event in pointerEvents {
                    events += try shell.send(event)
                    clock = max(clock, event.time)
                    earliest = max(earliest, event.time)
                    if event.phase != .advance { pointer = (event.x, event.y) }
                }
                if let keyEvent {
                    events += try shell.send(keyEvent)
                    clock = max(clock, keyEvent.time)
                    earliest = max(earliest, keyEvent.time)
                }
            } catch {
                throw .registry(error)
            }
            let result = StepResult(step: step, pointerEvents: pointerEvents, keyEvent: keyEvent, events: events, interaction: shell.interaction,
                                    style: shell.complicationsStyle, deck: shell.deckStatus)
            results.append(result)
            onStep(result)
        }
        return results
    }

    /// The point a step's target refers to on the current screen: the
    /// center of its node's hit region.
    private func locate(_ step: EventScript.Step) throws(Failure) -> (x: Double, y: Double) {
        guard let target = step.target else { throw .targetNotOnScreen(step: step.text, reason: "no target") }
        let layout: HudLayout
        do {
            layout = try shell.layout()
        } catch {
            throw .registry(error)
        }
        func center(_ node: HudNode?, _ what: String) throws(Failure) -> (x: Double, y: Double) {
            guard let node else { throw .targetNotOnScreen(step: step.text, reason: "\(what) is not on screen with style \(shell.complicationsStyle)") }
            let area = node.hit.isEmpty ? node.frame : node.hit
            return (area.midX, area.midY)
        }
        switch target {
        case .point(let x, let y):
            return (x, y)
        case .slot(let position):
            return try center(layout.nodes.first { $0.kind == .slot && $0.position == position }, "the \(position) slot")
        case .secondary(let position):
            return try center(layout.nodes.first { $0.kind == .secondary && $0.position == position }, "the \(position) secondary chip")
        case .deck(let control):
            guard let deck = shell.deckStatus else {
                throw .targetNotOnScreen(step: step.text, reason: "the \(control) is the control deck's, and this shell has none (presentation alwaysVisible; choose summonOnDemand)")
            }
            let node = layout.nodes.first { $0.deckControl == control }
            guard let node else {
                let shown = control == .pivot ? "only while the deck rests" : "only while the deck is expanded (tap pivot first)"
                throw .targetNotOnScreen(step: step.text, reason: "the \(control) is not on screen: the deck is \(deck.isExpanded ? "expanded" : "resting"), and the \(control) shows \(shown)")
            }
            if control == .backdrop {
                // A point where the backdrop itself is hit (it lies under everything else).
                let area = node.hit
                for row in [4, 3, 5, 2, 6, 1, 7] {
                    for column in [4, 3, 5, 2, 6, 1, 7] {
                        let x = area.minX + area.width * Double(column) / 8, y = area.minY + area.height * Double(row) / 8
                        if layout.hitTest(x: x, y: y)?.deckControl == .backdrop { return (x, y) }
                    }
                }
            }
            return try center(node, "the \(control)")
        case .mode(let id):
            guard let revealed = shell.interaction.revealedPosition else {
                // Which slots have modes, and which, so the fix is one step away.
                let offered = Position.allCases.compactMap { position -> String? in
                    guard let ids = try? shell.modeIDs(at: position), !ids.isEmpty else { return nil }
                    return "\(position) has \(ids.joined(separator: ", "))"
                }
                let exist = offered.isEmpty ? "no slot has modes" : "modes: " + offered.joined(separator: "; ")
                throw .targetNotOnScreen(step: step.text, reason: "mode '\(id)' is not on screen: no modes are revealed (long-press their slot first); \(exist); "
                                         + "a long press on the slot whose modes are shown (--reveal shows them) closes them")
            }
            let ids: [String]
            do {
                ids = try shell.modeIDs(at: revealed)
            } catch {
                throw .registry(error)
            }
            guard let index = ids.firstIndex(of: id) else {
                throw .targetNotOnScreen(step: step.text, reason: "the \(revealed) slot has no mode '\(id)'; its modes: \(ids.joined(separator: ", "))")
            }
            return try center(layout.nodes.first { $0.kind == .modeItem && $0.position == revealed && $0.modeIndex == index }, "mode '\(id)'")
        }
    }
}
