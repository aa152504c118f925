package pred_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/pred"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// finiteDom is the domain of the finite copies: the generated programs only
// ever store the constants 0..3 and copies of values read, so the copy has
// the behaviours of the unbounded program.
const finiteDom = "[0:3]"

// parseDom parses src with every D replaced by dom.
func parseDom(t *testing.T, name, src, dom string) *model.Program {
	t.Helper()
	p, err := native.Parse(name, []byte(strings.ReplaceAll(src, " D ", " "+dom+" ")))
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, src)
	}
	return p
}

// checkPred checks the verdict want of the program src in the native format
// under TSO: first with oracle on a copy whose domains D are finite, which
// must agree, then with each of the predicate engines on a copy over
// unbounded integers, ten seconds each.
func checkPred(t *testing.T, oracle engines.Engine, name, src string, want engines.Status, engs []*pred.Engine) {
	t.Helper()
	fp := parseDom(t, name, src, finiteDom)
	res, err := oracle.Check(context.Background(), fp, model.TSO)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != want {
		t.Fatalf("%s says %v, the test expects %v", oracle.Name(), res.Status, want)
	}
	up := parseDom(t, name, src, "int")
	for _, e := range engs {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		start := time.Now()
		rep, err := e.Analyze(ctx, up, model.TSO)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("K %d, oldest %v: %v in %v, %d iterations, final k %d", e.K, e.Oldest, rep.Result.Status, time.Since(start).Round(time.Millisecond), rep.Iterations, rep.K)
		if rep.Result.Status != want {
			t.Errorf("K %d, oldest %v: got %v (%s), want %v", e.K, e.Oldest, rep.Result.Status, rep.Result.Reason, want)
		}
	}
}

// genBuffered returns the source of a loop-free program in the native
// format, with domains written D, that stresses the k-abstraction: several
// stores per process to few variables, reads of a process's own stores,
// locked exchanges and bad states over memory and registers. With fence
// set, a barrier is inserted at one random place.
func genBuffered(rng *rand.Rand, fence bool) string {
	nv := 2 + rng.IntN(2)
	np := 2 + rng.IntN(2)
	vars := []string{"x", "y", "z"}[:nv]
	regs := []string{"$a", "$b"}
	var b strings.Builder
	for _, v := range vars {
		fmt.Fprintf(&b, "var %s : D = 0\n", v)
	}
	fenceProc, fenceAt := rng.IntN(np), -1
	lens := make([]int, np)
	for p := range np {
		n := 3 + rng.IntN(4)
		if p > 0 {
			n = 2 + rng.IntN(3)
		}
		lens[p] = n
		if fence && p == fenceProc {
			fenceAt = rng.IntN(n)
		}
		fmt.Fprintf(&b, "process P%d {\n", p)
		for _, r := range regs {
			fmt.Fprintf(&b, "  reg %s : D = 0\n", r)
		}
		loc := 0
		step := func(op string) {
			fmt.Fprintf(&b, "  l%d -> l%d : %s\n", loc, loc+1, op)
			loc++
		}
		for i := range n {
			if i == fenceAt && p == fenceProc {
				step("fence")
			}
			v := vars[rng.IntN(nv)]
			r := regs[rng.IntN(len(regs))]
			c := 1 + rng.IntN(3)
			switch k := rng.IntN(20); {
			case k < 9:
				if rng.IntN(4) == 0 {
					step(fmt.Sprintf("write %s := %s", v, r))
				} else {
					step(fmt.Sprintf("write %s := %d", v, c))
				}
			case k < 15:
				step(fmt.Sprintf("read %s := %s", r, v))
			case k < 16:
				step(fmt.Sprintf("read %s == %d", v, rng.IntN(4)))
			case k < 18:
				step(fmt.Sprintf("locked { read %s := %s; write %s := %d }", r, v, v, c))
			case k < 19:
				step(fmt.Sprintf("assume %s != %d", r, rng.IntN(4)))
			default:
				step(fmt.Sprintf("locked { read %s == %d; write %s := %d }", v, rng.IntN(4), v, c))
			}
		}
		b.WriteString("}\n")
	}
	b.WriteString("bad \"b\" :")
	for p := range np {
		fmt.Fprintf(&b, " P%d@l%d &", p, lens[p]+btoi(fence && p == fenceProc))
	}
	var conds []string
	for range 1 + rng.IntN(3) {
		if rng.IntN(3) == 0 {
			conds = append(conds, fmt.Sprintf("%s == %d", vars[rng.IntN(nv)], rng.IntN(4)))
		} else {
			op := []string{"==", "!="}[rng.IntN(2)]
			conds = append(conds, fmt.Sprintf("P%d.%s %s %d", rng.IntN(np), regs[rng.IntN(2)], op, rng.IntN(4)))
		}
	}
	b.WriteString(" " + strings.Join(conds, " && ") + "\n")
	return b.String()
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestBufferedAgainstExplicit checks the predicate engine on unbounded
// programs with many buffered stores against the explicit engine on their
// finite copies (exact for loop-free programs), with one engine shared by
// every check so that the learned predicates, k and cached answers of one
// program are offered to the next (all generated programs of a size have
// the same variables and registers), as fence inference does.
func TestBufferedAgainstExplicit(t *testing.T) {
	requireZ3(t)
	n := 60
	switch {
	case *long:
		n = 3000
	case longtest.Quick():
		n = 15
	}
	rng := rand.New(rand.NewPCG(7, 11))
	shared := map[bool]*pred.Engine{false: {}, true: {Oldest: true}}
	counts := map[engines.Status]int{}
	for i := range n {
		src := genBuffered(rng, i%2 == 1)
		name := fmt.Sprintf("gen%d", i)
		up := parseDom(t, name, src, "int")
		fp := parseDom(t, name, src, finiteDom)
		for _, m := range []model.Model{model.TSO, model.SC} {
			want, err := (&explicit.Engine{}).Check(context.Background(), fp, m)
			if err != nil {
				t.Fatal(err)
			}
			for _, oldest := range []bool{false, true} {
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
				got, err := shared[oldest].Check(ctx, up, m)
				cancel()
				if err != nil {
					t.Fatalf("%s under %v (oldest %v): %v\n%s", name, m, oldest, err, src)
				}
				counts[got.Status]++
				if got.Status != engines.Inconclusive && got.Status != want.Status {
					t.Errorf("%s under %v (oldest %v): pred says %v, explicit %v\n%s", name, m, oldest, got.Status, want.Status, src)
				}
			}
		}
	}
	t.Logf("pred verdicts: %v", counts)
}

// sbSrc is store buffering with unbounded values; FENCE is replaced by a
// barrier or a nop, so both copies have the same variables and registers.
const sbSrc = `var x : D = 0
var y : D = 0
process P0 {
  reg $r : D = 0
  l0 -> l1 : write x := 1
  l1 -> l2 : FENCE
  l2 -> l3 : read $r := y
}
process P1 {
  reg $r : D = 0
  l0 -> l1 : write y := 1
  l1 -> l2 : FENCE
  l2 -> l3 : read $r := x
}
bad : P0@l3 & P1@l3 & P0.$r == 0 && P1.$r == 0
`

// TestSharedEngineVerdicts checks programs with the same variables and
// registers but different transitions, unsafe and safe, in both orders on
// one engine: the predicates, k and answers it keeps from one analysis must
// never decide another.
func TestSharedEngineVerdicts(t *testing.T) {
	requireZ3(t)
	unsafe := parseDom(t, "sb", strings.ReplaceAll(sbSrc, "FENCE", "nop"), "int")
	safe := parseDom(t, "sb+fences", strings.ReplaceAll(sbSrc, "FENCE", "fence"), "int")
	want := map[*model.Program]engines.Status{unsafe: engines.Unsafe, safe: engines.Safe}
	for _, order := range [][]*model.Program{{unsafe, safe, unsafe, safe}, {safe, unsafe, safe, unsafe}} {
		for _, oldest := range []bool{false, true} {
			eng := &pred.Engine{Oldest: oldest}
			for i, p := range order {
				got, err := eng.Check(context.Background(), p, model.TSO)
				if err != nil {
					t.Fatal(err)
				}
				if got.Status != want[p] {
					t.Errorf("oldest %v, check %d of %s: got %v, want %v", oldest, i, p.Name, got.Status, want[p])
				}
			}
		}
	}
}

// TestSummaryRules checks programs whose verdict depends on the summary of
// the abstracted stores — more than k stores in a buffer, reads of a
// variable in S(p), the last store to a variable landing (UPDATE-AS) or an
// earlier one (UPDATE-AM) — against the explicit engine on finite copies.
func TestSummaryRules(t *testing.T) {
	requireZ3(t)
	for _, tc := range []struct {
		name, src string
		want      engines.Status
	}{
		{
			// x is stored three times before y: a reader that sees y = 1 sees
			// the last x.
			"fifo-behind-three", `var x : D = 0
var y : D = 0
process P0 {
  reg $a : D = 0
  l0 -> l1 : write x := 1
  l1 -> l2 : write x := 2
  l2 -> l3 : write x := 3
  l3 -> l4 : write y := 1
}
process P1 {
  reg $a : D = 0
  reg $b : D = 0
  l0 -> l1 : read $a := y
  l1 -> l2 : read $b := x
}
bad : P0@l4 & P1@l2 & P1.$a == 1 && P1.$b != 3
`, engines.Safe,
		},
		{
			// The intermediate stores to x are visible to the other process.
			"intermediate-visible", `var x : D = 0
var y : D = 0
process P0 {
  reg $a : D = 0
  l0 -> l1 : write x := 1
  l1 -> l2 : write x := 2
  l2 -> l3 : write x := 3
  l3 -> l4 : write y := 1
}
process P1 {
  reg $a : D = 0
  reg $b : D = 0
  l0 -> l1 : read $a := x
  l1 -> l2 : read $b := y
}
bad : P0@l4 & P1@l2 & P1.$a == 2 && P1.$b == 0
`, engines.Unsafe,
		},
		{
			// Coherence: once the last store to x (3) is seen, an earlier one
			// is never seen again.
			"coherence", `var x : D = 0
var y : D = 0
process P0 {
  reg $a : D = 0
  l0 -> l1 : write x := 1
  l1 -> l2 : write x := 2
  l2 -> l3 : write y := 1
  l3 -> l4 : write x := 3
}
process P1 {
  reg $a : D = 0
  reg $b : D = 0
  l0 -> l1 : read $a := x
  l1 -> l2 : read $b := x
}
bad : P0@l4 & P1@l2 & P1.$a == 3 && P1.$b != 3
`, engines.Safe,
		},
		{
			// A process reads its own newest store to x while its older
			// stores are abstracted, and memory still holds another
			// process's value.
			"own-store-in-summary", `var x : D = 0
var y : D = 0
var z : D = 0
process P0 {
  reg $a : D = 0
  l0 -> l1 : write x := 1
  l1 -> l2 : write x := 2
  l2 -> l3 : write y := 1
  l3 -> l4 : write z := 1
  l4 -> l5 : read $a := x
}
process P1 {
  reg $a : D = 0
  l0 -> l1 : locked { write x := 3 }
}
bad : P0@l5 & P1@l1 & P0.$a != 2 && P0.$a != 3
`, engines.Safe,
		},
		{
			// The own read sees 2 while P1's 3 is already in memory.
			"own-store-hides-memory", `var x : D = 0
var y : D = 0
var z : D = 0
process P0 {
  reg $a : D = 0
  l0 -> l1 : write x := 1
  l1 -> l2 : write x := 2
  l2 -> l3 : write y := 1
  l3 -> l4 : write z := 1
  l4 -> l5 : read $a := x
}
process P1 {
  reg $a : D = 0
  l0 -> l1 : write x := 3
  l1 -> l2 : read $a := x
}
bad : P0@l5 & P1@l2 & P0.$a == 2 && P1.$a == 3 && x == 2
`, engines.Unsafe,
		},
		{
			// A locked operation waits for the summary to drain: after it,
			// memory holds every earlier store.
			"locked-drains", `var x : D = 0
var y : D = 0
var z : D = 0
process P0 {
  reg $a : D = 0
  l0 -> l1 : write x := 1
  l1 -> l2 : write y := 2
  l2 -> l3 : write x := 3
  l3 -> l4 : locked { read $a := z; write z := 1 }
}
process P1 {
  reg $a : D = 0
  reg $b : D = 0
  l0 -> l1 : read z == 1
  l1 -> l2 : read $a := x
  l2 -> l3 : read $b := y
}
bad : P1@l3 & P1.$a != 3 || P1.$b != 2
`, engines.Safe,
		},
		{
			// Without the lock, FIFO order still lands x before z.
			"fifo-drains", `var x : D = 0
var y : D = 0
var z : D = 0
process P0 {
  reg $a : D = 0
  l0 -> l1 : write x := 1
  l1 -> l2 : write y := 2
  l2 -> l3 : write x := 3
  l3 -> l4 : write z := 1
}
process P1 {
  reg $a : D = 0
  reg $b : D = 0
  l0 -> l1 : read z == 1
  l1 -> l2 : read $a := x
  l2 -> l3 : read $b := y
}
bad : P1@l3 & P1.$a != 3
`, engines.Safe,
		},
		{
			// Memory in a bad state is read only when the buffers are empty:
			// the pending 2 must land after 1.
			"bad-memory-after-drain", `var x : D = 0
var y : D = 0
process P0 {
  reg $a : D = 0
  l0 -> l1 : write x := 1
  l1 -> l2 : write y := 1
  l2 -> l3 : write x := 2
  l3 -> l4 : write y := 2
}
process P1 {
  reg $a : D = 0
  l0 -> l1 : read $a := y
}
bad : P0@l4 & P1@l1 & x != 2
`, engines.Safe,
		},
		{
			// Two writers: the last store to land decides memory.
			"two-writers", `var x : D = 0
var y : D = 0
process P0 {
  reg $a : D = 0
  l0 -> l1 : write x := 1
  l1 -> l2 : write y := 1
  l2 -> l3 : write x := 2
}
process P1 {
  reg $a : D = 0
  l0 -> l1 : write x := 3
  l1 -> l2 : write y := 3
  l2 -> l3 : read $a := x
}
bad : P0@l3 & P1@l3 & P1.$a == 1 && x == 2 && y == 1
`, engines.Unsafe,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkPred(t, &explicit.Engine{}, tc.name, tc.src, tc.want, []*pred.Engine{{}, {Oldest: true}, {K: 3}, {Oldest: true, K: 2}})
		})
	}
}
