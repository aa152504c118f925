package pred_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/pred"
	"github.com/fencecheck/fencecheck/engines/question/fence"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
	"github.com/fencecheck/fencecheck/model/native"
)

// genFinite generates a finite program with loops: two or three processes
// of up to six operations each over two or three shared variables with the
// domain [0:1] or [0:2], two registers per process, and plain and locked
// reads and writes, fences, assignments, assumes and guarded backward jumps.
// Half of the programs have the store-buffering shape, so that many need
// barriers: every process opens by writing 1 to its variable and reading the
// next process's variable into r, later operations use s only, and the bad
// state asks that every r be 0. Otherwise the bad state names the last or
// next-to-last location of two processes, or of all of them, with a random
// register condition two times out of three. Values that leave a domain are
// faults.
func genFinite(rng *rand.Rand) *model.Program {
	hi := int64(1 + rng.IntN(2))
	dom := model.Range(0, hi)
	nvars := 2 + rng.IntN(2)
	nprocs := 2 + rng.IntN(3)/2
	shape := rng.IntN(2) == 0
	p := &model.Program{Name: "cross"}
	for x := range nvars {
		p.Vars = append(p.Vars, model.Var{Name: fmt.Sprintf("v%d", x), Dom: dom})
	}
	val := func() model.Expr { return model.C(rng.Int64N(hi + 1)) }
	for i := range nprocs {
		q := &model.Process{Name: fmt.Sprintf("P%d", i), Regs: []model.Reg{{Name: "r", Dom: dom}, {Name: "s", Dom: dom}}}
		n := 1 + rng.IntN(6)
		if shape {
			n = 2 + rng.IntN(5)
		}
		for k := 0; k <= n; k++ {
			q.AddLoc(fmt.Sprintf("L%d", k), model.Pos{})
		}
		for k := range n {
			x, r := rng.IntN(nvars), rng.IntN(2)
			if shape {
				r = 1
			}
			var op model.Op
			switch kind := rng.IntN(14); {
			case shape && k == 0:
				op = model.WriteOp(i%nvars, model.C(1))
			case shape && k == 1:
				op = model.ReadOp((i+1)%nvars, 0)
			case kind < 3:
				op = model.WriteOp(x, val())
			case kind == 3:
				op = model.WriteOp(x, model.R(r))
			case kind < 6:
				op = model.ReadOp(x, r)
			case kind == 6:
				op = model.ReadEqOp(x, val())
			case kind == 7:
				op = model.FenceOp()
			case kind == 8:
				op = model.Exchange(x, r, val())
			case kind == 9:
				if rng.IntN(2) == 0 {
					op = model.CASSuccess(x, -1, val(), val())
				} else {
					op = model.CASFailure(x, r, val())
				}
			case kind == 10:
				op = model.FetchAdd(x, r, model.C(1))
			case kind == 11:
				op = model.GuardOp(model.Bin(model.OpEq, model.R(r), val()))
			default:
				op = model.AssignOp(r, model.Bin(model.OpSub, model.C(hi), model.R(r)))
			}
			q.AddTrans(k, op, k+1, model.Pos{})
			if k > 0 && rng.IntN(5) == 0 {
				// A loop: go back while the register holds a value.
				back := rng.IntN(k + 1)
				q.AddTrans(k+1, model.GuardOp(model.Bin(model.OpEq, model.R(r), val())), back, model.Pos{})
			}
		}
		p.Procs = append(p.Procs, q)
	}
	procs := []int{0, 1, 2}[:nprocs]
	if nprocs == 3 && rng.IntN(2) == 0 {
		skip := rng.IntN(3)
		procs = slices.DeleteFunc(procs, func(i int) bool { return i == skip })
	}
	bad := model.BadState{Name: "bad"}
	var cond model.Expr
	for _, i := range procs {
		last := len(p.Procs[i].Locs) - 1
		l, want := max(last-rng.IntN(2), 0), val()
		if shape {
			l, want = 2+rng.IntN(last-1), model.C(0)
		}
		bad.Locs = append(bad.Locs, model.ProcLoc{Proc: i, Loc: l})
		eq := model.Bin(model.OpEq, model.RegRef{Proc: i, Reg: 0}, want)
		if cond == nil {
			cond = eq
		} else {
			cond = model.Bin(model.OpAnd, cond, eq)
		}
	}
	if shape || rng.IntN(3) > 0 {
		bad.Cond = cond
	}
	p.Bad = []model.BadState{bad}
	return p
}

// crossCounts are the outcomes of a cross-check, by question.
type crossCounts struct {
	programs int
	// compared and agreed count the questions both engines decided, and
	// those on which they agree; inconclusive counts per engine name the
	// questions it left open.
	compared, agreed map[string]int
	inconclusive     map[string]map[string]int
	verdicts         map[string]int
}

func newCrossCounts() *crossCounts {
	return &crossCounts{
		compared:     map[string]int{},
		agreed:       map[string]int{},
		inconclusive: map[string]map[string]int{"pred": {}, "sb": {}},
		verdicts:     map[string]int{},
	}
}

func (c *crossCounts) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d programs;", c.programs)
	for _, q := range []string{"TSO", "SC", "fences"} {
		fmt.Fprintf(&b, " %s: %d compared, %d agreed, inconclusive pred %d sb %d;",
			q, c.compared[q], c.agreed[q], c.inconclusive["pred"][q], c.inconclusive["sb"][q])
	}
	fmt.Fprintf(&b, " outcomes %v", c.verdicts)
	return b.String()
}

// crossLimits bound the work of one cross-check.
type crossLimits struct {
	check, infer time.Duration // per engine call, per inference
	maxChecks    int           // engine calls per inference
}

// crossCheck compares the pred engine with the exact sb engine on p: the
// verdicts under TSO and under SC and, when p is wrong under TSO only, the
// complete lists of minimal fence sets. A question one engine leaves
// inconclusive within lim is counted, not compared. Disagreements are
// reported with the program's text.
func crossCheck(t *testing.T, name string, p *model.Program, lim crossLimits, c *crossCounts) {
	t.Helper()
	c.programs++
	engs := []engines.Engine{&pred.Engine{}, &sb.Engine{}}
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("%s: %s\n%s", name, fmt.Sprintf(format, args...), native.Format(p))
	}
	status := map[model.Model]engines.Status{}
	for _, m := range []model.Model{model.TSO, model.SC} {
		q := strings.ToUpper(m.String())
		var res [2]*engines.Result
		for i, eng := range engs {
			ctx, cancel := context.WithTimeout(context.Background(), lim.check)
			r, err := eng.Check(ctx, p, m)
			cancel()
			if err != nil {
				fail("%s under %v: %v", eng.Name(), m, err)
				return
			}
			if r.Status == engines.Unsafe {
				if r.Trace == nil || r.Trace.Model != m {
					fail("%s under %v: unsafe without a trace of the model", eng.Name(), m)
					return
				}
				if _, err := p.Replay(r.Trace); err != nil {
					fail("%s under %v: trace does not replay: %v", eng.Name(), m, err)
					return
				}
			}
			if r.Status == engines.Inconclusive {
				c.inconclusive[eng.Name()][q]++
				t.Logf("%s: %s inconclusive under %v: %s", name, eng.Name(), m, r.Reason)
			}
			res[i] = r
		}
		if res[0].Status == engines.Inconclusive || res[1].Status == engines.Inconclusive {
			status[m] = engines.Inconclusive
			continue
		}
		c.compared[q]++
		if res[0].Status != res[1].Status {
			fail("under %v: pred says %v, sb %v", m, res[0], res[1])
			status[m] = engines.Inconclusive
			continue
		}
		c.agreed[q]++
		status[m] = res[0].Status
	}
	c.verdicts[fmt.Sprintf("tso %v, sc %v", status[model.TSO], status[model.SC])]++
	if status[model.TSO] != engines.Unsafe || status[model.SC] != engines.Safe {
		return
	}
	var res [2]*fence.Result
	for i, eng := range engs {
		ctx, cancel := context.WithTimeout(context.Background(), lim.infer)
		r, err := fence.Infer(ctx, eng, p, fence.Options{All: true, MaxChecks: lim.maxChecks})
		cancel()
		if err != nil {
			fail("fence inference with %s: %v", eng.Name(), err)
			return
		}
		if r.Status == fence.Inconclusive {
			c.inconclusive[eng.Name()]["fences"]++
			t.Logf("%s: fence inference with %s inconclusive: %s", name, eng.Name(), r.Reason)
		}
		res[i] = r
	}
	if res[0].Status == fence.Inconclusive || res[1].Status == fence.Inconclusive {
		return
	}
	c.compared["fences"]++
	if g, w := fenceSets(p, res[0]), fenceSets(p, res[1]); res[0].Status != res[1].Status || g != w {
		fail("fence inference: pred gives %v %s, sb %v %s", res[0].Status, g, res[1].Status, w)
		return
	}
	c.agreed["fences"]++
	c.verdicts[fmt.Sprintf("fences %v", res[0].Status)]++
}

// fenceSets renders the minimal sets of r in a canonical order.
func fenceSets(p *model.Program, r *fence.Result) string {
	var sets []string
	for _, set := range r.Sets {
		var pls []string
		for _, pl := range set {
			pls = append(pls, pl.Format(p))
		}
		slices.Sort(pls)
		sets = append(sets, "{"+strings.Join(pls, " ")+"}")
	}
	slices.Sort(sets)
	return "[" + strings.Join(sets, " ") + "]"
}

// TestCrossSB checks that the pred engine agrees with the exact sb engine on
// generated finite programs with loops: on the verdicts under TSO and under
// SC and, for programs wrong under TSO only, on every minimal fence set. It
// runs 150 programs normally and 3000 with -long.
func TestCrossSB(t *testing.T) {
	requireZ3(t)
	n := longtest.Size(20, 150)
	if *long {
		n = 3000
	}
	rng := rand.New(rand.NewPCG(11, 23))
	c := newCrossCounts()
	lim := crossLimits{check: 5 * time.Second, infer: 20 * time.Second, maxChecks: 500}
	for i := range n {
		crossCheck(t, fmt.Sprintf("program %d", i), genFinite(rng), lim, c)
	}
	t.Log(c)
	if c.compared["fences"] == 0 {
		t.Error("no program was compared on its fence sets: the generator is too weak")
	}
}

// table1Entry is the part of an entry of testdata/table1/expected.json the
// cross-check reads.
type table1Entry struct {
	File string `json:"file"`
	Name string `json:"name"`
}

// TestCrossTable1 runs the cross-check of [TestCrossSB] on the finite
// programs of Table 1 of the Memorax paper: those both engines decide
// within the check limits are compared on their verdicts and fence sets.
// Normally only the programs the engines decide quickly take part; -long
// runs them all with larger limits.
func TestCrossTable1(t *testing.T) {
	requireZ3(t)
	dir := filepath.Join("..", "..", "testdata", "table1")
	data, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var entries []table1Entry
	if err := json.Unmarshal(data, &entries); err != nil {
		t.Fatalf("expected.json: %v", err)
	}
	lim := crossLimits{check: time.Second, infer: 4 * time.Second, maxChecks: 200}
	if *long {
		lim = crossLimits{check: 20 * time.Second, infer: 120 * time.Second, maxChecks: 2000}
	}
	c := newCrossCounts()
	for i, e := range entries {
		if longtest.Quick() && i%3 != 0 {
			continue // every third model in the quick run
		}
		p, err := modelfile.Load(filepath.Join(dir, e.File))
		if err != nil {
			t.Fatalf("%s: %v", e.File, err)
		}
		if !p.Finite() {
			continue
		}
		start := time.Now()
		crossCheck(t, e.Name, p, lim, c)
		t.Logf("%s: %v", e.Name, time.Since(start).Round(time.Millisecond))
	}
	t.Log(c)
}
