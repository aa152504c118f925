// Package initregexp compiles a pattern that does not compile in a
// package-level variable: regexp.MustCompile panics during the package's
// initialisation, so the program stops before its system starts.
package initregexp

import (
	"regexp"
	"sync"
)

var names = regexp.MustCompile(`^[a-z_+$`) // want `^SC: the package's initialisation always reaches regexp: Compile\(.*\): error parsing regexp: missing closing \]: .* here, so the program stops before any system starts$`

//fencecheck:system
func register() {
	var mu sync.Mutex
	n := 0
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			if names.MatchString("requests_total") {
				mu.Lock()
				n++
				mu.Unlock()
			}
			wg.Done()
		}()
	}
	wg.Wait()
}
