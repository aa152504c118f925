package rmm

import (
	"fmt"
	"testing"

	"github.com/fencecheck/fencecheck/model"
)

func TestPositions(t *testing.T) {
	src := `forbidden CS
data x = 0 : [0:1]
process
registers $r = 0 : [0:1]
text
  L0: write: x := 1;
  if $r = 0 then
    $r := $r + 1;
  CS: cas(x, 1, 0);
  goto L0`
	p := mustParse(t, src)
	q := p.Procs[0]

	var got []string
	for _, tr := range q.Trans {
		got = append(got, fmt.Sprintf("%s %d:%d", tr.Op.Kind, tr.Pos.Line, tr.Pos.Col))
	}
	want := []string{
		"write 6:7",  // write: x := 1
		"guard 7:3",  // if: $r = 0
		"guard 8:5",  // domain check of $r + 1
		"assign 8:5", // $r := $r + 1
		"guard 7:3",  // if: $r != 0
		"locked 9:7", // cas
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("transition kinds and positions\n got: %v\nwant: %v", got, want)
	}
	for _, tr := range q.Trans {
		if tr.Pos.File != "t.rmm" {
			t.Errorf("transition at %v: file %q, want t.rmm", tr.Pos, tr.Pos.File)
		}
	}

	loc := func(name string) model.Loc {
		t.Helper()
		i := q.LocIndex(name)
		if i < 0 {
			t.Fatalf("no location %s", name)
		}
		return q.Locs[i]
	}
	if l := loc("L0"); l.Pos.Line != 6 || l.Pos.Col != 3 {
		t.Errorf("L0 at %v, want 6:3", l.Pos)
	}
	if l := loc("CS"); l.Pos.Line != 9 || l.Pos.Col != 3 {
		t.Errorf("CS at %v, want 9:3", l.Pos)
	}
	if q.Locs[q.Init].Name != "L0" {
		t.Errorf("initial location %s, want L0", q.Locs[q.Init].Name)
	}
	if b := p.Bad[0]; b.Pos.Line != 1 || b.Pos.Col != 11 || b.Name != "CS" {
		t.Errorf("bad state %q at %v, want CS at 1:11", b.Name, b.Pos)
	}
	if v := p.Vars[0]; v.Pos.Line != 2 || v.Pos.Col != 6 {
		t.Errorf("x at %v, want 2:6", v.Pos)
	}
	if r := q.Regs[0]; r.Pos.Line != 4 || r.Pos.Col != 11 {
		t.Errorf("$r at %v, want 4:11", r.Pos)
	}
}

// checkPositions reports a transition or location of p without a position.
func checkPositions(p *model.Program, file string) error {
	for _, q := range p.Procs {
		for _, tr := range q.Trans {
			if !tr.Pos.IsValid() || tr.Pos.File != file {
				return fmt.Errorf("process %s: transition %s without position (%v)", q.Name, tr.Op.Format(p, q), tr.Pos)
			}
		}
		for _, l := range q.Locs {
			if !l.Pos.IsValid() || l.Pos.File != file {
				return fmt.Errorf("process %s: location %s without position (%v)", q.Name, l.Name, l.Pos)
			}
		}
	}
	return nil
}

func TestAllPositions(t *testing.T) {
	for _, tt := range lowerTests {
		p := mustParse(t, tt.src)
		if err := checkPositions(p, "t.rmm"); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}
