package pred

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/fencecheck/fencecheck/model"
)

// maxSimLeaves bounds the rule choices a symbolic replay explores.
const maxSimLeaves = 4096

// errTooManyChoices ends a symbolic replay with too many rule choices.
var errTooManyChoices = errors.New("too many rule choices")

// simStep is one step of a symbolic replay.
type simStep struct {
	mv  move
	val tid // the value model.Step records, over SSA variables, or -1
}

// simulator replays abstract traces symbolically: control exactly, data as
// terms over SSA variables (the initial values left open and the values
// UPDATE-AM invents), with the path condition as a conjunction.
type simulator struct {
	s  *system
	or *oracle
	// initSSA maps the data variables with an open initial value to their
	// SSA variable.
	initSSA map[dvar]dvar
}

func (sim *simulator) fresh(d dvar, dom model.Domain) dvar {
	_ = d
	sim.s.ssaDom = append(sim.s.ssaDom, dom)
	return dvar{Kind: dSSA, I: int32(len(sim.s.ssaDom) - 1)}
}

// simResult is a feasible symbolic replay with its values.
type simResult struct {
	steps []simStep
	vals  map[dvar]int64
	init  map[dvar]tid
}

// initialEnv gives each data variable of c its initial value: a constant,
// or, for an initial value of "any", a fresh variable, constrained to its
// domain by the returned constraints.
func (sim *simulator) initialEnv(c control) (env map[dvar]tid, domains []tid) {
	s, t := sim.s, sim.s.t
	env = make(map[dvar]tid)
	for _, v := range s.dataVars(c) {
		var in model.Init
		var dom model.Domain
		if v.Kind == dMem {
			in, dom = s.p.Vars[v.I].Init, s.p.Vars[v.I].Dom
		} else {
			r := s.p.Procs[v.P].Regs[v.I]
			in, dom = r.Init, r.Dom
		}
		if in.Any {
			x := sim.fresh(v, dom)
			env[v] = t.Var(x)
			domains = append(domains, t.inDomain(t.Var(x), dom))
		} else {
			env[v] = t.Const(in.Value)
		}
	}
	return env, domains
}

// run replays events under m from the initial configuration. With rules
// set, every step must use the event's rule; otherwise any rule the mode
// offers for the event's transition (or update of the event's variable) is
// tried. Under SC, update events are skipped. bad is the bad state the
// replay must end in, -1 for a fault. It returns nil when no replay is
// feasible.
func (sim *simulator) run(m mode, events []event, bad int, rules bool) (*simResult, error) {
	s, t := sim.s, sim.s.t
	c := s.initial()
	env, path := sim.initialEnv(c)
	init := maps.Clone(env)
	if m.sc {
		events = slices.DeleteFunc(slices.Clone(events), func(e event) bool { return e.trans < 0 })
	}
	leaves := 0
	var steps []simStep
	var rec func(i int, c control, env map[dvar]tid, path []tid) (*simResult, error)
	rec = func(i int, c control, env map[dvar]tid, path []tid) (*simResult, error) {
		if i == len(events) {
			leaves++
			if leaves > maxSimLeaves {
				return nil, errTooManyChoices
			}
			var goal []tid
			if bad < 0 {
				if !c.fault {
					return nil, nil
				}
			} else {
				if c.fault {
					return nil, nil
				}
				for _, pl := range s.p.Bad[bad].Locs {
					if int(c.procs[pl.Proc].loc) != pl.Loc {
						return nil, nil
					}
				}
				if s.badMem[bad] && !c.allEmpty() {
					return nil, nil
				}
				if cond := s.badCond[bad]; cond >= 0 {
					goal = append(goal, t.Subst(cond, func(v dvar) (tid, bool) { return env[v], true }))
				}
			}
			conj := append(slices.Clone(path), goal...)
			var vars []dvar
			for _, x := range conj {
				for _, v := range t.Vars(x) {
					if v.Kind == dSSA && !slices.Contains(vars, v) {
						vars = append(vars, v)
					}
				}
			}
			vals, ok, err := sim.or.model(conj, vars)
			if err != nil || !ok {
				return nil, err
			}
			return &simResult{steps: slices.Clone(steps), vals: vals, init: init}, nil
		}
		if c.fault {
			return nil, nil
		}
		ev := events[i]
		for _, mv := range s.localMoves(m, c.procs[ev.proc], ev.proc) {
			if !ev.matches(&mv, rules) {
				continue
			}
			if m.sc && ev.fault != mv.fault {
				continue
			}
			h := make(map[dvar]tid)
			for _, hv := range mv.havoc {
				h[hv] = t.Var(sim.fresh(hv, s.p.Vars[hv.I].Dom))
			}
			val := func(v dvar) (tid, bool) {
				if x, ok := h[v]; ok {
					return x, true
				}
				x, ok := env[v]
				if !ok {
					panic(fmt.Sprintf("pred: no value for %s in a symbolic replay", dvarName(v)))
				}
				return x, true
			}
			g := t.Subst(mv.guard, val)
			if g == idFalse {
				continue
			}
			np := append(slices.Clone(path), g)
			for hv, x := range h {
				np = append(np, t.inDomain(x, s.p.Vars[hv.I].Dom))
			}
			next := c.with(mv.proc, mv.next)
			next.fault = mv.fault
			nenv := make(map[dvar]tid, len(env))
			if !mv.fault {
				for _, v := range s.dataVars(next) {
					if b, ok := mv.lookup(v); ok {
						nenv[v] = t.Subst(b, val)
					} else {
						nenv[v] = env[v]
					}
				}
			}
			st := simStep{mv: mv, val: -1}
			if mv.val >= 0 {
				st.val = t.Subst(mv.val, val)
			}
			steps = append(steps, st)
			r, err := rec(i+1, next, nenv, np)
			steps = steps[:len(steps)-1]
			if err != nil || r != nil {
				return r, err
			}
		}
		return nil, nil
	}
	return rec(0, c, env, path)
}

// trace builds the concrete trace of a feasible replay under m. With
// flushWrites (an SC replay presented as a TSO trace), every buffered write
// is followed at once by its update.
func (sim *simulator) trace(r *simResult, m model.Model, flushWrites bool) (*model.Trace, error) {
	s, t := sim.s, sim.s.t
	val := func(v dvar) int64 { return r.vals[v] }
	tr := &model.Trace{Model: m, InitMem: make([]int64, len(s.p.Vars)), InitRegs: make([][]int64, len(s.p.Procs))}
	for x := range s.p.Vars {
		tr.InitMem[x] = t.Eval(r.init[dvar{Kind: dMem, I: int32(x)}], val)
	}
	for p, q := range s.p.Procs {
		tr.InitRegs[p] = make([]int64, len(q.Regs))
		for i := range q.Regs {
			tr.InitRegs[p][i] = t.Eval(r.init[dvar{Kind: dReg, P: int32(p), I: int32(i)}], val)
		}
	}
	for _, st := range r.steps {
		step := model.Step{Proc: st.mv.proc, Trans: st.mv.trans, Flush: st.mv.trans < 0, Var: -1}
		if st.val >= 0 {
			step.Var, step.Val = st.mv.x, t.Eval(st.val, val)
		}
		tr.Steps = append(tr.Steps, step)
		if flushWrites && !st.mv.fault && st.mv.trans >= 0 && s.p.Procs[st.mv.proc].Trans[st.mv.trans].Op.Kind == model.Write {
			tr.Steps = append(tr.Steps, model.Step{Proc: st.mv.proc, Trans: -1, Flush: true, Var: step.Var, Val: step.Val})
		}
	}
	if _, err := s.p.Replay(tr); err != nil {
		return nil, fmt.Errorf("internal error: counterexample under %v does not replay: %w", m, err)
	}
	return tr, nil
}

// core replays the moves mvs (from the controls cs) symbolically and
// returns which steps' guards a minimal unsatisfiable core of the path
// formula uses, and the bad condition at the end (over the data variables of
// the last control) if the core uses it, else -1.
func (sim *simulator) core(mvs []move, cs []control, bad int) ([]bool, tid, error) {
	s, t := sim.s, sim.s.t
	var soft []tid
	env, hard := sim.initialEnv(cs[0])
	for i := range mvs {
		mv := &mvs[i]
		h := make(map[dvar]tid)
		for _, hv := range mv.havoc {
			x := t.Var(sim.fresh(hv, s.p.Vars[hv.I].Dom))
			h[hv] = x
			hard = append(hard, t.inDomain(x, s.p.Vars[hv.I].Dom))
		}
		val := func(v dvar) (tid, bool) {
			if x, ok := h[v]; ok {
				return x, true
			}
			return env[v], true
		}
		soft = append(soft, t.Subst(mv.guard, val))
		nenv := make(map[dvar]tid, len(env))
		if !mv.fault {
			for _, v := range s.dataVars(cs[i+1]) {
				if b, ok := mv.lookup(v); ok {
					nenv[v] = t.Subst(b, val)
				} else {
					nenv[v] = env[v]
				}
			}
		}
		env = nenv
	}
	final := tid(-1)
	if bad >= 0 && s.badCond[bad] >= 0 {
		final = s.badCond[bad]
		soft = append(soft, t.Subst(final, func(v dvar) (tid, bool) { return env[v], true }))
	}
	idx, ok, err := sim.or.core(hard, soft)
	if err != nil {
		return nil, -1, err
	}
	need := make([]bool, len(soft))
	if !ok {
		// Not refuted (cannot happen for a trace the replay rejected): keep
		// every guard.
		for i := range need {
			need[i] = true
		}
	}
	for _, i := range idx {
		need[i] = true
	}
	if final >= 0 && !need[len(mvs)] {
		final = -1
	}
	return need[:len(mvs)], final, nil
}

// pathMoves re-derives the moves of an abstract trace under m, following
// its rules, with the control part before each.
func (s *system) pathMoves(m mode, tr *abstractTrace) ([]move, []control, error) {
	c := s.initial()
	var mvs []move
	var cs []control
	for i, ev := range tr.events {
		found := false
		for _, mv := range s.localMoves(m, c.procs[ev.proc], ev.proc) {
			if ev.matches(&mv, true) {
				mvs = append(mvs, mv)
				cs = append(cs, c)
				c = c.with(mv.proc, mv.next)
				c.fault = mv.fault
				found = true
				break
			}
		}
		if !found {
			return nil, nil, fmt.Errorf("internal error: step %d of the abstract counterexample has no move", i+1)
		}
	}
	return mvs, append(cs, c), nil
}

// refine adds predicates that remove the abstract trace tr, which is
// infeasible under m with exact data: the atoms of the weakest
// preconditions of the trace's end along it (the pre-image of the bad
// condition step by step, over the data variables of each step's control
// part), as templates. If the atoms do not remove tr, the preconditions
// themselves do. It reports whether the set grew.
func (e *run) refine(m mode, tr *abstractTrace) (bool, error) {
	s, t := e.s, e.s.t
	mvs, cs, err := s.pathMoves(m, tr)
	if err != nil {
		return false, err
	}
	// Keep only the guards a minimal unsatisfiable core of the path
	// formula needs: the others would only add irrelevant predicates.
	need, final, err := e.sim.core(mvs, cs, tr.bad)
	if err != nil {
		return false, err
	}
	phi := idTrue
	if final >= 0 {
		phi = final
	}
	wps := make([]tid, len(mvs)+1)
	wps[len(mvs)] = phi
	for i := len(mvs) - 1; i >= 0; i-- {
		mv := &mvs[i]
		post := idTrue
		if !mv.fault {
			post = t.Subst(phi, mv.lookup)
		}
		g := idTrue
		if need[i] {
			g = mv.guard
		}
		phi = t.And(g, post)
		if len(mv.havoc) > 0 {
			// ∃h ∈ dom(x). φ: the invented value is a value of x.
			in := []tid{phi}
			for _, h := range mv.havoc {
				in = append(in, t.inDomain(t.Var(h), s.p.Vars[h.I].Dom))
			}
			phi = e.eliminate(mv.havoc, t.And(in...))
		}
		wps[i] = phi
	}
	grew := false
	for i, w := range wps {
		for _, a := range t.Atoms(w, nil) {
			if e.ps.add(e.ps.template(cs[i], a)) {
				grew = true
			}
		}
	}
	still, err := newAbstraction(s, e.ps, m, e.or).replay(tr)
	if err != nil || !still {
		return grew, err
	}
	for i, w := range wps {
		if e.ps.add(e.ps.template(cs[i], w)) {
			grew = true
		}
	}
	return grew, nil
}

// eliminate returns ∃vs. x without vs: by quantifier elimination when the
// result is in the term language, else by dropping the conjuncts that
// mention vs (a weaker formula, which only costs precision).
func (e *run) eliminate(vs []dvar, x tid) tid {
	t := e.s.t
	mentions := func(y tid) bool {
		for _, v := range t.Vars(y) {
			if slices.Contains(vs, v) {
				return true
			}
		}
		return false
	}
	if !mentions(x) {
		return x
	}
	if y, ok, err := e.or.eliminate(vs, x); err == nil && ok && !mentions(y) {
		return y
	}
	var keep []tid
	for _, c := range t.conjuncts(x) {
		if !mentions(c) {
			keep = append(keep, c)
		}
	}
	return t.And(keep...)
}

// seed adds the first predicates: the atoms of guards, of required read
// values and of bad-state conditions.
func (e *run) seed() error {
	s, t := e.s, e.s.t
	c := s.initial()
	add := func(x tid) {
		for _, a := range t.Atoms(x, nil) {
			e.ps.add(e.ps.template(c, a))
		}
	}
	for _, cond := range s.badCond {
		if cond >= 0 {
			add(cond)
		}
	}
	for p, q := range s.p.Procs {
		reg := func(r model.RegRef) tid { return t.Var(dvar{Kind: dReg, P: int32(p), I: int32(r.Reg)}) }
		mem := func(x int) tid { return t.Var(dvar{Kind: dMem, I: int32(x)}) }
		var visit func(op model.Op) error
		visit = func(op model.Op) error {
			switch op.Kind {
			case model.Guard:
				g, err := t.fromCond(op.Expr, reg, mem)
				if err != nil {
					return err
				}
				add(g)
			case model.Read:
				if op.Expr != nil {
					want, err := t.fromExpr(op.Expr, reg, mem)
					if err != nil {
						return err
					}
					add(t.Eq(mem(op.Var), want))
				}
			case model.Locked:
				for _, b := range op.Body {
					if err := visit(b); err != nil {
						return err
					}
				}
			}
			return nil
		}
		for _, tr := range q.Trans {
			if err := visit(tr.Op); err != nil {
				return err
			}
		}
	}
	return nil
}
