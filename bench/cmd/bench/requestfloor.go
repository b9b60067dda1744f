package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/vmihailenco/msgpack/v5"

	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider"
)

// The request floor is the least any provider of this schema pays for a no-op plan of the
// workspace that makes the requests: it serves the provider's own schema over the plugin
// protocol without the framework, reads each namespaced profile once from the Garden (as the
// provider's refresh does, with the provider's client), and answers every request with what
// Terraform sent (validation finds nothing, the refresh returns the state, the plan proposes no
// change). Terraform starts this binary from requestFloorDir (a link named like the provider, found
// through the request floor's dev_overrides).
const (
	requestFloorDir     = "requestfloor"
	requestFloorRC      = "terraformrc-requestfloor"
	requestFloorAddress = "registry.terraform.io/gardener-community/gardener"
)

// isRequestFloor tells whether the binary was started as the request floor's provider.
func isRequestFloor(arg0 string) bool {
	return filepath.Base(filepath.Dir(arg0)) == requestFloorDir
}

// serveRequestFloor serves the request floor until Terraform stops it; the Garden's kubeconfig
// comes from GARDEN_KUBECONFIG, as for the harness.
func serveRequestFloor() int {
	err := func() error {
		cfg, err := kube.Settings{ConfigPath: os.Getenv("GARDEN_KUBECONFIG")}.RESTConfig()
		if err != nil {
			return err
		}
		client, err := kube.NewClient(cfg, "bench-request-floor")
		if err != nil {
			return err
		}
		real, err := provider.NewProtocol6Server(provider.New("bench"))()
		if err != nil {
			return err
		}
		return tf6server.Serve(requestFloorAddress, func() tfprotov6.ProviderServer { return requestFloor{ProviderServer: real, client: client} })
	}()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench request floor:", err)
		return 1
	}
	return 0
}

// requestFloor answers the provider's schema and configuration with the provider's own server,
// and the requests of a no-op plan without it.
type requestFloor struct {
	tfprotov6.ProviderServer
	client *kube.Client
}

// ValidateResourceConfig finds nothing.
func (requestFloor) ValidateResourceConfig(context.Context, *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return &tfprotov6.ValidateResourceConfigResponse{}, nil
}

// ReadResource reads the namespaced profile the state names and returns the state as it came.
func (f requestFloor) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	namespace, name, err := metadataOf(req.CurrentState)
	if err != nil {
		return nil, err
	}
	if _, err := f.client.GetNamespacedCloudProfile(ctx, namespace, name); err != nil {
		return nil, err
	}
	return &tfprotov6.ReadResourceResponse{NewState: req.CurrentState, Private: req.Private, NewIdentity: req.CurrentIdentity}, nil
}

// PlanResourceChange plans what Terraform proposes.
func (requestFloor) PlanResourceChange(_ context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return &tfprotov6.PlanResourceChangeResponse{PlannedState: req.ProposedNewState, PlannedPrivate: req.PriorPrivate, PlannedIdentity: req.PriorIdentity}, nil
}

// metadataOf is the namespace and name in a namespaced profile's state (msgpack, as Terraform
// sends a refresh's state).
func metadataOf(state *tfprotov6.DynamicValue) (namespace, name string, err error) {
	if state == nil || len(state.MsgPack) == 0 {
		return "", "", errors.New("the request floor reads states that Terraform sends as msgpack")
	}
	var v struct {
		Metadata struct {
			Namespace string `msgpack:"namespace"`
			Name      string `msgpack:"name"`
		} `msgpack:"metadata"`
	}
	if err := msgpack.Unmarshal(state.MsgPack, &v); err != nil {
		return "", "", fmt.Errorf("decoding the state: %w", err)
	}
	return v.Metadata.Namespace, v.Metadata.Name, nil
}
