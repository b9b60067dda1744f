package extcommon

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// Required is Kubernetes' field.Required (bad value "").
func Required(rule string, p cloudprofile.Path, detail string) cloudprofile.Problem {
	return cloudprofile.Problem{Rule: rule, Type: cloudprofile.Required, Path: p, BadValue: "", Detail: detail}
}

// Forbidden is Kubernetes' field.Forbidden (bad value "").
func Forbidden(rule string, p cloudprofile.Path, detail string) cloudprofile.Problem {
	return cloudprofile.Problem{Rule: rule, Type: cloudprofile.Forbidden, Path: p, BadValue: "", Detail: detail}
}

// Invalid is Kubernetes' field.Invalid.
func Invalid(rule string, p cloudprofile.Path, bad any, detail string) cloudprofile.Problem {
	return cloudprofile.Problem{Rule: rule, Type: cloudprofile.Invalid, Path: p, BadValue: bad, Detail: detail}
}

// NotSupported is Kubernetes' field.NotSupported: the detail lists the supported values quoted,
// `supported values: "a", "b"`, or is empty when there are none.
func NotSupported[T any](rule string, p cloudprofile.Path, bad any, supported []T) cloudprofile.Problem {
	detail := ""
	if len(supported) > 0 {
		quoted := make([]string, len(supported))
		for i, v := range supported {
			quoted[i] = strconv.Quote(fmt.Sprint(v))
		}
		detail = "supported values: " + strings.Join(quoted, ", ")
	}
	return cloudprofile.Problem{Rule: rule, Type: cloudprofile.NotSupported, Path: p, BadValue: bad, Detail: detail}
}

// Internal is Kubernetes' field.InternalError.
func Internal(rule string, p cloudprofile.Path, err error) cloudprofile.Problem {
	return cloudprofile.Problem{Rule: rule, Type: cloudprofile.Internal, Path: p, Detail: err.Error()}
}

// Failure is an error a webhook returns that is no field error (such as a decoding failure): it is
// reported as an internal error at p with the webhook's message as detail, so that it renders as
// "<path>: Internal error: <message>".
func Failure(rule string, p cloudprofile.Path, msg string) cloudprofile.Problem {
	return cloudprofile.Problem{Rule: rule, Type: cloudprofile.Internal, Path: p, Detail: msg}
}
