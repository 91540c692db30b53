package webhook

import (
	"context"
	"time"
)

// QueueUnqueued runs one sweep.
func (s *Service) QueueUnqueued(ctx context.Context, limit int) (int, error) {
	return s.queueUnqueued(ctx, limit)
}

// RetryDelay is the jittered wait after attempt.
func (s *Service) RetryDelay(attempt int, deliveryID int64) time.Duration {
	return s.retryDelay(attempt, deliveryID)
}
