package pred_test

import (
	"context"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/pred"
	"github.com/fencecheck/fencecheck/model"
)

// zones stands in for the zone abstraction of Engine.Zones: it answers
// status and counts its checks.
type zones struct {
	status engines.Status
	checks int
}

func (z *zones) Name() string { return "zones" }

func (z *zones) Check(ctx context.Context, p *model.Program, m model.Model) (*engines.Result, error) {
	z.checks++
	return &engines.Result{Status: z.status, Reason: "stand-in"}, nil
}

// TestZonesFirst checks the proof attempt before the refinement loop: the
// engine asks Zones under SC, and takes a safe answer of it as its own;
// under TSO it does not ask it about a program whose reads may find a
// store in their buffer; an inconclusive answer leaves the question to
// the refinement loop; and without Zones the loop alone answers.
func TestZonesFirst(t *testing.T) {
	p := load(t, "sb.fcm")
	z := &zones{status: engines.Safe}
	res, err := (&pred.Engine{Zones: z}).Check(context.Background(), p, model.SC)
	if err != nil {
		t.Fatal(err)
	}
	if z.checks != 1 || res.Status != engines.Safe || res.Reason != "stand-in" || res.Model != model.SC {
		t.Fatalf("under SC: %d checks of the zones, answer %v (%q, %v); want 1 and their safe answer under SC", z.checks, res.Status, res.Reason, res.Model)
	}
	requireZ3(t)
	z = &zones{status: engines.Safe}
	if res, err = (&pred.Engine{Zones: z}).Check(context.Background(), p, model.TSO); err != nil {
		t.Fatal(err)
	}
	if z.checks != 0 || res.Status != engines.Unsafe {
		t.Fatalf("under TSO: %d checks of the zones, answer %v; want none and unsafe", z.checks, res.Status)
	}
	z = &zones{status: engines.Inconclusive}
	if res, err = (&pred.Engine{Zones: z}).Check(context.Background(), p, model.SC); err != nil {
		t.Fatal(err)
	}
	if z.checks != 1 || res.Status != engines.Safe || res.Reason != "" {
		t.Fatalf("zones inconclusive: %d checks of them, answer %v (%q); want 1 and the loop's safe answer", z.checks, res.Status, res.Reason)
	}
	if res, err = (&pred.Engine{}).Check(context.Background(), p, model.SC); err != nil || res.Status != engines.Safe {
		t.Fatalf("without zones: %v, %v; want safe", res, err)
	}
}
