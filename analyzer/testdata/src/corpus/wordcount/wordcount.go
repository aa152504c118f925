// Package wordcount follows the map-reduce word count of Go's pipeline
// examples (the fan-out/fan-in of "Go Concurrency Patterns: Pipelines"):
// each mapper counts its words into a map of its own and sends the map
// on a channel; the reducer merges the maps it receives.
//
// Expected, by hand: countWords is correct and race-free (a mapper never
// touches its map after sending it, and the send orders its writes before
// the reducer's reads). The mutant countAfterSend has a mapper count one
// more word after the send, a late flush: its insert races with the
// reducer's range over the same map (one finding, on the map).
package wordcount

import "sync"

func mapper(words []string, out chan<- map[string]int32, wg *sync.WaitGroup) {
	defer wg.Done()
	counts := map[string]int32{}
	for _, w := range words {
		counts[w]++
	}
	out <- counts
}

func lateMapper(words []string, out chan<- map[string]int32, wg *sync.WaitGroup) {
	defer wg.Done()
	counts := map[string]int32{}
	for _, w := range words {
		counts[w]++
	}
	out <- counts
	counts["eof"]++ // want `^race: lateMapper stores counts here while main loads counts at wordcount.go:\d+:\d+, and nothing orders the two \(system countAfterSend\)`
}

func reduce(in <-chan map[string]int32, n int) map[string]int32 {
	total := map[string]int32{}
	for range n {
		for w, c := range <-in {
			total[w] += c
		}
	}
	return total
}

//fencecheck:system
func countWords() {
	out := make(chan map[string]int32, 2)
	var wg sync.WaitGroup
	wg.Add(2)
	go mapper([]string{"go", "map"}, out, &wg)
	go mapper([]string{"go"}, out, &wg)
	total := reduce(out, 2)
	wg.Wait()
	if total["go"] != 2 || total["map"] != 1 {
		panic("a word lost")
	}
}

//fencecheck:system
func countAfterSend() {
	out := make(chan map[string]int32, 2)
	var wg sync.WaitGroup
	wg.Add(2)
	go lateMapper([]string{"go"}, out, &wg)
	go mapper([]string{"map"}, out, &wg)
	_ = reduce(out, 2)
	wg.Wait()
}
