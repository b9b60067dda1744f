package extcommon

// Images looks images and their versions up by name as Gardener's ImagesContext does (built with
// utils.CreateMapFromSlice): when a name occurs twice, the later entry wins.
type Images[I any, V any] struct {
	images   map[string]I
	versions map[string]map[string]V
}

// NewImages indexes images by name and the versions of each by version string.
func NewImages[I any, V any](images []I, name func(I) string, versions func(I) []V, version func(V) string) Images[I, V] {
	out := Images[I, V]{images: map[string]I{}, versions: map[string]map[string]V{}}
	for _, img := range images {
		n := name(img)
		out.images[n] = img
		vs := map[string]V{}
		for _, v := range versions(img) {
			vs[version(v)] = v
		}
		out.versions[n] = vs
	}
	return out
}

// Image returns the image of that name.
func (c Images[I, V]) Image(name string) (I, bool) {
	img, ok := c.images[name]
	return img, ok
}

// Version returns the version of the image of that name.
func (c Images[I, V]) Version(name, version string) (V, bool) {
	v, ok := c.versions[name][version]
	return v, ok
}
