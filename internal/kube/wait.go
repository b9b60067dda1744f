package kube

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// deletePollInterval is how often a deleted object is looked up until it is gone.
const deletePollInterval = time.Second

// WaitUntilGone polls get until it reports that the object does not exist, or ctx ends. It returns
// the last error other than not-found when ctx ends first.
func WaitUntilGone(ctx context.Context, get func(context.Context) error) error {
	var last error
	err := wait.PollUntilContextCancel(ctx, deletePollInterval, true, func(ctx context.Context) (bool, error) {
		last = get(ctx)
		if IsNotFound(last) {
			return true, nil
		}
		switch KindOf(last) {
		case KindForbidden, KindUnauthorized:
			return false, last
		}
		return false, nil
	})
	if err != nil && last != nil && !IsNotFound(last) && ctx.Err() != nil {
		return fmt.Errorf("%w (last lookup: %v)", err, last)
	}
	return err
}
