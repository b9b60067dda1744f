package extcommon

import (
	"encoding/json"
	"testing"
)

type testImage struct {
	Name     string        `json:"name"`
	Versions []testVersion `json:"versions"`
}

type testVersion struct {
	Version string `json:"version"`
	Image   string `json:"image"`
}

// TestMergeImages: images and versions are merged by name and version, the later entry of a key
// counting on each side, status's order first; with appendVersions every version entry of both
// sides is kept; no images at all stay null, as the mutators' empty map collects to nil.
func TestMergeImages(t *testing.T) {
	img := func(name string, versions ...testVersion) testImage { return testImage{Name: name, Versions: versions} }
	v := func(version, image string) testVersion { return testVersion{Version: version, Image: image} }
	status := []testImage{img("a", v("1", "a1"), v("2", "a2"), v("1", "a1-later")), img("b", v("1", "b1")), img("a", v("1", "a1-last"), v("3", "a3"))}
	spec := []testImage{img("c", v("1", "c1")), img("a", v("3", "a3-spec"), v("4", "a4"))}
	for _, c := range []struct {
		name           string
		spec, status   []testImage
		appendVersions bool
		want           string
	}{
		{"replace", spec, status, false,
			`[{"name":"a","versions":[{"version":"1","image":"a1-last"},{"version":"3","image":"a3-spec"},{"version":"4","image":"a4"}]},` +
				`{"name":"b","versions":[{"version":"1","image":"b1"}]},{"name":"c","versions":[{"version":"1","image":"c1"}]}]`},
		{"append", spec, status, true,
			`[{"name":"a","versions":[{"version":"1","image":"a1-last"},{"version":"3","image":"a3"},{"version":"3","image":"a3-spec"},{"version":"4","image":"a4"}]},` +
				`{"name":"b","versions":[{"version":"1","image":"b1"}]},{"name":"c","versions":[{"version":"1","image":"c1"}]}]`},
		{"nothing", nil, nil, false, `null`},
		{"an image without versions on both sides", []testImage{img("a")}, []testImage{img("a")}, false, `[{"name":"a","versions":null}]`},
		{"appended empty versions", []testImage{img("a")}, []testImage{img("a")}, true, `[{"name":"a","versions":[]}]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := MergeImages(c.spec, c.status, c.appendVersions)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := json.Marshal(got)
			if string(raw) != c.want {
				t.Errorf("merged\n  got  %s\n  want %s", raw, c.want)
			}
		})
	}
}
