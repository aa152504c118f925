package metric_test

import (
	"sync"
	"testing"

	"example.com/app/metric"
	"example.com/dep/gauge"
)

func TestNothing(t *testing.T) {}

// gaugeFromTest uses a name that only the package's test files declare.
//
//fencecheck:system
func gaugeFromTest() {
	g := gauge.New("t")
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() { g.Add(float64(metric.Twice)); wg.Done() }()
	}
	wg.Wait()
	if g.Value() != 4 {
		panic("lost update")
	}
}
