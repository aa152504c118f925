package pred_test

import (
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/pred"
	"github.com/fencecheck/fencecheck/engines/sb"
)

// engineConfig is the start of a predicate-engine run: the number of stores
// kept in order (0 for the default) and which of them.
type engineConfig struct {
	k      int
	oldest bool
}

// TestLoopSummaryRules checks programs with loops whose stores overflow any
// k against the SB engine on finite copies (exact for finite programs). On
// loop-free programs a rule that allows too much only costs iterations:
// raising k to the number of stores makes the abstraction exact. With a loop
// no k is exact, so a rule that allows too much leaves a spurious
// counterexample for every k and the engine cannot prove the program safe,
// and a rule that allows too little hides a real bug. The programs depend
// on the rules for the abstracted stores S(p): a barrier (fence or locked
// operation) waits for S(p) to drain, not only the stores kept in order;
// under the newest-k abstraction the abstracted stores, being the oldest,
// land before the kept ones, and may land while kept ones are pending.
func TestLoopSummaryRules(t *testing.T) {
	requireZ3(t)
	newest := []engineConfig{{}, {k: 2}}
	both := append([]engineConfig{{oldest: true}, {k: 2, oldest: true}}, newest...)
	for _, tc := range []struct {
		name, src string
		want      engines.Status
		// engines are the configurations to run: those whose abstraction
		// is precise enough to decide the program.
		engines []engineConfig
	}{
		{
			// Store buffering with fences after a loop of stores: the fence
			// of P0 drains the abstracted stores too, so a P1 that reads z
			// after P0's read missed it sees the last x.
			"fence-drains-summary", `var x : D = 0
var z : D = 0
process P0 {
  reg $a : D = 0
  l0 -> l1 : write x := 1
  l1 -> l1 : write x := 1
  l1 -> l2 : write x := 2
  l2 -> l3 : fence
  l3 -> l4 : read $a := z
}
process P1 {
  reg $b : D = 0
  l0 -> l1 : write z := 1
  l1 -> l2 : fence
  l2 -> l3 : read $b := x
}
bad : P0@l4 & P1@l3 & P0.$a == 0 && P1.$b != 2
`, engines.Safe, both,
		},
		{
			// The same with a locked read in place of the fence and read.
			"locked-drains-summary", `var x : D = 0
var z : D = 0
process P0 {
  reg $a : D = 0
  l0 -> l1 : write x := 1
  l1 -> l1 : write x := 1
  l1 -> l2 : write x := 2
  l2 -> l3 : locked { read $a := z }
}
process P1 {
  reg $b : D = 0
  l0 -> l1 : write z := 1
  l1 -> l2 : fence
  l2 -> l3 : read $b := x
}
bad : P0@l3 & P1@l3 & P0.$a == 0 && P1.$b != 2
`, engines.Safe, both,
		},
		{
			// Without the fence the bug is real: the test above fails for
			// the right reason.
			"no-fence-summary", `var x : D = 0
var z : D = 0
process P0 {
  reg $a : D = 0
  l0 -> l1 : write x := 1
  l1 -> l1 : write x := 1
  l1 -> l2 : write x := 2
  l2 -> l3 : read $a := z
}
process P1 {
  reg $b : D = 0
  l0 -> l1 : write z := 1
  l1 -> l2 : fence
  l2 -> l3 : read $b := x
}
bad : P0@l3 & P1@l3 & P0.$a == 0 && P1.$b != 2
`, engines.Unsafe, both,
		},
		{
			// Message passing after a loop of data stores: the flag, stored
			// last, is kept in order while the data stores are abstracted,
			// and they all land before it. (Under the oldest-k abstraction
			// the flag joins S(p), whose stores land in any order, so only
			// the newest-k abstraction proves this.)
			"flag-after-data-loop", `var d : D = 0
var f : D = 0
process P0 {
  l0 -> l0 : write d := 1
  l0 -> l1 : write d := 2
  l1 -> l2 : write f := 1
}
process P1 {
  reg $b : D = 0
  l0 -> l0 : read f == 0
  l0 -> l1 : read f == 1
  l1 -> l2 : read $b := d
}
bad : P1@l2 & P1.$b != 2
`, engines.Safe, newest,
		},
		{
			// The flag protocol without the spin: the reader may see the
			// flag unset and the data stale, a real bug in both
			// abstractions.
			"flag-unset-data-loop", `var d : D = 0
var f : D = 0
process P0 {
  l0 -> l0 : write d := 1
  l0 -> l1 : write d := 2
  l1 -> l2 : write f := 1
}
process P1 {
  reg $a : D = 0
  reg $b : D = 0
  l0 -> l1 : read $a := f
  l1 -> l2 : read $b := d
}
bad : P1@l2 & P1.$a == 0 && P1.$b == 1
`, engines.Unsafe, both,
		},
		{
			// The oldest store (x = 1, abstracted once y is stored) lands
			// while y is pending, after P0 issued y: P0 read z before P1's
			// z landed, and P1 then still sees x = 0. A newest-k rule that
			// lands the kept y first would hide the bug.
			"summary-lands-before-kept", `var x : D = 0
var y : D = 0
var z : D = 0
process P0 {
  l0 -> l1 : write x := 1
  l1 -> l1 : write x := 2
  l1 -> l2 : write y := 1
  l2 -> l3 : read z == 0
}
process P1 {
  l0 -> l1 : write z := 1
  l1 -> l2 : fence
  l2 -> l3 : read x == 0
  l3 -> l4 : read x == 1
  l4 -> l5 : read y == 0
}
bad : P0@l3 & P1@l5
`, engines.Unsafe, both,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var engs []*pred.Engine
			for _, cfg := range tc.engines {
				engs = append(engs, &pred.Engine{K: cfg.k, Oldest: cfg.oldest, MaxIterations: 30})
			}
			checkPred(t, &sb.Engine{}, tc.name, tc.src, tc.want, engs)
		})
	}
}
