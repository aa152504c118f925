package values

import "sync"

// Goroutines started for each key of a list, each hashing its key, as a
// sharded cache hashes a name: the key is a string the goroutine loads
// from its loop variable's cell, which the set-up filled and nobody
// writes again, so its bytes are known.

func byteSum(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n += int(s[i])
	}
	return n
}

//fencecheck:system
func hashKeys() {
	var mu sync.Mutex
	total := 0
	var wg sync.WaitGroup
	for _, k := range []string{"a", "bc"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := byteSum(k)
			mu.Lock()
			total += v
			mu.Unlock()
		}()
	}
	wg.Wait()
	if total != 'a'+'b'+'c' {
		panic("lost a key's hash")
	}
}

//fencecheck:system
func hashKeysWrong() {
	var mu sync.Mutex
	total := 0
	var wg sync.WaitGroup
	for _, k := range []string{"a", "bc"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := byteSum(k)
			mu.Lock()
			total += v
			mu.Unlock()
		}()
	}
	wg.Wait()
	if total == 'a'+'b'+'c' {
		panic("both keys hashed") // want `^SC: system hashKeysWrong is wrong even under sequential consistency`
	}
}

// nameRewritten: the system function writes the string after the
// goroutine started, so the goroutine indexes a string known only at run
// time (either of the two), and the two race.
//
//fencecheck:system
func nameRewritten() {
	name := "ab"
	done := make(chan int)
	go func() {
		done <- int(name[1]) // want `^race: go@\d+ loads name here while main stores name`
	}()
	name = "xy"
	<-done
}
