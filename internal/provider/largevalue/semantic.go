package largevalue

import (
	"context"

	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// KeepSemanticallyEqual is next with every value that only writes the planned one differently
// (also an empty collection stored as null) replaced by the planned one: the state Terraform gets
// after an apply that stores next.
func KeepSemanticallyEqual(ctx context.Context, a rschema.Attribute, planned, next tftypes.Value) tftypes.Value {
	kept, _ := keepSemanticallyEqual(ctx, a, planned, next)
	return kept
}
