#!/usr/bin/env bash
# Runs the local Garden (etcd, kube-apiserver, gardener-apiserver and Gardener's cloud-profile
# controllers; see garden/cmd/local-garden) in the background.
#
# Usage:
#   scripts/garden.sh up [LOCAL-GARDEN FLAGS...]   start it (if not running); prints the admin kubeconfig path
#   scripts/garden.sh down                         stop it (idempotent)
#   scripts/garden.sh run -- CMD [ARGS...]         up, run CMD, down (only if this call started it);
#                                                  exits with CMD's status
#
# CMD sees KUBECONFIG and GARDEN_KUBECONFIG (admin), GARDEN_PROJECT_KUBECONFIG (user of the project
# GARDEN_PROJECT), GARDEN_CONTROL_ADDR (POST /controllers/pause and /controllers/resume) and
# GARDEN_PGID (the process group of the Garden's processes, whose CPU time make bench reports).
#
# Environment: GARDEN_FEATURE_GATES (gardener-apiserver's --feature-gates, default
# VersionClassificationLifecycle=true; the acceptance tests read it too), GARDEN_PROJECT (default
# demo), GARDEN_EXTENSION_ADMISSION (local-garden's --extension-admission: `local`, the default, runs
# provider-local's admission webhooks for cloud profiles and Shoots of type local, as a real Garden
# runs its provider extensions'; `none` runs none; a running Garden is reused whatever its setting, so
# `down` first to change it), GARDEN_TIMEOUT (seconds to wait for readiness, default 180),
# KUBEBUILDER_ASSETS (folder with etcd and kube-apiserver, default .cache/assets).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
state="$root/.cache/garden"
bin="$root/.cache/bin/local-garden"
pidfile="$state/pid"
logfile="$state/garden.log"
kubeconfig="$state/admin.kubeconfig"
project="${GARDEN_PROJECT:-demo}"
extension_admission="${GARDEN_EXTENSION_ADMISSION:-local}"
timeout="${GARDEN_TIMEOUT:-180}"
assets="${KUBEBUILDER_ASSETS:-$root/.cache/assets}"

log() { echo "garden: $*" >&2; }

# running succeeds if the recorded process group still has a member.
running() {
  [ -f "$pidfile" ] && kill -0 -- "-$(cat "$pidfile")" 2>/dev/null
}

ready_line() { grep -m1 '^local-garden: ready ' "$logfile" 2>/dev/null || true; }

ensure_assets() {
  if [ ! -x "$assets/etcd" ] || [ ! -x "$assets/kube-apiserver" ]; then
    log "building control-plane binaries into $assets"
    "$root/scripts/build-assets.sh" "$assets" >/dev/null
  fi
}

# source_hash prints a hash of what the local-garden binary is built from: the content and paths of
# garden/**/*.go, go.mod and go.sum, and the Go version. Content, not file times, so that a fresh
# clone or checkout reuses a binary built from the same sources.
source_hash() {
  {
    (cd "$root/garden" && find . -type f \( -name '*.go' -o -name go.mod -o -name go.sum \) -print0 |
      LC_ALL=C sort -z | xargs -0 sha256sum)
    go env GOVERSION
  } | sha256sum | cut -d' ' -f1
}

# ensure_binary builds local-garden unless the binary's recorded source hash ($bin.sha256) is the
# sources' hash; a new binary is moved into place with a rename, then its hash recorded.
ensure_binary() {
  local hash
  hash="$(source_hash)"
  if [ -x "$bin" ] && [ "$(cat "$bin.sha256" 2>/dev/null)" = "$hash" ]; then
    return 0
  fi
  log "building local-garden (the first build takes several minutes)"
  mkdir -p "$(dirname "$bin")"
  (cd "$root/garden" && go build -o "$bin.tmp.$$" ./cmd/local-garden) || { rm -f "$bin.tmp.$$"; return 1; }
  mv -f "$bin.tmp.$$" "$bin"
  echo "$hash" >"$bin.sha256.tmp.$$"
  mv -f "$bin.sha256.tmp.$$" "$bin.sha256"
}

wait_ready() { # pid
  local deadline=$((SECONDS + timeout))
  while [ -z "$(ready_line)" ]; do
    if ! kill -0 "$1" 2>/dev/null; then
      log "local-garden exited before it was ready; last log lines:"
      tail -n 40 "$logfile" >&2
      down
      return 1
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      log "local-garden not ready after ${timeout}s; last log lines:"
      tail -n 40 "$logfile" >&2
      down
      return 1
    fi
    sleep 0.2
  done
}

up() {
  if running && [ -n "$(ready_line)" ]; then
    echo "$kubeconfig"
    return 0
  fi
  down
  ensure_assets
  ensure_binary
  mkdir -p "$state"
  : >"$logfile" # no ready line of an earlier run may count
  log "starting local-garden (log: $logfile)"
  # Not being a group leader, the background child lets setsid make it a session and group leader
  # without forking, so $! is both its pid and its process group id.
  setsid "$bin" --assets "$assets" --kubeconfig "$kubeconfig" --project "$project" \
    --control-addr 127.0.0.1:0 --extension-admission "$extension_admission" ${GARDEN_FEATURE_GATES:+--feature-gates "$GARDEN_FEATURE_GATES"} "$@" >"$logfile" 2>&1 </dev/null &
  local pid=$!
  echo "$pid" >"$pidfile"
  wait_ready "$pid"
  log "ready after ${SECONDS}s"
  echo "$kubeconfig"
}

down() {
  [ -f "$pidfile" ] || return 0
  local pgid
  pgid="$(cat "$pidfile")"
  if kill -0 -- "-$pgid" 2>/dev/null; then
    kill -TERM -- "-$pgid" 2>/dev/null || true
    local deadline=$((SECONDS + 30))
    while kill -0 -- "-$pgid" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.1; done
    if kill -0 -- "-$pgid" 2>/dev/null; then
      log "process group $pgid still alive after 30s; killing it"
      kill -KILL -- "-$pgid" 2>/dev/null || true
      while kill -0 -- "-$pgid" 2>/dev/null; do sleep 0.1; done
    fi
    log "stopped"
  fi
  rm -f "$pidfile"
}

child=""

# on_signal stops CMD and exits with the given status (the EXIT trap, if set, then stops the Garden).
on_signal() {
  if [ -n "$child" ]; then
    kill -TERM "$child" 2>/dev/null || true
    wait "$child" 2>/dev/null || true
  fi
  exit "$1"
}

run() {
  [ "${1:-}" = "--" ] && shift
  [ "$#" -gt 0 ] || { echo "usage: $0 run -- CMD [ARGS...]" >&2; return 2; }
  running || trap down EXIT
  trap 'on_signal 130' INT
  trap 'on_signal 143' TERM
  up >/dev/null
  local line
  line="$(ready_line)"
  export KUBECONFIG="$kubeconfig" GARDEN_KUBECONFIG="$kubeconfig"
  export GARDEN_PROJECT_KUBECONFIG="$state/project-$project.kubeconfig"
  export GARDEN_CONTROL_ADDR="${line##* control=}"
  GARDEN_PGID="$(cat "$pidfile")"
  export GARDEN_PGID
  # CMD runs in the background so that a signal to this script is handled at once rather than after
  # CMD ends; the explicit redirect keeps CMD's stdin.
  "$@" <&0 &
  child=$!
  local status=0
  wait "$child" || status=$?
  child=""
  return "$status"
}

cmd="${1:-}"
[ "$#" -gt 0 ] && shift
case "$cmd" in
  up) up "$@" ;;
  down) down ;;
  run) run "$@" ;;
  *) echo "usage: $0 up [FLAGS...] | down | run -- CMD [ARGS...]" >&2; exit 2 ;;
esac
