// Package soundnessdiag holds systems whose constructs the lowering once
// reported rather than modelled: a spawned method value, a store between
// go statements.
package soundnessdiag

type cell struct{ a int32 }

func (l *cell) set(v int32) { l.a = v }

// methodValue spawns a method value with a constant argument: go f(3) is
// go l.set(3), so the panic is reachable.
//
//fencecheck:system
func methodValue() {
	var l cell
	f := l.set
	go f(3)
	go func() {
		if l.a == 3 {
			panic("set ran")
		}
	}()
}

// betweenSpawns: a store between two go statements may come after the first
// process read the cell.
//
//fencecheck:system
func betweenSpawns() {
	var l cell
	go func() {
		if l.a == 0 {
			panic("read before the store")
		}
	}()
	l.a = 1
	go func() {}()
}
