#!/usr/bin/env bash
# The provider's main job end to end: start the local Garden, apply a CloudProfile and a
# NamespacedCloudProfile with the freshly built provider (dev_overrides), print the outputs,
# destroy them and stop the Garden — also when a step fails.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$root/.cache/demo"
terraform="${TERRAFORM:-$(command -v terraform || echo /usr/local/bin/terraform)}"

[ -x "$root/bin/terraform-provider-gardener" ] || { echo "demo: run 'make build' first (make demo does)" >&2; exit 1; }

rm -rf "$work" && mkdir -p "$work"
cp "$root"/examples/demo/*.tf "$work/"
cat > "$work/terraformrc" <<RC
provider_installation {
  dev_overrides {
    "gardener-community/gardener" = "$root/bin"
  }
  direct {}
}
RC
export TF_CLI_CONFIG_FILE="$work/terraformrc" CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1

cleanup() {
  status=$?
  if [ -f "$work/terraform.tfstate" ]; then
    echo "demo: destroying the example profiles"
    (cd "$work" && "$terraform" destroy -auto-approve -no-color -var "kubeconfig=$kubeconfig" >/dev/null) || status=1
  fi
  "$root/scripts/garden.sh" down
  exit $status
}
"$root/scripts/garden.sh" up
kubeconfig="$root/.cache/garden/admin.kubeconfig"
trap cleanup EXIT INT TERM

cd "$work"
echo "demo: terraform apply"
"$terraform" apply -auto-approve -no-color -var "kubeconfig=$kubeconfig"
echo "demo: terraform plan after apply (must show no changes)"
"$terraform" plan -detailed-exitcode -no-color -var "kubeconfig=$kubeconfig" >/dev/null
echo "demo: outputs"
"$terraform" output -no-color
