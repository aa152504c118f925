package registry_test

import (
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines/question/race"
	"github.com/fencecheck/fencecheck/engines/registry"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

// TestEntries checks what every entry says of itself against the engine it
// makes.
func TestEntries(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range registry.All() {
		t.Run(e.Name, func(t *testing.T) {
			if seen[e.Name] {
				t.Errorf("registered twice")
			}
			seen[e.Name] = true
			if registry.Lookup(e.Name) != e {
				t.Errorf("Lookup does not find it")
			}
			want := e.Name
			if e.Name == registry.SBBackward {
				want = registry.SB // a stage of sb, run alone
			}
			if got := e.New(registry.Options{}).Name(); got != want {
				t.Errorf("its engine's Name is %q, want %q", got, want)
			}
			if e.Help == "" || e.Counts == "" {
				t.Errorf("no help text or no unit")
			}
			if proofsOnly := e.Answers == registry.Proofs; proofsOnly != strings.Contains(e.Help, "proofs only") {
				t.Errorf("help %q: its answers are proofs only: %v", e.Help, proofsOnly)
			}
			if e.Races != "" && registry.Lookup(e.Races) == nil {
				t.Errorf("its race question goes to %q, which is not registered", e.Races)
			}
			if e.Answers&registry.Bugs == 0 && e.Races != "" {
				t.Errorf("it finds no bugs, so it cannot list races")
			}
			if !slices.Contains(e.Options, registry.MaxStatesFlag) {
				t.Errorf("it reads no -%s", registry.MaxStatesFlag)
			}
		})
	}
}

// TestSystems checks the engines the analyzer offers.
func TestSystems(t *testing.T) {
	got := registry.Names(registry.Systems())
	want := []string{registry.Auto, registry.Explicit, registry.SB, registry.Pred, registry.BMC}
	if !slices.Equal(got, want) {
		t.Errorf("Systems = %v, want %v", got, want)
	}
	for _, tc := range []struct {
		name string
		want bool
	}{
		{registry.Auto, true}, {registry.BMC, true}, {registry.SBBackward, false},
		{registry.Zone, false}, {"sb+bmc", false}, {"", false},
	} {
		if got := registry.ForSystems(tc.name); got != tc.want {
			t.Errorf("ForSystems(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
	if got, want := registry.List(got), "auto, explicit, sb, pred or bmc"; got != want {
		t.Errorf("List = %q, want %q", got, want)
	}
}

// TestNew checks the engines made by name, with the bounded engine first.
func TestNew(t *testing.T) {
	for _, tc := range []struct {
		name, want, err string
	}{
		{"sb", "sb", ""},
		{"sb+bmc", "sb+bmc", ""},
		{"auto+bmc", "auto+bmc", ""},
		{"pred+bmc", "pred+bmc", ""},
		{"bmc+bmc", "", `unknown engine "bmc+bmc"`},
		{"magic", "", `unknown engine "magic" (want auto, explicit, sb, sb-backward, pred, bmc, bdd, zone, modular or coherence`},
	} {
		eng, err := registry.New(tc.name, registry.Options{})
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("New(%q) error %v, want one containing %q", tc.name, err, tc.err)
			}
		case err != nil:
			t.Errorf("New(%q): %v", tc.name, err)
		case eng.Name() != tc.want:
			t.Errorf("New(%q).Name() = %q, want %q", tc.name, eng.Name(), tc.want)
		}
	}
}

// TestOptionsFlags checks that the option flags set the options, and that
// their defaults are the engines' defaults.
func TestOptionsFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want registry.Options
	}{
		{nil, registry.Options{}},
		{[]string{"-por=false", "-symmetry=false"}, registry.Options{NoPOR: true, NoSymmetry: true}},
		{[]string{"-por", "-buffer=2", "-max-states=10"}, registry.Options{Buffer: 2, MaxStates: 10}},
	} {
		var o registry.Options
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		o.RegisterFlags(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if o != tc.want {
			t.Errorf("%v: options %+v, want %+v", tc.args, o, tc.want)
		}
		if u := fs.Lookup(registry.BufferFlag).Usage; !strings.Contains(u, "explicit engine") {
			t.Errorf("-buffer's usage %q does not name the explicit engine", u)
		}
	}
}

// TestUsage checks that the usage of an -engine flag names every engine.
func TestUsage(t *testing.T) {
	u := registry.Usage()
	for _, e := range registry.All() {
		if !strings.Contains(u, e.Name+" ("+e.Help+")") {
			t.Errorf("usage %q does not describe %s", u, e.Name)
		}
	}
	if !strings.Contains(u, "sb+bmc") {
		t.Errorf("usage %q does not name sb+bmc", u)
	}
}

// load loads a model of testdata.
func load(t *testing.T, file string) *model.Program {
	t.Helper()
	p, err := modelfile.Load(filepath.Join("..", "..", "testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestGoroutines checks that the process called main is not counted.
func TestGoroutines(t *testing.T) {
	p := load(t, "models/wg_chain.fcm") // P0, P1 and main, which waits for them
	if got := registry.Goroutines(p); got != 2 {
		t.Errorf("Goroutines = %d, want 2", got)
	}
	p.Procs[2].Name = "P2"
	if got := registry.Goroutines(p); got != 3 {
		t.Errorf("with main renamed: Goroutines = %d, want 3", got)
	}
}

// TestChoose checks the plans of each question.
func TestChoose(t *testing.T) {
	for _, tc := range []struct {
		engine string
		file   string
		q      registry.Question
		want   string // the plan, or the error's start
		states int64
	}{
		{"auto", "rmm/sb.rmm", registry.Reach, "explicit", 0},
		{"auto", "rmm/dekker_fenced.rmm", registry.Reach, "sb", 0},
		{"auto", "rmm/dekker_fenced.rmm", registry.Races, "explicit", 0},
		{"auto", "scale/ring5.fcm", registry.Reach, "modular+sb+bmc", 0},
		{"auto", "scale/ring5.fcm", registry.Races, "modular+explicit+bmc", 0},
		{"auto", "kabs/bakery.rmm", registry.Reach, "pred", 0},
		{"auto", "kabs/bakery.rmm", registry.Races, "pred", 0},
		{"auto", "fig11/counter3.fcm", registry.Reach, "pred+bmc", 0},
		{"auto", "fig11/counter3.fcm", registry.Races, "pred", 0},
		{"sb", "scale/ring5.fcm", registry.Reach, "sb", 0},
		{"sb", "scale/ring5.fcm", registry.Races, "sb", 0},
		{"pred", "rmm/sb.rmm", registry.Reach, "pred", 0},
		{"pred", "rmm/sb.rmm", registry.Races, "explicit", 0},
		{"bmc", "rmm/sb.rmm", registry.Races, "bmc", 0},
		{"bmc", "kabs/bakery.rmm", registry.Reach, "bmc", 0},
		{"bmc", "kabs/bakery.rmm", registry.Races, "pred", 0},
		{"explicit", "kabs/bakery.rmm", registry.Reach, "the explicit engine needs finite domains", 0},
		{"zone", "rmm/sb.rmm", registry.Races, "the zone engine does not answer the race question", 0},
		{"sb", "rmm/sb.rmm", registry.Pairs, "explicit", registry.PairsExplicitStates},
		{"auto", "kabs/bakery.rmm", registry.Pairs, "pred", registry.PairsPredStates},
		{"magic", "rmm/sb.rmm", registry.Reach, `unknown engine "magic"`, 0},
	} {
		t.Run(tc.engine+"/"+tc.file, func(t *testing.T) {
			p := load(t, tc.file)
			pl, err := registry.Choose(tc.engine, p, tc.q)
			if err != nil {
				if !strings.HasPrefix(err.Error(), tc.want) {
					t.Errorf("question %d: error %v, want %q", tc.q, err, tc.want)
				}
				return
			}
			if pl.String() != tc.want || pl.MaxStates != tc.states {
				t.Errorf("question %d: plan %s (%d states), want %s (%d)", tc.q, pl, pl.MaxStates, tc.want, tc.states)
			}
			if name := pl.New(registry.Options{}).Name(); name != pl.String() {
				t.Errorf("the plan %s makes an engine called %s", pl, name)
			}
		})
	}
}

// TestChooseBeyondSB checks that the auto mode gives a finite program with
// loops that sb cannot take (a goroutine with more than 64 registers) to
// the explicit engine, and one sb takes to sb.
func TestChooseBeyondSB(t *testing.T) {
	p := load(t, "rmm/dekker_fenced.rmm")
	pl, err := registry.Choose("auto", p, registry.Reach)
	if err != nil || pl.String() != "sb" {
		t.Fatalf("as loaded: plan %s, %v; want sb", pl, err)
	}
	q := p.Procs[0]
	for len(q.Regs) <= 64 {
		q.Regs = append(q.Regs, model.Reg{Name: fmt.Sprintf("extra%d", len(q.Regs)), Dom: model.Domain{Lo: 0, Hi: 1}})
	}
	pl, err = registry.Choose("auto", p, registry.Reach)
	if err != nil || pl.String() != "explicit" {
		t.Errorf("with %d registers: plan %s, %v; want explicit", len(q.Regs), pl, err)
	}
}

// TestDataError checks that a finite engine's refusal is a *DataError.
func TestDataError(t *testing.T) {
	_, err := registry.Choose(registry.SB, load(t, "kabs/bakery.rmm"), registry.Reach)
	var d *registry.DataError
	if !errors.As(err, &d) || d.Engine != registry.SB {
		t.Errorf("error %v, want a *DataError of sb", err)
	}
}

// TestPairsOnItself checks the engine that answers the Pairs question
// itself: bmc, asked for by name.
func TestPairsOnItself(t *testing.T) {
	for _, e := range registry.All() {
		_, ok := e.New(registry.Options{}).(race.Enumerator)
		if ok != (e.Name == registry.BMC) {
			t.Errorf("%s answers the Pairs question itself: %v", e.Name, ok)
		}
	}
}
