package pred_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/pred"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// genBranchy generates a program whose processes do much of their work in
// registers, the shape local-step compression acts on: two or three
// processes over shared x, y in [0:2], each a chain of blocks that are a
// shared access (a read, a write of a register or a constant, an exchange,
// a fence), an assignment, an if-else on a register (both arms assign,
// then join), a one-sided assume, or a loop back on a register's value
// (with its exit). Registers r, s are in [0:2], so that an increment can
// fault. Some processes are copies of the first on indexed variables
// (a[0], a[1]), so that the families of family.go form. The bad states name
// locations of one or two processes (any of them, local ones too) and
// sometimes a register's value, or ask for a value in memory.
func genBranchy(rng *rand.Rand) *model.Program {
	dom := model.Range(0, 2)
	p := &model.Program{Name: "branchy"}
	for _, n := range []string{"x", "y", "a[0]", "a[1]", "a[2]"} {
		p.Vars = append(p.Vars, model.Var{Name: n, Dom: dom})
	}
	nproc := 2 + rng.IntN(2)
	c := func() model.Expr { return model.C(int64(rng.IntN(3))) }
	r := func() int { return rng.IntN(2) }
	// One shape of blocks; copies use it with their own a[i].
	type block struct {
		kind, x, reg, reg2 int
		val                model.Expr
	}
	var blocks []block
	nb := 2 + rng.IntN(5)
	for range nb {
		blocks = append(blocks, block{kind: rng.IntN(9), x: rng.IntN(3), reg: r(), reg2: r(), val: c()})
	}
	copies := rng.IntN(2) == 0
	for i := range nproc {
		if !copies {
			blocks = blocks[:0]
			for range nb {
				blocks = append(blocks, block{kind: rng.IntN(9), x: rng.IntN(3), reg: r(), reg2: r(), val: c()})
			}
		}
		q := &model.Process{Name: fmt.Sprintf("P%d", i), Regs: []model.Reg{{Name: "r", Dom: dom}, {Name: "s", Dom: dom}}}
		at := q.AddLoc("L0", model.Pos{})
		next := func() int { return q.AddLoc(fmt.Sprintf("L%d", len(q.Locs)), model.Pos{}) }
		starts := []int{at}
		for _, b := range blocks {
			x := b.x
			if x == 2 {
				x = 2 + i // a[i]
			}
			reg := model.R(b.reg)
			switch b.kind {
			case 0:
				n := next()
				q.AddTrans(at, model.ReadOp(x, b.reg), n, model.Pos{})
				at = n
			case 1:
				n := next()
				q.AddTrans(at, model.WriteOp(x, reg), n, model.Pos{})
				at = n
			case 2:
				n := next()
				q.AddTrans(at, model.WriteOp(x, b.val), n, model.Pos{})
				at = n
			case 3:
				n := next()
				if rng.IntN(2) == 0 {
					q.AddTrans(at, model.Exchange(x, b.reg, b.val), n, model.Pos{})
				} else {
					q.AddTrans(at, model.FenceOp(), n, model.Pos{})
				}
				at = n
			case 4:
				n := next()
				q.AddTrans(at, model.AssignOp(b.reg2, model.Bin(model.OpAdd, reg, model.C(1))), n, model.Pos{})
				at = n
			case 5:
				// if reg == val { reg2 = 2 - reg } else { reg2 = 0 }
				th, el, join := next(), next(), next()
				cond := model.Bin(model.OpEq, reg, b.val)
				q.AddTrans(at, model.GuardOp(cond), th, model.Pos{})
				q.AddTrans(at, model.GuardOp(model.Bin(model.OpNe, reg, b.val)), el, model.Pos{})
				q.AddTrans(th, model.AssignOp(b.reg2, model.Bin(model.OpSub, model.C(2), reg)), join, model.Pos{})
				q.AddTrans(el, model.AssignOp(b.reg2, model.C(0)), join, model.Pos{})
				at = join
			case 6:
				n := next()
				q.AddTrans(at, model.GuardOp(model.Bin(model.OpNe, reg, b.val)), n, model.Pos{})
				at = n
			case 7:
				// Back to an earlier block while reg == val.
				back := starts[rng.IntN(len(starts))]
				n := next()
				cond := model.Bin(model.OpEq, reg, b.val)
				q.AddTrans(at, model.GuardOp(cond), back, model.Pos{})
				q.AddTrans(at, model.GuardOp(model.Bin(model.OpNe, reg, b.val)), n, model.Pos{})
				at = n
			default:
				n := next()
				q.AddTrans(at, model.NopOp(), n, model.Pos{})
				at = n
			}
			starts = append(starts, at)
		}
		p.Procs = append(p.Procs, q)
	}
	// Bad states: one or two processes at locations picked among all of
	// theirs.
	for range 1 + rng.IntN(2) {
		i := rng.IntN(nproc)
		j := (i + 1 + rng.IntN(nproc-1)) % nproc
		b := model.BadState{Name: "bad"}
		named := []int{i, j}
		if rng.IntN(2) == 0 {
			named = named[:1]
		}
		for _, k := range named {
			b.Locs = append(b.Locs, model.ProcLoc{Proc: k, Loc: rng.IntN(len(p.Procs[k].Locs))})
		}
		switch rng.IntN(4) {
		case 0:
			b.Cond = model.Bin(model.OpEq, model.RegRef{Proc: i, Reg: rng.IntN(2)}, c())
		case 1:
			b.Cond = model.Bin(model.OpEq, model.RegRef{Proc: rng.IntN(nproc), Reg: rng.IntN(2)}, c())
		case 2:
			b.Cond = model.Bin(model.OpEq, model.VarRef{Var: rng.IntN(len(p.Vars))}, c())
		}
		p.Bad = append(p.Bad, b)
	}
	return p
}

// TestCompressionAndFamilies checks local-step compression and the
// predicates added across families against the engine without them and
// against the explicit engine (exact on these finite programs), under SC
// and TSO, on programs from genBranchy: the verdicts must agree, and every
// unsafe answer carries a trace that replays. 120 programs normally, 1500
// with -long.
func TestCompressionAndFamilies(t *testing.T) {
	requireZ3(t)
	n := longtest.Size(40, 120)
	if *long {
		n = 1500
	}
	rng := rand.New(rand.NewPCG(11, 23))
	on := &pred.Engine{Fresh: true}
	off := &pred.Engine{Fresh: true, NoCompression: true, NoFamilies: true}
	count := map[string]int{}
	var states [2]int64 // with and without
	for i := range n {
		p := genBranchy(rng)
		if err := p.Validate(); err != nil {
			t.Fatalf("program %d: %v\n%s", i, err, native.Format(p))
		}
		for _, m := range []model.Model{model.SC, model.TSO} {
			want, err := (&explicit.Engine{}).Check(context.Background(), p, m)
			if err != nil {
				t.Fatal(err)
			}
			for k, eng := range []*pred.Engine{on, off} {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				got, err := eng.Check(ctx, p, m)
				cancel()
				if err != nil {
					t.Fatalf("program %d under %v: %v\n%s", i, m, err, native.Format(p))
				}
				if got.Status == engines.Inconclusive || want.Status == engines.Inconclusive {
					count["inconclusive"]++
					continue
				}
				checkAgrees(t, i, p, m, got, want)
				if got.Status == engines.Unsafe {
					if _, err := p.Replay(got.Trace); err != nil {
						t.Fatalf("program %d under %v: trace does not replay: %v\n%s", i, m, err, native.Format(p))
					}
				}
				count[fmt.Sprintf("%v %v", m, got.Status)]++
				states[k] += got.Stats.States
			}
		}
	}
	t.Logf("%d programs: %v; abstract states %d with, %d without", n, count, states[0], states[1])
	if states[0] >= states[1] {
		t.Errorf("the reductions kept %d abstract states, the search without them %d", states[0], states[1])
	}
	if count["inconclusive"] > n/10 {
		t.Errorf("%d answers inconclusive", count["inconclusive"])
	}
}

// TestCompressionKeepsBadStates runs programs in which a process's
// register-only steps hide a bad state from a search that compresses
// carelessly: each bad state is reachable, and the engine must say so with
// and without compression. Each case breaks one of the conditions that make
// a location transient.
func TestCompressionKeepsBadStates(t *testing.T) {
	requireZ3(t)
	cases := []struct{ name, src string }{
		{"bad state names the local location", `
var x : [0:2] = 0
process P {
  reg $r : [0:2] = 0
  reg $s : [0:2] = 0
  locs L0 L1 L2
  init L0
  L0 -> L1 : read $r := x
  L1 -> L2 : $s := 1
}
process Q {
  locs L0 L1
  init L0
  L0 -> L1 : write x := 1
}
bad : P@L1 & P.$r == 1
`},
		{"bad condition reads the register a local step assigns", `
var x : [0:2] = 0
process P {
  reg $r : [0:2] = 0
  locs L0 L1 L2 L3
  init L0
  L0 -> L1 : read $r := x
  L1 -> L2 : $r := 0
  L2 -> L3 : read x == 2
}
process Q {
  locs L0 L1
  init L0
  L0 -> L1 : write x := 1
}
bad : Q@L1 & P.$r == 1
`},
		{"guards that do not cover every value", `
var x : [0:2] = 0
process P {
  reg $r : [0:2] = 2
  locs L0 L1 L2 L3
  init L0
  L0 -> L1 : read $r := x
  L1 -> L2 : assume $r == 1
  L2 -> L3 : write x := 2
}
process Q {
  locs L0 L1
  init L0
  L0 -> L1 : write x := 1
}
bad : Q@L1 & P.$r == 0
`},
	}
	for _, c := range cases {
		p, err := native.Parse(c.name+".fcm", []byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, m := range []model.Model{model.SC, model.TSO} {
			for _, eng := range []*pred.Engine{{Fresh: true}, {Fresh: true, NoCompression: true}} {
				res, err := eng.Check(context.Background(), p, m)
				if err != nil {
					t.Fatalf("%s under %v: %v", c.name, m, err)
				}
				if res.Status != engines.Unsafe {
					t.Errorf("%s under %v (compression %v): %v, want unsafe", c.name, m, !eng.NoCompression, res)
				}
			}
		}
	}
}
