package model

import (
	"slices"
	"testing"
)

// TestValuesRoundTrip checks the run-length encoding of registers in keys:
// decoding gives the registers back, and different registers give
// different encodings.
func TestValuesRoundTrip(t *testing.T) {
	cases := [][]int64{
		{},
		{0},
		{7},
		{0, 0, 0},
		{-1, 0, 0, 5},
		{0, 0, 3, 0, 0, 0, -9, 0},
		{1, 2, 3},
		{0, 1 << 62, 0, -1 << 63},
		{1, 1, 1, 0, 1, 1},
		{5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 2},
	}
	seen := map[string][]int64{}
	for _, regs := range cases {
		b := AppendValues([]byte{0xff}, regs)
		got := make([]int64, len(regs))
		for i := range got {
			got[i] = 42 // overwritten by the decoding
		}
		if n := decodeValues(b[1:], got); n != len(b)-1 {
			t.Errorf("%v: decoded %d bytes of %d", regs, n, len(b)-1)
		}
		if !slices.Equal(got, regs) {
			t.Errorf("%v: decoded %v", regs, got)
		}
		if other, ok := seen[string(b)]; ok && len(other) == len(regs) {
			t.Errorf("%v and %v have one encoding", regs, other)
		}
		seen[string(b)] = regs
	}
}
