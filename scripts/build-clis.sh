#!/usr/bin/env bash
# Builds the CLIs of the test matrix besides the installed Terraform from the Go module proxy into
# an ignored cache folder, and reuses them when they are already there.
#
# Usage: scripts/build-clis.sh [CLI...]   CLI: tofu, terraform (default: both)
# Prints one line per CLI, "NAME PATH", when done.
#
# OpenTofu: a throw-away module requires github.com/opentofu/opentofu at OPENTOFU_VERSION with the
# one replace directive of OpenTofu's own go.mod (its fork of hcl/v2; replace directives of a
# dependency do not apply to the module that requires it), then builds cmd/tofu with version.dev=no
# so that the binary reports a release version. About 10 minutes on two cores when cold.
#
# Terraform: its go.mod requires the nested modules of its state backends
# (internal/backend/remote-state/{azure,consul,cos,gcs,kubernetes,oci,oss,pg,s3}) and
# internal/legacy at the placeholder version v0.0.0-00010101000000-000000000000 and maps them to
# its own folders with replace directives, which do not apply to a module that requires Terraform.
# The module proxy refuses those versions (403), and the newest versions it serves are older than
# the Terraform release (and there is none of oci). The throw-away module therefore replaces each
# with a small stand-in module written below: a backend of the same name whose every operation
# fails with "not built in", and an empty internal/legacy (no package of Terraform's main module
# imports it). The acceptance tests only use the local state backend, which is in the main module.
#
# Concurrent runs (make docs and make test both call this) take turns: each holds an exclusive
# flock on .cache/clis/.lock while it checks and builds, builds in its own temporary work folder,
# and moves a finished binary into place with a rename, so no run sees a half-written binary or
# removes another run's work.
set -euo pipefail

OPENTOFU_VERSION="${OPENTOFU_VERSION:-v1.12.6}"
TERRAFORM_VERSION="${TERRAFORM_VERSION:-v1.16.0}"
TERRAFORM_STANDIN_BACKENDS="azure consul cos gcs kubernetes oci oss pg s3"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$root/.cache/clis"
mkdir -p "$dir" "$root/.cache"

log() { echo "build-clis: $*" >&2; }

# take_lock waits for the exclusive lock of the CLI folder, held on fd 9 until the script exits.
take_lock() {
  exec 9>"$dir/.lock"
  if ! flock -n 9; then
    log "waiting for another build-clis.sh to finish"
    flock 9
  fi
}

work=""
# cleanup removes this run's work folder and any binary it did not finish.
cleanup() {
  [ -z "$work" ] || rm -rf "$work"
  rm -f "$dir"/.*.tmp."$$"
}
trap cleanup EXIT

# ensure_work creates this run's own work folder on first use (in this shell, so that cleanup
# knows it).
ensure_work() {
  [ -n "$work" ] || work="$(mktemp -d "$root/.cache/build-clis.XXXXXX")"
}

# install_binary moves a built binary into place with a rename and then records its version.
install_binary() { # name, built file, version
  mv -f "$2" "$dir/$1"
  echo "$3" > "$dir/.$1.version.tmp.$$"
  mv -f "$dir/.$1.version.tmp.$$" "$dir/$1.version"
}

stamp_ok() { # binary, version
  [ -x "$dir/$1" ] && [ "$(cat "$dir/$1.version" 2>/dev/null)" = "$2" ]
}

# go_mod_file prints the path of the downloaded go.mod of module@version.
go_mod_file() {
  go mod download -json "$1" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p'
}

build_tofu() {
  if ! stamp_ok tofu "$OPENTOFU_VERSION"; then
    log "building OpenTofu $OPENTOFU_VERSION (about 10 minutes on two cores)"
    local m out start
    ensure_work
    m="$work/tofu" && mkdir -p "$m"
    out="$dir/.tofu.tmp.$$"
    start=$(date +%s)
    (
      cd "$m"
      go mod init local/tofu-build >/dev/null 2>&1
      local gomod
      gomod="$(go_mod_file "github.com/opentofu/opentofu@$OPENTOFU_VERSION")"
      go mod edit -require="github.com/opentofu/opentofu@$OPENTOFU_VERSION"
      grep -E '^replace ' "$gomod" | sed -E 's/^replace +//' | while read -r from fromv arrow to tov; do
        [ "$arrow" = "=>" ] || { log "unexpected replace line in OpenTofu's go.mod: $from $fromv $arrow $to $tov"; exit 1; }
        go mod edit -replace="$from@$fromv=$to@$tov"
      done
      go get "github.com/opentofu/opentofu/cmd/tofu@$OPENTOFU_VERSION" 2>get.log || { cat get.log >&2; exit 1; }
      GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath \
        -ldflags "-X github.com/opentofu/opentofu/version.dev=no" \
        -o "$out" github.com/opentofu/opentofu/cmd/tofu
    )
    install_binary tofu "$out" "$OPENTOFU_VERSION"
    log "built OpenTofu $OPENTOFU_VERSION in $(( $(date +%s) - start ))s"
  fi
  echo "tofu $dir/tofu"
}

# write_standin_backend writes a module for Terraform's state backend package $2 into $1.
write_standin_backend() {
  mkdir -p "$1"
  printf 'module github.com/hashicorp/terraform/internal/backend/remote-state/%s\n\ngo 1.25\n' "$2" > "$1/go.mod"
  cat > "$1/backend.go" <<GO
// Package $2 stands in for Terraform's $2 state backend, which this build leaves out.
package $2

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/terraform/internal/backend"
	"github.com/hashicorp/terraform/internal/backend/backendbase"
	"github.com/hashicorp/terraform/internal/configs/configschema"
	"github.com/hashicorp/terraform/internal/states/statemgr"
	"github.com/hashicorp/terraform/internal/tfdiags"
)

// New returns a backend whose every operation fails.
func New() backend.Backend { return omitted{backendbase.Base{Schema: &configschema.Block{}}} }

type omitted struct{ backendbase.Base }

func (omitted) Configure(cty.Value) tfdiags.Diagnostics { return notBuiltIn() }

func (omitted) StateMgr(string) (statemgr.Full, tfdiags.Diagnostics) { return nil, notBuiltIn() }

func (omitted) DeleteWorkspace(string, bool) tfdiags.Diagnostics { return notBuiltIn() }

func (omitted) Workspaces() ([]string, tfdiags.Diagnostics) { return nil, notBuiltIn() }

func notBuiltIn() tfdiags.Diagnostics {
	var diags tfdiags.Diagnostics
	return diags.Append(tfdiags.Sourceless(tfdiags.Error, "Backend not built in",
		"This Terraform was built for tests from the Go module proxy without the $2 state backend."))
}
GO
}

build_terraform() {
  if ! stamp_ok terraform "$TERRAFORM_VERSION"; then
    log "building Terraform $TERRAFORM_VERSION (about 10 minutes on two cores)"
    local m out start
    ensure_work
    m="$work/terraform" && mkdir -p "$m"
    out="$dir/.terraform.tmp.$$"
    start=$(date +%s)
    (
      cd "$m"
      go mod init local/terraform-build >/dev/null 2>&1
      local b
      for b in $TERRAFORM_STANDIN_BACKENDS; do
        write_standin_backend "standin/$b" "$b"
        go mod edit -replace="github.com/hashicorp/terraform/internal/backend/remote-state/$b=./standin/$b"
      done
      mkdir -p standin/legacy
      printf 'module github.com/hashicorp/terraform/internal/legacy\n\ngo 1.25\n' > standin/legacy/go.mod
      go mod edit -replace="github.com/hashicorp/terraform/internal/legacy=./standin/legacy"
      go mod edit -require="github.com/hashicorp/terraform@$TERRAFORM_VERSION"
      go get "github.com/hashicorp/terraform@$TERRAFORM_VERSION" 2>get.log || { cat get.log >&2; exit 1; }
      GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath \
        -ldflags "-X github.com/hashicorp/terraform/version.dev=no" \
        -o "$out" github.com/hashicorp/terraform
    )
    install_binary terraform "$out" "$TERRAFORM_VERSION"
    log "built Terraform $TERRAFORM_VERSION in $(( $(date +%s) - start ))s"
  fi
  echo "terraform $dir/terraform"
}

[ $# -gt 0 ] || set -- tofu terraform
take_lock
for cli in "$@"; do
  case "$cli" in
    tofu) build_tofu ;;
    terraform) build_terraform ;;
    *) log "unknown CLI $cli (known: tofu, terraform)"; exit 2 ;;
  esac
done
