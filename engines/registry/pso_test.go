package registry_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/lib/smt"
	"github.com/fencecheck/fencecheck/engines/registry"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/rmm"
)

// The message-passing test with a store-store fence between the writes, and
// store buffering with store-store fences after the writes: both are nops
// under TSO, so the first is safe there and the second is not.
const (
	mpSS = `forbidden
  * B
data
  x = 0 : [0:1]
  y = 0 : [0:1]
process
text
  write: x := 1;
  ssfence;
  write: y := 1
process
text
  read: y = 1;
  read: x = 0;
  B: nop
`
	sbSS = `forbidden
  A B
data
  x = 0 : [0:1]
  y = 0 : [0:1]
process
text
  write: x := 1;
  ssfence;
  read: y = 0;
  A: nop
process
text
  write: y := 1;
  ssfence;
  read: x = 0;
  B: nop
`
)

// TestPSOCapability checks every engine against its entry's PSO capability:
// an engine that decides PSO answers message passing (unsafe without a
// fence, as its trace shows); one that does not refuses PSO with an
// *engines.Unsupported error rather than answer; ChooseFor never plans it
// under PSO. Under TSO, every engine takes store-store fences as the nops
// they are there: none answers wrongly on the two programs with them.
func TestPSOCapability(t *testing.T) {
	ctx := context.Background()
	mp, err := rmm.Parse("mp.rmm", []byte(strings.Replace(mpSS, "  ssfence;\n", "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	mpss, err := rmm.Parse("mpss.rmm", []byte(mpSS))
	if err != nil {
		t.Fatal(err)
	}
	sbss, err := rmm.Parse("sbss.rmm", []byte(sbSS))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range registry.All() {
		t.Run(e.Name, func(t *testing.T) {
			if !smt.Available && (e.Name == registry.Pred || e.Name == registry.BMC) {
				t.Skip("needs Z3")
			}
			eng := e.New(registry.Options{})
			res, err := eng.Check(ctx, mp, model.PSO)
			var un *engines.Unsupported
			var me *registry.ModelError
			switch {
			case e.PSO && err != nil:
				t.Errorf("under PSO: %v", err)
			case e.PSO && res.Status == engines.Safe:
				t.Errorf("under PSO: message passing %v", res)
			case e.PSO && res.Status == engines.Unsafe && res.Trace.Model != model.PSO:
				t.Errorf("under PSO: a trace under %v", res.Trace.Model)
			case !e.PSO && !errors.As(err, &un) && !errors.As(err, &me):
				t.Errorf("under PSO: %v, %v; want a refusal", res, err)
			case !e.PSO && !strings.Contains(err.Error(), "PSO"):
				t.Errorf("the refusal does not name PSO: %v", err)
			}
			if _, err := registry.ChooseFor(e.Name, mp, registry.Reach, model.PSO); (err == nil) != e.PSO {
				t.Errorf("ChooseFor under PSO: %v", err)
			}
			for _, c := range []struct {
				p      *model.Program
				unsafe bool
			}{{mpss, false}, {sbss, true}} {
				res, err := e.New(registry.Options{}).Check(ctx, c.p, model.TSO)
				if err != nil {
					t.Logf("%s under TSO: refused: %v", c.p.Name, err)
					continue // an engine may refuse a program it cannot take
				}
				t.Logf("%s under TSO: %v", c.p.Name, res.Status)
				if res.Status == engines.Unsafe && !c.unsafe || res.Status == engines.Safe && c.unsafe {
					t.Errorf("%s under TSO: %v", c.p.Name, res)
				}
			}
		})
	}
}
