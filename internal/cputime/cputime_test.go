package cputime

import (
	"testing"
)

// TestMeasure checks that a busy loop is charged CPU time and that the CPU
// time never runs backwards.
func TestMeasure(t *testing.T) {
	if _, ok := Process(); !ok {
		t.Skip("no CPU time on this platform")
	}
	sink := 0
	wall, cpu := Measure(func() {
		for i := range 50_000_000 {
			sink += i & 3
		}
	})
	if sink == 0 || cpu <= 0 || wall <= 0 {
		t.Fatalf("busy loop: wall %v, cpu %v", wall, cpu)
	}
	a, _ := Process()
	b, _ := Process()
	if b < a {
		t.Fatalf("CPU time ran backwards: %v then %v", a, b)
	}
}
