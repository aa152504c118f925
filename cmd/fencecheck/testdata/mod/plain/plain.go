// Package plain has no fencecheck directives: go vet's runs on it take the
// fast path.
package plain

import (
	"fmt"
	"sync"
)

// Counter is a counter guarded by a mutex.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Inc increments c and returns its new value, formatted.
func (c *Counter) Inc() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return fmt.Sprint(c.n)
}
