package appendsdiag

import "sync/atomic"

var out atomic.Int32

//fencecheck:system
func oldUsed() {
	go func() {
		var xs []int32
		xs = append(xs, 1)
		ys := append(xs, 2)
		zs := append(xs, 3)
		out.Store(ys[1] + zs[1])
	}()
}

//fencecheck:system
func aliasUsed() {
	go func() {
		var xs []int32
		xs = append(xs, 0)
		first := xs
		for i := int32(0); i < 3; i++ {
			xs = append(xs, i) // first
		}
		out.Store(first[0] + int32(len(xs)))
	}()
}

//fencecheck:system
func tooMany() {
	go func() {
		ys := append([]int32(nil), 1, 2, 3, 4, 5)
		ys = append(ys, 6, 7, 8, 9)
		out.Store(int32(len(ys)))
	}()
}

//fencecheck:system
func capOf() {
	go func() {
		var xs []int32
		for i := int32(0); i < 3; i++ {
			xs = append(xs, i)
		}
		out.Store(int32(cap(xs)))
	}()
}

//fencecheck:system
func sliced() {
	go func() {
		var xs []int32
		for i := int32(0); i < 3; i++ {
			xs = append(xs, i)
		}
		ys := xs[1:]
		out.Store(ys[0])
	}()
}

type holder struct{ s []int32 }

//fencecheck:system
func stored() {
	go func() {
		var box holder
		var xs []int32
		for i := int32(0); i < 3; i++ {
			xs = append(xs, i)
		}
		box.s = xs
		out.Store(box.s[0])
	}()
}

//fencecheck:system
func setupOld() {
	var a []int32
	a = append(a, 1)
	b := append(a, 2)
	c := append(a, 3)
	go func() { out.Store(b[1] + c[1]) }()
}
