package coherence

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

// TestCoversConcrete checks the abstractions' soundness state by state:
// every concrete state that a search of the concrete semantics (package
// model, buffers bounded at 3 stores) reaches must be represented by an
// abstract state the engine reaches, on the hand-checked programs, two of
// the benchmarks and generated programs, under TSO and PSO, for every
// abstraction (store-store fences included, whose epochs after the second
// are kept apart here only by programs that do not need it). A concrete buffer is represented by an
// abstract one with the same newest store of each variable whose head is
// a prefix of the buffer's first k stores and whose set holds the pairs
// of the rest: exactly (Set, FD) or among others (PD).
func TestCoversConcrete(t *testing.T) {
	n := longtest.Size(4, 60)
	limit := longtest.Size(20_000, 100_000) // abstract states per search
	rng := rand.New(rand.NewPCG(5, 8))
	abstractions := []Abstraction{{Set, 0}, {FD, 0}, {FD, 1}, {FD, 2}, {PD, 0}, {PD, 1}}
	checked, skipped := 0, 0
	var progs []*model.Program
	for _, f := range []string{"testdata/fig6.rmm", "testdata/three.rmm", "testdata/own.rmm", "testdata/mp_ssfence.rmm", "testdata/mp_nofence.rmm", "../../testdata/coherence/pet0.rmm", "../../testdata/coherence/sense0.rmm"} {
		p, err := modelfile.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, p)
	}
	for i := range n {
		if i%2 == 0 {
			progs = append(progs, progen.Simple(rng))
		} else {
			progs = append(progs, progen.Symmetric(rng))
		}
	}
	for i, p := range progs {
		p.Bad = nil
		p.Index()
		for _, m := range []model.Model{model.TSO, model.PSO} {
			concrete := reachable(p, m, 3, 2500)
			for _, a := range abstractions {
				s := newSearch(p, m, a, int64(limit), nil)
				s.exhaust = true
				reason, err := s.run(context.Background())
				if err != nil {
					t.Fatalf("program %d under %v with %s: %v", i, m, a, err)
				}
				if reason != "" {
					skipped++
					continue
				}
				ids := make(map[string]int, s.visited.Len())
				for id := range s.visited.Len() {
					ids[string(s.visited.Key(id))] = id
				}
				for _, c := range concrete {
					if !s.covers(c, ids) {
						t.Fatalf("program %d under %v with %s: the concrete state\n  locs %v regs %v mem %v buffers %s\nhas no abstract state", i, m, a, c.Locs, c.Regs, c.Mem, p.FormatBuffers(c))
					}
					checked++
				}
			}
		}
	}
	t.Logf("%d concrete states covered; %d searches beyond %d abstract states left out", checked, skipped, limit)
	if checked == 0 {
		t.Error("no concrete state checked")
	}
}

// reachable returns up to limit states of p under m reachable with
// buffers of at most bound stores (faulting states left out).
func reachable(p *model.Program, m model.Model, bound, limit int) []model.State {
	var out, queue []model.State
	seen := map[string]bool{}
	add := func(st model.State) {
		if st.Fault != nil || len(seen) >= limit {
			return
		}
		k := string(st.AppendKey(nil))
		if !seen[k] {
			seen[k] = true
			queue = append(queue, st)
			out = append(out, st)
		}
	}
	if err := p.Initial(add); err != nil {
		return nil
	}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		p.Successors(st, m, bound, func(_ model.Step, ns model.State) { add(ns) })
	}
	return out
}

// covers reports whether some abstract state of the finished search s
// (ids maps its keys to their ids) represents the concrete state c.
func (s *search) covers(c model.State, ids map[string]int) bool {
	base := astate{locs: c.Locs, regs: c.Regs, mem: c.Mem, ch: make([]*channel, s.nch)}
	seqs := make([][]int32, s.nch) // each buffer's stores, oldest first
	if s.perVar {
		base.sealed = make([]bool, len(s.p.Procs))
	}
	for i, buf := range c.Bufs {
		later := false
		for _, e := range buf {
			if e.Var == model.Barrier {
				later, base.sealed[i] = true, true
				continue
			}
			ci := i
			if s.perVar {
				nv := len(s.p.Vars)
				ci = 2*nv*i + e.Var
				if later {
					ci += nv
				}
			}
			seqs[ci] = append(seqs[ci], s.pair(e.Var, e.Val))
		}
	}
	s.canon(&base)
	// The choices of head length of each non-empty buffer.
	var open []int
	for ci, seq := range seqs {
		if len(seq) > 0 {
			open = append(open, ci)
		}
	}
	choice := make([]int, len(open))
	for {
		st := base
		st.ch = slices.Clone(base.ch)
		for k, ci := range open {
			st.ch[ci] = s.abstractBuffer(seqs[ci], choice[k])
		}
		if s.represented(&st, ids) {
			return true
		}
		// The next choice, as an odometer over 0..min(K, len).
		k := 0
		for ; k < len(open); k++ {
			if choice[k] < min(s.abs.K, len(seqs[open[k]])) && s.abs.Kind != Set {
				choice[k]++
				break
			}
			choice[k] = 0
		}
		if k == len(open) {
			return false
		}
	}
}

// abstractBuffer is the abstract buffer of the stores seq (oldest first)
// with the first t of them in its head.
func (s *search) abstractBuffer(seq []int32, t int) *channel {
	c := &channel{}
	for _, e := range seq[t:] {
		c.set = insertSorted(c.set, e)
	}
	if s.abs.Kind == Set {
		return c
	}
	c.head = slices.Clone(seq[:t])
	for _, e := range seq {
		c.last = s.setLast(c.last, e)
	}
	return c
}

// represented reports whether st is an abstract state of s: its key is,
// and under PD its sets lie within the joined ones.
func (s *search) represented(st *astate, ids map[string]int) bool {
	id, ok := ids[string(s.encode(nil, st))]
	if !ok {
		return false
	}
	if !s.joined {
		return true
	}
	got := s.decode(s.visited.Key(id), s.sets[id])
	for ci := range st.ch {
		for _, e := range st.channel(ci).set {
			if !slices.Contains(got.channel(ci).set, e) {
				return false
			}
		}
	}
	return true
}
