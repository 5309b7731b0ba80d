#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The sandbox as an unprivileged user (CI runs as root; the layers must hold
# for both). Creates a system user, has it scan a plugin whose init() tries
# to escape (Tests/Fixtures/discovery/escape_attempts.c: write a file the
# user may write, read a file the user may read, fork, open an internet
# socket, exec, signal its parent, read its memory, raise a limit), and fails unless every layer is active for that
# user and the scan lists the plugin (its init() succeeds only if every
# attempt was refused) without the file appearing, and a plugin that starts
# threads until refused (many_tasks.c) meets the task limit, and one that
# changes the user's file's mode and times, has the kernel signal hudhost,
# changes hudhost's CPU affinity and its own parent-death signal
# (breakout_attempts.c) is refused each time and changes nothing.
#
#   Scripts/unprivileged-sandbox.sh BIN_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: $0 BIN_DIR}
user=hudci
# (A second run at the same moment may add it first: then it exists.)
id -u "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user" || id -u "$user" >/dev/null

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 0755 "$work"
mkdir "$work/plugins" "$work/home" "$work/target"
for fixture in escape_attempts many_tasks breakout_attempts; do
  cc -std=c11 -O2 -Wall -Wextra -Werror -shared -fPIC -I Sources/HudRendererAPI/include/hud -I Tests/Fixtures/plugins \
    "Tests/Fixtures/discovery/$fixture.c" -o "$work/plugins/$fixture.so"
done
echo "the user's own file, not for plugins" >"$work/home/secret"
# What breakout_attempts.c tries to chmod, chown and touch: nothing else
# writes here (the cache goes to $HOME/.cache, which changes $HOME itself).
echo "the user's file" >"$work/target/file"
chown -R "$user" "$work/plugins" "$work/home" "$work/target"
chmod 0755 "$work/plugins" "$work/home" "$work/target"

as_user() {
  runuser -u "$user" -- env -i PATH=/usr/bin:/bin HOME="$work/home" HUD_RENDERER_PATH="$work/plugins" \
    HUD_ESCAPE_FILE="$work/plugins/escaped" HUD_ESCAPE_PORT=9 HUD_ESCAPE_EXEC=1 HUD_ESCAPE_FORK=1 HUD_ESCAPE_READ="$work/home/secret" HUD_ESCAPE_SCRATCH=hud-unprivileged-scratch \
    HUD_BREAKOUT_TARGET="$work/target/file" HUD_BREAKOUT_SIGNALS=1 HUD_BREAKOUT_AFFINITY=1 HUD_BREAKOUT_PDEATHSIG=1 "$@"
}

doctor=$(as_user "$bin/hudhost" doctor --json)
if ! grep -q '"complete": *true' <<<"$doctor"; then
  echo "unprivileged-sandbox: not every layer is active for $user:" >&2
  echo "$doctor" >&2
  exit 1
fi
# Mode, owner, group, mtime and ctime (which every chmod, chown or utimensat
# moves, to the nanosecond).
footprint() { stat -c '%a %u %g %.9Y %.9Z' "$work/target/file" "$work/target" | tr '\n' ' '; }
before=$(footprint)
listing=$(as_user "$bin/hudhost" list --json)
if ! grep -q '"org.fixture.escape-attempts"' <<<"$listing" || ! grep -q '"org.fixture.many-tasks"' <<<"$listing" \
  || ! grep -q '"org.fixture.breakout-attempts"' <<<"$listing" || grep -q '"init-failed"' <<<"$listing"; then
  echo "unprivileged-sandbox: a plugin was not contained (escape_attempts.c or breakout_attempts.c saw an attempt succeed, or many_tasks.c started 300 threads):" >&2
  echo "$listing" >&2
  exit 1
fi
if [[ "$(footprint)" != "$before" ]]; then
  echo "unprivileged-sandbox: the plugin changed the mode, owner or times of $work/target/file or its directory: $before -> $(footprint)" >&2
  exit 1
fi
if [[ -e "$work/plugins/escaped" ]]; then
  echo "unprivileged-sandbox: the plugin wrote $work/plugins/escaped" >&2
  exit 1
fi
echo "unprivileged-sandbox: every layer active for $user; the escaping plugin was contained; the task limit held"
