package model

import (
	"fmt"
	"strings"
)

// OpKind is the kind of an [Op].
type OpKind uint8

// The operations of the model (§2 of the k-abstraction paper; docs/design.md §3).
const (
	// Nop does nothing.
	Nop OpKind = iota
	// Assign sets register Reg to Expr.
	Assign
	// Guard is enabled only when Expr is non-zero (an assume).
	Guard
	// Read loads Var (own buffer first, else memory). If Expr is not nil the
	// step is enabled only when the loaded value equals Expr; if Reg >= 0 the
	// value is stored in register Reg.
	Read
	// Write stores Expr to Var: into the store buffer under TSO and PSO, to
	// memory under SC.
	Write
	// Fence is enabled only when the process's store buffers are empty
	// (MFENCE).
	Fence
	// Locked executes Body atomically against memory, enabled only when the
	// store buffer is empty and every guard of Body holds (XCHG, LOCK XADD,
	// LOCK CMPXCHG, Memorax's locked blocks). Inside Body, reads and writes go
	// straight to memory and expressions may use [VarRef] for memory values.
	Locked
	// SSFence is a store-store fence (SPARC's STBAR, Memorax's ssfence):
	// under PSO the stores of the process before it reach memory before
	// the stores after it; it never waits. Under TSO, whose buffers keep
	// every store in order, and under SC it does nothing.
	SSFence
)

var opKindNames = [...]string{"nop", "assign", "guard", "read", "write", "fence", "locked", "ssfence"}

// String returns the keyword of k in the native model format.
func (k OpKind) String() string {
	if int(k) < len(opKindNames) {
		return opKindNames[k]
	}
	return fmt.Sprintf("OpKind(%d)", k)
}

// Op is the label of a transition.
type Op struct {
	Kind OpKind
	Var  int  // Read, Write: the shared variable
	Reg  int  // Assign: target; Read: target or -1
	Expr Expr // Assign, Guard, Write: the value; Read: the required value or nil
	Body []Op // Locked: the atomic body (Read, Write, Assign, Guard)
	// Atomic marks a Read that the source performs with a synchronising
	// atomic load (atomic.LoadInt32, (*atomic.Int32).Load, a WaitGroup's
	// Wait): a MOV under TSO like a plain load, but an access that never takes
	// part in a data race with another atomic one (the Go memory model).
	// Every access inside a Locked body is atomic.
	Atomic bool
	// NoSync marks a step of a Locked body whose reads order nothing: the
	// run time's own bookkeeping (a channel's indices, the test of whether
	// any case of a select is ready), which the Go memory model gives no
	// happens-before edge. Its writes still carry the process's knowledge.
	NoSync bool
}

// NopOp returns a nop.
func NopOp() Op { return Op{Kind: Nop, Reg: -1} }

// AssignOp returns reg := e.
func AssignOp(reg int, e Expr) Op { return Op{Kind: Assign, Reg: reg, Expr: e} }

// GuardOp returns assume(e).
func GuardOp(e Expr) Op { return Op{Kind: Guard, Reg: -1, Expr: e} }

// ReadOp returns reg := x (reg may be -1 to discard the value).
func ReadOp(x, reg int) Op { return Op{Kind: Read, Var: x, Reg: reg} }

// ReadEqOp returns a read of x that is enabled only when the value equals e.
func ReadEqOp(x int, e Expr) Op { return Op{Kind: Read, Var: x, Reg: -1, Expr: e} }

// AtomicReadOp returns reg := x performed by an atomic load (reg may be -1).
func AtomicReadOp(x, reg int) Op { return Op{Kind: Read, Var: x, Reg: reg, Atomic: true} }

// WriteOp returns x := e.
func WriteOp(x int, e Expr) Op { return Op{Kind: Write, Var: x, Reg: -1, Expr: e} }

// FenceOp returns a fence.
func FenceOp() Op { return Op{Kind: Fence, Reg: -1} }

// SSFenceOp returns a store-store fence.
func SSFenceOp() Op { return Op{Kind: SSFence, Reg: -1} }

// LockedOp returns an atomic block.
func LockedOp(body ...Op) Op { return Op{Kind: Locked, Reg: -1, Body: body} }

// Exchange returns the locked operation reg := x; x := e (XCHG). reg may be -1.
func Exchange(x, reg int, e Expr) Op {
	return LockedOp(ReadOp(x, reg), WriteOp(x, e))
}

// FetchAdd returns the locked operation reg := x; x := x + e (LOCK XADD). reg may be -1.
func FetchAdd(x, reg int, e Expr) Op {
	return LockedOp(ReadOp(x, reg), WriteOp(x, Bin(OpAdd, V(x), e)))
}

// CASSuccess returns the successful outcome of a compare-and-swap: enabled when
// x == expect; reg (if >= 0) gets the old value and x becomes newVal.
func CASSuccess(x, reg int, expect, newVal Expr) Op {
	return LockedOp(Op{Kind: Read, Var: x, Reg: reg, Expr: expect}, WriteOp(x, newVal))
}

// CASFailure returns the failed outcome of a compare-and-swap: enabled when
// x != expect; reg (if >= 0) gets the old value; memory is unchanged, but the
// buffer must still be empty (a locked read).
func CASFailure(x, reg int, expect Expr) Op {
	return LockedOp(GuardOp(Bin(OpNe, V(x), expect)), ReadOp(x, reg))
}

// WritesShared reports whether o stores to shared memory.
func (o Op) WritesShared() bool {
	switch o.Kind {
	case Write:
		return true
	case Locked:
		for _, b := range o.Body {
			if b.WritesShared() {
				return true
			}
		}
	}
	return false
}

// IsPlain reports whether o accesses shared memory without synchronising:
// a Write, or a Read that is not Atomic. Locked operations are atomic.
func (o Op) IsPlain() bool {
	return o.Kind == Write || (o.Kind == Read && !o.Atomic)
}

// ReadsShared reports whether o loads shared memory.
func (o Op) ReadsShared() bool {
	switch o.Kind {
	case Read:
		return true
	case Locked:
		return true
	}
	return false
}

func (o Op) clone() Op {
	if o.Body != nil {
		o.Body = append([]Op(nil), o.Body...)
	}
	return o
}

// Format writes o in the native model syntax, naming variables and registers
// through p and q.
func (o Op) Format(p *Program, q *Process) string {
	var b strings.Builder
	o.format(&b, p, q)
	return b.String()
}

func (o Op) format(b *strings.Builder, p *Program, q *Process) {
	n := names{p, q}
	switch o.Kind {
	case Nop, Fence, SSFence:
		b.WriteString(o.Kind.String())
	case Assign:
		fmt.Fprintf(b, "%s := %s", n.reg(o.Reg), FormatExpr(o.Expr, p, q))
	case Guard:
		fmt.Fprintf(b, "assume %s", FormatExpr(o.Expr, p, q))
	case Read:
		if o.Atomic {
			b.WriteString("atomic ")
		}
		b.WriteString("read ")
		if o.Reg >= 0 {
			fmt.Fprintf(b, "%s := %s", n.reg(o.Reg), n.vr(o.Var))
		} else {
			b.WriteString(n.vr(o.Var))
		}
		if o.Expr != nil {
			fmt.Fprintf(b, " == %s", FormatExpr(o.Expr, p, q))
		}
	case Write:
		fmt.Fprintf(b, "write %s := %s", n.vr(o.Var), FormatExpr(o.Expr, p, q))
	case Locked:
		b.WriteString("locked {")
		for i, s := range o.Body {
			if i > 0 {
				b.WriteString(";")
			}
			b.WriteString(" ")
			s.format(b, p, q)
		}
		b.WriteString(" }")
	default:
		fmt.Fprintf(b, "<%v>", o.Kind)
	}
}

type names struct {
	p *Program
	q *Process
}

func (n names) vr(i int) string {
	if n.p != nil && i >= 0 && i < len(n.p.Vars) {
		return n.p.Vars[i].Name
	}
	return fmt.Sprintf("v%d", i)
}

func (n names) reg(i int) string {
	if n.q != nil && i >= 0 && i < len(n.q.Regs) {
		return "$" + n.q.Regs[i].Name
	}
	return fmt.Sprintf("$r%d", i)
}
