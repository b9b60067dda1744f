package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/bench/gen"
)

// writeGenerated writes the big profile and the namespaced profiles into dir: big-profile.json
// and namespaced-profiles.json (a NamespacedCloudProfileList) for client-go and kubectl,
// big-profile.tf.json and namespaced-profiles.tf.json (resources of the provider; the provider
// block with config_path = kubeconfig is added when kubeconfig is not empty).
func writeGenerated(dir, kubeconfig string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	cp := gen.BigProfile()
	ncps := gen.NamespacedProfiles(cp)
	if err := writeJSON(filepath.Join(dir, "big-profile.json"), cp); err != nil {
		return err
	}
	list := gardencorev1beta1.NamespacedCloudProfileList{TypeMeta: metav1.TypeMeta{APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "NamespacedCloudProfileList"}}
	for _, n := range ncps {
		list.Items = append(list.Items, *n)
	}
	if err := writeJSON(filepath.Join(dir, "namespaced-profiles.json"), list); err != nil {
		return err
	}
	big, err := resourceConfig(kubeconfig, "gardener_cloud_profile", map[string]any{"big": cp})
	if err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(dir, "big-profile.tf.json"), big); err != nil {
		return err
	}
	objs := map[string]any{}
	for _, n := range ncps {
		objs[n.Name] = n
	}
	nsCfg, err := resourceConfig("", "gardener_namespaced_cloud_profile", objs)
	if err != nil {
		return err
	}
	return writeJSON(filepath.Join(dir, "namespaced-profiles.tf.json"), nsCfg)
}

// resourceConfig is a .tf.json document with one resource of type typ per object.
func resourceConfig(kubeconfig, typ string, objs map[string]any) (map[string]any, error) {
	res := map[string]any{}
	for name, obj := range objs {
		v, err := gen.TerraformValue(obj)
		if err != nil {
			return nil, err
		}
		res[name] = v
	}
	doc := map[string]any{"resource": map[string]any{typ: res}}
	addProvider(doc, kubeconfig)
	return doc, nil
}

func addProvider(doc map[string]any, kubeconfig string) {
	if kubeconfig == "" {
		return
	}
	doc["terraform"] = map[string]any{"required_providers": map[string]any{"gardener": map[string]any{"source": "gardener-community/gardener"}}}
	// The generated profiles use lifecycles, which the local Garden accepts (its feature gate is on).
	doc["provider"] = map[string]any{"gardener": map[string]any{"config_path": kubeconfig,
		"feature_gates": map[string]any{"VersionClassificationLifecycle": true}}}
}

// writeJSON writes v into the file as indented JSON.
func writeJSON(file string, v any) error {
	raw, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding %s: %w", file, err)
	}
	return os.WriteFile(file, append(raw, '\n'), 0o644)
}

// readJSON decodes the JSON file into v.
func readJSON(file string, v any) error {
	raw, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("decoding %s: %w", file, err)
	}
	return nil
}
