// Package servingfanout is written in the style of a Knative Serving
// reconciler that checks the pods of a revision in parallel: each check
// sends its result on a channel, which the reconciler closes once the
// checks are done. The bug is a wg.Add inside the goroutine: Wait can
// return before the checks called Add, the reconciler closes the results
// channel, and a late check's send panics (send on closed channel).
package servingfanout

import "sync"

// reconciler checks revisions.
type reconciler struct {
	pods [2]bool
}

func (r *reconciler) podReady(i int) bool {
	return r.pods[i]
}

// checkPods checks both pods, calling wg.Add in the goroutines.
//
//fencecheck:system
func checkPods() {
	r := &reconciler{pods: [2]bool{true, false}}
	results := make(chan bool, 2)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		go func() {
			wg.Add(1)
			defer wg.Done()
			results <- r.podReady(i) // want `^SC: system checkPods is wrong even under sequential consistency: the run-time panic "panic: send on closed channel"`
		}()
	}
	wg.Wait()
	close(results)
	for ready := range results {
		_ = ready
	}
}

// checkPodsFixed calls wg.Add before each go statement.
//
//fencecheck:system
func checkPodsFixed() {
	r := &reconciler{pods: [2]bool{true, false}}
	results := make(chan bool, 2)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- r.podReady(i)
		}()
	}
	wg.Wait()
	close(results)
	for ready := range results {
		_ = ready
	}
}
