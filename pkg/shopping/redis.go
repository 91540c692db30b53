package shopping

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// RedisSessions keeps search sessions in Redis: the session as one key, its
// supplier answers as a list appended as they arrive, both expiring an hour
// after the search goes stale. Several instances poll the same session.
type RedisSessions struct {
	rdb    redis.UniversalClient
	prefix string
	now    func() time.Time
}

// NewRedisSessions returns the Redis session store; prefix namespaces keys
// (tests use their own).
func NewRedisSessions(rdb redis.UniversalClient, prefix string) *RedisSessions {
	if prefix == "" {
		prefix = "voyage:search:"
	}
	return &RedisSessions{rdb: rdb, prefix: prefix, now: time.Now}
}

// OpenRedis connects to the Redis at url (redis://host:port/db) and checks it
// answers.
func OpenRedis(ctx context.Context, url string) (*redis.Client, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("shopping: redis url: %w", err)
	}
	c := redis.NewClient(opt)
	if err := c.Ping(ctx).Err(); err != nil {
		c.Close()
		return nil, fmt.Errorf("shopping: redis: %w", err)
	}
	return c, nil
}

func (s *RedisSessions) sessKey(id string) string  { return s.prefix + id }
func (s *RedisSessions) partsKey(id string) string { return s.prefix + id + ":parts" }
func (s *RedisSessions) namesKey(id string) string { return s.prefix + id + ":names" }

// storedBatch is a batch of answers as gob-encoded in the list.
type storedBatch struct {
	Batch   string
	Payload []byte
}

func (s *RedisSessions) ttl(expires time.Time) time.Duration {
	return max(expires.Add(time.Hour).Sub(s.now()), time.Minute)
}

// Create implements SessionStore.
func (s *RedisSessions) Create(ctx context.Context, ss Session) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(ss); err != nil {
		return fmt.Errorf("shopping: encode session: %w", err)
	}
	if err := s.rdb.Set(ctx, s.sessKey(ss.ID), buf.Bytes(), s.ttl(ss.ExpiresAt)).Err(); err != nil {
		return fmt.Errorf("shopping: create session: %w", err)
	}
	return nil
}

// Get implements SessionStore.
func (s *RedisSessions) Get(ctx context.Context, id string) (Session, error) {
	b, err := s.rdb.Get(ctx, s.sessKey(id)).Bytes()
	if errors.Is(err, redis.Nil) {
		return Session{}, ErrNoSession
	}
	if err != nil {
		return Session{}, fmt.Errorf("shopping: load session: %w", err)
	}
	var ss Session
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&ss); err != nil {
		return Session{}, fmt.Errorf("shopping: decode session: %w", err)
	}
	return ss, nil
}

// AddBatch implements SessionStore. A set of batch names makes a repeated
// batch a no-op, like the database's unique key.
func (s *RedisSessions) AddBatch(ctx context.Context, id string, b Batch) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(storedBatch{Batch: b.Name, Payload: b.Payload}); err != nil {
		return fmt.Errorf("shopping: encode answers: %w", err)
	}
	ttl := StaleAfter + time.Hour
	if d, err := s.rdb.TTL(ctx, s.sessKey(id)).Result(); err == nil && d > 0 {
		ttl = d
	}
	added, err := s.rdb.SAdd(ctx, s.namesKey(id), b.Name).Result()
	if err != nil {
		return fmt.Errorf("shopping: store answers %s: %w", b.Name, err)
	}
	if added == 0 {
		return nil
	}
	pipe := s.rdb.TxPipeline()
	pipe.RPush(ctx, s.partsKey(id), buf.Bytes())
	pipe.Expire(ctx, s.partsKey(id), ttl)
	pipe.Expire(ctx, s.namesKey(id), ttl)
	if _, err := pipe.Exec(ctx); err != nil {
		return fmt.Errorf("shopping: store answers %s: %w", b.Name, err)
	}
	return nil
}

// Parts implements SessionStore; Seq is the position in the list, from 1.
// RPUSH appends atomically, so a list position is never filled late and after
// is enough.
func (s *RedisSessions) Parts(ctx context.Context, id string, after int64, _ map[string]bool) ([]Part, error) {
	raw, err := s.rdb.LRange(ctx, s.partsKey(id), after, -1).Result()
	if err != nil {
		return nil, fmt.Errorf("shopping: load answers: %w", err)
	}
	var out []Part
	for i, r := range raw {
		var sb storedBatch
		if err := gob.NewDecoder(bytes.NewReader([]byte(r))).Decode(&sb); err != nil {
			return nil, fmt.Errorf("shopping: decode answers: %w", err)
		}
		seq := after + int64(i) + 1
		parts, err := decodeParts(sb.Payload, seq)
		if err != nil {
			return nil, err
		}
		out = append(out, Part{Seq: seq, Name: batchSeen(sb.Batch), Status: PartDone})
		out = append(out, parts...)
	}
	return out, nil
}
