package pred

import (
	"context"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/question/fence"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
	"github.com/fencecheck/fencecheck/model/rmm"
)

// ticketAny is a ticket lock in Memorax's format whose registers start
// with any value, as Memorax's own examples declare them: with Go's
// integers the engine could not rule out that $t + 1 wraps at once.
const ticketAny = `
forbidden
  CS CS
data
  next = 0
  serving = 0
process(2)
registers
  $t = *
  $s = *
text
  L0:
    locked {
      read: $t := next;
      write: next := $t + 1
    };
  SPIN:
    read: $s := serving;
    if $s != $t then goto SPIN;
  CS:
    read: $s := serving;
    write: serving := $s + 1;
    goto L0
`

// TestIntegersOfTheInput checks that each program keeps the integers of
// its input: a Memorax model's are mathematical, and its unbounded ticket
// lock is proved correct; the same program with Go's integers is not,
// the engine naming the sum that may wrap. A counter that starts 3 below
// the end of int64 is safe under SC with mathematical integers (it never
// goes negative) and not with Go's (TestWrapFreeVerdicts).
func TestIntegersOfTheInput(t *testing.T) {
	ticket, err := rmm.Parse("ticket_any.rmm", []byte(ticketAny))
	if err != nil {
		t.Fatal(err)
	}
	if ticket.Ints != model.Mathematical {
		t.Fatalf("a Memorax model's integers are %v, want mathematical", ticket.Ints)
	}
	counter, err := native.Parse("wrap", []byte(`
var x : int = 9223372036854775804
process inc {
  reg $r : int = 0
  L0 -> L1 : read $r := x
  L1 -> L0 : write x := $r + 1
}
process check {
  reg $v : int = 0
  L0 -> L1 : read $v := x
  L1 -> bad : assume $v < 0
}
bad "x wrapped" : check@bad
`))
	if err != nil {
		t.Fatal(err)
	}
	mathCounter := counter.Clone()
	mathCounter.Ints = model.Mathematical
	goTicket := ticket.Clone()
	goTicket.Ints = model.Wrap64
	tests := []struct {
		name  string
		p     *model.Program
		want  engines.Status
		wrap  string // for an inconclusive answer, the expression named
		model model.Model
	}{
		{"ticket mathematical", ticket, engines.Safe, "", model.TSO},
		{"ticket Go", goTicket, engines.Inconclusive, "$t + 1", model.TSO},
		{"counter mathematical SC", mathCounter, engines.Safe, "", model.SC},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.want == engines.Inconclusive {
				longtest.Skip(t) // refinement runs until the sum's wrap-around cannot be ruled out: 16 s of CPU
			}
			res, err := (&Engine{Fresh: true}).Check(context.Background(), tt.p, tt.model)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tt.want {
				t.Fatalf("%v (%s), want %v", res.Status, res.Reason, tt.want)
			}
			if tt.wrap != "" && !strings.Contains(res.Reason, tt.wrap+" ") {
				t.Errorf("reason %q does not name %s", res.Reason, tt.wrap)
			}
		})
	}
}

// TestBakeryAnyRegisters checks the fence sets of Lamport's bakery with
// unbounded tickets (testdata/kabs/bakery.rmm) when its registers start
// with any value, as Memorax's own example declares them: the four
// minimal sets, a barrier after each choosing flag's raising and one
// after the ticket's store or the flag's lowering, in each process. With
// Go's integers the engine could not bound $n + 1 and answered
// inconclusive.
func TestBakeryAnyRegisters(t *testing.T) {
	longtest.Skip(t)
	p, err := rmm.Parse("bakery_any.rmm", []byte(bakeryAny))
	if err != nil {
		t.Fatal(err)
	}
	res, err := fence.Infer(context.Background(), &Engine{}, p, fence.Options{All: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != fence.Fixable || len(res.Sets) != 4 {
		t.Fatalf("%v with %d sets (%s), want fixable with 4", res.Status, len(res.Sets), res.Reason)
	}
	for _, set := range res.Sets {
		if len(set) != 4 {
			t.Errorf("set %v: want 4 barriers", set)
		}
	}
}

// bakeryAny is testdata/kabs/bakery.rmm with registers that start with
// any value.
const bakeryAny = `
forbidden
  CS CS

data
  choosing0 = 0
  choosing1 = 0
  number0 = 0
  number1 = 0

process
registers
  $n = *
  $t = *
text
  L0:
    write: choosing0 := 1;
    read: $n := number1;
    $t := $n + 1;
    write: number0 := $t;
    write: choosing0 := 0;
  L1:
    read: choosing1 = 0;
  L2:
    read: $n := number1;
    if $n != 0 && $n < $t then goto L2;
  CS:
    write: number0 := 0;
    goto L0

process
registers
  $n = *
  $t = *
text
  L0:
    write: choosing1 := 1;
    read: $n := number0;
    $t := $n + 1;
    write: number1 := $t;
    write: choosing1 := 0;
  L1:
    read: choosing0 = 0;
  L2:
    read: $n := number0;
    if $n != 0 && $n <= $t then goto L2;
  CS:
    write: number1 := 0;
    goto L0
`
