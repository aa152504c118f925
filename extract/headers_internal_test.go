package extract

import "testing"

// TestSliceWordValue checks how a header's word prints in a finding: nil,
// a window of its shape's array and offset, and a []byte the model does
// not compute.
func TestSliceWordValue(t *testing.T) {
	e := Entity{Slices: []shapeName{{array: "s.b", off: 0}, {array: "buf", off: 2}, {}}}
	tests := []struct {
		v    int64
		want string
	}{
		{0, "nil"},
		{1 << sliceWordBits, "s.b[0:0]"},
		{1<<sliceWordBits + 3, "s.b[0:3]"},
		{2<<sliceWordBits + 1, "buf[2:3]"},
		{3 << sliceWordBits, "[]byte(…)"},
		{4<<sliceWordBits + 1, "524289"}, // a shape the system does not have
	}
	for _, tt := range tests {
		if got := e.Value(tt.v); got != tt.want {
			t.Errorf("Value(%#x) = %s, want %s", tt.v, got, tt.want)
		}
	}
}

// TestMakePairs checks the pairs of length and capacity a make of a few
// sizes gets.
func TestMakePairs(t *testing.T) {
	tests := []struct {
		n, c    []int64
		sameCap bool
		want    [][2]int64
		ok      bool
	}{
		{[]int64{1, 2, 3}, []int64{1, 2, 3}, true, [][2]int64{{1, 1}, {2, 2}, {3, 3}}, true},
		{[]int64{1, 2}, []int64{4}, false, [][2]int64{{1, 4}, {2, 4}}, true},
		{[]int64{2}, []int64{2, 8}, false, [][2]int64{{2, 2}, {2, 8}}, true},
		{[]int64{1, 2}, []int64{3, 4}, false, nil, false},              // both vary
		{[]int64{5}, []int64{4}, false, nil, false},                    // cap < len
		{[]int64{-1}, []int64{-1}, true, nil, false},                   // negative
		{[]int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, nil, true, nil, false}, // too many
	}
	for _, tt := range tests {
		got, ok := makePairs(tt.n, tt.c, true, tt.sameCap)
		if ok != tt.ok || ok && len(got) != len(tt.want) {
			t.Errorf("makePairs(%v, %v, %v) = %v, %v, want %v, %v", tt.n, tt.c, tt.sameCap, got, ok, tt.want, tt.ok)
			continue
		}
		for i := range tt.want {
			if ok && got[i] != tt.want[i] {
				t.Errorf("makePairs(%v, %v, %v) = %v, want %v", tt.n, tt.c, tt.sameCap, got, tt.want)
				break
			}
		}
	}
}
