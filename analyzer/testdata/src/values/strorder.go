package values

// Strings known only at run time ordered by <: the smallest key of a map
// ranged in every order.

// smallestKey finds "a" whatever the order of the range.
//
//fencecheck:system
func smallestKey() {
	m := map[string]bool{"b": true, "a": true}
	done := make(chan string)
	go func() {
		least := ""
		for k := range m {
			if least == "" || k < least {
				least = k
			}
		}
		done <- least
	}()
	if <-done != "a" {
		panic("not the smallest")
	}
}

// largestKeyWrong keeps the first key greater than "a": with "c" in the
// map, "b" is not always the one.
//
//fencecheck:system
func largestKeyWrong() {
	m := map[string]bool{"b": true, "c": true}
	done := make(chan string)
	go func() {
		pick := ""
		for k := range m {
			if pick == "" && k > "a" {
				pick = k
			}
		}
		done <- pick
	}()
	if <-done != "b" {
		panic("not b") // want `^SC: system largestKeyWrong is wrong even under sequential consistency`
	}
}
