package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
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
		diagnostics, err := floorDiagnostics(real)
		if err != nil {
			return err
		}
		return tf6server.Serve(requestFloorAddress, func() tfprotov6.ProviderServer {
			return requestFloor{ProviderServer: real, client: client, diagnostics: diagnostics}
		})
	}()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench request floor:", err)
		return 1
	}
	return 0
}

// floorDiagnostics reads floorDiagnosticsEnv into attribute paths of the provider's schema.
func floorDiagnostics(real tfprotov6.ProviderServer) (map[string][]*tftypes.AttributePath, error) {
	value := os.Getenv(floorDiagnosticsEnv)
	if value == "" {
		return nil, nil
	}
	var paths floorPaths
	if err := json.Unmarshal([]byte(value), &paths); err != nil {
		return nil, fmt.Errorf("%s: %w", floorDiagnosticsEnv, err)
	}
	schema, err := real.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		return nil, err
	}
	return paths.attributePaths(schema.ResourceSchemas)
}

// requestFloor answers the provider's schema and configuration with the provider's own server,
// and the requests of a no-op plan without it.
type requestFloor struct {
	tfprotov6.ProviderServer
	client *kube.Client
	// diagnostics are the attributes (nil: the resource) on which validation answers an error,
	// by resource type (floorDiagnosticsEnv); none for the other types.
	diagnostics map[string][]*tftypes.AttributePath
}

// floorDiagnosticsEnv asks the request floor to answer the validation of each resource of a type
// with errors on the attributes the provider's diagnostics were on: a JSON object of resource
// types to lists of paths, each a list of the JSON keys that lead to the attribute in the
// configuration ([] for a diagnostic on the resource). What Terraform spends printing them (it
// finds each attribute in the configuration and reads the whole file again to show a snippet) is
// then part of the floor.
const floorDiagnosticsEnv = "BENCH_FLOOR_DIAGNOSTICS"

// floorPaths are the paths of floorDiagnosticsEnv: by resource type, the JSON keys that lead to
// each diagnostic's attribute.
type floorPaths map[string][][]string

// attributePaths turns the keys of each path into steps of the resource type's schema: an
// attribute of an object, a key of a map, an index of a list.
func (f floorPaths) attributePaths(schemas map[string]*tfprotov6.Schema) (map[string][]*tftypes.AttributePath, error) {
	out := map[string][]*tftypes.AttributePath{}
	for typeName, paths := range f {
		schema, ok := schemas[typeName]
		if !ok {
			return nil, fmt.Errorf("%s: the provider has no resource type %q", floorDiagnosticsEnv, typeName)
		}
		for _, keys := range paths {
			p, err := attributePathOf(schema.ValueType(), keys)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", floorDiagnosticsEnv, typeName, err)
			}
			out[typeName] = append(out[typeName], p)
		}
	}
	return out, nil
}

// attributePathOf is the path of keys in a value of type t; nil for no keys (the resource).
func attributePathOf(t tftypes.Type, keys []string) (*tftypes.AttributePath, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	p := tftypes.NewAttributePath()
	for _, k := range keys {
		switch tt := t.(type) {
		case tftypes.Object:
			t = tt.AttributeTypes[k]
			p = p.WithAttributeName(k)
		case tftypes.Map:
			t = tt.ElementType
			p = p.WithElementKeyString(k)
		case tftypes.List:
			i, err := strconv.Atoi(k)
			if err != nil {
				return nil, fmt.Errorf("%q is no index of a list", k)
			}
			t = tt.ElementType
			p = p.WithElementKeyInt(i)
		default:
			return nil, fmt.Errorf("%q leads into %v", k, t)
		}
		if t == nil {
			return nil, fmt.Errorf("no attribute %q", k)
		}
	}
	return p, nil
}

// ValidateResourceConfig finds nothing, or answers the errors floorDiagnosticsEnv asks for.
func (f requestFloor) ValidateResourceConfig(_ context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	resp := &tfprotov6.ValidateResourceConfigResponse{}
	for i, at := range f.diagnostics[req.TypeName] {
		resp.Diagnostics = append(resp.Diagnostics, &tfprotov6.Diagnostic{
			Severity:  tfprotov6.DiagnosticSeverityError,
			Summary:   fmt.Sprintf("Request floor diagnostic %d", i+1),
			Detail:    "The bench's request floor prints diagnostics where the provider did, to measure what printing them costs Terraform.",
			Attribute: at,
		})
	}
	return resp, nil
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
