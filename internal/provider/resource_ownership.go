package provider

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// What a plan shows of fields other field managers hold is what its apply does (kube's
// ownership_import.go and conflicts.go say how). Two records in the resource's private state carry
// that from the refresh and the plan to the apply:
//   - a refresh of an object the provider's field manager has not applied yet (an import, a move
//     from a manifest resource) records that the next apply takes over what kubectl and other
//     creates and updates wrote (takeoverKey): the state holds all of it, so the plan showed it;
//   - a plan that sets back fields another manager changed records them with the values it saw
//     (setBackKey): the apply takes exactly those back, and fails on any other conflict.
// An apply clears both.

// takeoverKey is the private-state key of an object whose next apply takes over the fields of
// creates and updates (kube.ImportTakeover).
const takeoverKey = "takeover"

// setBackKey is the private-state key of the fields a plan sets back (kube.SetBack, as JSON).
const setBackKey = "set_back"

// recordOwnershipOnRead records, on a read of obj, whether the next apply of manager takes over
// fields of other managers' creates and updates (the same object gives the same record), and
// forgets the fields an earlier plan set back (an apply that failed may have left them).
func recordOwnershipOnRead(ctx context.Context, private privateState, obj metav1.Object, manager string) diag.Diagnostics {
	var pending []byte
	if len(kube.ImportTakeover(obj, manager)) > 0 {
		pending = []byte("true")
	}
	diags := private.SetKey(ctx, takeoverKey, pending)
	return append(diags, private.SetKey(ctx, setBackKey, nil)...)
}

// privateReader is the private state as a write request holds it.
type privateReader interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// ownershipOfWrite is what the records say the update takes over (kube.ApplyOptions.TakeOver and
// SetBack).
func ownershipOfWrite(ctx context.Context, private privateReader) (takeOver bool, setBack []kube.SetBack, diags diag.Diagnostics) {
	pending, d := private.GetKey(ctx, takeoverKey)
	diags.Append(d...)
	raw, d := private.GetKey(ctx, setBackKey)
	diags.Append(d...)
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &setBack); err != nil {
			diags.AddError("Reading the plan's private state", "The fields the plan sets back cannot be read: "+err.Error())
		}
	}
	return len(pending) > 0, setBack, diags
}

// clearOwnershipRecords removes both records after a write.
func clearOwnershipRecords(ctx context.Context, private privateState) diag.Diagnostics {
	diags := private.SetKey(ctx, takeoverKey, nil)
	return append(diags, private.SetKey(ctx, setBackKey, nil)...)
}

// setBackRecord encodes the fields a plan sets back for setBackKey; nil for none.
func setBackRecord(setBack []kube.SetBack) []byte {
	if len(setBack) == 0 {
		return nil
	}
	raw, _ := json.Marshal(setBack) // strings only
	return raw
}
