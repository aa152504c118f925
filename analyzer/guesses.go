package analyzer

import (
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/astutil"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/extract"
	"github.com/fencecheck/fencecheck/model"
)

// Guessed answers.
//
// The model takes either answer of a question it does not compute (a
// comparison with strconv.Atoi's result, the error strings.Cut... returns;
// extract's guess.go), so a run it finds may rest on an answer Go never
// gives. A counterexample that takes guesses is checked again for every
// combination of their answers, each site's answer fixed and every other
// guess closed: the finding stands when each combination reaches a bad
// state, for then Go's answers, whichever they are, do. Otherwise the
// analysis stops inconclusive, naming the guess and the answer under which
// the bad state was not reached.

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
	taken, other []*extract.Guess
	why          string
}

func (g *guessGap) Error() string {
	return g.reached + " in a run that takes answers fencecheck does not compute"
}

// guessesIn returns the guesses that trace t takes, by site.
func (s *system) guessesIn(t *model.Trace) map[int]*extract.Guess {
	var out map[int]*extract.Guess
	for _, st := range t.Steps {
		if st.Flush || st.Proc >= len(s.sys.Origins) || st.Trans < 0 || st.Trans >= len(s.sys.Origins[st.Proc]) {
			continue
		}
		if g := s.sys.Origins[st.Proc][st.Trans].Guess; g != nil {
			if out == nil {
				out = map[int]*extract.Guess{}
			}
			out[g.Site] = g
		}
	}
	return out
}

// guessInLoop reports whether guess site lies on a cycle of its process:
// Go's answer may then differ between rounds, which fixing it per site
// does not cover.
func (s *system) guessInLoop(site int) bool {
	for q, orig := range s.sys.Origins {
		var onCycle []bool
		for t, o := range orig {
			if o.Guess == nil || o.Guess.Site != site {
				continue
			}
			if onCycle == nil {
				onCycle, _ = s.p.Procs[q].Cycles()
			}
			if onCycle[s.p.Procs[q].Trans[t].From] {
				return true
			}
		}
	}
	return false
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

// withAnswers returns p with every guess closed but those of answers,
// each kept at its answer there.
func (s *system) withAnswers(p *model.Program, answers map[int]int64) *model.Program {
	c := p.Clone()
	for q, orig := range s.sys.Origins {
		for t, o := range orig {
			if o.Guess == nil || q >= len(c.Procs) || t >= len(c.Procs[q].Trans) {
				continue
			}
			if a, ok := answers[o.Guess.Site]; ok && a == o.Guess.Answer {
				continue
			}
			c.Procs[q].Trans[t].Op = model.GuardOp(model.C(0))
		}
	}
	return c
}

// confirm checks counterexample r of p, which takes the guesses taken,
// under every combination of their answers (see the comment at the top).
// It returns the counterexample found with the answers r took, none of
// them guessed any more, or a *guessGap.
func (g guarded) confirm(ctx context.Context, p *model.Program, m model.Model, r *engines.Result, taken map[int]*extract.Guess) (*engines.Result, error) {
	s := g.s
	sites := slices.Sorted(maps.Keys(taken))
	gap := &guessGap{reached: s.reachedText(p, r.Trace)}
	combos := 1
	choices := make([][]int64, len(sites))
	for i, site := range sites {
		gap.taken = append(gap.taken, taken[site])
		choices[i] = s.guessAnswers(site)
		combos *= len(choices[i])
	}
	for _, site := range sites {
		if s.guessInLoop(site) {
			gap.taken = []*extract.Guess{taken[site]}
			gap.why = "inside a loop, where Go's answer may change from one round to the next"
			return nil, gap
		}
	}
	if combos > maxGuessCombinations {
		gap.why = fmt.Sprintf("and fencecheck checks at most %d combinations of the other answers", maxGuessCombinations)
		return nil, gap
	}
	found := r // replaced by the search with r's answers, none guessed
	for k := range combos {
		answers := map[int]int64{}
		same := true
		for i, site := range sites {
			answers[site] = choices[i][k%len(choices[i])]
			k /= len(choices[i])
			same = same && answers[site] == taken[site].Answer
		}
		r2, err := g.checkFaults(ctx, s.withAnswers(p, answers), m)
		if err != nil || r2 == nil {
			return r2, err
		}
		switch r2.Status {
		case engines.Unsafe:
			if same {
				found = r2
			}
		case engines.Safe:
			for _, site := range sites {
				ans := *taken[site]
				ans.Answer = answers[site]
				gap.other = append(gap.other, &ans)
			}
			return nil, gap
		default:
			return r2, nil
		}
	}
	return found, nil
}

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

// guessText says, for a Go programmer, the answer g takes: "`v != 5`
// (x.go:12:7) is false".
func (s *system) guessText(g *extract.Guess) string {
	expr := fmt.Sprintf("%s (%s, in %s)", s.exprAt(g.Pos, g.Kind), s.r.short(g.Pos), s.p.Procs[g.Proc].Name)
	switch g.Kind {
	case extract.GuessBool:
		return fmt.Sprintf("%s returns %t", expr, g.Answer == 1)
	case extract.GuessError:
		if g.Answer == 1 {
			return expr + " returns an error"
		}
		return expr + " returns no error"
	case extract.GuessLen:
		return fmt.Sprintf("%s is %d", expr, g.Answer)
	}
	return fmt.Sprintf("%s is %t", expr, g.Answer == 1)
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

// guessesText joins the answers gs take, and says what fencecheck does not
// compute in them.
func (s *system) guessesText(gs []*extract.Guess) string {
	var answers []string
	for _, g := range gs {
		answers = append(answers, s.guessText(g))
	}
	return strings.Join(answers, " and ")
}

// exprAt returns the source of the comparison or call of a guess at pos
// (a binary operator, a call's parenthesis), or "the comparison" or "the
// call" when the file is not the package's.
func (s *system) exprAt(pos token.Pos, kind extract.GuessKind) string {
	for _, f := range s.r.pass.Files {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		path, _ := astutil.PathEnclosingInterval(f, pos, pos)
		for _, n := range path {
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
	}
	if kind == extract.GuessCompare {
		return "the comparison"
	}
	return "the call"
}

// guessGapText is the message of a system stopped by gap.
func (s *system) guessGapText(gap *guessGap) string {
	var ofs []string
	for _, g := range gap.taken {
		if !slices.Contains(ofs, g.Of) {
			ofs = append(ofs, g.Of)
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
