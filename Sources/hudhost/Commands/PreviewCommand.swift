// SPDX-License-Identifier: MIT
import HudRegistry
import HudPresentation
import HudScenes
import HudHTTPServer
import HudSystem

/// `hudhost preview`: the HUD in a browser. Serves a page on 127.0.0.1 that
/// shows the current frame and turns mouse and touch input into the shell's
/// pointer events; reloads when a plugin file or the scene file changes
/// (Docs/PREVIEW.md).
struct PreviewCommand: Command {
    static let name = "preview"
    static let summary = "Serve a live, clickable preview of the HUD on 127.0.0.1 (reloads on rebuild)"
    static let scene = Option.value("--scene", "FILE", .file, "a JSON scene (hud-scenes(5)) instead of the demo set; reloaded when it changes")
    static let style = Option.value("--style", "ID", "tray (default), scattered, minimal, or any renderer id")
    static let port = Option.value("--port", "N", "the port on 127.0.0.1 (default 0: a free one)")
    static let open = Option.flag("--open", "also open the page with xdg-open (through a private launcher file: the token is in no command line)")
    static let longPress = Option.value("--long-press", "S", "long-press threshold in seconds (default 0.45)")
    static let requestTimeout = Option.value("--request-timeout", "S", "a connection must send each whole request within S seconds of opening or of its previous answer, or it is closed (default 10)")
    static let options = [scene, style, port, open, longPress, requestTimeout] + EnvironmentOptions.options + RegistryOptions.options
    static let help = HelpPage(
        usage: """
            hudhost preview [--scene FILE] [--plugin PATH]... [--style ID] [--device ID]
                                   [--port N] [--open] [options]
            """,
        description: """
            Serves a live preview of the HUD on 127.0.0.1 only. The first line on
            stdout is the page's URL, with this run's random access token
            (http://127.0.0.1:PORT/?token=…); every request without the token is
            refused (401, or 403 for a wrong one), and so is any request whose Host
            header is not 127.0.0.1:PORT or localhost:PORT (DNS rebinding).

            The page shows the current frame (the SVG picture, in its device frame)
            and controls for the style (every registered renderer), device,
            orientation, direction, text size, appearance and scheme, the control
            deck and the page stack, and lists the actions fired. Mouse and touch
            input become the shell's pointer events with their times, so taps,
            long presses (0.45 s), slop (10 pt) and mode picks behave as in
            --events scripts (hud-events(7)); Escape is sent as `key escape`.

            When a --plugin file (or any plugin file on the search path) or the
            --scene file changes, the plugin's renderer host is restarted on the new
            file, or the scene is read again, and the page updates; the page stack,
            revealed modes and style are kept. A rebuild that cannot be used (load
            failure, crash, invalid layout, broken scene) is shown in the page with
            the reason, over the last good frame. Stop it with Ctrl-C.
            """,
        sections: [
            HelpSection("HTTP API", remark: "the token as ?token=… or in an X-Hud-Token header", [.text("""
                GET /api/state: the state as JSON (style, device, revealed position,
                deck, page stack, actions fired, renderers, and a version that grows
                with every change of the frame or reload).

                GET /api/frame.svg: the current frame; GET /api/frame.png: the same
                frame drawn by librsvg at 2 pixels per point.

                POST /api/events: a body in the --events grammar, e.g.
                "longpress center"; answers the new state.

                POST /api/settings: a JSON object with any of style, device,
                orientation, direction, textSize, appearance, scheme, push, pop.

                GET /api/stream: server-sent events, one per new version.
                """)]),
            .options(options),
            HelpSection("ENVIRONMENT", RegistryOptions.environment.blocks + [
                .text("Preview needs process isolation: reloading a plugin restarts its renderer host."),
            ]),
            .examples("""
                hudhost preview
                hudhost preview --plugin ./libmyhud.so --style org.example.myhud
                hudhost preview --scene "$(hudhost sdk --doc-dir)/examples/home.json" --device iphone-se --rtl
                curl -s -X POST --data 'longpress center' "http://127.0.0.1:PORT/api/events?token=TOKEN"
                """),
            .exitCodes("""
                For preview: 1 also when the server cannot start: the port is in
                use, or libmicrohttpd.so.12 (Debian package libmicrohttpd12) is
                missing (it is loaded when preview starts, by no other command).
                """),
        ])

    /// The daemon of the running preview, kept for the process's life.
    private static let running = ThreadLock<HTTPDaemon?>(nil)

    let registryOptions: RegistryOptions
    let environmentOptions: EnvironmentOptions
    let style: HudPhoneComplicationsStyle?
    let scenePath: String?
    let port: UInt16
    let open: Bool
    let longPress: Double?
    let requestTimeout: Double?
    let settings: PreviewSettings
    let title: String?

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else { throw UsageError("preview takes no arguments; got '\(arguments.positionals[0])'") }
        registryOptions = try RegistryOptions(arguments)
        guard registryOptions.isolation == .process else {
            throw UsageError("preview reloads a plugin by restarting its renderer host; --isolation in-process (or HUD_ISOLATION=in-process) cannot reload, use process")
        }
        environmentOptions = try EnvironmentOptions(arguments, defaultTitle: nil)
        style = arguments.value(Self.style).map(HudPhoneComplicationsStyle.init(name:))
        scenePath = arguments.value(Self.scene).map(Output.absolute)
        port = try arguments.value(Self.port, accepted: "a port number from 0 to 65535") { UInt16($0) } ?? 0
        open = arguments.flag(Self.open)
        longPress = try arguments.seconds(Self.longPress, atLeast: 0.05, atMost: 10)
        requestTimeout = try arguments.seconds(Self.requestTimeout, atLeast: 0.5, atMost: 600)
        let environment = environmentOptions.environment
        settings = PreviewSettings(device: environmentOptions.device, orientation: environmentOptions.orientation,
                                   direction: environment.layoutDirection, textSize: TextSizeCategory.allCases.first { $0.scale == environment.textScale } ?? .large,
                                   appearance: environment.appearance, scheme: environment.colorScheme, accessibility: environment.accessibility)
        title = environment.navigationTitle
    }

    func run() -> ExitCode {
        SystemCalls.ignoreBrokenPipe()
        SystemCalls.unblockTerminationSignals()
        // libmicrohttpd is opened here, not at start-up (no other command
        // pays for it): without it there is no server, so say so before any
        // plugin is loaded. A start failure, like a port in use: exit 1.
        if case .failure(let error) = HTTPDaemon.loadLibrary() {
            Output.error("hudhost preview: error: \(error)")
            return .failure
        }
        var scene: SceneFile?
        if let scenePath {
            switch SceneLoader.load(scenePath) {
            case .success(let loaded): scene = loaded
            case .failure(let failure):
                failure.report()
                return failure.exit
            }
        }
        let (registry, explicit, catalog) = registryOptions.makeRegistry()
        if !explicit.isEmpty {
            explicit.forEach(report)
            return .unusableTarget
        }
        let chosen = style ?? scene?.style ?? .tray
        if registry.info(id: chosen.rendererID) == nil {
            let failure = RendererLookup(id: chosen.rendererID, registry: registry, report: catalog).failure
            failure.report()
            return failure.exit
        }
        guard let token = PreviewServer.makeToken() else {
            Output.error("hudhost preview: error: cannot read /dev/urandom for the access token")
            return .failure
        }
        let mailbox: PreviewMailbox
        do {
            mailbox = try PreviewMailbox()
        } catch {
            Output.error("hudhost preview: error: cannot make a pipe: \(error)")
            return .failure
        }
        let broadcast = PreviewBroadcast()
        // Every plugin file a renderer host serves (explicit and from the
        // search path), by the path given and by its canonical path, and the scene.
        var watched: [String: PreviewWatcher.Target] = [:]
        for path in registry.allHosts.keys {
            watched[path] = PreviewWatcher.Target(path: path, kind: .plugin)
        }
        for path in registryOptions.plugins.map(Output.absolute) {
            if case .success(let canonical) = SystemCalls.realPath(path), registry.host(forPath: canonical) != nil {
                watched[path] = PreviewWatcher.Target(path: canonical, kind: .plugin)
            }
        }
        if let scenePath { watched[scenePath] = PreviewWatcher.Target(path: scenePath, kind: .scene) }
        let session = PreviewSession(registry: registry, scene: scene, scenePath: scenePath, style: chosen, settings: settings, title: title,
                                     longPress: longPress, watch: watched, mailbox: mailbox, broadcast: broadcast)
        broadcast.publish(session.version)

        // The server answers 403 to everything until it knows the port.
        let server = PreviewServer(token: token, mailbox: mailbox, broadcast: broadcast)
        let daemon: HTTPDaemon
        do {
            daemon = try HTTPDaemon(port: port, bodyLimit: PreviewServer.bodyLimit, requestDeadlineSeconds: requestTimeout ?? 10,
                                    admits: server.admits, handler: server.handle)
        } catch {
            let hint = if case .cannotListen = error { "; choose another --port (0 picks a free one)" } else { "" }
            Output.error("hudhost preview: error: \(error)\(hint)")
            return .failure
        }
        server.listening(on: daemon.port)
        let url = "http://127.0.0.1:\(daemon.port)/?token=\(token)"
        Output.line(url)
        Output.error("hudhost preview: serving \(chosen) on \(environmentOptions.device.id); watching \(Set(watched.values).count) file\(Set(watched.values).count == 1 ? "" : "s") for changes; Ctrl-C stops")
        for problem in session.watchProblems { Output.error("hudhost preview: note: \(problem); files there are not reloaded") }
        if open { Self.openInBrowser(url, server: server) }
        // `session.run()` never returns, so nothing after it is reachable
        // and `withExtendedLifetime` around it did not hold: a release build
        // released the daemon (stopping it: nothing listened) right after
        // the URL was printed. The process-wide slot keeps it to the end.
        Self.running.withLock { $0 = daemon }
        session.run()
    }

    /// Opens the page with `xdg-open`, not waited for (a note if there is
    /// none), without putting the token in any process's command line,
    /// which every local user can read (`/proc/PID/cmdline`): xdg-open is
    /// given a launcher file — a page that sends the browser on to `url`,
    /// mode 0600 in a new 0700 directory — removed with its directory as
    /// soon as the page is served with the token.
    private static func openInBrowser(_ url: String, server: PreviewServer) {
        let parent = SystemCalls.secureEnvironment("XDG_RUNTIME_DIR").flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        let directory: String
        switch SystemCalls.makePrivateDirectory(in: parent, prefix: "hudhost-preview-") {
        case .success(let made): directory = made
        case .failure(let error):
            Output.error("hudhost preview: note: could not make a launcher for the browser in \(parent) (\(error)); open the URL above yourself")
            return
        }
        let launcher = directory + "/open.html"
        let page = "<!doctype html><meta charset=\"utf-8\"><meta http-equiv=\"refresh\" content=\"0;url=\(url)\"><title>hudhost preview</title><a href=\"\(url)\">hudhost preview</a>\n"
        if case .failure(let error) = SystemCalls.writeFile(launcher, Array(page.utf8), mode: 0o600) {
            Output.error("hudhost preview: note: could not write \(launcher) (\(error)); open the URL above yourself")
            _ = SystemCalls.removeDirectory(directory)
            return
        }
        server.onFirstPage.withLock { action in
            action = {
                _ = SystemCalls.removeFile(launcher)
                _ = SystemCalls.removeDirectory(directory)
            }
        }
        var request = SpawnRequest(executable: "xdg-open", arguments: [launcher])
        request.searchPath = true
        request.redirections = [.open(descriptor: 0, path: "/dev/null", mode: .read), .duplicate(from: 2, to: 1)]
        if case .failure(let error) = SystemCalls.spawn(request) {
            Output.error("hudhost preview: note: could not run xdg-open (\(error)); open the URL above yourself")
        }
    }
}
