package channels

import "math/rand"

// randomValue sends a random number of [0, 3): every value is explored.
//
//fencecheck:system
func randomValue() {
	ch := make(chan int, 1)
	go func() {
		ch <- rand.Intn(3)
	}()
	if v := <-ch; v == 2 {
		panic("two") // want `^SC: system randomValue is wrong even under sequential consistency`
	}
}
