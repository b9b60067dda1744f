package provider

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestREADME_SettingsTableListsEveryProviderSetting: the provider settings table of the README
// names every attribute and block of the provider's schema, and nothing the schema lacks.
func TestREADME_SettingsTableListsEveryProviderSetting(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, found := strings.Cut(string(raw), "| attribute | environment | meaning |")
	if !found {
		t.Fatal("the README has no provider settings table")
	}
	table, _, _ = strings.Cut(table, "\n\n")
	listed := map[string]bool{}
	for _, row := range strings.Split(table, "\n") {
		first, _, _ := strings.Cut(strings.TrimPrefix(row, "|"), "|")
		for _, name := range regexp.MustCompile("`([a-z_]+)").FindAllStringSubmatch(first, -1) {
			listed[name[1]] = true
		}
	}
	s := providerSchema()
	var names []string
	for name := range s.Attributes {
		names = append(names, name)
	}
	for name := range s.Blocks {
		names = append(names, name)
	}
	for _, name := range names {
		if !listed[name] {
			t.Errorf("the README's settings table lacks %s", name)
		}
		delete(listed, name)
	}
	for name := range listed {
		t.Errorf("the README's settings table lists %s, which the provider's schema lacks", name)
	}
}
