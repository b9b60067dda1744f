package cloudprofile

import (
	"fmt"
	"slices"
	"strings"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Conditions of a profile, after the Cluster API conditions model (CAEP "Conditions"):
//
//   - every condition has positive polarity: status True means all is well;
//   - a condition that is not met (False) carries a severity, Error or Warning; a met or unknown
//     condition carries none;
//   - reasons are CamelCase, messages are human-readable;
//   - a summarising Ready condition comes first: it is False with the severity, reason and message
//     of the first Error condition if there is one, else of the first Warning condition; Unknown
//     when no condition is False but one is Unknown; True otherwise.
//
// All lifecycle conditions are pure functions of the spec, the instant `at` and the warning
// window. LastTransitionTime is therefore derived rather than remembered: it is the instant at
// which the condition's current status began, found by re-evaluating the condition at every
// earlier instant where a classification (or a classification within the warning window) changes.
// Following the classification rule, a status that changes at the start time s of a stage holds
// from right after s, and LastTransitionTime is s. When the status has been the same since the
// beginning of time, or the condition does not derive from the lifecycle (ParentExists,
// StatusInSync), LastTransitionTime is `at`.

// ConditionStatus is True, False or Unknown.
type ConditionStatus string

// Condition statuses.
const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// ConditionSeverity classifies a condition that is not met.
type ConditionSeverity string

// Condition severities; the empty severity belongs to met and unknown conditions.
const (
	ConditionSeverityError   ConditionSeverity = "Error"
	ConditionSeverityWarning ConditionSeverity = "Warning"
	ConditionSeverityNone    ConditionSeverity = ""
)

// Condition is one observation about a profile.
type Condition struct {
	Type     string
	Status   ConditionStatus
	Severity ConditionSeverity
	// Reason is a CamelCase word naming why the condition has its status.
	Reason  string
	Message string
	// LastTransitionTime is when the condition's current status began (see the package comment
	// of this file).
	LastTransitionTime time.Time
}

// Condition types.
const (
	// ConditionReady summarises the other conditions.
	ConditionReady = "Ready"
	// ConditionParentExists (namespaced profiles): the parent CloudProfile exists.
	ConditionParentExists = "ParentExists"
	// ConditionStatusInSync (namespaced profiles): Gardener's controller has rendered the current
	// generation and its status.cloudProfileSpec equals the local merge.
	ConditionStatusInSync = "StatusInSync"
	// ConditionKubernetesVersionsSupported: some Kubernetes version is supported, and every minor
	// with a released (supported or deprecated) version has a supported version in it or in a
	// newer minor, so that the shoots on it can update to a supported version.
	ConditionKubernetesVersionsSupported = "KubernetesVersionsSupported"
	// ConditionLatestKubernetesVersionNotDeprecated: the highest Kubernetes version is neither
	// deprecated nor expired.
	ConditionLatestKubernetesVersionNotDeprecated = "LatestKubernetesVersionNotDeprecated"
	// ConditionExpirationsHaveSuccessors: no version expires within the warning window without a
	// successor that is supported when it expires.
	ConditionExpirationsHaveSuccessors = "ExpirationsHaveSuccessors"
	// ConditionMachineImagesSupported: every machine image has a supported version for each
	// architecture its released versions cover, and every usable machine type's architecture has a
	// supported image version.
	ConditionMachineImagesSupported = "MachineImagesSupported"
)

// Reasons of the conditions.
const (
	ReasonAllConditionsMet = "AllConditionsMet"

	ReasonParentFound    = "ParentFound"
	ReasonParentNotFound = "ParentNotFound"

	ReasonSpecNotAvailable = "SpecNotAvailable"

	ReasonEveryMinorSupported            = "EveryMinorSupported"
	ReasonNoActiveKubernetesVersion      = "NoActiveKubernetesVersion"
	ReasonNoSupportedKubernetesVersion   = "NoSupportedKubernetesVersion"
	ReasonMinorWithoutSupportedVersion   = "MinorWithoutSupportedVersion"
	ReasonNoKubernetesVersion            = "NoKubernetesVersion"
	ReasonLatestVersionSupported         = "LatestVersionSupported"
	ReasonLatestVersionInPreview         = "LatestVersionInPreview"
	ReasonLatestVersionNotYetAvailable   = "LatestVersionNotYetAvailable"
	ReasonLatestVersionDeprecated        = "LatestVersionDeprecated"
	ReasonLatestVersionExpired           = "LatestVersionExpired"
	ReasonNoExpirationWithoutSuccessor   = "NoExpirationWithoutSuccessor"
	ReasonExpirationWithoutSuccessor     = "ExpirationWithoutSuccessor"
	ReasonEveryArchitectureSupported     = "EveryArchitectureSupported"
	ReasonNoSupportedMachineImage        = "NoSupportedMachineImage"
	ReasonImageWithoutActiveVersion      = "ImageWithoutActiveVersion"
	ReasonArchitectureWithoutSupported   = "ArchitectureWithoutSupportedVersion"
	ReasonMachineTypeArchitectureNoImage = "MachineTypeArchitectureWithoutImage"
)

// ParentExistsCondition is the ParentExists condition of a namespaced profile whose parent
// CloudProfile is named parent; it does not derive from the lifecycle (LastTransitionTime at).
func ParentExistsCondition(parent string, found bool, at time.Time) Condition {
	if found {
		return Condition{Type: ConditionParentExists, Status: ConditionTrue, Reason: ReasonParentFound,
			Message: fmt.Sprintf("the parent CloudProfile %q exists", parent), LastTransitionTime: at}
	}
	return Condition{Type: ConditionParentExists, Status: ConditionFalse, Severity: ConditionSeverityError, Reason: ReasonParentNotFound,
		Message: fmt.Sprintf("the parent CloudProfile %q does not exist: Gardener cannot render the profile and shoots cannot use it", parent), LastTransitionTime: at}
}

// StatusInSyncCondition is the StatusInSync condition of a namespaced profile from the result of
// CompareNamespacedStatus; nil means the comparison was impossible (no parent). LastTransitionTime
// is at.
func StatusInSyncCondition(sync *NamespacedStatusSync, at time.Time) Condition {
	c := Condition{Type: ConditionStatusInSync, LastTransitionTime: at}
	switch {
	case sync == nil:
		c.Status, c.Reason, c.Message = ConditionUnknown, ReasonParentNotFound, "without the parent the local merge cannot be computed"
	case sync.InSync:
		c.Status, c.Reason, c.Message = ConditionTrue, sync.Reason, sync.Message
	default:
		c.Status, c.Severity, c.Reason, c.Message = ConditionFalse, ConditionSeverityWarning, sync.Reason, sync.Message
	}
	return c
}

// ProfileConditions evaluates the conditions of a profile at `at`: the Ready summary first, then
// fixed (conditions computed by the caller, such as ParentExists and StatusInSync, which do not
// change with time), then the lifecycle conditions of spec (KubernetesVersionsSupported,
// LatestKubernetesVersionNotDeprecated, ExpirationsHaveSuccessors, MachineImagesSupported), with
// window as the warning window of ExpirationsHaveSuccessors. With a nil spec (the profile cannot
// be computed) the lifecycle conditions are Unknown.
func ProfileConditions(spec *gardencorev1beta1.CloudProfileSpec, at time.Time, window time.Duration, fixed ...Condition) []Condition {
	idx := newConditionIndex(spec, at)
	current := make([]Condition, 0, len(fixed)+5)
	current = append(current, Condition{}) // Ready, filled below
	current = append(current, fixed...)
	current = append(current, idx.lifecycleConditions(at, window, true)...)
	current[0] = Summarize(current[1:])

	pending := make([]bool, len(current))
	remaining := 0
	for i := range current {
		if i > 0 && i <= len(fixed) {
			if current[i].LastTransitionTime.IsZero() {
				current[i].LastTransitionTime = at
			}
			continue
		}
		current[i].LastTransitionTime = at
		pending[i] = true
		remaining++
	}
	if idx.spec == nil {
		return current
	}
	past := make([]ConditionStatus, len(current))
	for i, c := range fixed {
		past[1+i] = c.Status
	}
	idx.sweepBack(at, window, func(t time.Time, lifecycle []ConditionStatus) bool {
		copy(past[1+len(fixed):], lifecycle)
		past[0] = summaryStatus(past[1:])
		for i := range current {
			if pending[i] && past[i] != current[i].Status {
				current[i].LastTransitionTime = t
				pending[i] = false
				remaining--
			}
		}
		return remaining == 0
	})
	return current
}

// summaryStatus is the status Summarize gives the Ready condition for conditions with these
// statuses: False if one is False, else Unknown if one is Unknown, else True.
func summaryStatus(statuses []ConditionStatus) ConditionStatus {
	if slices.Contains(statuses, ConditionFalse) {
		return ConditionFalse
	}
	if slices.Contains(statuses, ConditionUnknown) {
		return ConditionUnknown
	}
	return ConditionTrue
}

// Summarize computes the Ready condition from the others (without LastTransitionTime): errors
// surface first, then warnings, then unknowns; Ready is True when every condition is True.
func Summarize(conds []Condition) Condition {
	ready := Condition{Type: ConditionReady}
	for _, severity := range []ConditionSeverity{ConditionSeverityError, ConditionSeverityWarning} {
		var hits []Condition
		for _, c := range conds {
			if c.Status == ConditionFalse && c.Severity == severity {
				hits = append(hits, c)
			}
		}
		if len(hits) > 0 {
			ready.Status, ready.Severity, ready.Reason = ConditionFalse, severity, hits[0].Reason
			ready.Message = summaryMessage(hits)
			return ready
		}
	}
	var unknown []Condition
	var falseWithoutSeverity []Condition
	for _, c := range conds {
		switch c.Status {
		case ConditionUnknown:
			unknown = append(unknown, c)
		case ConditionFalse:
			falseWithoutSeverity = append(falseWithoutSeverity, c)
		}
	}
	if len(falseWithoutSeverity) > 0 {
		ready.Status, ready.Severity, ready.Reason = ConditionFalse, ConditionSeverityWarning, falseWithoutSeverity[0].Reason
		ready.Message = summaryMessage(falseWithoutSeverity)
		return ready
	}
	if len(unknown) > 0 {
		ready.Status, ready.Reason = ConditionUnknown, unknown[0].Reason
		ready.Message = summaryMessage(unknown)
		return ready
	}
	ready.Status, ready.Reason, ready.Message = ConditionTrue, ReasonAllConditionsMet, "all conditions are met"
	return ready
}

func summaryMessage(conds []Condition) string {
	msg := conds[0].Type + ": " + conds[0].Message
	switch n := len(conds) - 1; n {
	case 0:
	case 1:
		msg += fmt.Sprintf(" (and %s)", conds[1].Type)
	default:
		msg += fmt.Sprintf(" (and %d more: %s)", n, strings.Join(typesOf(conds[1:]), ", "))
	}
	return msg
}

func typesOf(conds []Condition) []string {
	out := make([]string, len(conds))
	for i, c := range conds {
		out[i] = c.Type
	}
	return out
}

// finding is one reason for a condition not to be met.
type finding struct {
	severity ConditionSeverity
	reason   string
	message  string
}

// maxListedFindings bounds how many findings a message lists.
const maxListedFindings = 5

// fromFindings builds a condition that is True with okReason/okMessage without findings, else
// False with the severity and reason of the most severe (first) finding and a message listing them
// all, errors first.
func fromFindings(typ string, findings []finding, okReason, okMessage string) Condition {
	if len(findings) == 0 {
		return Condition{Type: typ, Status: ConditionTrue, Reason: okReason, Message: okMessage}
	}
	slices.SortStableFunc(findings, func(a, b finding) int { return severityRank(a.severity) - severityRank(b.severity) })
	msgs := make([]string, 0, maxListedFindings+1)
	for i, f := range findings {
		if i == maxListedFindings {
			msgs = append(msgs, fmt.Sprintf("and %d more", len(findings)-maxListedFindings))
			break
		}
		msgs = append(msgs, f.message)
	}
	return Condition{Type: typ, Status: ConditionFalse, Severity: findings[0].severity, Reason: findings[0].reason, Message: strings.Join(msgs, "; ")}
}

func severityRank(s ConditionSeverity) int {
	if s == ConditionSeverityError {
		return 0
	}
	return 1
}
