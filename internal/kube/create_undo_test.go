package kube

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// createServer is an API server for one CloudProfile whose ownership patches always fail: it
// stores what a create posts (with the entry of the create's manager and of otherManagers),
// answers reads with it and records deletes.
type createServer struct {
	mu            sync.Mutex
	object        map[string]any
	otherManagers []metav1.ManagedFieldsEntry
	deletes       []string
	patches       []string
	// replacement, when set, is what reads answer once the create was stored: another object of
	// the name, made from the created one.
	replacement func(created map[string]any) map[string]any
}

func (s *createServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	body, _ := io.ReadAll(r.Body)
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method == http.MethodPatch && r.URL.Query().Get("dryRun") != "":
		_, _ = w.Write([]byte(`{"apiVersion":"core.gardener.cloud/v1beta1","kind":"CloudProfile","metadata":{"name":"x","managedFields":[` +
			`{"manager":"test","operation":"Apply","fieldsV1":{"f:spec":{"f:type":{}}}}]}}`))
	case r.Method == http.MethodPost:
		_ = json.Unmarshal(body, &s.object)
		meta := s.object["metadata"].(map[string]any)
		meta["uid"] = "uid-1"
		meta["resourceVersion"] = "1"
		meta["managedFields"] = append([]metav1.ManagedFieldsEntry{{Manager: r.URL.Query().Get("fieldManager"),
			Operation: metav1.ManagedFieldsOperationUpdate, FieldsV1: metav1.NewFieldsV1(`{"f:spec":{"f:type":{}}}`)}}, s.otherManagers...)
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(s.object)
	case r.Method == http.MethodPatch:
		s.patches = append(s.patches, string(body))
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","code":500,"message":"patch failed"}`))
	case r.Method == http.MethodGet && s.replacement != nil:
		_ = json.NewEncoder(w).Encode(s.replacement(s.object))
	case r.Method == http.MethodGet:
		_ = json.NewEncoder(w).Encode(s.object)
	case r.Method == http.MethodDelete:
		s.deletes = append(s.deletes, string(body))
		_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Success"}`))
	}
}

// failedCreate runs a create against a createServer with the other managers.
func failedCreate(t *testing.T, others ...metav1.ManagedFieldsEntry) (*createServer, *gardencorev1beta1.CloudProfile, error) {
	return failedCreateOn(t, &createServer{otherManagers: others})
}

// failedCreateOn runs a create against s.
func failedCreateOn(t *testing.T, s *createServer) (*createServer, *gardencorev1beta1.CloudProfile, error) {
	t.Helper()
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL, fastPolicy)
	out, err := c.CreateCloudProfile(context.Background(), &gardencorev1beta1.CloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "x"}, Spec: gardencorev1beta1.CloudProfileSpec{Type: "local"}})
	if err == nil {
		t.Fatal("the create succeeded although its ownership patch failed")
	}
	return s, out, err
}

// TestCreate_FailedOwnershipDeletesTheCreatedObject: a create whose ownership patch fails deletes
// the object it stored, with a precondition on its UID, when only Gardener's finalizer entry is
// there besides its own; the failure says so.
func TestCreate_FailedOwnershipDeletesTheCreatedObject(t *testing.T) {
	s, _, err := failedCreate(t, metav1.ManagedFieldsEntry{Manager: "gardener-controller-manager",
		Operation: metav1.ManagedFieldsOperationUpdate, FieldsV1: metav1.NewFieldsV1(`{"f:metadata":{"f:finalizers":{".":{},"v:\"gardener\"":{}}}}`)})
	if len(s.deletes) != 1 || !strings.Contains(s.deletes[0], `"uid":"uid-1"`) {
		t.Fatalf("want one delete with the created UID as precondition, got %q", s.deletes)
	}
	if errors.Is(err, ErrCreatedObjectKept) || !strings.Contains(err.Error(), "was deleted again") {
		t.Fatalf("the failure should say the object was deleted again: %v", err)
	}
}

// TestCreate_FailedOwnershipKeepsAnObjectOthersManage: a create whose ownership patch fails leaves
// an object another manager manages too, and returns it with the failure, marked kept.
func TestCreate_FailedOwnershipKeepsAnObjectOthersManage(t *testing.T) {
	s, out, err := failedCreate(t, metav1.ManagedFieldsEntry{Manager: "team-b",
		Operation: metav1.ManagedFieldsOperationApply, FieldsV1: metav1.NewFieldsV1(`{"f:metadata":{"f:labels":{"f:team":{}}}}`)})
	if len(s.deletes) != 0 {
		t.Fatalf("an object another manager manages was deleted: %q", s.deletes)
	}
	if !errors.Is(err, ErrCreatedObjectKept) || out.UID != "uid-1" {
		t.Fatalf("want the kept object (uid-1) with ErrCreatedObjectKept, got uid %q and %v", out.UID, err)
	}
}

// copiedAs is a replacement (see createServer) that copies the created object, as `kubectl replace
// --force` of its manifest would: its annotations, the create ID among them, and with
// keepManagedFields its managed fields too (a create may set them), under another UID, with the
// entries of others added.
func copiedAs(keepManagedFields bool, others ...metav1.ManagedFieldsEntry) func(map[string]any) map[string]any {
	return func(created map[string]any) map[string]any {
		raw, _ := json.Marshal(created)
		var copied map[string]any
		_ = json.Unmarshal(raw, &copied)
		meta := copied["metadata"].(map[string]any)
		meta["uid"] = "uid-2"
		meta["labels"] = map[string]any{"team": "b"}
		entries := []any{}
		if keepManagedFields {
			entries, _ = meta["managedFields"].([]any)
		}
		for _, e := range others {
			raw, _ := json.Marshal(e)
			var entry any
			_ = json.Unmarshal(raw, &entry)
			entries = append(entries, entry)
		}
		meta["managedFields"] = entries
		return copied
	}
}

// TestCreate_NeverRecordsNorDeletesAnotherUID: a create whose object was deleted and created again
// by someone else (another UID, a copy that even carries the create's ID) before its ownership was
// recorded fails with CreatedObjectReplaced, and never patches, keeps nor deletes that object:
// with another manager's entry (kept on main), with only the finalizer's (deleted on main), and with
// the create's own entry copied along (taken over on main).
func TestCreate_NeverRecordsNorDeletesAnotherUID(t *testing.T) {
	teamB := metav1.ManagedFieldsEntry{Manager: "team-b", Operation: metav1.ManagedFieldsOperationApply,
		FieldsV1: metav1.NewFieldsV1(`{"f:metadata":{"f:labels":{"f:team":{}}}}`)}
	finalizer := metav1.ManagedFieldsEntry{Manager: "gardener-controller-manager", Operation: metav1.ManagedFieldsOperationUpdate,
		FieldsV1: metav1.NewFieldsV1(`{"f:metadata":{"f:finalizers":{".":{},"v:\"gardener\"":{}}}}`)}
	for name, replacement := range map[string]func(map[string]any) map[string]any{
		"managed by another team":   copiedAs(false, teamB),
		"only Gardener's finalizer": copiedAs(false, finalizer),
		"with the create's entry":   copiedAs(true, teamB),
	} {
		t.Run(name, func(t *testing.T) {
			s, out, err := failedCreateOn(t, &createServer{replacement: replacement})
			if len(s.deletes) != 0 {
				t.Errorf("the other object was deleted: %q", s.deletes)
			}
			if len(s.patches) != 1 {
				t.Errorf("want only the ownership patch of the created object, got %d patches: %q", len(s.patches), s.patches)
			}
			var replaced *CreatedObjectReplaced
			if !errors.As(err, &replaced) || errors.Is(err, ErrCreatedObjectKept) || KindOf(err) != KindReplaced {
				t.Fatalf("want CreatedObjectReplaced (KindReplaced), not kept, got %v", err)
			}
			if replaced.Created != "uid-1" || replaced.Found != "uid-2" || !slices.Contains(replaced.Managers, "team-b") && name != "only Gardener's finalizer" {
				t.Errorf("want created uid-1, found uid-2 with its managers, got %+v", replaced)
			}
			if out.UID == "uid-2" || !strings.Contains(err.Error(), "uid-1") || !strings.Contains(err.Error(), "uid-2") {
				t.Fatalf("the other object (uid-2) was returned, or the error does not name both UIDs: uid %q, %v", out.UID, err)
			}
		})
	}
}
