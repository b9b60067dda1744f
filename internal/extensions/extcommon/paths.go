package extcommon

import (
	"strconv"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// SpecPath is the path "spec".
func SpecPath() cloudprofile.Path { return cloudprofile.NewPath("spec") }

// ProviderConfigPath is "spec.providerConfig", the Terraform attribute spec.provider_config.
func ProviderConfigPath() cloudprofile.Path {
	return SpecPath().ChildAs("providerConfig", "provider_config")
}

// MachineImagesPath is "spec.machineImages", the Terraform attribute spec.machine_images.
func MachineImagesPath() cloudprofile.Path { return SpecPath().Child("machineImages") }

// ConfigPath is a path inside spec.providerConfig. Gardener's field path goes down into the
// decoded config; the Terraform attribute stays spec.provider_config, a JSON string.
type ConfigPath struct {
	segs []string
}

// Config starts a path inside spec.providerConfig with the given field names.
func Config(names ...string) ConfigPath {
	return ConfigPath{segs: append([]string(nil), names...)}
}

// Child appends a field name.
func (c ConfigPath) Child(name string) ConfigPath {
	segs := make([]string, len(c.segs), len(c.segs)+1)
	copy(segs, c.segs)
	return ConfigPath{segs: append(segs, name)}
}

// Index appends a list index to the last field name.
func (c ConfigPath) Index(i int) ConfigPath {
	segs := append([]string(nil), c.segs...)
	if len(segs) == 0 {
		segs = []string{""}
	}
	segs[len(segs)-1] += "[" + strconv.Itoa(i) + "]"
	return ConfigPath{segs: segs}
}

// Path renders the path: Gardener's field path "spec.providerConfig.<segments>" and the attribute
// spec.provider_config.
func (c ConfigPath) Path() cloudprofile.Path {
	p := ProviderConfigPath()
	for _, s := range c.segs {
		p = p.FieldOnly(s)
	}
	return p
}

// String renders Gardener's field path.
func (c ConfigPath) String() string { return c.Path().Field() }
