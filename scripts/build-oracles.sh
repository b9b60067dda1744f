#!/usr/bin/env bash
# Builds the oracle of every known Gardener release (internal/conformance/oracle, see its README.md)
# into .cache/oracles/oracle-<release>, which the release tests of internal/conformance run
# (GARDENER_ORACLES). A binary is rebuilt only when its sources changed: the oracle's *.go, the
# release's go.mod and go.sum, and the Go version (recorded beside it as <binary>.sha256).
#
# Usage: scripts/build-oracles.sh [RELEASE...]   (default: every release with a go.mod in the folder)
#
# The first build of a release compiles Gardener and its dependencies at that release's versions
# (minutes per release on two cores); the release of the local Garden (v1.149.3) shares the Go
# build cache with it, being built from the same module versions.
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

# releases prints every release that has a go.mod: those of gardener-*.mod oldest first, then the
# release of go.mod, whose build mostly reuses the local Garden's (same module versions).
releases() {
  for f in "$src"/gardener-*.mod; do basename "$f" .mod | sed 's/^gardener-//'; done | sort -t. -k2,2n
  sed -n 's/^	github.com\/gardener\/gardener \(v[0-9.]*\)$/\1/p' "$src/go.mod"
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
  (cd "$src" && go vet -modfile="$mod" .)
  mv -f "$bin.tmp.$$" "$bin"
  echo "$hash" >"$bin.sha256.tmp.$$"
  mv -f "$bin.sha256.tmp.$$" "$bin.sha256"
  log "built the oracle of Gardener $1 in $((SECONDS - start))s"
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
for r in "${wanted[@]}"; do
  build "$r"
done
echo "$out"
