package kube

import (
	"context"
	"sync"
)

// runValue is something a client reads at most once in its lifetime, which is its provider
// process's, the Terraform run's: the first caller reads it, concurrent callers wait for that
// read, later callers get its result. A failure is kept too (a run that may not read it is not
// asked again; transient failures were retried by the client). It is safe for concurrent use.
type runValue[T any] struct {
	mu    sync.Mutex
	done  chan struct{}
	value T
	err   error
}

// get returns the value, reading it with read on the first call.
func (r *runValue[T]) get(ctx context.Context, read func(context.Context) (T, error)) (T, error) {
	r.mu.Lock()
	first := r.done == nil
	if first {
		r.done = make(chan struct{})
	}
	done := r.done
	r.mu.Unlock()
	if first {
		r.value, r.err = read(ctx)
		close(done)
	}
	select {
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	case <-done:
	}
	return r.value, r.err
}
