package kube

import (
	"context"
	"strconv"
	"sync"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// parentCache holds the newest CloudProfile of each name this client has read or written, so that
// the NamespacedCloudProfiles of one Terraform run that share a parent read it once. A client lives
// as long as its provider process, which Terraform starts for each run (plan, apply, refresh), so
// the cache never serves a parent older than the run. It is safe for concurrent use; concurrent
// lookups of a name that is not cached yet share one request.
type parentCache struct {
	mu      sync.Mutex
	entries map[string]*parentEntry
}

// parentEntry is the cached CloudProfile of one name, or the read of it in flight.
type parentEntry struct {
	cp *gardencorev1beta1.CloudProfile // nil while the first read is in flight
	// done is closed when the first read ended; err is its failure (never cached).
	done chan struct{}
	err  error
}

// lookup returns the cached CloudProfile, or joins or starts the read of it: with start true the
// caller must read the object and call finish.
func (p *parentCache) lookup(name string) (cp *gardencorev1beta1.CloudProfile, wait chan struct{}, entry *parentEntry, start bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.entries == nil {
		p.entries = map[string]*parentEntry{}
	}
	e, ok := p.entries[name]
	switch {
	case ok && e.cp != nil:
		return e.cp, nil, nil, false
	case ok:
		return nil, e.done, e, false
	}
	e = &parentEntry{done: make(chan struct{})}
	p.entries[name] = e
	return nil, nil, e, true
}

// finish ends the read that lookup started: its result is recorded (see observe), its failure is
// handed to the callers that waited and then forgotten, so that the next lookup asks again.
func (p *parentCache) finish(name string, e *parentEntry, cp *gardencorev1beta1.CloudProfile, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e.err = err
	if err == nil {
		p.storeLocked(cp)
	} else if p.entries[name] == e && e.cp == nil {
		delete(p.entries, name)
	}
	close(e.done)
}

// failure is the error of a finished read that left nothing cached.
func (p *parentCache) failure(e *parentEntry) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e.cp != nil {
		return nil
	}
	return e.err
}

// observe records a CloudProfile read or written by the client, when it is not older than the
// cached one.
func (p *parentCache) observe(cp *gardencorev1beta1.CloudProfile) {
	if cp == nil || cp.Name == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.entries == nil {
		p.entries = map[string]*parentEntry{}
	}
	p.storeLocked(cp)
}

// storeLocked keeps a copy of cp unless a newer resourceVersion of that name is cached.
func (p *parentCache) storeLocked(cp *gardencorev1beta1.CloudProfile) {
	e, ok := p.entries[cp.Name]
	if ok && e.cp != nil && olderResourceVersion(cp.ResourceVersion, e.cp.ResourceVersion) {
		return
	}
	if !ok || e.cp != nil {
		// A finished entry is replaced; an entry in flight gets the object and is closed by its
		// reader's finish.
		e = &parentEntry{done: make(chan struct{})}
		close(e.done)
		p.entries[cp.Name] = e
	}
	e.cp = cp.DeepCopy()
}

// forget drops the cached CloudProfile of a name (it was deleted).
func (p *parentCache) forget(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.entries[name]; ok && e.cp != nil {
		delete(p.entries, name)
	}
}

// olderResourceVersion tells whether resourceVersion a is older than b. Resource versions are
// opaque to clients, but the API server's are decimal numbers; when one is not, the later
// observation counts as the newer one.
func olderResourceVersion(a, b string) bool {
	x, errA := strconv.ParseUint(a, 10, 64)
	y, errB := strconv.ParseUint(b, 10, 64)
	return errA == nil && errB == nil && x < y
}

// ParentCloudProfile returns the parent CloudProfile of NamespacedCloudProfiles: the newest one
// this client has read or written during its process's lifetime (the Terraform run), else one GET
// shared by every concurrent caller. Callers get their own copy. RefreshedParentCloudProfile
// bypasses the cache.
func (c *Client) ParentCloudProfile(ctx context.Context, name string) (*gardencorev1beta1.CloudProfile, error) {
	for {
		cp, wait, entry, start := c.parents.lookup(name)
		switch {
		case cp != nil:
			return cp.DeepCopy(), nil
		case start:
			got, err := c.getCloudProfile(ctx, name)
			c.parents.finish(name, entry, got, err)
			return got, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-wait:
		}
		if err := c.parents.failure(entry); err != nil {
			return nil, err
		}
	}
}

// RefreshedParentCloudProfile reads the parent CloudProfile from the server (one GET), for when a
// cached one may be outdated, and caches it.
func (c *Client) RefreshedParentCloudProfile(ctx context.Context, name string) (*gardencorev1beta1.CloudProfile, error) {
	return c.GetCloudProfile(ctx, name)
}
