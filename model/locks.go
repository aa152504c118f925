package model

// SpinLockRole is what an operation does to a variable x that may be used
// as a spin lock, whose value when free is a constant.
type SpinLockRole uint8

// The roles of an operation for a spin lock x.
const (
	// LockNone: the operation does not access x.
	LockNone SpinLockRole = iota
	// LockObserve: it reads x (plainly or in a locked block) and does not
	// write it.
	LockObserve
	// LockAcquire: a locked compare-and-swap of x from free to another
	// constant (a locked block whose first step reads x == free).
	LockAcquire
	// LockRelease: a locked store of free to x that reads nothing of x.
	LockRelease
	// LockStore: a plain store of free to x.
	LockStore
	// LockOther: it writes x in another way (another value, a computed
	// one, a read-modify-write), so that x is no spin lock.
	LockOther
)

// LockRoleOf returns the role of op for the spin lock x whose free value is
// free.
func LockRoleOf(op Op, x int, free int64) SpinLockRole {
	switch op.Kind {
	case Read:
		if op.Var == x {
			return LockObserve
		}
	case Write:
		if op.Var == x {
			if c, ok := op.Expr.(Const); ok && c.Value == free {
				return LockStore
			}
			return LockOther
		}
	case Locked:
		return lockedRole(op, x, free)
	}
	return LockNone
}

func lockedRole(op Op, x int, free int64) SpinLockRole {
	var last Expr
	writes, reads := false, false
	for _, b := range op.Body {
		if b.Kind == Read && b.Var == x {
			reads = true
		}
		if b.Kind == Write && b.Var == x {
			writes, last = true, b.Expr
		}
		WalkExpr(b.Expr, func(e Expr) {
			if v, ok := e.(VarRef); ok && v.Var == x {
				reads = true
			}
		})
	}
	switch {
	case !writes && reads:
		return LockObserve
	case !writes:
		return LockNone
	}
	c, ok := last.(Const)
	if !ok {
		return LockOther
	}
	if !reads {
		if c.Value == free {
			return LockRelease
		}
		return LockOther
	}
	first := op.Body[0]
	want, isConst := first.Expr.(Const)
	if first.Kind == Read && first.Var == x && isConst && want.Value == free && c.Value != free {
		return LockAcquire
	}
	return LockOther
}
