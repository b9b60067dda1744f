package kube

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	gardencorev1 "github.com/gardener/gardener/pkg/apis/core/v1"
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
)

// Resource names of the two kinds in core.gardener.cloud/v1beta1.
const (
	resourceCloudProfiles           = "cloudprofiles"
	resourceNamespacedCloudProfiles = "namespacedcloudprofiles"
)

// Client reads and writes CloudProfiles and NamespacedCloudProfiles. Every method makes exactly
// one API request, repeated only when it failed transiently and repeating it is safe (see
// RetryPolicy); a read in a scope where listing is forbidden makes one more, once (see read.go),
// an apply that finds a cut-off create's entry two more, once (see ownership_creating.go), and a
// create makes the requests of create.go (and of create_undo.go when it fails).
type Client struct {
	rest         rest.Interface
	fieldManager string
	parents      parentCache
	listDenials  listDenials
	shoots       shootCache
	// gardenerVersion is the version the Garden publishes (release.go), extensions the extensions
	// it runs (extensions.go), each read once per run.
	gardenerVersion runValue[string]
	extensions      extensionCache
}

// NewClient builds a client for core.gardener.cloud/v1beta1 from a rest.Config. It does no request.
func NewClient(cfg *rest.Config, fieldManager string) (*Client, error) {
	scheme := runtime.NewScheme()
	// gardener-info is a core/v1 ConfigMap, ControllerDeployments are core.gardener.cloud/v1.
	for _, add := range []func(*runtime.Scheme) error{gardencorev1beta1.AddToScheme, gardencorev1.AddToScheme, corev1.AddToScheme} {
		if err := add(scheme); err != nil {
			return nil, fmt.Errorf("registering API types: %w", err)
		}
	}
	metav1.AddToGroupVersion(scheme, metav1.SchemeGroupVersion)
	c := rest.CopyConfig(cfg)
	c.GroupVersion = &gardencorev1beta1.SchemeGroupVersion
	c.APIPath = "/apis"
	c.NegotiatedSerializer = serializer.NewCodecFactory(scheme).WithoutConversion()
	c.ContentType = runtime.ContentTypeJSON
	// Answers in protobuf where the server offers it: a NamespacedCloudProfile carries the merged
	// parent in its status, and decoding that as JSON for every object of a large workspace costs
	// more CPU than the rest of a refresh. Request bodies stay JSON (server-side apply needs it).
	c.AcceptContentTypes = runtime.ContentTypeProtobuf + ", " + runtime.ContentTypeJSON
	if c.UserAgent == "" {
		c.UserAgent = fieldManager
	}
	withRequestLog(c) // request log for make bench (GARDENER_PROVIDER_REQUEST_LOG); see requestcount.go
	// Retries of transient failures (see RetryPolicy): one wrapper around the transport.
	c.Wrap(DefaultRetryPolicy.RoundTripper)
	rc, err := rest.RESTClientFor(c)
	if err != nil {
		return nil, fmt.Errorf("building REST client: %w", err)
	}
	if fieldManager == "" {
		fieldManager = DefaultFieldManager
	}
	return &Client{rest: rc, fieldManager: fieldManager}, nil
}

// FieldManager is the name under which the client applies.
func (c *Client) FieldManager() string { return c.fieldManager }

// GetCloudProfile reads one CloudProfile (and keeps it for ParentCloudProfile).
func (c *Client) GetCloudProfile(ctx context.Context, name string) (*gardencorev1beta1.CloudProfile, error) {
	cp, err := c.getCloudProfile(ctx, name)
	if err == nil {
		c.parents.observe(cp)
	}
	return cp, err
}

// ApplyOptions tune a server-side apply.
type ApplyOptions struct {
	// Force takes over fields owned by other field managers instead of failing with a conflict.
	Force bool
	// DryRun asks the server to validate and admit the object without storing it.
	DryRun bool
	// UID, when set, is the object the apply must change: the server refuses the apply when no
	// object of that name exists (KindNotFound) or when it has another UID (KindReplaced), so an
	// update can neither re-create a deleted object nor change one created again by someone else.
	UID types.UID
	// TakeOver, with UID, first takes over the fields of the field managers that created or
	// changed the object with creates and updates, when the client's manager has not applied it
	// yet (the first apply after an import; see ownership_import.go).
	TakeOver bool
	// SetBack, with UID, are the fields the apply takes back from other managers where it
	// conflicts with them (see conflicts.go).
	SetBack []SetBack
	// resourceVersion, when set, is the version of the object the apply must change.
	resourceVersion string
}

// ApplyCloudProfile server-side applies a CloudProfile under the client's field manager and
// returns the object as stored.
func (c *Client) ApplyCloudProfile(ctx context.Context, cp *gardencorev1beta1.CloudProfile, opts ApplyOptions) (*gardencorev1beta1.CloudProfile, error) {
	out, _, err := c.AdoptCloudProfile(ctx, cp, opts)
	return out, err
}

// ApplyNamespacedCloudProfile server-side applies a NamespacedCloudProfile under the client's field
// manager and returns the object as stored.
func (c *Client) ApplyNamespacedCloudProfile(ctx context.Context, ncp *gardencorev1beta1.NamespacedCloudProfile, opts ApplyOptions) (*gardencorev1beta1.NamespacedCloudProfile, error) {
	out, _, err := c.AdoptNamespacedCloudProfile(ctx, ncp, opts)
	return out, err
}

// applyTo server-side applies obj to the object k and returns the answer's status code. The API
// server checks field conflicts before the UID of opts.UID: a conflict is re-checked against the
// object's identity, so that an object deleted or created again reports that, not a conflict. An
// update takes over what an import's first apply takes over (opts.TakeOver) and takes back the
// fields of opts.SetBack. An apply that stored an object with the entry of a cut-off create takes
// that entry over (see ownership_creating.go).
func (c *Client) applyTo(ctx context.Context, k objectKind, obj runtime.Object, opts ApplyOptions, into runtime.Object) (int, error) {
	if opts.TakeOver && opts.UID != "" && !opts.DryRun {
		if err := c.takeOverImported(ctx, k, opts.UID); err != nil {
			return 0, err
		}
	}
	code, err := c.applyReporting(ctx, k.request(c.rest.Patch(types.ApplyPatchType)).Name(k.name), obj, opts, into)
	if err != nil && opts.UID != "" && kindOf(err) == KindConflict {
		if identityErr := c.checkIdentity(ctx, k, opts.UID); identityErr != nil {
			return code, identityErr
		}
		if !opts.Force && !opts.DryRun && len(opts.SetBack) > 0 && isFieldConflict(err) {
			code, err = c.setBack(ctx, k, obj, opts, into, err)
		}
	}
	if err == nil && !opts.DryRun {
		err = c.takeOverCreatingEntry(ctx, k, obj, opts, into)
	}
	return code, err
}

// checkIdentity reads the object's metadata and fails when it is gone (KindNotFound) or has
// another UID (KindReplaced); nil when it is the object of uid or the read failed.
func (c *Client) checkIdentity(ctx context.Context, k objectKind, uid types.UID) error {
	// Decoded by the client's serializer: the answer may be protobuf (see NewClient).
	obj, err := k.request(c.rest.Get()).Name(k.name).Do(ctx).Get()
	if err != nil {
		if IsNotFound(classify(err, k.ref)) {
			return classify(err, k.ref)
		}
		return nil
	}
	current, err := meta.Accessor(obj)
	if err != nil || current.GetUID() == uid {
		return nil
	}
	return &Error{Kind: KindReplaced, Object: k.ref,
		Err: fmt.Errorf("the object now has UID %s, the expected one was %s", current.GetUID(), uid)}
}

func (c *Client) apply(ctx context.Context, req *rest.Request, obj runtime.Object, opts ApplyOptions, into runtime.Object) error {
	_, err := c.applyReporting(ctx, req, obj, opts, into)
	return err
}

// applyReporting is apply that also returns the answer's HTTP status code (201 when it created).
func (c *Client) applyReporting(ctx context.Context, req *rest.Request, obj runtime.Object, opts ApplyOptions, into runtime.Object) (int, error) {
	body, err := applyBodyWith(obj, opts.UID, opts.resourceVersion)
	if err != nil {
		return 0, err
	}
	req = req.Param("fieldManager", c.fieldManager).Body(body)
	if opts.Force {
		req = req.Param("force", "true")
	}
	if opts.DryRun {
		req = req.Param("dryRun", metav1.DryRunAll)
	}
	var code int
	err = req.Do(ctx).StatusCode(&code).Into(into)
	if !opts.Force && c.conflictsOnlyWithItself(err) {
		// Fields this manager owns through an Update entry (a create cut off before its
		// ownership was recorded as an apply, under the manager's name or the name creates run
		// under; see create.go) are its own: take them over.
		err = req.Param("force", "true").Do(ctx).StatusCode(&code).Into(into)
	}
	return code, err
}

// conflictsOnlyWithItself tells an apply conflict in which every conflicting field is owned by
// this client's own field manager (through an Update entry), under its name or the name its
// creates run under.
func (c *Client) conflictsOnlyWithItself(err error) bool {
	if !isApplyConflict(err) {
		return false
	}
	causes := causesOf(err)
	for _, cause := range causes {
		if !conflictWith(cause.Message, c.fieldManager) && !conflictWith(cause.Message, creatingManager(c.fieldManager)) {
			return false
		}
	}
	return len(causes) > 0
}

// conflictWith tells that the message of a conflict cause names manager.
func conflictWith(message, manager string) bool {
	rest, ok := strings.CutPrefix(message, fmt.Sprintf("conflict with %q", manager))
	return ok && (rest == "" || rest[0] == ' ' || rest[0] == ':')
}

// applyBody encodes an object as an apply configuration: only the fields that are set, never
// status (it belongs to Gardener's controllers) and never server-owned metadata, so that the field
// manager owns exactly what the user configured.
func applyBody(obj runtime.Object) ([]byte, error) { return applyBodyWith(obj, "", "") }

// applyBodyWith is applyBody with metadata.uid set to uid and metadata.resourceVersion to
// resourceVersion, each where it is not empty: preconditions on the object's identity and
// version (the server records neither as an owned field).
func applyBodyWith(obj runtime.Object, uid types.UID, resourceVersion string) ([]byte, error) {
	m, err := applyValue(obj)
	if err != nil {
		return nil, err
	}
	if meta, ok := m["metadata"].(map[string]any); ok {
		if uid != "" {
			meta["uid"] = string(uid)
		}
		if resourceVersion != "" {
			meta["resourceVersion"] = resourceVersion
		}
	}
	return json.Marshal(m)
}

// applyValue is the decoded JSON of applyBody.
func applyValue(obj runtime.Object) (map[string]any, error) {
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("encoding the object: %w", err)
	}
	var m map[string]any
	if err := decodeJSON(raw, &m); err != nil {
		return nil, fmt.Errorf("encoding the object: %w", err)
	}
	delete(m, "status")
	if meta, ok := m["metadata"].(map[string]any); ok {
		for _, k := range serverSetMetadata {
			delete(meta, k)
		}
	}
	pruneNulls(m)
	return m, nil
}

// serverSetMetadata are the members of an object's metadata that the server sets, which an apply
// leaves out.
var serverSetMetadata = []string{"creationTimestamp", "resourceVersion", "uid", "generation", "managedFields", "deletionTimestamp", "finalizers"}

// pruneNulls removes null values from decoded JSON, at every depth.
func pruneNulls(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if e == nil {
				delete(t, k)
				continue
			}
			t[k] = pruneNulls(e)
		}
	case []any:
		for i, e := range t {
			t[i] = pruneNulls(e)
		}
	}
	return v
}

// DeleteCloudProfile asks the server to delete a CloudProfile. Gardener keeps it until its
// finalizer is removed; a profile that is already gone is not an error. With a uid, only the
// object with that UID is deleted: another of the same name fails with KindReplaced.
func (c *Client) DeleteCloudProfile(ctx context.Context, name string, uid types.UID) error {
	err := c.rest.Delete().Resource(resourceCloudProfiles).Name(name).Body(deleteOptions(uid)).Do(ctx).Error()
	c.parents.forget(name)
	return ignoreNotFound(classify(err, cloudProfileRef(name)))
}

// DeleteNamespacedCloudProfile asks the server to delete a NamespacedCloudProfile; one that is
// already gone is not an error. uid works as for DeleteCloudProfile.
func (c *Client) DeleteNamespacedCloudProfile(ctx context.Context, namespace, name string, uid types.UID) error {
	err := c.rest.Delete().Namespace(namespace).Resource(resourceNamespacedCloudProfiles).Name(name).Body(deleteOptions(uid)).Do(ctx).Error()
	return ignoreNotFound(classify(err, namespacedRef(namespace, name)))
}

// deleteOptions carries a UID precondition when uid is set.
func deleteOptions(uid types.UID) *metav1.DeleteOptions {
	if uid == "" {
		return &metav1.DeleteOptions{}
	}
	return &metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}}
}

// decodeJSON decodes raw into generic JSON values (maps, slices, strings) with numbers as written
// (json.Number): a provider_config may hold integers beyond a float64's precision, and every
// value the provider sends or reads back must keep them.
func decodeJSON(raw []byte, into any) error {
	decoder := json.NewDecoder(bytes.NewReader(raw))
	decoder.UseNumber()
	return decoder.Decode(into)
}
