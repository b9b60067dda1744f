package kube

import (
	"context"
	"sync"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// shootCache holds the Shoot lists of this client's process (the Terraform run) by namespace, ""
// for all namespaces, so that a run lists the Shoots of a scope at most once whatever number of
// profiles and data sources ask: the first caller lists, concurrent callers wait for its answer,
// and later callers get it. A failed list is kept too (a run that may not list Shoots is not asked
// again). A list of all namespaces also answers for each namespace. It is safe for concurrent use.
type shootCache struct {
	mu      sync.Mutex
	entries map[string]*shootEntry
}

// shootEntry is the list of one scope, or the request for it in flight until done is closed.
type shootEntry struct {
	done   chan struct{}
	shoots []gardencorev1beta1.Shoot
	err    error
}

// entry returns the entry of a scope that answers for namespace, and whether the caller must
// fill it (list and close done).
func (s *shootCache) entry(namespace string) (*shootEntry, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.entries == nil {
		s.entries = map[string]*shootEntry{}
	}
	if all, ok := s.entries[""]; ok && namespace != "" && all.settledWithoutError() {
		return all, false
	}
	if e, ok := s.entries[namespace]; ok {
		return e, false
	}
	e := &shootEntry{done: make(chan struct{})}
	s.entries[namespace] = e
	return e, true
}

// settledWithoutError tells whether the entry holds a list.
func (e *shootEntry) settledWithoutError() bool {
	select {
	case <-e.done:
		return e.err == nil
	default:
		return false
	}
}

// RunShoots returns the Shoots of a namespace, or of all namespaces for "", listed at most once per
// scope in this client's lifetime (one request the first time; see shootCache). Callers must not
// change the Shoots they get.
func (c *Client) RunShoots(ctx context.Context, namespace string) ([]gardencorev1beta1.Shoot, error) {
	e, fill := c.shoots.entry(namespace)
	if fill {
		e.shoots, e.err = c.ListShoots(ctx, namespace)
		close(e.done)
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-e.done:
	}
	if e.err != nil {
		return nil, e.err
	}
	return inNamespace(e.shoots, namespace), nil
}

// inNamespace keeps the Shoots of namespace; all of them for "".
func inNamespace(shoots []gardencorev1beta1.Shoot, namespace string) []gardencorev1beta1.Shoot {
	if namespace == "" {
		return shoots
	}
	var out []gardencorev1beta1.Shoot
	for _, s := range shoots {
		if s.Namespace == namespace {
			out = append(out, s)
		}
	}
	return out
}
