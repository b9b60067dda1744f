package provider

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// offlineErrors are the details of the errors a plan's offline checks reported.
type offlineErrors []string

// offlineErrorsOf collects the details of the errors among diags, but those about other field
// managers (which are not about what Gardener accepts).
func offlineErrorsOf(diags diag.Diagnostics) offlineErrors {
	var out offlineErrors
	for _, d := range diags.Errors() {
		if !strings.HasPrefix(d.Summary(), retainedEntriesSummary) {
			out = append(out, d.Detail())
		}
	}
	return out
}

// rejected tells that the offline checks reported an error.
func (o offlineErrors) rejected() bool { return len(o) > 0 }

// repeat tells whether the offline errors already say what the Garden says (its object bad values
// left out): the Garden's words are one offline error's quote of Gardener (e.g.
// `spec.kubernetes.versions[0].version: Invalid value: …`, or an admission plugin's bare message),
// or they wrap field errors that offline errors all quote (`error while validating merged
// NamespacedCloudProfile: [<field error>, …]`).
func (o offlineErrors) repeat(said string) bool {
	if said == "" {
		return false
	}
	said = withoutCompositeValues(said)
	if o.contain(said) || o.coverEmptyTypeLabel(said) {
		return true
	}
	if items := bulletItems(said); len(items) > 0 {
		return o.coverItems(items)
	}
	rest := said
	for _, quote := range o.quotes() {
		rest = strings.ReplaceAll(rest, quote, "")
	}
	return rest != said && !namesFieldError(rest)
}

// compositeValuePattern matches a bad value that is an object in a field error: Go syntax
// (`Invalid value: core.CloudProfileReference{Kind:"CloudProfile", Name:"b"}: field is immutable`,
// as gardener-apiserver renders its internal types) or JSON.
var compositeValuePattern = regexp.MustCompile(`(Invalid value|Duplicate value|Unsupported value): &?[A-Za-z_.]*\{[^{}]*\}: `)

// withoutCompositeValues leaves out the object bad values of the field errors in a message, as
// offline errors do (see shortBadValue), so that the two compare.
func withoutCompositeValues(message string) string {
	return compositeValuePattern.ReplaceAllString(message, "$1: ")
}

// coverEmptyTypeLabel tells whether the Garden rejects the label of a missing type that the
// offline rules report as the missing type itself (rule B-1, see Problems.WithoutRepeatsOfMissingType).
func (o offlineErrors) coverEmptyTypeLabel(said string) bool {
	return strings.Contains(said, strconv.Quote(cloudprofile.EmptyProviderTypeLabel)) && o.contain("(rule B-1)")
}

// contain tells whether an offline error contains the text.
func (o offlineErrors) contain(text string) bool {
	return slices.ContainsFunc(o, func(detail string) bool { return strings.Contains(detail, text) })
}

// coverItems tells whether the offline errors report the errors the Garden lists: each of them,
// or, where the offline errors list only the first of a group (see problemGroupDetail), every one
// they show and at least as many in all.
func (o offlineErrors) coverItems(items []string) bool {
	contained := 0
	for _, item := range items {
		if o.contain(item) {
			contained++
		}
	}
	return contained == len(items) || (contained >= min(len(items), maxListedProblems+1) && o.problemCount() >= len(items))
}

// problemCount is how many problems the offline errors report, counting those a grouped error
// adds ("Gardener reports the same for N more", "Gardener reports N more").
func (o offlineErrors) problemCount() int {
	n := 0
	for _, detail := range o {
		n++
		var more int
		if _, rest, ok := strings.Cut(detail, "Gardener reports the same for "); ok {
			_, _ = fmt.Sscanf(rest, "%d more", &more)
		} else if _, rest, ok := strings.Cut(detail, "Gardener reports "); ok {
			_, _ = fmt.Sscanf(rest, "%d more", &more)
		}
		n += more
	}
	return n
}

// bulletItems are the errors a message lists as "N errors occurred:" followed by lines "\t* …"
// (as Gardener's admission plugins answer), none for another message.
func bulletItems(message string) []string {
	var items []string
	for _, line := range strings.Split(message, "\n") {
		if item, ok := strings.CutPrefix(line, "\t* "); ok && strings.TrimSpace(item) != "" {
			items = append(items, strings.TrimSpace(item))
		}
	}
	return items
}

// quotes are the messages of Gardener that the offline errors quote ("Gardener: <message> (rule
// …)", see problemParagraphs).
func (o offlineErrors) quotes() []string {
	var out []string
	for _, detail := range o {
		_, rest, found := strings.Cut(detail, "Gardener: ")
		quote, _, ruled := strings.Cut(rest, " (rule ")
		if found && ruled && quote != "" {
			out = append(out, quote)
		}
	}
	return out
}

// namesFieldError tells whether a message contains a Kubernetes field error, by the words of its
// type (field.ErrorType).
func namesFieldError(message string) bool {
	for _, t := range fieldErrorTypes {
		if strings.Contains(message, t.String()) {
			return true
		}
	}
	return false
}

// fieldErrorTypes are the types of Kubernetes field errors.
var fieldErrorTypes = []field.ErrorType{field.ErrorTypeNotFound, field.ErrorTypeRequired, field.ErrorTypeDuplicate,
	field.ErrorTypeInvalid, field.ErrorTypeNotSupported, field.ErrorTypeForbidden, field.ErrorTypeTooLong,
	field.ErrorTypeTooMany, field.ErrorTypeTooFew, field.ErrorTypeTooShort, field.ErrorTypeInternal, field.ErrorTypeTypeInvalid}
