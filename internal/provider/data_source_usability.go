package provider

import (
	"math/big"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// usabilityModels are the values of the data sources' machine_types, volume_types and regions:
// maps by name. Names a spec repeats (which Gardener's validation forbids) keep their first entry.
type usabilityModels struct {
	machineTypes map[string]machineTypeModel
	volumeTypes  map[string]volumeTypeModel
	regions      map[string]regionModel
}

// newUsabilityModels converts what shoots can use in a profile; the zero Usability gives empty maps.
func newUsabilityModels(u cloudprofile.Usability, defs []gardencorev1beta1.CapabilityDefinition) usabilityModels {
	out := usabilityModels{
		machineTypes: make(map[string]machineTypeModel, len(u.MachineTypes)),
		volumeTypes:  make(map[string]volumeTypeModel, len(u.VolumeTypes)),
		regions:      make(map[string]regionModel, len(u.Regions)),
	}
	for _, m := range u.MachineTypes {
		if _, ok := out.machineTypes[m.Name]; !ok {
			out.machineTypes[m.Name] = newMachineTypeModel(m, defs)
		}
	}
	for _, v := range u.VolumeTypes {
		if _, ok := out.volumeTypes[v.Name]; !ok {
			out.volumeTypes[v.Name] = volumeTypeModel{Name: v.Name, Class: v.Class, MinSize: quantityString(v.MinSize)}
		}
	}
	for _, r := range u.Regions {
		if _, ok := out.regions[r.Name]; ok {
			continue
		}
		rm := regionModel{Name: r.Name, UsableMachineTypes: r.MachineTypes, UsableVolumeTypes: r.VolumeTypes,
			Zones: make(map[string]zoneModel, len(r.Zones))}
		for _, z := range r.Zones {
			if _, ok := rm.Zones[z.Name]; !ok {
				rm.Zones[z.Name] = zoneModel{Name: z.Name, UsableMachineTypes: z.MachineTypes, UsableVolumeTypes: z.VolumeTypes}
			}
		}
		out.regions[r.Name] = rm
	}
	return out
}

func newMachineTypeModel(m gardencorev1beta1.MachineType, defs []gardencorev1beta1.CapabilityDefinition) machineTypeModel {
	memory := quantityNumber(m.Memory)
	model := machineTypeModel{
		Name:         m.Name,
		CPU:          quantityNumber(m.CPU),
		GPU:          quantityNumber(m.GPU),
		Memory:       m.Memory.String(),
		MemoryGiB:    new(big.Float).SetMantExp(memory, -30), // an exact division by 2^30
		Architecture: cloudprofile.MachineTypeArchitecture(m, defs),
	}
	if s := m.Storage; s != nil {
		model.Storage = &machineTypeStorageModel{Class: s.Class, Type: s.Type, Size: quantityString(s.StorageSize), MinSize: quantityString(s.MinSize)}
	}
	return model
}

// quantityNumber is the decimal value of a quantity as a number ("500m" is 0.5).
func quantityNumber(q resource.Quantity) *big.Float {
	f, _ := new(big.Float).SetString(q.AsDec().String()) // AsDec renders a plain decimal, which always parses
	return f
}

func quantityString(q *resource.Quantity) *string {
	if q == nil {
		return nil
	}
	s := q.String()
	return &s
}

type zoneModel struct {
	Name               string   `json:"name" tfsdk:"name"`
	UsableMachineTypes []string `json:"usable_machine_types" tfsdk:"usable_machine_types"`
	UsableVolumeTypes  []string `json:"usable_volume_types" tfsdk:"usable_volume_types"`
}

type regionModel struct {
	Name               string               `json:"name" tfsdk:"name"`
	UsableMachineTypes []string             `json:"usable_machine_types" tfsdk:"usable_machine_types"`
	UsableVolumeTypes  []string             `json:"usable_volume_types" tfsdk:"usable_volume_types"`
	Zones              map[string]zoneModel `json:"zones" tfsdk:"zones"`
}

type machineTypeModel struct {
	Name         string                   `json:"name" tfsdk:"name"`
	CPU          *big.Float               `json:"cpu" tfsdk:"cpu"`
	GPU          *big.Float               `json:"gpu" tfsdk:"gpu"`
	Memory       string                   `json:"memory" tfsdk:"memory"`
	MemoryGiB    *big.Float               `json:"memory_gib" tfsdk:"memory_gib"`
	Architecture string                   `json:"architecture" tfsdk:"architecture"`
	Storage      *machineTypeStorageModel `json:"storage" tfsdk:"storage"`
}

type machineTypeStorageModel struct {
	Class   string  `json:"class" tfsdk:"class"`
	Type    string  `json:"type" tfsdk:"type"`
	Size    *string `json:"size" tfsdk:"size"`
	MinSize *string `json:"min_size" tfsdk:"min_size"`
}

type volumeTypeModel struct {
	Name    string  `json:"name" tfsdk:"name"`
	Class   string  `json:"class" tfsdk:"class"`
	MinSize *string `json:"min_size" tfsdk:"min_size"`
}
