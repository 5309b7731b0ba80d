// SPDX-License-Identifier: MIT
// A host links HudRegistry and sees the whole host API: the seed's model,
// the environment, layouts and renderer descriptions live in HudModel (the
// vocabulary the internal HudPluginBoundary target also speaks) and are re-exported
// here, so `import HudRegistry` is all a host writes.
@_exported public import HudModel
