// Package slicesdiag holds constructs over slices, values and strings that
// the model cannot express.
package slicesdiag

import "math/rand"

type box struct {
	n    int32
	buf  []int32
	name string
	arr  [2]int32
}

//fencecheck:system
func runtimeBounds() {
	b := &box{buf: make([]int32, 4)}
	go func() {
		n := b.n
		w := b.buf[n:]
		w[0] = 1
	}()
}

//fencecheck:system
func storeSlice() {
	b := &box{buf: make([]int32, 4)}
	go func() { b.buf = b.arr[:] }()
}

//fencecheck:system
func concat() {
	b := &box{name: "a"}
	go func() { b.name = b.name + "b" }()
}

//fencecheck:system
func order() {
	b := &box{name: "a"}
	go func() {
		if b.name < "b" {
			b.n = 1
		}
	}()
}

//fencecheck:system
func runtimeStringLen() {
	b := &box{name: "a"}
	go func() { b.n = int32(len(b.name)) }()
}

//fencecheck:system
func arrayValueIndex() {
	b := &box{}
	go func() { b.n = b.pair()[b.n] }()
}

func (b *box) pair() [2]int32 { return b.arr }

func (b *box) boxes() [2]*box { return [2]*box{b, b} }

//fencecheck:system
func pointerArrayValueIndex() {
	b := &box{}
	go func() { b.n = b.boxes()[b.n].n }()
}

func (b *box) dones() [2]chan int32 { return [2]chan int32{} }

//fencecheck:system
func chanArrayValueIndex() {
	b := &box{}
	go func() { b.dones()[b.n] <- 1 }()
}

type seeded struct{ seed int64 }

//fencecheck:system
func randomSigned() {
	s := &seeded{}
	go func() {
		s.seed = rand.Int63()
		s.seed = s.seed - 1
	}()
}

//fencecheck:system
func randomSignedStore() {
	s := &seeded{}
	go func() {
		s.seed = rand.Int63()
	}()
	go func() {
		if s.seed&1 == 0 {
			s.seed = -1
		}
	}()
}
