package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

var _ function.Function = classificationFunction{}

// classificationFunction is provider::gardener::classification(version, at).
type classificationFunction struct{}

func newClassificationFunction() function.Function { return classificationFunction{} }

// versionParameterDescription documents the version argument of classification and next_transition.
const versionParameterDescription = "A version object shaped like one entry of `spec.kubernetes.versions` (or of a machine image's `versions`), " +
	"such as `spec.kubernetes.versions[\"1.31.2\"]`: an object with `classification`, `expiration_date` and `lifecycle` (a list of stages, each " +
	"with `classification` and `start_time`), optionally with its `version`. Attributes may be left out; other attributes (such as those of the data sources' `kubernetes_versions` " +
	"entries) are ignored. Timestamps are RFC 3339."

// Metadata names the function.
func (classificationFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "classification"
}

// Definition describes the function.
func (classificationFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Classification of a version at an instant",
		MarkdownDescription: "Returns the classification Gardener gives a Kubernetes or machine image version at the instant `at`: " +
			"`unavailable`, `preview`, `supported`, `deprecated` or `expired`. It follows Gardener's `CurrentLifecycleClassification`: a " +
			"non-empty `lifecycle` wins; otherwise the legacy `classification` (default `supported`) holds until `expiration_date`, after " +
			"which the version is `expired`; a version with neither is `supported`. A stage starting exactly at `at` is not active yet. " +
			"Pure: needs no cluster.",
		Parameters: []function.Parameter{
			function.DynamicParameter{Name: "version", MarkdownDescription: versionParameterDescription},
			function.StringParameter{Name: "at", MarkdownDescription: "The instant, an RFC 3339 timestamp such as `2030-01-01T00:00:00Z` or the result of `timestamp()` / `plantimestamp()`."},
		},
		Return: function.StringReturn{},
	}
}

// Run classifies the version.
func (classificationFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	v, at, unknown, ferr := versionAndInstantArguments(ctx, req)
	if ferr != nil {
		resp.Error = ferr
		return
	}
	if unknown {
		resp.Error = resp.Result.Set(ctx, types.StringUnknown())
		return
	}
	resp.Error = resp.Result.Set(ctx, string(cloudprofile.Classify(v, at)))
}
