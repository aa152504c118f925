// Package litmus reads x86 litmus tests in the JSON form of the shared
// conformance corpus (herd7 verdicts under x86-TSO and SC) and turns each into
// a model.Program whose bad state is the test's final condition.
//
// A thread becomes a process that runs its operations in program order and
// then a fence, so that when every process is at its end all stores have
// reached memory; the condition is then evaluated on memory and registers.
// The final fence removes no outcome: a process waiting at it delays nothing
// that other processes do. The question "is the bad state reachable?" is the
// question "is the outcome allowed?".
package litmus

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/fencecheck/fencecheck/model"
)

// Test is one litmus test.
type Test struct {
	Name       string           `json:"name"`
	Family     string           `json:"family"`
	NThreads   int              `json:"nthreads"`
	Threads    [][]Instr        `json:"threads"`
	Init       map[string]int64 `json:"init"`
	Quantifier string           `json:"quantifier"`
	Condition  string           `json:"condition"`
	Cond       *Cond            `json:"cond"`
	TSO        string           `json:"tso"`
	SC         string           `json:"sc"`
}

// Instr is one operation of a thread.
type Instr struct {
	Op     string `json:"op"` // W, R, MFENCE, XCHG, LOCKADD, CMPXCHG
	Loc    string `json:"loc"`
	Reg    string `json:"reg"`
	Val    int64  `json:"val"`
	Expect int64  `json:"expect"`
}

// Cond is the final condition: a conjunction, a disjunction, or an atom.
type Cond struct {
	And []*Cond `json:"and"`
	Or  []*Cond `json:"or"`
	Not *Cond   `json:"not"`
	Mem string  `json:"mem"`
	Reg *struct {
		Thread int    `json:"thread"`
		Reg    string `json:"reg"`
	} `json:"reg"`
	Val int64 `json:"val"`
}

// Load reads a JSON file of litmus tests.
func Load(path string) ([]Test, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var tests []Test
	if err := json.Unmarshal(data, &tests); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return tests, nil
}

// Allowed reports whether the verdict string v means "allowed".
func Allowed(v string) bool { return v == "allowed" }

// Program converts t to a model program whose bad state is t's condition.
func (t *Test) Program() (*model.Program, error) {
	p := &model.Program{Name: t.Name}
	// Every value the test mentions, for the domains.
	vals := []int64{0}
	for _, v := range t.Init {
		vals = append(vals, v)
	}
	addSum := int64(0)
	for _, th := range t.Threads {
		for _, in := range th {
			vals = append(vals, in.Val, in.Expect)
			if in.Op == "LOCKADD" && in.Val > 0 {
				addSum += in.Val
			}
		}
	}
	var condVars []string
	var walk func(c *Cond)
	walk = func(c *Cond) {
		if c == nil {
			return
		}
		vals = append(vals, c.Val)
		if c.Mem != "" {
			condVars = append(condVars, c.Mem)
		}
		for _, d := range slices.Concat(c.And, c.Or) {
			walk(d)
		}
		walk(c.Not)
	}
	walk(t.Cond)
	dom := model.Range(slices.Min(vals), slices.Max(vals)+addSum)

	varIdx := func(name string) int {
		if i := p.VarIndex(name); i >= 0 {
			return i
		}
		p.Vars = append(p.Vars, model.Var{Name: name, Dom: dom, Init: model.Init{Value: t.Init[name]}})
		return len(p.Vars) - 1
	}
	// Variables in a stable order: initialised ones sorted, then by first use.
	names := make([]string, 0, len(t.Init))
	for k := range t.Init {
		if !strings.Contains(k, ":") {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		varIdx(n)
	}
	regIdx := func(q *model.Process, thread int, name string) int {
		if i := q.RegIndex(name); i >= 0 {
			return i
		}
		q.Regs = append(q.Regs, model.Reg{Name: name, Dom: dom, Init: model.Init{Value: t.Init[strconv.Itoa(thread)+":"+name]}})
		return len(q.Regs) - 1
	}
	bad := model.BadState{Name: "condition " + t.Condition}
	for ti, th := range t.Threads {
		q := &model.Process{Name: fmt.Sprintf("P%d", ti)}
		p.Procs = append(p.Procs, q)
		loc := q.AddLoc("L0", model.Pos{})
		for k, in := range th {
			next := q.AddLoc(fmt.Sprintf("L%d", k+1), model.Pos{})
			pos := model.Pos{File: t.Name, Line: k + 1}
			c := model.C(in.Val)
			switch in.Op {
			case "W":
				q.AddTrans(loc, model.WriteOp(varIdx(in.Loc), c), next, pos)
			case "R":
				q.AddTrans(loc, model.ReadOp(varIdx(in.Loc), regIdx(q, ti, in.Reg)), next, pos)
			case "MFENCE":
				q.AddTrans(loc, model.FenceOp(), next, pos)
			case "XCHG":
				q.AddTrans(loc, model.Exchange(varIdx(in.Loc), optReg(q, ti, in.Reg, regIdx), c), next, pos)
			case "LOCKADD":
				q.AddTrans(loc, model.FetchAdd(varIdx(in.Loc), optReg(q, ti, in.Reg, regIdx), c), next, pos)
			case "CMPXCHG":
				x, r := varIdx(in.Loc), optReg(q, ti, in.Reg, regIdx)
				q.AddTrans(loc, model.CASSuccess(x, r, model.C(in.Expect), c), next, pos)
				q.AddTrans(loc, model.CASFailure(x, r, model.C(in.Expect)), next, pos)
			default:
				return nil, fmt.Errorf("%s: thread %d: unknown operation %q", t.Name, ti, in.Op)
			}
			loc = next
		}
		end := q.AddLoc("END", model.Pos{})
		q.AddTrans(loc, model.FenceOp(), end, model.Pos{File: t.Name, Line: len(th) + 1})
		bad.Locs = append(bad.Locs, model.ProcLoc{Proc: ti, Loc: end})
	}
	for _, n := range condVars {
		varIdx(n)
	}
	cond, err := t.condExpr(p, t.Cond, regIdx)
	if err != nil {
		return nil, err
	}
	bad.Cond = cond
	p.Bad = []model.BadState{bad}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	return p, nil
}

func optReg(q *model.Process, thread int, name string, regIdx func(*model.Process, int, string) int) int {
	if name == "" {
		return -1
	}
	return regIdx(q, thread, name)
}

func (t *Test) condExpr(p *model.Program, c *Cond, regIdx func(*model.Process, int, string) int) (model.Expr, error) {
	if c == nil {
		return nil, nil
	}
	fold := func(op model.BinOp, cs []*Cond) (model.Expr, error) {
		var acc model.Expr
		for _, d := range cs {
			e, err := t.condExpr(p, d, regIdx)
			if err != nil {
				return nil, err
			}
			if acc == nil {
				acc = e
			} else {
				acc = model.Bin(op, acc, e)
			}
		}
		return acc, nil
	}
	switch {
	case len(c.And) > 0:
		return fold(model.OpAnd, c.And)
	case len(c.Or) > 0:
		return fold(model.OpOr, c.Or)
	case c.Not != nil:
		e, err := t.condExpr(p, c.Not, regIdx)
		if err != nil {
			return nil, err
		}
		return model.Not(e), nil
	case c.Mem != "":
		x := p.VarIndex(c.Mem)
		if x < 0 {
			return nil, fmt.Errorf("%s: condition names unknown location %s", t.Name, c.Mem)
		}
		return model.Bin(model.OpEq, model.V(x), model.C(c.Val)), nil
	case c.Reg != nil:
		th := c.Reg.Thread
		if th < 0 || th >= len(p.Procs) {
			return nil, fmt.Errorf("%s: condition names thread %d", t.Name, th)
		}
		r := regIdx(p.Procs[th], th, c.Reg.Reg)
		return model.Bin(model.OpEq, model.RegRef{Proc: th, Reg: r}, model.C(c.Val)), nil
	}
	return nil, fmt.Errorf("%s: empty condition", t.Name)
}
