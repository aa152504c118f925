package extract

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/internal/graph"
	"github.com/fencecheck/fencecheck/model"
)

// The clock.
//
// time.Now() reads the system's clock: a shared variable that starts at 1
// and that a process of its own, clock, advances one tick at a time, at any
// moment, up to clockTicks, with atomic stores; a reading is an atomic load
// that orders nothing else (reading the time synchronises nothing in Go,
// and the clock process touches no other memory). So every reading is
// any value not smaller than one read before it by any goroutine, and
// time may also stand still. A time.Time is its reading (0 is the zero
// Time), in registers and in memory alike (a field of type time.Time is
// one integer cell); t.Add(d) with a constant d, a deadline, is the reading
// moved by d. A tick is any positive amount of time: t.Sub(u),
// time.Since(t) and time.Until(t) are durations of a whole number of ticks
// plus a constant, compared with constants as all of their values may be
// (time.Since(start) > timeout is false while no tick has passed since
// start, and either once one has); t.Before(u), t.After(u), t.Equal(u)
// and t.IsZero() compare readings. Nothing else of such a duration is
// modelled (it counts ticks, not nanoseconds). The set-up reads the clock
// before any tick: 1.

// clockMax bounds the clock's last reading, and minTicks is the fewest
// ticks it may advance by: time advances once more than there are sites
// that read the clock in the goroutines' code, at least minTicks and at
// most clockMax-1 times in a run (clockTicks), so that readings at
// different sites can all differ.
const (
	clockMax = 8
	minTicks = 2
)

// maxClockReadings is the most readings outside loops that one run can
// make with all of them different: clockMax readings, one of them the
// set-up's when it reads the clock.
func (s *system) maxClockReadings() int {
	if s.setupReadsClock {
		return clockMax - 1
	}
	return clockMax
}

// clockVal is a time value the model keeps as ticks: a duration (dur) of
// tick ticks plus off nanoseconds, or a time.Time moved by a constant
// (tick the reading, off the constant).
type clockVal struct {
	tick model.Expr
	off  int64
	dur  bool
	// offE, when set, is more of the offset, known only at run time: a
	// duration a goroutine loaded (t.Add(b.timeout)).
	offE model.Expr
	// inf, when set, is, for a duration between two times one of which
	// may be the zero Time (year 1) and the other a reading, 1 when it is
	// after the zero Time by more than any Duration (Go saturates
	// time.Since(time.Time{}) at the largest one), -1 when before, and 0
	// otherwise (zeroSign).
	inf model.Expr
	// nanos marks the Unix nanoseconds of a time (nanos.go), and word,
	// when set, is the word memory holds for it, as loaded.
	nanos bool
	word  model.Expr
	// reading marks a time that is certainly a reading of the clock
	// (time.Now(), moved by a constant), never the zero Time; epoch marks
	// a duration between nanoseconds of times (nanos.go), which a
	// comparison takes only with constants below nanosLimit.
	reading, epoch bool
}

// offset is the whole offset of c: off, plus offE.
func (c clockVal) offset() model.Expr {
	if c.offE == nil {
		return model.C(c.off)
	}
	if c.off == 0 {
		return c.offE
	}
	return model.Bin(model.OpAdd, model.C(c.off), c.offE)
}

// addOffsets returns the sum of two run-time offsets, either of them nil
// for none, negated by neg for the second.
func addOffsets(a, b model.Expr, neg bool) model.Expr {
	switch {
	case b == nil:
		return a
	case neg && a == nil:
		return model.Bin(model.OpSub, model.C(0), b)
	case neg:
		return model.Bin(model.OpSub, a, b)
	case a == nil:
		return b
	}
	return model.Bin(model.OpAdd, a, b)
}

// subTicks is a - b, folded when both are constants.
func subTicks(a, b model.Expr) model.Expr {
	if ca, ok := a.(model.Const); ok {
		if cb, ok := b.(model.Const); ok {
			return model.C(ca.Value - cb.Value)
		}
	}
	return model.Bin(model.OpSub, a, b)
}

// isTime reports whether t is time.Time.
func isTime(t types.Type) bool { return isNamed(t, "time", "Time") }

// timeOp names a function or method of package time that the clock
// models, or returns "".
func timeOp(fn *ssa.Function) string {
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "time" {
		return ""
	}
	name := fn.Name()
	if recv := fn.Signature.Recv(); recv != nil {
		if !isTime(deref(recv.Type())) {
			return ""
		}
		switch name {
		case "Sub", "Add", "Before", "After", "Equal", "IsZero", "UnixNano":
			return "Time." + name
		}
		return ""
	}
	switch name {
	case "Now", "Since", "Until":
		return name
	}
	return ""
}

// timeBase is the factor of a moved time's offset id in the word memory
// keeps for it: tick + timeBase*id, with every tick below timeBase.
// maxTimeOffsets bounds the distinct offsets a system keeps.
const (
	timeBase       = 16
	maxTimeOffsets = 8
)

// timeWord returns the word memory keeps for v, a time.Time moved by a
// constant (a deadline, time.Now().Add(ttl)): its reading plus timeBase
// times the id of the offset, interned per system (another round reads
// the words once a round meets a new offset). ok is false for other values.
func (s *system) timeWord(v value, pos token.Pos) (model.Expr, bool) {
	if v.clock != nil && v.clock.word != nil {
		return v.clock.word, true
	}
	if v.clock == nil || v.clock.dur || v.clock.offE != nil {
		return nil, false
	}
	if v.clock.off == 0 {
		return v.clock.tick, true
	}
	id := slices.Index(s.heap.timeOffsets, v.clock.off) + 1
	if id == 0 {
		if len(s.heap.timeOffsets) >= maxTimeOffsets {
			s.unsupported(pos, "more than %d different amounts of time added to the readings kept in memory", maxTimeOffsets)
		}
		s.heap.timeOffsets = append(s.heap.timeOffsets, v.clock.off)
		id = len(s.heap.timeOffsets)
	}
	if !slices.Contains(s.heap.hint.timeOffsets, v.clock.off) {
		s.heapChange("a moved time.Time is kept in memory")
	}
	w := model.Expr(model.Bin(model.OpAdd, v.clock.tick, model.C(int64(timeBase*id))))
	if c, ok := v.clock.tick.(model.Const); ok {
		w = model.C(c.Value + int64(timeBase*id))
	}
	return w, true
}

// wordClock decodes a word of memory that holds a time.Time (timeWord):
// its reading, and the offset its id names.
func (s *system) wordClock(e model.Expr) clockVal {
	offs := s.heap.hint.timeOffsets
	if len(offs) == 0 {
		return clockVal{tick: e}
	}
	if c, ok := e.(model.Const); ok {
		cv := clockVal{tick: model.C(c.Value % timeBase)}
		if id := c.Value / timeBase; id > 0 && int(id) <= len(offs) {
			cv.off = offs[id-1]
		}
		return cv
	}
	id := model.Bin(model.OpDiv, e, model.C(timeBase))
	var off model.Expr = model.C(0)
	for k, o := range offs {
		off = model.Bin(model.OpAdd, off, model.Bin(model.OpMul, model.Bin(model.OpEq, id, model.C(int64(k+1))), model.C(o)))
	}
	return clockVal{tick: model.Bin(model.OpMod, e, model.C(timeBase)), offE: off}
}

// clockOf returns what the model keeps of v, a value of type time.Time:
// its reading and the constant it was moved by.
func (s *system) clockOf(v value, pos token.Pos) clockVal {
	switch {
	case v.clock != nil && !v.clock.dur:
		return *v.clock
	case v.kind == vInt:
		return s.wordClock(v.e)
	case v.kind == vAgg && len(v.agg) == 0:
		return clockVal{tick: model.C(0)} // the zero Time
	}
	s.unsupported(pos, "a time.Time that is not a reading of time.Now (%s)", describe(v))
	return clockVal{}
}

// timeValue is a time.Time of reading tick moved by off and offE.
func timeValue(tick model.Expr, off int64, offE model.Expr) value {
	if off == 0 && offE == nil {
		return intVal(tick)
	}
	v := opaque("a time.Time moved by Add, which only Before, After, Equal, Sub, Since and Until take (memory keeps it when it is moved by a constant; store the reading, and add a duration known only at run time where it is compared)")
	v.clock = &clockVal{tick: tick, off: off, offE: offE}
	return v
}

// durValue is a duration of tick ticks plus off and offE.
func durValue(tick model.Expr, off int64, offE model.Expr) value {
	if c, ok := tick.(model.Const); ok && c.Value == 0 {
		if offE == nil {
			return constVal(off)
		}
		return intVal(clockVal{off: off, offE: offE}.offset())
	}
	v := opaque("a duration measured on the clock, in ticks of any length: only comparisons with constants and durations the goroutine loaded are modelled")
	v.clock = &clockVal{tick: tick, off: off, offE: offE, dur: true}
	return v
}

// clockVar returns the clock's variable, and makes it with its process the
// first time.
func (s *system) clockVar(pos token.Pos) int {
	if s.clock == 0 {
		s.clock = 1 + s.newChanVar("time.Now", types.Typ[types.Int64], 1, pos)
		s.clockPos = pos
	}
	return s.clock - 1
}

// addClock adds the process that advances the clock, when something reads
// it; emitClockTicks gives it its steps once every process is lowered.
func (s *system) addClock() {
	if s.clock == 0 {
		return
	}
	s.clockProc = s.newProc("clock")
	s.clockProc.q.Init = s.clockProc.newLoc(s.clockPos)
	s.spawns = append(s.spawns, s.clockPos)
}

// emitClockTicks gives the clock's process its ticks: one more than the
// readings one run of the goroutines can make (so that they can all
// differ), at least minTicks and at most clockMax-1. A reading that may
// repeat (in a loop of the Go code, or on a cycle of its process) takes
// every tick. A reading that could be one more than the clock can make
// differ (counting its process's readings on the way to it and every other
// process's most) is refused where a run reaches it.
func (s *system) emitClockTicks() {
	if s.clockProc == nil {
		return
	}
	x := s.clock - 1
	isReading := func(op model.Op) bool { return readsVar(op, x) }
	before := make([][]int, len(s.procs))
	most := make([]int, len(s.procs))
	reads, repeats := 0, s.clockInLoop
	for i, p := range s.procs {
		var cyc bool
		before[i], cyc = stepsBefore(p.q, isReading)
		most[i] = slices.Max(before[i])
		reads += most[i]
		repeats = repeats || cyc
	}
	if repeats {
		reads += clockMax
	} else if reads > s.maxClockReadings() {
		for i, p := range s.procs {
			others := reads - most[i]
			for ti, t := range p.q.Trans {
				if isReading(t.Op) && before[i][t.From] >= 0 && others+before[i][t.From]+1 > s.maxClockReadings() {
					// More readings than the clock can give: they
					// could not all differ.
					p.refuseTransition(ti, fmt.Sprintf("more than %d readings of the clock outside loops (fencecheck's clock ticks at most %d times)", s.maxClockReadings(), clockMax-1), p.clockReadAt[t.To])
				}
			}
		}
	}
	ticks := int64(min(max(reads+1, minTicks), clockMax-1)) + 1
	p := s.clockProc
	cur := p.q.Init
	for t := int64(2); t <= ticks; t++ {
		cur = p.emit(cur, model.LockedOp(model.WriteOp(x, model.C(t))), s.clockPos, Origin{})
	}
}

// readsVar reports whether op reads variable x, itself or in a locked
// body.
func readsVar(op model.Op, x int) bool {
	if op.Kind == model.Read && op.Var == x {
		return true
	}
	return slices.ContainsFunc(op.Body, func(b model.Op) bool { return readsVar(b, x) })
}

// stepsBefore returns, for each location of q, the most steps marked by
// marked along one path to it from q's initial location (-1 where no path
// reaches), and whether a marked step lies on a cycle (its count is then
// unbounded, and the counts take each such step once). It follows the
// automaton's strongly connected components from the initial location's
// on, each before those it reaches.
func stepsBefore(q *model.Process, marked func(model.Op) bool) (before []int, cyclic bool) {
	out := make([][]int, len(q.Locs)) // transitions by source
	succ := make([][]int, len(q.Locs))
	for i, t := range q.Trans {
		out[t.From] = append(out[t.From], i)
		succ[t.From] = append(succ[t.From], t.To)
	}
	comps := graph.Components(succ) // sinks first
	comp := make([]int, len(q.Locs))
	for c, vs := range comps {
		for _, v := range vs {
			comp[v] = c
		}
	}
	at := make([]int, len(comps)) // the most marked steps on the way into each component
	for c := range at {
		at[c] = -1
	}
	at[comp[q.Init]] = 0
	for c := len(comps) - 1; c >= 0; c-- {
		for _, v := range comps[c] {
			for _, ti := range out[v] {
				t := q.Trans[ti]
				w := 0
				if marked(t.Op) {
					w = 1
				}
				if comp[t.To] == c {
					cyclic = cyclic || w == 1 && at[c] >= 0
				} else if at[c] >= 0 {
					at[comp[t.To]] = max(at[comp[t.To]], at[c]+w)
				}
			}
		}
	}
	before = make([]int, len(q.Locs))
	for v := range before {
		before[v] = at[comp[v]]
	}
	return before, cyclic
}

// readClock lowers a reading of the clock by a process into a new register.
func (p *proc) readClock(pos token.Pos, cur int) (model.Expr, int) {
	x := p.s.clockVar(pos)
	if p.at.b != nil && inLoop(p.at.fr, p.at.b) {
		p.s.clockInLoop = true
	}
	r := p.newReg("now", types.Typ[types.Int64])
	cur = p.emit(cur, model.AtomicReadOp(x, r), pos, Origin{})
	if p.clockReadAt == nil {
		p.clockReadAt = map[int]token.Pos{}
	}
	p.clockReadAt[cur] = pos
	return model.R(r), cur
}

// timeCall lowers a call of package time that the clock models by a
// process; ok is false for other calls.
func (p *proc) timeCall(fr *frame, in *ssa.Call, fn *ssa.Function, args []value, cur int) (int, bool) {
	s := p.s
	op := timeOp(fn)
	if op == "" {
		return 0, false
	}
	pos := in.Pos()
	if op == "Time.Add" && len(in.Call.Args) == 2 {
		if _, isConst := args[1].constant(); !isConst {
			s.requestReadOnly(in.Call.Args[1])
		}
	}
	now := func() model.Expr {
		var e model.Expr
		e, cur = p.readClock(pos, cur)
		return e
	}
	v, ok := s.timeResult(op, args, now, pos)
	if !ok {
		return 0, false
	}
	if v.cmp != nil {
		return p.clockCompare(fr, in, *v.cmp, cur), true
	}
	fr.vals[in] = v.v
	return cur, true
}

// timeRes is the result of a call of package time: a value, or a
// comparison of a duration with a constant that timeCall lowers.
type timeRes struct {
	v   value
	cmp *durCmp
}

// durCmp compares the duration x with the constant k by op.
type durCmp struct {
	x  clockVal
	op token.Token
	k  int64
	// kE, when set, is what is compared instead of k: a duration known
	// only at run time.
	kE model.Expr
}

// timeResult evaluates a call of package time op with args; now reads the
// clock. ok is false when op is not modelled, or a time.Time it takes is
// none of the clock's (time.Unix's result): then the call is one that
// cannot touch the system (calls.go), whose results are not computed.
func (s *system) timeResult(op string, args []value, now func() model.Expr, pos token.Pos) (timeRes, bool) {
	for _, a := range args {
		if a.kind == vOpaque && a.clock == nil {
			return timeRes{}, false
		}
	}
	switch op {
	case "Now":
		// A reading, not a word of memory that wordClock decodes.
		e := now()
		return timeRes{v: value{kind: vInt, e: e, clock: &clockVal{tick: e, reading: true}}}, true
	case "Since":
		t := s.clockOf(args[0], pos)
		return timeRes{v: withInf(durValue(subTicks(now(), t.tick), -t.off, addOffsets(nil, t.offE, true)), zeroSign(model.C(1), t.tick))}, true
	case "Until":
		t := s.clockOf(args[0], pos)
		return timeRes{v: withInf(durValue(subTicks(t.tick, now()), t.off, t.offE), zeroSign(t.tick, model.C(1)))}, true
	case "Time.Sub":
		a, b := s.clockOf(args[0], pos), s.clockOf(args[1], pos)
		return timeRes{v: withInf(durValue(subTicks(a.tick, b.tick), a.off-b.off, addOffsets(a.offE, b.offE, true)), zeroSign(a.tick, b.tick))}, true
	case "Time.Add":
		t := s.clockOf(args[0], pos)
		if d, isConst := args[1].constant(); isConst {
			v := timeValue(t.tick, t.off+d, t.offE)
			if v.clock != nil {
				v.clock.reading = t.reading
			}
			return timeRes{v: v}, true
		}
		if args[1].kind != vInt {
			s.unsupported(pos, "t.Add(d) with a d that is %s", describe(args[1]))
		}
		return timeRes{v: timeValue(t.tick, t.off, addOffsets(t.offE, args[1].e, false))}, true
	case "Time.UnixNano":
		return timeRes{v: s.unixNano(s.clockOf(args[0], pos), pos)}, true
	case "Time.IsZero":
		if args[0].kind == vInt {
			// A word of memory or a reading: the zero Time is 0.
			if c, ok := args[0].constant(); ok {
				return timeRes{v: constVal(b2i(c == 0))}, true
			}
			return timeRes{v: intVal(model.Bin(model.OpEq, args[0].e, model.C(0)))}, true
		}
		t := s.clockOf(args[0], pos)
		if t.off != 0 || t.offE != nil {
			// A moved reading: time.Now() is never the zero Time, and
			// the zero Time moved is not either.
			return timeRes{v: constVal(0)}, true
		}
		if c, ok := t.tick.(model.Const); ok {
			return timeRes{v: constVal(b2i(c.Value == 0))}, true
		}
		return timeRes{v: intVal(model.Bin(model.OpEq, t.tick, model.C(0)))}, true
	case "Time.Before", "Time.After", "Time.Equal":
		a, b := s.clockOf(args[0], pos), s.clockOf(args[1], pos)
		cmp := map[string]token.Token{"Time.Before": token.LSS, "Time.After": token.GTR, "Time.Equal": token.EQL}[op]
		return timeRes{cmp: &durCmp{x: clockVal{tick: subTicks(a.tick, b.tick), off: a.off - b.off, offE: addOffsets(a.offE, b.offE, true), dur: true, inf: zeroSign(a.tick, b.tick)}, op: cmp}}, true
	}
	return timeRes{}, false
}

// setupTimeCall evaluates a call of package time that the clock models in
// the set-up, which reads the clock before its first tick.
func (s *system) setupTimeCall(fn *ssa.Function, args []value, pos token.Pos) (value, bool) {
	op := timeOp(fn)
	if op == "" {
		return value{}, false
	}
	v, ok := s.timeResult(op, args, func() model.Expr {
		s.clockVar(pos)
		s.setupReadsClock = true
		return model.C(1)
	}, pos)
	if !ok {
		return value{}, false
	}
	if v.cmp != nil {
		return s.constCompare(*v.cmp, pos), true
	}
	return v.v, true
}

// zeroSign is the inf of the duration a - b between the readings a and b
// (clockVal.inf): 1 when only b is the zero Time's, -1 when only a is, 0
// otherwise; nil when neither can be (a reading of time.Now is at least
// 1).
func zeroSign(a, b model.Expr) model.Expr {
	isZero := func(e model.Expr) model.Expr {
		if c, ok := e.(model.Const); ok {
			return model.C(b2i(c.Value == 0))
		}
		return model.Bin(model.OpEq, e, model.C(0))
	}
	za, zb := isZero(a), isZero(b)
	if za == model.C(0) && zb == model.C(0) {
		return nil
	}
	if ca, ok := za.(model.Const); ok {
		if cb, ok := zb.(model.Const); ok {
			return model.C(cb.Value*(1-ca.Value) - ca.Value*(1-cb.Value))
		}
	}
	return model.Bin(model.OpSub, model.Bin(model.OpAnd, zb, model.Not(za)), model.Bin(model.OpAnd, za, model.Not(zb)))
}

// withInf sets the inf of v, a duration on the clock.
func withInf(v value, inf model.Expr) value {
	if inf == nil || v.clock == nil {
		return v
	}
	c := *v.clock
	c.inf = inf
	v.clock = &c
	return v
}

// infTruth is the outcome of a comparison op of a duration beyond every
// Duration, of sign sign, with any constant.
func infTruth(op token.Token, sign int64) bool {
	t, _ := compare(op, float64(sign), 0)
	return t
}

// constCompare decides a comparison of a duration whose ticks are known.
func (s *system) constCompare(c durCmp, pos token.Pos) value {
	s.checkEpochBound(c, pos)
	if inf, ok := c.x.inf.(model.Const); ok && inf.Value != 0 {
		return constVal(b2i(infTruth(c.op, inf.Value)))
	}
	d, ok := c.x.tick.(model.Const)
	if !ok || c.x.offE != nil || c.kE != nil {
		s.unsupported(pos, "a duration the set-up cannot compute")
	}
	truths := durTruths(d.Value, c.op, c.k-c.x.off)
	if len(truths) != 1 {
		s.unsupported(pos, "a comparison of a duration the set-up cannot decide")
	}
	return constVal(b2i(truths[0]))
}

// durTruths returns the outcomes of v op k for the values v of a duration
// of sign (the sign of its ticks: any positive amount of time for a
// positive one).
func durTruths(sign int64, op token.Token, k int64) []bool {
	kf := float64(k)
	var vs []float64
	switch {
	case sign == 0:
		vs = []float64{0}
	case sign > 0 && k > 0:
		vs = []float64{kf / 2, kf, 2 * kf}
	case sign > 0:
		vs = []float64{1}
	case k < 0:
		vs = []float64{2 * kf, kf, kf / 2}
	default:
		vs = []float64{-1}
	}
	var out []bool
	seen := map[bool]bool{}
	for _, v := range vs {
		r, _ := compare(op, v, kf)
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}

// clockBinop intercepts a comparison of a duration measured on the clock
// with a constant; ok is false for any other binary operation. It returns
// the comparison for clockCompare.
func (s *system) clockBinop(fr *frame, in *ssa.BinOp) (durCmp, bool) {
	x, y := s.get(fr, in.X), s.get(fr, in.Y)
	op := in.Op
	if y.clock != nil && y.clock.dur {
		x, y = y, x
		op = map[token.Token]token.Token{token.LSS: token.GTR, token.GTR: token.LSS, token.LEQ: token.GEQ,
			token.GEQ: token.LEQ, token.EQL: token.EQL, token.NEQ: token.NEQ}[op]
	}
	if x.clock == nil || !x.clock.dur {
		return durCmp{}, false
	}
	k, isConst := y.constant()
	if op == token.ILLEGAL || !isConst && y.kind != vInt {
		s.unsupported(in.Pos(), "%s %s %s: a duration measured on the clock is only compared with constants and durations a goroutine loaded", s.x.valueName(fr.fn, in.X), in.Op, s.x.valueName(fr.fn, in.Y))
	}
	if !isConst {
		return durCmp{x: *x.clock, op: op, kE: y.e}, true
	}
	return durCmp{x: *x.clock, op: op, k: k}, true
}

// clockCompare lowers, from cur, the comparison c into the value of v:
// its outcomes for each sign of the duration's ticks, each a step.
func (p *proc) clockCompare(fr *frame, v ssa.Value, c durCmp, cur int) int {
	p.s.checkEpochBound(c, v.Pos())
	if c.x.epoch && c.kE != nil {
		// A bound known only at run time: a run where it is beyond
		// nanosLimit is refused.
		far := model.Bin(model.OpOr, model.Bin(model.OpGe, c.kE, model.C(nanosLimit)), model.Bin(model.OpLe, c.kE, model.C(-nanosLimit)))
		p.refuseAt(p.emit(cur, model.GuardOp(far), v.Pos(), Origin{}), "comparing nanoseconds of a time (t.UnixNano()) with an integer of 2^60 or more", v.Pos())
		cur = p.emit(cur, model.GuardOp(model.Not(far)), v.Pos(), Origin{})
	}
	if c.x.offE != nil || c.kE != nil {
		return p.clockCompareAt(fr, v, c, cur)
	}
	x, op, k := c.x, c.op, c.k
	pos := v.Pos()
	r := p.newReg(p.regName(fr, v), types.Typ[types.Bool])
	p.holds(r, fr, v)
	fr.vals[v] = intVal(model.R(r))
	next := p.newLoc(pos)
	if cur = p.infCompare(c, r, next, pos, cur); cur < 0 {
		return next
	}
	for _, sign := range []struct {
		op model.BinOp
		s  int64
	}{{model.OpLt, -1}, {model.OpEq, 0}, {model.OpGt, 1}} {
		g := p.emit(cur, model.GuardOp(model.Bin(sign.op, x.tick, model.C(0))), pos, Origin{})
		for _, t := range durTruths(sign.s, op, k-x.off) {
			p.emitTo(g, model.AssignOp(r, model.C(b2i(t))), next, pos, Origin{})
		}
	}
	return next
}

// infCompare emits, from cur, the outcomes into r of the comparison c of a
// duration beyond every Duration (its inf not 0), joining at next, and
// returns where the comparison of a finite one goes on (-1: nowhere).
func (p *proc) infCompare(c durCmp, r, next int, pos token.Pos, cur int) int {
	switch inf := c.x.inf.(type) {
	case nil:
		return cur
	case model.Const:
		if inf.Value == 0 {
			return cur
		}
		p.emitTo(cur, model.AssignOp(r, model.C(b2i(infTruth(c.op, inf.Value)))), next, pos, Origin{})
		return -1
	}
	for _, sign := range []int64{1, -1} {
		g := p.emit(cur, model.GuardOp(model.Bin(model.OpEq, c.x.inf, model.C(sign))), pos, Origin{})
		p.emitTo(g, model.AssignOp(r, model.C(b2i(infTruth(c.op, sign)))), next, pos, Origin{})
	}
	return p.emit(cur, model.GuardOp(model.Bin(model.OpEq, c.x.inf, model.C(0))), pos, Origin{})
}

// clockCompareAt lowers a comparison c whose offset or bound is known only
// at run time: ticks + offset op bound, with k' = bound - offset. With no
// tick, the comparison offset op bound itself. With ticks of one sign, any
// amount of time of that sign: either outcome where k' lies on that side
// of 0, and the one outcome of a value beyond k' where it does not.
func (p *proc) clockCompareAt(fr *frame, v ssa.Value, c durCmp, cur int) int {
	pos := v.Pos()
	r := p.newReg(p.regName(fr, v), types.Typ[types.Bool])
	p.holds(r, fr, v)
	fr.vals[v] = intVal(model.R(r))
	bound := c.kE
	if bound == nil {
		bound = model.C(c.k)
	}
	kk := model.Bin(model.OpSub, bound, c.x.offset())
	next := p.newLoc(pos)
	if cur = p.infCompare(c, r, next, pos, cur); cur < 0 {
		return next
	}
	ops := map[token.Token]model.BinOp{token.LSS: model.OpLt, token.LEQ: model.OpLe, token.GTR: model.OpGt,
		token.GEQ: model.OpGe, token.EQL: model.OpEq, token.NEQ: model.OpNe}
	g := p.emit(cur, model.GuardOp(model.Bin(model.OpEq, c.x.tick, model.C(0))), pos, Origin{})
	p.emitTo(g, model.AssignOp(r, model.Bin(ops[c.op], model.C(0), kk)), next, pos, Origin{})
	for _, sign := range []struct {
		tick, side model.BinOp
		beyond     int64 // the sign of a value beyond k'
	}{{model.OpGt, model.OpGt, 1}, {model.OpLt, model.OpLt, -1}} {
		ticks := model.Bin(sign.tick, c.x.tick, model.C(0))
		both := p.emit(cur, model.GuardOp(model.Bin(model.OpAnd, ticks, model.Bin(sign.side, kk, model.C(0)))), pos, Origin{})
		p.emitTo(both, model.AssignOp(r, model.C(0)), next, pos, Origin{})
		p.emitTo(both, model.AssignOp(r, model.C(1)), next, pos, Origin{})
		one := p.emit(cur, model.GuardOp(model.Bin(model.OpAnd, ticks, model.Not(model.Bin(sign.side, kk, model.C(0))))), pos, Origin{})
		t, _ := compare(c.op, float64(sign.beyond), 0)
		p.emitTo(one, model.AssignOp(r, model.C(b2i(t))), next, pos, Origin{})
	}
	return next
}
