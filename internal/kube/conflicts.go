package kube

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// A server-side apply that would change a field another field manager owns fails with a
// conflict naming the field and the manager. When another manager changed a field the client's
// manager applied (kubectl patch, a bot's forced apply), the manager lost the field to it: a
// refresh shows the other value, the plan shows it being set back, and the user approved that.
// An update with SetBack then takes exactly those fields back: it applies without force, and
// when every conflict is a field of SetBack that still holds the value the plan saw, it applies
// again with force, under the resourceVersion it read, so that no change made in between is
// overwritten. Any other conflict (a field another manager changed since the plan, or one it
// shares) fails, naming each once.

// fieldManagerConflict is the type of the causes of an apply conflict.
const fieldManagerConflict = string(metav1.CauseTypeFieldManagerConflict)

// Conflict is a field an apply would take from another field manager.
type Conflict struct {
	// Field is the field as the API server names it: .spec.machineTypes[name="m5.large"].memory.
	Field string
	// Manager is the other field manager.
	Manager string
	// Update tells that Manager wrote the field with an update (kubectl create, edit, patch or
	// replace, client-side apply), not with a server-side apply.
	Update bool
	// Shared tells that the client's manager owns the field too: Manager shares it (with the same
	// value) rather than having taken it from the client's manager.
	Shared bool
	// Value is the field's value in the object, as JSON; "" where it has none.
	Value string
}

// SetBack is a field an update may take over from Manager while the object holds Value there:
// another manager's change that the approved plan showed being set back.
type SetBack struct {
	Field, Manager, Value string
}

// ConflictsSincePlan is the error of an update with SetBack that conflicts on other fields than
// those (changes of other field managers since the plan, or fields they share): nothing was
// written.
type ConflictsSincePlan struct {
	Conflicts []Conflict
}

// Error lists the conflicts, each once.
func (e *ConflictsSincePlan) Error() string {
	lines := make([]string, 0, len(e.Conflicts))
	for _, c := range e.Conflicts {
		lines = append(lines, fmt.Sprintf("%s (field manager %q)", c.Field, c.Manager))
	}
	return "conflicts the plan did not show: " + strings.Join(lines, ", ")
}

// ConflictsOf lists the conflicts of a failed apply with live, the object as read after it: one
// per field and manager, in the order the server named them.
func ConflictsOf(err error, live runtime.Object, manager string) ([]Conflict, error) {
	m, merr := meta.Accessor(live)
	if merr != nil {
		return nil, merr
	}
	object, merr := toMap(live)
	if merr != nil {
		return nil, merr
	}
	own, _, merr := appliedFields(m.GetManagedFields(), manager)
	if merr != nil {
		return nil, merr
	}
	var out []Conflict
	seen := map[[2]string]bool{}
	for _, cause := range causesOf(err) {
		if cause.Type != fieldManagerConflict {
			continue
		}
		name, update := conflictingManager(cause.Message)
		if seen[[2]string{cause.Field, name}] {
			continue
		}
		seen[[2]string{cause.Field, name}] = true
		out = append(out, Conflict{Field: cause.Field, Manager: name, Update: update,
			Shared: setHasField(own, cause.Field), Value: valueAt(object, cause.Field)})
	}
	return out, nil
}

// conflictingManager reads a conflict cause's message, `conflict with "kubectl-patch" using
// core.gardener.cloud/v1beta1` (an update) or `conflict with "bot"` (an apply): the manager, and
// whether it wrote with an update.
func conflictingManager(message string) (string, bool) {
	_, rest, _ := strings.Cut(message, `conflict with "`)
	name, rest, _ := strings.Cut(rest, `"`)
	return name, strings.Contains(rest, " using ")
}

// isFieldConflict tells an apply conflict (with causes naming fields and managers) from other
// answers of 409, such as a stale resourceVersion.
func isFieldConflict(err error) bool {
	for _, c := range causesOf(err) {
		if c.Type == fieldManagerConflict {
			return true
		}
	}
	return false
}

// setBack handles conflict, the answer to the apply of obj to k with opts (see above): it applies
// with force what opts.SetBack allows, and fails with ConflictsSincePlan on anything else.
func (c *Client) setBack(ctx context.Context, k objectKind, obj runtime.Object, opts ApplyOptions, into runtime.Object, conflict error) (int, error) {
	apply := func(o ApplyOptions) (int, error) {
		return c.applyReporting(ctx, k.request(c.rest.Patch(types.ApplyPatchType)).Name(k.name), obj, o, into)
	}
	for range maxOwnershipAttempts {
		live, err := k.request(c.rest.Get()).Name(k.name).Do(ctx).Get()
		if err != nil {
			return 0, err
		}
		conflicts, err := ConflictsOf(conflict, live, c.fieldManager)
		if err != nil {
			return 0, err
		}
		if unplanned := unplannedConflicts(conflicts, opts.SetBack); len(unplanned) > 0 {
			return 0, &Error{Kind: KindConflict, Object: k.ref, Err: &ConflictsSincePlan{Conflicts: unplanned}}
		}
		m, _ := meta.Accessor(live) // ConflictsOf read it
		forced := opts
		forced.Force, forced.resourceVersion = true, m.GetResourceVersion()
		code, err := apply(forced)
		if err == nil || isFieldConflict(err) || kindOf(err) != KindConflict {
			return code, err
		}
		// The object changed since it was read: apply as planned again.
		if code, err = apply(opts); err == nil || !isFieldConflict(err) {
			return code, err
		}
		conflict = err
	}
	return 0, conflict
}

// unplannedConflicts are the conflicts setBack does not allow: those without a field of setBack
// of the same manager that still holds the value the plan saw.
func unplannedConflicts(conflicts []Conflict, setBack []SetBack) []Conflict {
	allowed := map[SetBack]bool{}
	for _, s := range setBack {
		allowed[s] = true
	}
	var out []Conflict
	for _, c := range conflicts {
		if !allowed[SetBack{Field: c.Field, Manager: c.Manager, Value: c.Value}] {
			out = append(out, c)
		}
	}
	return out
}

// ConflictsSinceThePlan returns the conflicts of an update with SetBack that the plan did not
// show; false for any other error.
func ConflictsSinceThePlan(err error) ([]Conflict, bool) {
	var e *ConflictsSincePlan
	if errors.As(err, &e) {
		return e.Conflicts, true
	}
	return nil, false
}
