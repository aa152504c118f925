package analyzer

import (
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/extract"
	"github.com/fencecheck/fencecheck/model"
)

// Guessed answers.
//
// The model takes either answer of a question it does not compute (a
// comparison with strconv.Atoi's result, the error strconv.Atoi returns;
// extract's guess.go), so a run it finds may rest on an answer Go never
// gives. Go's answer is a function of the guess's inputs (the arguments of
// the calls that made the values compared), so a counterexample's
// guesses are questions at inputs: (site, the inputs' values there). The
// counterexample is searched for again under every combination of answers
// to the questions it asked, each program letting a guess take only the
// combination's answer at those inputs and closing it at any other: when
// each combination reaches a bad state, so does Go, whatever its answers.
// Otherwise the analysis stops inconclusive, naming the answers under
// which the bad state was not reached. A guess whose inputs are not
// followed (a string kept in memory, a stack) cannot be confirmed.

// maxGuessCombinations bounds the combinations of answers under which one
// counterexample is checked again.
const maxGuessCombinations = 16

// A guessGap stops an analysis whose counterexample rests on answers the
// model does not compute.
type guessGap struct {
	// reached says what the counterexample reaches ("the panic at
	// x.go:12:3 is reached").
	reached string
	// taken are the answers the counterexample takes; other, when set,
	// those under which no bad state is reached. Otherwise why says why
	// the answers were not checked.
	taken, other []guessAt
	why          string
}

func (g *guessGap) Error() string {
	return g.reached + " in a run that takes answers fencecheck does not compute"
}

// A guessAt is a guess asked at inputs, with an answer.
type guessAt struct {
	g      *extract.Guess
	inputs []int64
	answer int64
}

// key names the question: its site and inputs.
func (a guessAt) key() string { return fmt.Sprint(a.g.Site, a.inputs) }

// guessesIn returns the questions that trace t of p asks, in order, each
// with the answer t takes, or ok false when t takes a guess whose inputs
// are not followed (that guess is returned alone).
func (s *system) guessesIn(p *model.Program, t *model.Trace) (asked []guessAt, ok bool) {
	var states []model.State
	seen := map[string]bool{}
	for i, st := range t.Steps {
		if st.Flush || st.Proc >= len(s.sys.Origins) || st.Trans < 0 || st.Trans >= len(s.sys.Origins[st.Proc]) {
			continue
		}
		g := s.sys.Origins[st.Proc][st.Trans].Guess
		if g == nil {
			continue
		}
		if !g.Known {
			return []guessAt{{g: g, answer: g.Answer}}, false
		}
		if states == nil {
			var err error
			if states, err = p.Replay(t); err != nil || len(states) <= i {
				return []guessAt{{g: g, answer: g.Answer}}, false
			}
		}
		at := guessAt{g: g, answer: g.Answer}
		before := states[i]
		for _, e := range g.Inputs {
			v, err := model.Eval(e, &model.Env{Regs: before.Regs[st.Proc], AllRegs: before.Regs, Mem: before.Mem, Ints: p.Ints})
			if err != nil {
				return []guessAt{at}, false
			}
			at.inputs = append(at.inputs, v)
		}
		if !seen[at.key()] {
			seen[at.key()] = true
			asked = append(asked, at)
		}
	}
	return asked, true
}

// guessAnswers returns the answers guess site may take.
func (s *system) guessAnswers(site int) []int64 {
	var out []int64
	for _, orig := range s.sys.Origins {
		for _, o := range orig {
			if o.Guess != nil && o.Guess.Site == site && !slices.Contains(out, o.Guess.Answer) {
				out = append(out, o.Guess.Answer)
			}
		}
	}
	return out
}

// withAnswers returns p in which each guess, at the inputs of a question
// of answers, gives only that question's answer; elsewhere it is left as
// it is.
func (s *system) withAnswers(p *model.Program, answers []guessAt) *model.Program {
	c := p.Clone()
	for q, orig := range s.sys.Origins {
		for t, o := range orig {
			g := o.Guess
			if g == nil || q >= len(c.Procs) || t >= len(c.Procs[q].Trans) {
				continue
			}
			var other model.Expr // at the inputs of a question answered otherwise
			for _, a := range answers {
				if a.g.Site != g.Site || a.answer == g.Answer {
					continue
				}
				var here model.Expr = model.C(1)
				for i, e := range g.Inputs {
					here = model.Bin(model.OpAnd, here, model.Bin(model.OpEq, e, model.C(a.inputs[i])))
				}
				if other == nil {
					other = here
				} else {
					other = model.Bin(model.OpOr, other, here)
				}
			}
			tr := &c.Procs[q].Trans[t]
			switch {
			case other == nil:
			case len(g.Inputs) == 0:
				tr.Op = model.GuardOp(model.C(0))
			default:
				// Under x86-TSO the locked step also waits for the
				// buffer, which only leaves runs out.
				tr.Op = model.LockedOp(model.GuardOp(model.Not(other)), tr.Op)
			}
		}
	}
	return c
}

// maxGuessSearches bounds the searches that confirm one counterexample.
const maxGuessSearches = 32

// confirm checks counterexample r of p, which asks the questions asked,
// under every combination of their answers (see the comment at the top).
// It returns a counterexample with the answers r took, or a *guessGap.
func (g guarded) confirm(ctx context.Context, p *model.Program, m model.Model, r *engines.Result, asked []guessAt, followed bool) (*engines.Result, error) {
	gap := &guessGap{reached: g.s.reachedText(p, r.Trace), taken: asked}
	if !followed {
		gap.why = "and fencecheck does not follow what Go's answer depends on (a string kept in memory, a stack, a Builder's, a random number)"
		return nil, gap
	}
	c := confirmation{g: g, ctx: ctx, p: p, m: m, gap: gap, original: asked}
	if err := c.under(nil, asked); err != nil {
		return nil, err
	}
	if c.found != nil {
		return c.found, nil
	}
	return r, nil
}

// A confirmation is the search for a counterexample under every answer.
type confirmation struct {
	g        guarded
	ctx      context.Context
	p        *model.Program
	m        model.Model
	gap      *guessGap
	original []guessAt
	searches int
	// found is the counterexample under the original answers.
	found *engines.Result
}

// under checks, with the answers fixed held, every combination of answers
// to the questions asked: each combination's search must reach a bad
// state asking nothing else, or every combination of what it asks
// besides, in turn. It returns a *guessGap, or the error or inconclusive
// result of a search (as an error), or nil.
func (c *confirmation) under(fixed, asked []guessAt) error {
	s := c.g.s
	combos := 1
	choices := make([][]int64, len(asked))
	for i, a := range asked {
		choices[i] = s.guessAnswers(a.g.Site)
		combos *= len(choices[i])
		if combos > maxGuessCombinations {
			c.gap.why = fmt.Sprintf("and fencecheck checks at most %d combinations of the other answers", maxGuessCombinations)
			return c.gap
		}
	}
	for k := range combos {
		answers := slices.Clone(fixed)
		for i, a := range asked {
			a.answer = choices[i][k%len(choices[i])]
			k /= len(choices[i])
			answers = append(answers, a)
		}
		if c.searches++; c.searches > maxGuessSearches {
			c.gap.why = fmt.Sprintf("and fencecheck searches at most %d times for runs under the other answers", maxGuessSearches)
			return c.gap
		}
		r, err := c.g.checkFaults(c.ctx, s.withAnswers(c.p, answers), c.m)
		if err != nil {
			return err
		}
		switch r.Status {
		case engines.Unsafe:
		case engines.Safe:
			c.gap.other = answers
			return c.gap
		default:
			return &guessInconclusive{r}
		}
		if c.found == nil && sameAnswers(answers, c.original) {
			c.found = r
		}
		more, followed := s.guessesIn(c.p, r.Trace)
		var fresh []guessAt
		for _, q := range more {
			if !slices.ContainsFunc(answers, func(a guessAt) bool { return a.key() == q.key() }) {
				fresh = append(fresh, q)
			}
		}
		if !followed {
			c.gap.taken, c.gap.why = more, "and fencecheck does not follow what Go's answer depends on (a string kept in memory, a stack, a Builder's, a random number)"
			return c.gap
		}
		if len(fresh) > 0 {
			if err := c.under(answers, fresh); err != nil {
				return err
			}
		}
	}
	return nil
}

// sameAnswers reports whether answers begins with the questions of
// original, answered as there.
func sameAnswers(answers, original []guessAt) bool {
	if len(answers) < len(original) {
		return false
	}
	for i, o := range original {
		if answers[i].key() != o.key() || answers[i].answer != o.answer {
			return false
		}
	}
	return true
}

// A guessInconclusive carries the inconclusive result of a search that
// confirms a counterexample.
type guessInconclusive struct{ r *engines.Result }

func (e *guessInconclusive) Error() string { return e.r.Reason }

// reachedText says what counterexample t of p reaches: the bad state of the
// system's program, or a data race for the race question's.
func (s *system) reachedText(p *model.Program, t *model.Trace) string {
	if states, err := p.Replay(t); err == nil && len(states) > 0 {
		if bi := p.MatchBad(states[len(states)-1]); bi >= 0 && strings.HasPrefix(p.Bad[bi].Name, "race on ") {
			return "a data race is reached"
		}
	}
	text, _, _ := s.outcome(t)
	return text
}

// guessText says, for a Go programmer, the answer a takes: "`v != 5`
// (x.go:12:7, in main) is false".
func (s *system) guessText(a guessAt) string {
	g := a.g
	expr := fmt.Sprintf("%s (%s, in %s%s)", s.exprAt(g.Pos, g.Kind), s.r.short(g.Pos), s.p.Procs[g.Proc].Name, s.inputsText(a))
	switch g.Kind {
	case extract.GuessBool:
		return fmt.Sprintf("%s returns %t", expr, a.answer == 1)
	case extract.GuessError:
		if a.answer == 1 {
			return expr + " returns an error"
		}
		return expr + " returns no error"
	case extract.GuessLen:
		return fmt.Sprintf("%s is %d", expr, a.answer)
	}
	return fmt.Sprintf("%s is %t", expr, a.answer == 1)
}

// inputsText names the inputs of a question and their values: ", with
// v = 1", or "".
func (s *system) inputsText(a guessAt) string {
	var parts []string
	for i, e := range a.g.Inputs {
		if name := s.inputName(a.g.Proc, e); i < len(a.inputs) && !strings.Contains(name, "$") {
			// Inputs the source names (not go/ssa's temporaries).
			parts = append(parts, fmt.Sprintf("%s = %d", name, a.inputs[i]))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return ", with " + strings.Join(parts, ", ")
}

// inputName spells input e of a guess of process q as the source does: a
// register by the expression it holds.
func (s *system) inputName(q int, e model.Expr) string {
	if r, ok := e.(model.RegRef); ok && r.Proc < 0 && q < len(s.sys.Regs) && r.Reg < len(s.sys.Regs[q]) {
		if name := s.sys.Regs[q][r.Reg].Name; name != "" {
			return sourceName(name)
		}
	}
	return model.FormatExpr(e, s.p, s.p.Procs[q])
}

// guessStepText says what the step that takes guess g does: "finds `v !=
// 5` false".
func (s *system) guessStepText(g *extract.Guess) string {
	expr := s.exprAt(g.Pos, g.Kind)
	switch g.Kind {
	case extract.GuessBool:
		return fmt.Sprintf("gets %t from %s", g.Answer == 1, expr)
	case extract.GuessError:
		if g.Answer == 1 {
			return "gets an error from " + expr
		}
		return "gets no error from " + expr
	case extract.GuessLen:
		return fmt.Sprintf("finds %s = %d", expr, g.Answer)
	}
	return fmt.Sprintf("finds %s %t", expr, g.Answer == 1)
}

// guessesText joins the answers as take.
func (s *system) guessesText(as []guessAt) string {
	var answers []string
	for _, a := range as {
		if txt := s.guessText(a); !slices.Contains(answers, txt) {
			answers = append(answers, txt) // one call inlined twice, once
		}
	}
	return strings.Join(answers, " and ")
}

// exprAt returns the source of the comparison or call of a guess at pos
// (a binary operator, a call's parenthesis), or "the comparison" or "the
// call" when the file is not the package's.
func (s *system) exprAt(pos token.Pos, kind extract.GuessKind) string {
	for _, n := range s.enclosing(pos) {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if kind == extract.GuessCompare && n.OpPos == pos {
				return "`" + s.exprText(n) + "`"
			}
		case *ast.CallExpr:
			if kind != extract.GuessCompare && (n.Lparen == pos || kind == extract.GuessLen && n.Pos() <= pos && pos <= n.End()) {
				return "`" + s.exprText(n) + "`"
			}
		}
	}
	if kind == extract.GuessCompare {
		return "the comparison"
	}
	return "the call"
}

// guessGapText is the message of a system stopped by gap.
func (s *system) guessGapText(gap *guessGap) string {
	var ofs []string
	for _, a := range gap.taken {
		if !slices.Contains(ofs, a.g.Of) {
			ofs = append(ofs, a.g.Of)
		}
	}
	unknown := fmt.Sprintf("fencecheck does not compute %s", strings.Join(ofs, " nor "))
	if gap.other != nil {
		return fmt.Sprintf("%s when %s, and not when %s; %s", gap.reached, s.guessesText(gap.taken), s.guessesText(gap.other), unknown)
	}
	return fmt.Sprintf("%s when %s, %s; %s", gap.reached, s.guessesText(gap.taken), gap.why, unknown)
}

// reportGuessGap reports a system whose analysis gap stopped, keeping the
// races found before it (each on a run that takes no guess).
func (s *system) reportGuessGap(gap *guessGap) {
	kept := ""
	if s.racesKept != nil {
		s.r.rollback(*s.racesKept)
		kept = "; the data races reported are in runs that take no such answer"
	}
	s.report(s.sys.Decl.Name.Pos(), fmt.Sprintf(
		"inconclusive: system %s: %s%s (this is a limit of fencecheck, not a finding about the program)",
		s.sys.Name, s.guessGapText(gap), kept))
}
