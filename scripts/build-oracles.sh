#!/usr/bin/env bash
# Builds the oracle of every known Gardener release (internal/conformance/oracle, see its README.md)
# into .cache/oracles/oracle-<release>, which the release tests of internal/conformance run
# (GARDENER_ORACLES). A binary is rebuilt only when its sources changed: the oracle's *.go, the
# release's go.mod and go.sum, and the Go version (recorded beside it as <binary>.sha256).
#
# Usage: scripts/build-oracles.sh [RELEASE...]   (default: every release with a go.mod in the folder)
#
# The module files of the releases up to v1.149.3 require the same dependency versions as go.mod
# and the local Garden (garden/go.mod), so that their builds share the Go build cache: a release
# compiles only Gardener's own packages (about 100 of its 1,750). v1.150.0 needs newer Kubernetes
# libraries and compiles them once. The builds use the Go build cache's usual flags (no -trimpath,
# which would share nothing with the local Garden's build). The shared source is vetted once, with
# go.mod's release, after the builds (vet computes facts of every dependency: minutes per release).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
src="$root/internal/conformance/oracle"
out="${GARDENER_ORACLES:-$root/.cache/oracles}"

log() { echo "oracles: $*" >&2; }

# modfile prints the go.mod of a release: gardener-<release>.mod, or go.mod for the release it
# requires.
modfile() {
  if [ -f "$src/gardener-$1.mod" ]; then
    echo "$src/gardener-$1.mod"
  elif grep -q "^	github.com/gardener/gardener $1\$" "$src/go.mod"; then
    echo "$src/go.mod"
  else
    log "no go.mod for Gardener $1 in $src"
    return 1
  fi
}

# releases prints every release that has a go.mod: first those whose module file has dependency
# versions of its own (v1.150.0), then those that share go.mod's (oldest first), then go.mod's
# release, so that make test's background build compiles the shared packages when the local Garden's
# build (make test-garden) has compiled them already.
releases() {
  local f
  for f in "$src"/gardener-*.mod; do
    if own_dependencies "$f"; then basename "$f" .mod | sed 's/^gardener-//'; fi
  done | sort -t. -k2,2n
  for f in "$src"/gardener-*.mod; do
    if ! own_dependencies "$f"; then basename "$f" .mod | sed 's/^gardener-//'; fi
  done | sort -t. -k2,2n
  sed -n 's/^	github.com\/gardener\/gardener \(v[0-9.]*\)$/\1/p' "$src/go.mod"
}

# own_dependencies tells whether a release's module file requires another version than go.mod of
# a module both require, besides Gardener's two modules.
own_dependencies() { # modfile
  [ -n "$(LC_ALL=C join <(requirements "$1") <(requirements "$src/go.mod") | awk '$2 != $3')" ]
}

# requirements prints a module file's requirements other than Gardener's two modules, as
# "module version" lines sorted for join.
requirements() { # modfile
  grep -E '^	[^ ]+ v' "$1" | grep -v '^	github.com/gardener/gardener[ /]' | awk '{print $1, $2}' | LC_ALL=C sort
}

# source_hash prints a hash of what the oracle of a release is built from.
source_hash() { # modfile
  {
    (cd "$src" && find . -maxdepth 1 -type f -name '*.go' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
    sha256sum "$1" "${1%.mod}.sum"
    go env GOVERSION
  } | sha256sum | cut -d' ' -f1
}

build() { # release
  local mod bin hash start
  mod="$(modfile "$1")"
  bin="$out/oracle-$1"
  hash="$(source_hash "$mod")"
  if [ -x "$bin" ] && [ "$(cat "$bin.sha256" 2>/dev/null)" = "$hash" ]; then
    return 0
  fi
  start=$SECONDS
  (cd "$src" && go build -modfile="$mod" -o "$bin.tmp.$$" .) || { rm -f "$bin.tmp.$$"; return 1; }
  mv -f "$bin.tmp.$$" "$bin"
  echo "$hash" >"$bin.sha256.tmp.$$"
  mv -f "$bin.sha256.tmp.$$" "$bin.sha256"
  log "built the oracle of Gardener $1 in $((SECONDS - start))s"
}

# vet_source vets the oracle's source once, with go.mod's release (when that release is built), when
# the source changed since.
vet_source() {
  local hash
  hash="$(source_hash "$src/go.mod")"
  [ "$(cat "$out/vetted.sha256" 2>/dev/null)" = "$hash" ] && return 0
  (cd "$src" && go vet .)
  echo "$hash" >"$out/vetted.sha256"
}

mkdir -p "$out"
# One build at a time: make test starts a build early in the background, and make test-releases
# waits here for it instead of building the same release twice.
exec 9>"$out/.lock"
flock 9
if [ $# -eq 0 ]; then
  mapfile -t wanted < <(releases)
else
  wanted=("$@")
fi
vet=false
for r in "${wanted[@]}"; do
  build "$r"
  if [ "$(modfile "$r")" = "$src/go.mod" ]; then vet=true; fi
done
if $vet; then vet_source; fi
echo "$out"
