package import HudModel
package import HudRendererAPI

/// Package-only entry points for `hudbench`: the C inputs the registry
/// builds for a layout call (so the benchmark can call a renderer's layout
/// pointer directly, without the registry, on identical inputs), and raw
/// action thunks. Nothing here is public API; nothing here is used by the
/// host itself.
package enum BenchmarkHooks {
    /// Runs `body` with exactly the C inputs `RendererRegistry.layout` passes
    /// to a renderer: the snapshot's marshaled view, the environment and the
    /// interaction. The pointers are valid only inside `body`.
    package static func withLayoutInputs<R>(
        snapshot: CComplications, environment: HudEnvironment, interaction: HudInteraction,
        _ body: (UnsafePointer<hud_complications_t>, UnsafePointer<hud_environment_t>, UnsafePointer<hud_interaction_t>) -> R
    ) -> R {
        var interactionView = InteractionMarshaler.make(interaction)
        return EnvironmentMarshaler.with(environment) { env in
            withUnsafePointer(to: &interactionView) { body(UnsafePointer(snapshot.view), env, $0) }
        }
    }

    /// Makes one action thunk (a libffi closure), as publishing does per action.
    package static func makeThunk(_ action: @escaping () -> Void) throws(RegistryError) -> BenchmarkThunk {
        BenchmarkThunk(try ActionThunk(action))
    }
}

/// One action thunk, for measuring create, call and retire on their own.
package struct BenchmarkThunk {
    private let thunk: ActionThunk

    fileprivate init(_ thunk: ActionThunk) { self.thunk = thunk }

    /// The C pointer plugins receive.
    package var function: @convention(c) () -> Void { thunk.function }

    /// Ends its life as a snapshot release does (into the quarantine).
    package func retire() { thunk.retire() }
}
