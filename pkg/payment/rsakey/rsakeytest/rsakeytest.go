// Package rsakeytest hands tests and fakes the RSA keys they sign with.
// Making a 2048-bit key takes long enough that every test making its own
// would slow the suite, so each key is made once per process and shared.
package rsakeytest

import (
	"crypto/rand"
	"crypto/rsa"
	"fmt"
	"sync"
)

var (
	mu   sync.Mutex
	keys []*rsa.PrivateKey
)

// Key is the i-th (from 0) of the process's test keys, RSA 2048, made on
// first use; the same i answers the same key, different ones different keys.
func Key(i int) *rsa.PrivateKey {
	mu.Lock()
	defer mu.Unlock()
	for len(keys) <= i {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(fmt.Sprintf("rsakeytest: generate RSA key: %v", err))
		}
		keys = append(keys, k)
	}
	return keys[i]
}
