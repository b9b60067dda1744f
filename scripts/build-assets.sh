#!/usr/bin/env bash
# Builds the control-plane binaries of the local Garden (etcd, kube-apiserver) from the Go module
# proxy into an ignored cache folder, and reuses them when they are already there.
#
# Usage: scripts/build-assets.sh [DIR]    (default: .cache/assets; prints DIR when done)
set -euo pipefail

KUBERNETES_VERSION="${KUBERNETES_VERSION:-v1.36.3}"
ETCD_VERSION="${ETCD_VERSION:-v3.6.16}"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:-$root/.cache/assets}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
work="$root/.cache/build"
mkdir -p "$work"

log() { echo "build-assets: $*" >&2; }

stamp_ok() { # binary, version
  [ -x "$dir/$1" ] && [ "$(cat "$dir/$1.version" 2>/dev/null)" = "$2" ]
}

build_etcd() {
  stamp_ok etcd "$ETCD_VERSION" && return 0
  log "building etcd $ETCD_VERSION (about a minute)"
  local m="$work/etcd"
  rm -rf "$m" && mkdir -p "$m"
  (
    cd "$m"
    go mod init local/etcd-build >/dev/null 2>&1
    go mod edit -require="go.etcd.io/etcd/server/v3@$ETCD_VERSION"
    printf 'package main\n\nimport _ "go.etcd.io/etcd/server/v3/etcdmain"\n\nfunc main() {}\n' > tools.go
    go mod tidy >/dev/null
    # etcd's own main package lives in go.etcd.io/etcd/v3 (module root); server/v3/etcdmain has Main.
    cat > tools.go <<'GO'
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
GO
    go mod tidy >/dev/null
    CGO_ENABLED=0 go build -trimpath -o "$dir/etcd.tmp" .
  )
  mv "$dir/etcd.tmp" "$dir/etcd"
  echo "$ETCD_VERSION" > "$dir/etcd.version"
}

build_kube_apiserver() {
  stamp_ok kube-apiserver "$KUBERNETES_VERSION" && return 0
  log "building kube-apiserver $KUBERNETES_VERSION (4 to 8 minutes)"
  local m="$work/kube-apiserver"
  rm -rf "$m" && mkdir -p "$m"
  (
    cd "$m"
    go mod init local/kube-apiserver-build >/dev/null 2>&1
    local gomod
    gomod="$(go mod download -json "k8s.io/kubernetes@$KUBERNETES_VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')"
    local staging_version="v0${KUBERNETES_VERSION#v1}"
    go mod edit -require="k8s.io/kubernetes@$KUBERNETES_VERSION"
    # Every k8s.io module that kubernetes maps to ./staging is published on its own as v0.x.y.
    grep -E '^\s*k8s\.io/[^ ]+ => \./staging/' "$gomod" | awk '{print $1}' | while read -r mod; do
      go mod edit -replace="$mod=$mod@$staging_version"
    done
    printf 'package main\n\nimport _ "k8s.io/kubernetes/cmd/kube-apiserver/app"\n' > tools.go
    GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1 || true
    rm tools.go
    GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -o "$dir/kube-apiserver.tmp" k8s.io/kubernetes/cmd/kube-apiserver
  )
  mv "$dir/kube-apiserver.tmp" "$dir/kube-apiserver"
  echo "$KUBERNETES_VERSION" > "$dir/kube-apiserver.version"
}

build_etcd
build_kube_apiserver
log "assets ready in $dir"
echo "$dir"
