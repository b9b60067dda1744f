// Command oracle answers questions about CloudProfiles and NamespacedCloudProfiles with the code of
// one Gardener release: the release whose github.com/gardener/gardener module it is built with (one
// go.mod per release in this folder, chosen with -modfile; see README.md). It reads one JSON request
// per line from stdin and writes one JSON response per line to stdout, so that the differential tests
// of package conformance (releases_test.go) can compare the rules package with every release without
// Gardener's main module entering the provider's go.mod.
//
// The requests run the pieces of gardener-apiserver and gardener-controller-manager that decide
// about the two kinds, in the order the API server runs them:
//
//   - create and update: decoding with v1beta1 defaulting and conversion to the internal types, the
//     ExtensionLabels mutating admission plugin, the registry strategy (PrepareForCreate or
//     PrepareForUpdate, Validate or ValidateUpdate, Canonicalize, through k8s.io/apiserver's
//     BeforeCreate and BeforeUpdate), and for a NamespacedCloudProfile the
//     NamespacedCloudProfileValidator admission plugin against the parent;
//   - merge: the NamespacedCloudProfile controller's MergeCloudProfiles, and the API server's decoding
//     of the status it writes;
//   - status: one reconciliation of the CloudProfile controller on a fake client, and the status and
//     requeue it leaves;
//   - gates: the feature gates gardener-apiserver registers, with their defaults.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

// request is one question. Objects are v1beta1 JSON as a client sends them.
type request struct {
	// Op is one of the ops of handlers.
	Op string `json:"op"`
	// Gates are gardener-apiserver's feature gates for this request (unset gates keep their
	// defaults).
	Gates map[string]bool `json:"gates,omitempty"`
	// Object is the CloudProfile or NamespacedCloudProfile of the request.
	Object json.RawMessage `json:"object,omitempty"`
	// Old is the stored object an update replaces.
	Old json.RawMessage `json:"old,omitempty"`
	// Parent is the parent CloudProfile of a NamespacedCloudProfile as the API server stores it;
	// absent means that the parent does not exist.
	Parent json.RawMessage `json:"parent,omitempty"`
}

// cause is one field error of a rejection, as metav1.StatusCause names it.
type cause struct {
	Field   string `json:"field"`
	Type    string `json:"type"`
	Message string `json:"message"`
}

// gate is one feature gate gardener-apiserver registers.
type gate struct {
	Name       string `json:"name"`
	Default    bool   `json:"default"`
	PreRelease string `json:"preRelease"`
}

// response is the answer to one request.
type response struct {
	// Accepted tells that the API server accepts the object.
	Accepted bool `json:"accepted,omitempty"`
	// Message and Causes are the API server's answer to a rejected object.
	Message string  `json:"message,omitempty"`
	Causes  []cause `json:"causes,omitempty"`
	// Stored is the v1beta1 spec the API server stores for an accepted object; for merge, the
	// status.cloudProfileSpec the controller writes.
	Stored json.RawMessage `json:"stored,omitempty"`
	// Status is the CloudProfile status the controller leaves, and RequeueAfter its requeue in
	// nanoseconds.
	Status       json.RawMessage `json:"status,omitempty"`
	RequeueAfter int64           `json:"requeueAfter,omitempty"`
	// Gates are the feature gates gardener-apiserver registers.
	Gates []gate `json:"gates,omitempty"`
	// Release is the version of the github.com/gardener/gardener module the oracle is built with.
	Release string `json:"release,omitempty"`
	// Error says why the oracle could not answer; it is never a verdict about the object.
	Error string `json:"error,omitempty"`
}

// handlers answer the requests by their op.
var handlers = map[string]func(request) (response, error){
	"release":           func(request) (response, error) { return response{Release: gardenerRelease()}, nil },
	"gates":             registeredGates,
	"create":            createCloudProfile,
	"update":            updateCloudProfile,
	"create-namespaced": createNamespacedCloudProfile,
	"update-namespaced": updateNamespacedCloudProfile,
	"merge":             merge,
	"status":            cloudProfileStatus,
}

func main() {
	if err := serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "oracle:", err)
		os.Exit(1)
	}
}

// serve answers every request line of in on out, in order.
func serve(in io.Reader, out io.Writer) error {
	scanner := bufio.NewScanner(in)
	scanner.Buffer(make([]byte, 0, 1<<20), 64<<20)
	w := bufio.NewWriter(out)
	enc := json.NewEncoder(w)
	for scanner.Scan() {
		var req request
		var resp response
		if err := json.Unmarshal(scanner.Bytes(), &req); err != nil {
			resp.Error = "reading the request: " + err.Error()
		} else if h, ok := handlers[req.Op]; !ok {
			resp.Error = fmt.Sprintf("unknown op %q", req.Op)
		} else if err := setGates(req.Gates); err != nil {
			resp.Error = err.Error()
		} else if resp, err = h(req); err != nil {
			resp = response{Error: err.Error()}
		}
		if err := enc.Encode(resp); err != nil {
			return err
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	return scanner.Err()
}

// gardenerRelease is the version of the github.com/gardener/gardener module linked in.
func gardenerRelease() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, dep := range info.Deps {
		if dep.Path == "github.com/gardener/gardener" {
			if dep.Replace != nil {
				return dep.Replace.Version
			}
			return dep.Version
		}
	}
	return ""
}
