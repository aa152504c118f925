package explicit_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/internal/litmus"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/rmm"
)

// TestLitmusPSO requires the PSO verdict of every litmus test of the corpus
// (every second one in the quick run) from the explicit engine: the verdict
// of the corpus's own interpreter (litmus.Test.Reachable), which does not
// use package model and whose TSO and SC verdicts are herd7's.
func TestLitmusPSO(t *testing.T) {
	tests := loadCorpus(t)
	step := longtest.Size(4, 1)
	allowed, checked := 0, 0
	for i, lt := range tests {
		if i%step != 0 {
			continue
		}
		p, err := lt.Program()
		if err != nil {
			t.Fatalf("%s: %v", lt.Name, err)
		}
		want, _, err := lt.Reachable(litmus.PSO)
		if err != nil {
			t.Fatalf("%s: %v", lt.Name, err)
		}
		res, err := (&explicit.Engine{}).Check(context.Background(), p, model.PSO)
		if err != nil {
			t.Fatalf("%s under PSO: %v", lt.Name, err)
		}
		if got := res.Status == engines.Unsafe; got != want || res.Status == engines.Inconclusive {
			t.Errorf("%s under PSO: explicit says %v, the interpreter allowed=%v", lt.Name, res, want)
		}
		if res.Status == engines.Safe && res.Bound != "" {
			t.Errorf("%s under PSO: loop-free program got a bounded answer %q", lt.Name, res.Bound)
		}
		if res.Status == engines.Unsafe && res.Trace.Model != model.PSO {
			t.Errorf("%s: the counterexample is a trace under %v", lt.Name, res.Trace.Model)
		}
		checked++
		if want {
			allowed++
		}
	}
	t.Logf("%d tests under PSO, %d allowed", checked, allowed)
}

// TestPSOHandChecked checks verdicts known by hand, on models read from
// .rmm text: message passing is allowed under PSO and forbidden under TSO,
// and a store-store fence between the writes forbids it; store buffering
// needs full fences, which store-store fences do not replace; 2+2W.
func TestPSOHandChecked(t *testing.T) {
	const head = "data\n  x = 0 : [0:2]\n  y = 0 : [0:2]\n"
	mp := func(fence string) string {
		return "forbidden\n  * B\n" + head +
			"process\ntext\n  write: x := 1;" + fence + "\n  write: y := 1\n" +
			"process\nregisters\n  $a = 0 : [0:2]\ntext\n  read: y = 1;\n  read: x = 0;\n  B: nop\n"
	}
	sb := func(fence string) string {
		return "forbidden\n  A B\n" + head +
			"process\ntext\n  write: x := 1;" + fence + "\n  read: y = 0;\n  A: nop\n" +
			"process\ntext\n  write: y := 1;" + fence + "\n  read: x = 0;\n  B: nop\n"
	}
	for _, tc := range []struct {
		name          string
		src           string
		sc, tso, pso  bool // reachable
		psoTraceSteps int  // the shortest PSO counterexample, 0 if none
	}{
		{"MP", mp(""), false, false, true, 5},
		{"MP+ssfence", mp(" ssfence;"), false, false, false, 0},
		{"MP+fence", mp(" fence;"), false, false, false, 0},
		{"SB", sb(""), false, true, true, 0},
		{"SB+ssfences", sb(" ssfence;"), false, true, true, 0},
		{"SB+fences", sb(" fence;"), false, false, false, 0},
		{"2+2W", "", false, false, true, 0},
		{"2+2W+ssfences", "", false, false, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := rmm.Parse(tc.name+".rmm", []byte(tc.src))
			if strings.HasPrefix(tc.name, "2+2W") {
				p, err = twoPlusTwoW(strings.HasSuffix(tc.name, "ssfences")), nil
			}
			if err != nil {
				t.Fatal(err)
			}
			for m, want := range map[model.Model]bool{model.SC: tc.sc, model.TSO: tc.tso, model.PSO: tc.pso} {
				res, err := (&explicit.Engine{}).Check(context.Background(), p, m)
				if err != nil {
					t.Fatalf("%v: %v", m, err)
				}
				if got := res.Status == engines.Unsafe; got != want {
					t.Errorf("%v: %v, want reachable=%v", m, res, want)
				}
				if m == model.PSO && tc.psoTraceSteps > 0 && res.Trace != nil && len(res.Trace.Steps) != tc.psoTraceSteps {
					t.Errorf("PSO counterexample of %d steps, want %d:\n%s", len(res.Trace.Steps), tc.psoTraceSteps, p.FormatTrace(res.Trace, nil))
				}
			}
		})
	}
}

// TestPSOBound checks that a program whose buffers no fence bounds gets a
// Safe answer under PSO that names its bound per process and variable, and
// an exact one when fences bound the buffers.
func TestPSOBound(t *testing.T) {
	const src = "forbidden\n  * B\ndata\n  x = 0 : [0:1]\n  y = 0 : [0:1]\n" +
		"process\ntext\n  L: write: x := 1;%s\n  goto L\n" +
		"process\ntext\n  read: y = 1;\n  B: nop\n"
	for _, tc := range []struct {
		fence, bound string
	}{{"", "buffer bound 4 per process and variable"}, {" fence;", ""}} {
		p, err := rmm.Parse("loop.rmm", []byte(fmt.Sprintf(src, tc.fence)))
		if err != nil {
			t.Fatal(err)
		}
		res, err := (&explicit.Engine{Bound: 4}).Check(context.Background(), p, model.PSO)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != engines.Safe || res.Bound != tc.bound {
			t.Errorf("with%q: %v, want safe with bound %q", tc.fence, res, tc.bound)
		}
	}
}

// twoPlusTwoW is the test 2+2W (P0 writes x, then y; P1 writes y, then x;
// can both first writes be the last?), with store-store fences between the
// writes when ss is set.
func twoPlusTwoW(ss bool) *model.Program {
	p := &model.Program{Name: "2+2W", Vars: []model.Var{{Name: "x", Dom: model.Range(0, 2)}, {Name: "y", Dom: model.Range(0, 2)}}}
	bad := model.BadState{Cond: model.Bin(model.OpAnd, model.Bin(model.OpEq, model.V(0), model.C(1)), model.Bin(model.OpEq, model.V(1), model.C(1)))}
	for i, xs := range [][2]int{{0, 1}, {1, 0}} {
		ops := []model.Op{model.WriteOp(xs[0], model.C(1))}
		if ss {
			ops = append(ops, model.SSFenceOp())
		}
		ops = append(ops, model.WriteOp(xs[1], model.C(2)), model.FenceOp())
		q := &model.Process{Name: fmt.Sprintf("P%d", i)}
		l := q.AddLoc("L0", model.Pos{})
		for k, op := range ops {
			n := q.AddLoc(fmt.Sprintf("L%d", k+1), model.Pos{})
			q.AddTrans(l, op, n, model.Pos{})
			l = n
		}
		bad.Locs = append(bad.Locs, model.ProcLoc{Proc: i, Loc: l})
		p.Procs = append(p.Procs, q)
	}
	p.Bad = []model.BadState{bad}
	return p
}

// TestPSODifferential checks the explicit engine under PSO against psoReach,
// an interpreter of this test written without package model's semantics,
// on generated programs (progen.Simple) in which some fences are
// store-store fences and store-store fences follow some writes, with the
// same bound on the stores buffered per process and variable.
func TestPSODifferential(t *testing.T) {
	const bound = 2
	n := longtest.Size(60, 1500)
	rng := rand.New(rand.NewPCG(33, 4))
	counts := map[string]int{}
	for i := range n {
		p := withSSFences(progen.Simple(rng), rng)
		if i%2 == 1 {
			p = storeOrder(rng)
		}
		want, states, err := psoReach(p, bound)
		if err != nil {
			t.Fatalf("program %d: %v", i, err)
		}
		res, err := (&explicit.Engine{Bound: bound}).Check(context.Background(), p, model.PSO)
		if err != nil {
			t.Fatalf("program %d: %v", i, err)
		}
		if got := res.Status == engines.Unsafe; got != want || res.Status == engines.Inconclusive {
			t.Fatalf("program %d: explicit says %v, the interpreter reachable=%v (%d states):\n%s", i, res, want, states, describe(p))
		}
		counts[res.Status.String()]++
		if p.HasSSFence() {
			counts["with ssfence"]++
		}
	}
	t.Logf("%d programs: %v", n, counts)
	if counts["safe"] == 0 || counts["unsafe"] == 0 || counts["with ssfence"] == 0 {
		t.Errorf("verdicts %v: the programs no longer cover both answers and store-store fences", counts)
	}
}

// storeOrder builds a random loop-free program whose bad state watches the
// order in which stores become visible: two or three processes of two to
// three writes or reads, and fences of both kinds, over two variables, and a bad
// state at the end of every process with a condition on their registers.
// The condition is an outcome of the program (the registers at the end)
// that psoSearch reaches when store-store fences are nops, and, when there
// is one, that it does not reach when they are not: a test of the fences
// that random conditions, or progen.Simple's bad states, seldom make.
func storeOrder(rng *rand.Rand) *model.Program {
	p := &model.Program{Name: "order", Vars: []model.Var{{Name: "x", Dom: model.Range(0, 2)}, {Name: "y", Dom: model.Range(0, 2)}}}
	bad := model.BadState{Name: "bad"}
	for i := range 2 + rng.IntN(2) {
		q := &model.Process{Name: fmt.Sprintf("P%d", i), Regs: []model.Reg{{Name: "r", Dom: model.Range(0, 2)}, {Name: "s", Dom: model.Range(0, 2)}}}
		l := q.AddLoc("L0", model.Pos{})
		// A writer (writes to alternate variables, store-store fences
		// between some) or a reader (reads of alternate variables), with a
		// full fence now and then.
		writer := i == 0 || rng.IntN(2) == 0
		x := rng.IntN(2)
		var ops []model.Op
		for k := range 2 + rng.IntN(2) {
			switch {
			case k > 0 && rng.IntN(8) == 0:
				ops = append(ops, model.FenceOp())
			case k > 0 && writer && rng.IntN(2) == 0:
				ops = append(ops, model.SSFenceOp())
			}
			if writer {
				ops = append(ops, model.WriteOp(x, model.C(1+rng.Int64N(2))))
			} else {
				ops = append(ops, model.ReadOp(x, k%2))
			}
			x = 1 - x
		}
		for k, op := range ops {
			n := q.AddLoc(fmt.Sprintf("L%d", k+1), model.Pos{})
			q.AddTrans(l, op, n, model.Pos{})
			l = n
		}
		bad.Locs = append(bad.Locs, model.ProcLoc{Proc: i, Loc: l})
		p.Procs = append(p.Procs, q)
	}
	p.Index()
	outcomes := func(ignoreSS bool) map[string][][]int64 {
		out := map[string][][]int64{}
		psoSearch(p, 8, ignoreSS, func(c *pconf) bool {
			for _, pl := range bad.Locs {
				if c.locs[pl.Proc] != pl.Loc {
					return false
				}
			}
			out[fmt.Sprint(c.regs)] = c.regs
			return false
		})
		return out
	}
	fenced, loose := outcomes(false), outcomes(true)
	var only, all []string
	for k := range loose {
		all = append(all, k)
		if _, ok := fenced[k]; !ok {
			only = append(only, k)
		}
	}
	slices.Sort(only)
	slices.Sort(all)
	pick := all
	if len(only) > 0 {
		pick = only
	}
	regs := loose[pick[rng.IntN(len(pick))]]
	var cond model.Expr
	for i := range p.Procs {
		for r, v := range regs[i] {
			c := model.Bin(model.OpEq, model.RegRef{Proc: i, Reg: r}, model.C(v))
			if cond == nil {
				cond = c
			} else {
				cond = model.Bin(model.OpAnd, cond, c)
			}
		}
	}
	bad.Cond = cond
	p.Bad = []model.BadState{bad}
	return p
}

// withSSFences makes every other fence of p a store-store fence and puts a
// store-store fence after about one write in four.
func withSSFences(p *model.Program, rng *rand.Rand) *model.Program {
	for _, q := range p.Procs {
		n := len(q.Trans)
		for ti := range n {
			switch q.Trans[ti].Op.Kind {
			case model.Fence:
				if rng.IntN(2) == 0 {
					q.Trans[ti].Op = model.SSFenceOp()
				}
			case model.Write:
				if rng.IntN(4) == 0 {
					to := q.Trans[ti].To
					mid := q.AddLoc(fmt.Sprintf("ss%d", ti), model.Pos{})
					q.Trans[ti].To = mid
					q.AddTrans(mid, model.SSFenceOp(), to, model.Pos{})
				}
			}
		}
	}
	p.Index()
	return p
}

func describe(p *model.Program) string {
	var b strings.Builder
	for _, q := range p.Procs {
		for _, tr := range q.Trans {
			fmt.Fprintf(&b, "  %s %s -> %s: %s\n", q.Name, q.Locs[tr.From].Name, q.Locs[tr.To].Name, tr.Op.Format(p, q))
		}
	}
	for bi := range p.Bad {
		fmt.Fprintf(&b, "  bad: %s\n", p.BadName(bi))
	}
	return b.String()
}

// pending is a store waiting in the buffer of its process and variable:
// its value and the number of store-store fences its process had passed
// when it wrote it (its epoch).
type pending struct {
	val   int64
	epoch int
}

// pconf is a configuration of psoReach: locations, registers, memory, the
// buffers by process and variable, and each process's epoch.
type pconf struct {
	locs  []int
	regs  [][]int64
	mem   []int64
	bufs  [][][]pending
	epoch []int
}

func (c *pconf) clone() *pconf {
	d := &pconf{locs: slices.Clone(c.locs), mem: slices.Clone(c.mem), epoch: slices.Clone(c.epoch)}
	for i := range c.regs {
		d.regs = append(d.regs, slices.Clone(c.regs[i]))
		var bs [][]pending
		for _, b := range c.bufs[i] {
			bs = append(bs, slices.Clone(b))
		}
		d.bufs = append(d.bufs, bs)
	}
	return d
}

// key encodes c with each process's epochs renumbered by rank, so that
// configurations that differ only in how many fences were passed are one.
func (c *pconf) key() string {
	var b strings.Builder
	fmt.Fprint(&b, c.locs, c.regs, c.mem)
	for i, bs := range c.bufs {
		var es []int
		for _, buf := range bs {
			for _, e := range buf {
				es = append(es, e.epoch)
			}
		}
		es = append(es, c.epoch[i])
		slices.Sort(es)
		es = slices.Compact(es)
		rank := func(e int) int { r, _ := slices.BinarySearch(es, e); return r }
		for x, buf := range bs {
			fmt.Fprintf(&b, "|%d:", x)
			for _, e := range buf {
				fmt.Fprintf(&b, "%d@%d,", e.val, rank(e.epoch))
			}
		}
		fmt.Fprintf(&b, "|e%d", rank(c.epoch[i]))
	}
	return b.String()
}

func (c *pconf) empty(i int) bool {
	for _, buf := range c.bufs[i] {
		if len(buf) > 0 {
			return false
		}
	}
	return true
}

// psoReach decides whether a bad state of p (or a fault) is reachable under
// PSO with at most bound stores buffered per process and variable (a write
// beyond it waits), by a breadth-first search of its own: a write appends
// to the buffer of its process and variable with the process's epoch; a
// store-store fence starts a new epoch; the oldest store of a buffer may
// reach memory when no store of its process from an earlier epoch is
// pending; a read takes the newest store of its own buffer for the
// variable, else memory; a fence and a locked block wait for all the
// process's buffers to be empty. Only expressions are evaluated through
// package model (model.Eval).
func psoReach(p *model.Program, bound int) (bool, int, error) {
	return psoSearch(p, bound, false, func(c *pconf) bool { return psoBad(p, c) })
}

// psoSearch visits the configurations of p that psoReach explores (with
// store-store fences as nops when ignoreSS is set) until visit returns true
// or a fault is reachable; it returns whether one did, the number of
// configurations and an error for an operation it does not know.
func psoSearch(p *model.Program, bound int, ignoreSS bool, visit func(c *pconf) bool) (bool, int, error) {
	init := &pconf{mem: make([]int64, len(p.Vars))}
	for x, v := range p.Vars {
		init.mem[x] = v.Init.Value
	}
	for _, q := range p.Procs {
		init.locs = append(init.locs, q.Init)
		regs := make([]int64, len(q.Regs))
		for r, reg := range q.Regs {
			regs[r] = reg.Init.Value
		}
		init.regs = append(init.regs, regs)
		init.bufs = append(init.bufs, make([][]pending, len(p.Vars)))
		init.epoch = append(init.epoch, 0)
	}
	seen := map[string]bool{init.key(): true}
	queue := []*pconf{init}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if visit(c) {
			return true, len(seen), nil
		}
		var next []*pconf
		fault := false
		for i, q := range p.Procs {
			// Flushes.
			for x, buf := range c.bufs[i] {
				if len(buf) == 0 {
					continue
				}
				blocked := false
				for y, other := range c.bufs[i] {
					if y != x && len(other) > 0 && other[0].epoch < buf[0].epoch {
						blocked = true
					}
				}
				if blocked {
					continue
				}
				d := c.clone()
				d.mem[x] = buf[0].val
				d.bufs[i][x] = d.bufs[i][x][1:]
				next = append(next, d)
			}
			// Transitions.
			for _, tr := range q.Trans {
				if tr.From != c.locs[i] {
					continue
				}
				op := tr.Op
				if ignoreSS && op.Kind == model.SSFence {
					op = model.NopOp()
				}
				d, f, err := psoExec(p, c, i, op, bound)
				if err != nil {
					return false, len(seen), err
				}
				if f {
					fault = true
				}
				if d != nil {
					d.locs[i] = tr.To
					next = append(next, d)
				}
			}
		}
		if fault {
			return true, len(seen), nil
		}
		for _, d := range next {
			if k := d.key(); !seen[k] {
				seen[k] = true
				queue = append(queue, d)
			}
		}
	}
	return false, len(seen), nil
}

// psoExec executes op by process i in c: the new configuration (nil when
// op is disabled) and whether it faults (a value outside a domain, an
// expression that cannot be evaluated).
func psoExec(p *model.Program, c *pconf, i int, op model.Op, bound int) (*pconf, bool, error) {
	q := p.Procs[i]
	d := c.clone()
	env := &model.Env{Regs: d.regs[i], AllRegs: d.regs}
	switch op.Kind {
	case model.Nop:
	case model.SSFence:
		d.epoch[i]++
	case model.Fence:
		if !c.empty(i) {
			return nil, false, nil
		}
	case model.Assign:
		v, err := model.Eval(op.Expr, env)
		if err != nil || !q.Regs[op.Reg].Dom.Contains(v) {
			return nil, true, nil
		}
		d.regs[i][op.Reg] = v
	case model.Guard:
		v, err := model.Eval(op.Expr, env)
		if err != nil {
			return nil, true, nil
		}
		if v == 0 {
			return nil, false, nil
		}
	case model.Read:
		v := c.mem[op.Var]
		if buf := c.bufs[i][op.Var]; len(buf) > 0 {
			v = buf[len(buf)-1].val
		}
		if op.Expr != nil {
			want, err := model.Eval(op.Expr, env)
			if err != nil {
				return nil, true, nil
			}
			if want != v {
				return nil, false, nil
			}
		}
		if op.Reg >= 0 {
			if !q.Regs[op.Reg].Dom.Contains(v) {
				return nil, true, nil
			}
			d.regs[i][op.Reg] = v
		}
	case model.Write:
		v, err := model.Eval(op.Expr, env)
		if err != nil || !p.Vars[op.Var].Dom.Contains(v) {
			return nil, true, nil
		}
		if len(c.bufs[i][op.Var]) >= bound {
			return nil, false, nil
		}
		d.bufs[i][op.Var] = append(d.bufs[i][op.Var], pending{v, c.epoch[i]})
	case model.Locked:
		if !c.empty(i) {
			return nil, false, nil
		}
		env.Mem = d.mem
		for _, b := range op.Body {
			ok, fault, err := psoLockedStep(p, q, d, i, b, env)
			if err != nil || fault {
				return nil, fault, err
			}
			if !ok {
				return nil, false, nil
			}
		}
	default:
		return nil, false, fmt.Errorf("the interpreter knows no %v", op.Kind)
	}
	return d, false, nil
}

// psoLockedStep executes one operation of a locked block on memory: whether
// it is enabled, and whether it faults.
func psoLockedStep(p *model.Program, q *model.Process, d *pconf, i int, b model.Op, env *model.Env) (bool, bool, error) {
	switch b.Kind {
	case model.Nop:
	case model.Assign:
		v, err := model.Eval(b.Expr, env)
		if err != nil || !q.Regs[b.Reg].Dom.Contains(v) {
			return false, true, nil
		}
		d.regs[i][b.Reg] = v
	case model.Guard:
		v, err := model.Eval(b.Expr, env)
		if err != nil {
			return false, true, nil
		}
		return v != 0, false, nil
	case model.Read:
		v := d.mem[b.Var]
		if b.Expr != nil {
			want, err := model.Eval(b.Expr, env)
			if err != nil {
				return false, true, nil
			}
			if want != v {
				return false, false, nil
			}
		}
		if b.Reg >= 0 {
			if !q.Regs[b.Reg].Dom.Contains(v) {
				return false, true, nil
			}
			d.regs[i][b.Reg] = v
		}
	case model.Write:
		v, err := model.Eval(b.Expr, env)
		if err != nil || !p.Vars[b.Var].Dom.Contains(v) {
			return false, true, nil
		}
		d.mem[b.Var] = v
	default:
		return false, false, fmt.Errorf("the interpreter knows no %v in a locked block", b.Kind)
	}
	return true, false, nil
}

// psoBad reports whether c is in a bad state of p: its processes at their
// locations and its condition true, on memory only once every buffer is
// empty.
func psoBad(p *model.Program, c *pconf) bool {
	for _, b := range p.Bad {
		ok := true
		for _, pl := range b.Locs {
			if c.locs[pl.Proc] != pl.Loc {
				ok = false
			}
		}
		if ok && b.Cond != nil {
			if model.NamesMemory(b.Cond) {
				for i := range p.Procs {
					if !c.empty(i) {
						ok = false
					}
				}
			}
			if ok {
				v, err := model.Eval(b.Cond, &model.Env{AllRegs: c.regs, Mem: c.mem})
				ok = err == nil && v != 0
			}
		}
		if ok {
			return true
		}
	}
	return false
}
