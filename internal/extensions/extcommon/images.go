package extcommon

import "sort"

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

// Sorted returns the images, one per name (the later entry of a name wins), sorted by name.
// Gardener walks its ImagesContext.Images map in random order; sorting keeps the output stable.
func (c Images[I, V]) Sorted() []I {
	names := make([]string, 0, len(c.images))
	for n := range c.images {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]I, len(names))
	for i, n := range names {
		out[i] = c.images[n]
	}
	return out
}
