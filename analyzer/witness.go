package analyzer

import (
	"fmt"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/fencecheck/fencecheck/model"
)

// A Witness is a finding with the interleaving behind it, step by step,
// for reports that draw it (fencecheck -html).
type Witness struct {
	// Kind is the finding's kind (KindRace, KindTSO, ...), System the
	// system's name, and Message the first line of the finding's message.
	Kind, System, Message string
	// Pos is where the finding is reported; Related its related
	// positions, as in the diagnostic.
	Pos     token.Position
	Related []WitnessNote
	// Model is "SC" or "x86-TSO": the memory model of the interleaving.
	Model string
	// Goroutines names the goroutines, one lane each.
	Goroutines []string
	// Steps are the steps of the interleaving that touch memory, in order,
	// with the flushes of store buffers under x86-TSO.
	Steps []WitnessStep
}

// A WitnessNote is a related position of a finding.
type WitnessNote struct {
	Pos     token.Position
	Message string
}

// A WitnessStep is one step of an interleaving.
type WitnessStep struct {
	// Goroutine indexes Witness.Goroutines.
	Goroutine int
	// Text says what the step does ("store x=1", "load y: 0"); Flush
	// marks a store leaving a store buffer for memory.
	Text  string
	Flush bool
	Pos   token.Position
	// Buffers holds, after the step and under x86-TSO, each goroutine's
	// store buffer, oldest store first ("x=1").
	Buffers [][]string
	// Memory holds, after the step, the values in memory of the variables
	// the interleaving touches ("x=1"), in the order they are first
	// touched.
	Memory []string
}

// OnWitness, when set, receives the witness of every finding that comes
// with an interleaving, before the finding is reported. It is called from
// the analysis of one package at a time, possibly from several goroutines.
var OnWitness func(Witness)

// emitWitness passes the witness of finding d, whose interleaving is t, to
// OnWitness.
func (s *system) emitWitness(d analysis.Diagnostic, t *model.Trace) {
	if OnWitness == nil || t == nil {
		return
	}
	states, err := s.p.Execute(t)
	if err != nil {
		return
	}
	fset := s.r.pass.Fset
	msg, _, _ := strings.Cut(d.Message, "\n")
	w := Witness{Kind: d.Category, System: s.sys.Name, Message: msg, Pos: fset.Position(d.Pos), Model: "SC"}
	if d.Category == "" {
		w.Kind = category(d.Message)
	}
	if t.Model == model.TSO {
		w.Model = "x86-TSO"
	}
	for _, r := range d.Related {
		w.Related = append(w.Related, WitnessNote{Pos: fset.Position(r.Pos), Message: r.Message})
	}
	for _, q := range s.p.Procs {
		w.Goroutines = append(w.Goroutines, q.Name)
	}
	var touched []int
	seen := map[int]bool{}
	for _, st := range t.Steps {
		if st.Var >= 0 && !seen[st.Var] {
			seen[st.Var] = true
			touched = append(touched, st.Var)
		}
	}
	for i, st := range t.Steps {
		var ws WitnessStep
		switch {
		case st.Flush:
			if st.Var < 0 {
				continue
			}
			ws = WitnessStep{Goroutine: st.Proc, Flush: true,
				Text: fmt.Sprintf("%s=%d reaches memory", s.varName(st.Var), st.Val)}
		default:
			txt := s.stepText(st)
			if txt == "" {
				continue
			}
			ws = WitnessStep{Goroutine: st.Proc, Text: lineSuffix.ReplaceAllString(txt, ""),
				Pos: fset.Position(s.stmtPos(st.Proc, st.Trans))}
		}
		after := states[i+1]
		if w.Model == "x86-TSO" {
			for _, buf := range after.Bufs {
				var b []string
				for _, e := range buf {
					b = append(b, fmt.Sprintf("%s=%d", s.varName(e.Var), e.Val))
				}
				ws.Buffers = append(ws.Buffers, b)
			}
		}
		for _, v := range touched {
			ws.Memory = append(ws.Memory, fmt.Sprintf("%s=%d", s.varName(v), after.Mem[v]))
		}
		w.Steps = append(w.Steps, ws)
	}
	OnWitness(w)
}
