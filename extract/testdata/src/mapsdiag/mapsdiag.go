// Package mapsdiag has systems over maps that fencecheck cannot model, and
// one it can beside them.
package mapsdiag

import (
	"os"
	"sync"
)

//fencecheck:system
func complexKeys() {
	go func() {
		m := map[complex128]int{}
		m[1.5] = 2
	}()
}

//fencecheck:system
func tooMany() {
	m := map[int]int{}
	for i := range 70 {
		m[i] = i // more than 64 keys
	}
	go func() { _ = m[3] }()
}

var fromEnv = map[string]string{}

func init() {
	fromEnv["home"] = os.Getenv("HOME")
}

//fencecheck:system
func envMap() {
	go func() { _ = fromEnv["home"] }()
}

var (
	mu     sync.Mutex
	limits = map[string]int32{"small": 1, "big": 3}
	counts = make(map[string]int32)
)

func init() {
	counts["boot"] = 1
	delete(counts, "none")
}

// globals: maps of package-level variables, filled by their initialisers
// and an init function.
//
//fencecheck:system
func globals() {
	var wg sync.WaitGroup
	wg.Add(2)
	for _, k := range []string{"small", "big"} {
		go func() {
			mu.Lock()
			counts[k] += limits[k]
			mu.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if counts["small"]+counts["big"] != 4 || len(counts) != 3 {
		panic("wrong counts")
	}
}
