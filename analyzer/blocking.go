package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"golang.org/x/tools/go/ast/astutil"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/fencecheck/fencecheck/extract"
	"github.com/fencecheck/fencecheck/model"
)

// A blocked goroutine of a deadlock or a leak: where it waits, and what
// memory holds there that keeps it waiting.
type blocked struct {
	proc int
	pos  token.Pos
	what string // the statement it waits in, as the source spells it
	why  string // "l.mu = 1": the memory its wait depends on
	// spins: it runs a loop that nothing can end, rather than waits
	spins bool
	// runs: it does not wait; it runs on for ever beside those that do
	runs bool
}

// blockingKind returns extract.DeadlockName or extract.LeakName when the
// last state of the SC trace t is a blocking bug, and that state; else "".
func (s *system) blockingKind(t *model.Trace) (string, model.State) {
	if t == nil {
		return "", model.State{}
	}
	states, err := s.p.Replay(t)
	if err != nil || len(states) == 0 {
		return "", model.State{}
	}
	last := states[len(states)-1]
	if last.Fault != nil {
		return "", last
	}
	bi := s.p.MatchBad(last)
	if bi < 0 {
		return "", last
	}
	switch name := s.p.Bad[bi].Name; name {
	case extract.DeadlockName, extract.LeakName:
		return name, last
	}
	return "", last
}

// blockedIn lists the goroutines that wait forever in state st, a state of
// a blocking bug.
func (s *system) blockedIn(st model.State) []blocked {
	if f := s.forever; f != nil && model.InBadState(s.p, st, &f.bad) {
		return s.foreverBlocked(st)
	}
	var out []blocked
	for q := range s.p.Procs {
		l := st.Locs[q]
		cond, ok := s.p.Blocked(q, l)
		if !ok || slices.Contains(s.sys.Unstarted, model.ProcLoc{Proc: q, Loc: l}) {
			continue
		}
		if v, err := model.Eval(cond, &model.Env{Regs: st.Regs[q], Mem: st.Mem}); err == nil && v == 0 {
			continue // it can go on from here: a goroutine that runs on
		}
		out = append(out, s.describeBlocked(q, cond, st))
	}
	return out
}

// foreverBlocked lists the goroutines of the blocking bug searchForever
// found, in its state st: those that wait for good, and those that run
// on for ever beside them.
func (s *system) foreverBlocked(st model.State) []blocked {
	var out, runs []blocked
	for q := range s.p.Procs {
		switch bit := uint64(1) << q; {
		case s.forever.waits&bit != 0:
			cond, ok := s.p.Blocked(q, st.Locs[q])
			if !ok {
				cond = nil
			}
			out = append(out, s.describeBlocked(q, cond, st))
		case s.forever.runs&bit != 0:
			b := s.describeBlocked(q, nil, st)
			b.runs = true
			runs = append(runs, b)
		}
	}
	return append(out, runs...)
}

// nextPos returns the position of the first step with one on the path
// that process q takes from location l by its first transitions, or the
// position of its go statement: where a goroutine that stands at a step
// of no source (a loop's bookkeeping) is shown.
func (s *system) nextPos(q, l int) token.Pos {
	pr := s.p.Procs[q]
	for range pr.Locs {
		out := pr.Out(l)
		if len(out) == 0 {
			break
		}
		if pos := s.transPos(q, out[0]); pos.IsValid() {
			return pos
		}
		l = pr.Trans[out[0]].To
	}
	if q < len(s.sys.Spawns) {
		return s.sys.Spawns[q]
	}
	return token.NoPos
}

// describeBlocked says where goroutine q waits in state st, and why: cond
// is the condition under which it waits there (nil when it is not known).
func (s *system) describeBlocked(q int, cond model.Expr, st model.State) blocked {
	l := st.Locs[q]
	b := blocked{proc: q, what: "a wait"}
	_, waits := s.p.Waits(q, l)
	var node ast.Node
	if out := s.p.Procs[q].Out(l); len(out) > 0 {
		t := out[0]
		b.pos = s.transPos(q, t)
		if q < len(s.sys.Origins) && t < len(s.sys.Origins[q]) {
			o := s.sys.Origins[q][t]
			if node = o.Node; node != nil && o.At.IsValid() && !s.inPackageFile(node.Pos()) {
				// A wait in the model's own source (go mu.Lock(), a
				// OnceValue's): shown at the user's call that runs it.
				b.pos, node = o.At, s.callAt(o.At)
			}
			if node != nil {
				b.what = s.nodeText(node)
			}
		}
	}
	if !b.pos.IsValid() {
		b.pos = s.nextPos(q, l)
	}
	if cond == nil {
		return b
	}
	if !waits {
		_, reads, _ := s.p.Spins(q, l)
		b.spins = true
		b.why = s.waitWhy(reads, st)
		if b.why == "" {
			b.why = "in a loop that never ends"
		}
		return b
	}
	var vars []int
	model.WalkExpr(cond, func(e model.Expr) {
		if v, ok := e.(model.VarRef); ok && !slices.Contains(vars, v.Var) {
			vars = append(vars, v.Var)
		}
	})
	if len(vars) == 1 && s.p.Vars[vars[0]].Name == extract.NilChanName {
		b.why = "on a nil channel, which blocks forever"
		return b
	}
	if why := chanWhy(node); why != "" {
		b.why = why
		return b
	}
	b.why = s.waitWhy(vars, st)
	return b
}

// waitWhy says what keeps a goroutine waiting on the variables vars of
// state st: a wait group's counter, a Cond that nobody signals, or else the
// values of the variables.
func (s *system) waitWhy(vars []int, st model.State) string {
	var vals []string
	for _, x := range vars {
		name := s.varName(x)
		switch {
		case x < len(s.sys.Vars) && s.sys.Vars[x].WaitGroup:
			return fmt.Sprintf("for the counter of %s to reach 0; it stays %s", name, s.varValue(x, st.Mem[x]))
		case strings.Contains(name, ".waiting["):
			if st.Mem[x] == 0 {
				continue // woken: it waits for the mutex
			}
			return fmt.Sprintf("to be signalled: nothing calls %s.Signal or %s.Broadcast any more", name[:strings.Index(name, ".waiting[")], name[:strings.Index(name, ".waiting[")])
		}
		vals = append(vals, fmt.Sprintf("%s = %s", name, s.varValue(x, st.Mem[x])))
	}
	if len(vals) == 0 {
		return ""
	}
	return "while " + strings.Join(vals, ", ")
}

// inPackageFile reports whether pos lies in a file of the package.
func (s *system) inPackageFile(pos token.Pos) bool {
	for _, f := range s.r.pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return true
		}
	}
	return false
}

// callAt returns the call a go or defer statement, or a call expression,
// at pos makes; nil when there is none in the package's files.
func (s *system) callAt(pos token.Pos) ast.Node {
	for _, n := range s.enclosing(pos) {
		switch n := n.(type) {
		case *ast.GoStmt:
			return n.Call
		case *ast.DeferStmt:
			return n.Call
		case *ast.CallExpr:
			return n
		}
	}
	return nil
}

// enclosing returns the nodes of the package's files that enclose pos,
// innermost first; nil for a position in no file of the package.
func (s *system) enclosing(pos token.Pos) []ast.Node {
	for _, f := range s.r.pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			path, _ := astutil.PathEnclosingInterval(f, pos, pos)
			return path
		}
	}
	return nil
}

// nodeText is the source of an expression or statement, as Go spells it
// (types.ExprString; a statement by its expression).
func (s *system) nodeText(n ast.Node) string {
	switch n := n.(type) {
	case ast.Expr:
		return types.ExprString(n)
	case *ast.ExprStmt:
		return types.ExprString(n.X)
	case *ast.SendStmt:
		return types.ExprString(n.Chan) + " <- " + types.ExprString(n.Value)
	case *ast.SelectStmt:
		return "select"
	case *ast.RangeStmt:
		return "range " + types.ExprString(n.X)
	case *ast.AssignStmt:
		if len(n.Rhs) == 1 {
			return types.ExprString(n.Rhs[0])
		}
	}
	return "the statement"
}

// chanWhy says why a goroutine waits forever at a channel operation, the
// statement or expression node; "" for other waits.
func chanWhy(node ast.Node) string {
	switch n := node.(type) {
	case *ast.SendStmt:
		return "to send: nothing receives from " + types.ExprString(n.Chan) + " any more"
	case *ast.UnaryExpr:
		if n.Op == token.ARROW {
			return "to receive: nothing sends on " + types.ExprString(n.X) + " or closes it any more"
		}
	case *ast.RangeStmt:
		return "to receive: nothing sends on " + types.ExprString(n.X) + " or closes it any more"
	case *ast.SelectStmt:
		return "in a select none of whose cases can proceed any more"
	}
	return ""
}

// reportBlocking reports a deadlock or a leak found under SC, with the
// trace t that reaches state last: one short headline, then each blocked
// goroutine and each step of the interleaving at its own position.
func (s *system) reportBlocking(kind string, t *model.Trace, last model.State) {
	bs := s.blockedIn(last)
	if len(bs) == 0 {
		s.reportSCText(t)
		return
	}
	var names, whats []string
	for _, b := range bs {
		if b.runs {
			continue
		}
		names = append(names, s.p.Procs[b.proc].Name)
		if !slices.Contains(whats, b.what) {
			whats = append(whats, b.what)
		}
	}
	var msg string
	pos := bs[slices.IndexFunc(bs, func(b blocked) bool { return !b.runs })].pos
	if kind == extract.DeadlockName {
		msg = fmt.Sprintf("deadlock: %s %s forever in %s (system %s)", joinAnd(names), plural(len(names), "blocks", "block"), joinAnd(whats), s.sys.Name)
	} else {
		msg = fmt.Sprintf("leak: %s %s forever in %s after system %s returns", joinAnd(names), plural(len(names), "blocks", "block"), joinAnd(whats), s.sys.Name)
	}
	var related []analysis.RelatedInformation
	for _, b := range bs {
		why := ""
		if b.why != "" {
			why = " " + b.why
		}
		text := fmt.Sprintf("%s waits here forever%s", s.p.Procs[b.proc].Name, why)
		switch {
		case b.spins:
			text = fmt.Sprintf("%s spins here forever%s", s.p.Procs[b.proc].Name, why)
		case b.runs:
			text = fmt.Sprintf("%s runs on from here and never ends", s.p.Procs[b.proc].Name)
		}
		related = append(related, analysis.RelatedInformation{Pos: b.pos, Message: text})
	}
	related = append(related, s.capSteps(s.stepsRelated(t))...)
	if s.cfg.Witness {
		msg += "\n" + s.reachabilityTable(t)
	}
	d := analysis.Diagnostic{Pos: pos, Category: kind, Message: msg, Related: related}
	s.emitWitness(d, t)
	s.r.add(d)
}

// syncStepText describes a step of a channel operation or of a
// sync.Cond's method by its source (results <- 1, <-done, select,
// close(done), c.Wait()) and what it did: start waiting, or complete with a
// waiting goroutine. It returns "" for other steps.
func (s *system) syncStepText(q, t int) string {
	if q >= len(s.sys.Origins) || t >= len(s.sys.Origins[q]) {
		return ""
	}
	node := s.sys.Origins[q][t].Node
	if call := s.originCall(q, t); call != nil {
		node = call // the user's call, for a step of the model's own source
	}
	if node == nil {
		if op := s.p.Procs[q].Trans[t].Op; op.Kind == model.Locked && len(op.Body) == 2 && op.Body[1].Kind == model.Write &&
			strings.HasSuffix(s.varName(op.Body[1].Var), ".stopped") {
			return "time.AfterFunc's timer fires and starts " + s.p.Procs[q].Name
		}
	}
	switch n := node.(type) {
	case *ast.SendStmt, *ast.SelectStmt, *ast.RangeStmt:
	case *ast.UnaryExpr:
		if n.Op != token.ARROW {
			return ""
		}
	case *ast.CallExpr:
		sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
		if id, isID := ast.Unparen(n.Fun).(*ast.Ident); !(isID && id.Name == "close") &&
			!(ok && (s.syncMethod(sel) || s.foreignSyncMethod(q, t, sel))) &&
			!(ok && (sel.Sel.Name == "Wait" || sel.Sel.Name == "Signal" || sel.Sel.Name == "Broadcast") && !strings.Contains(types.ExprString(sel.X), "wg")) &&
			!(ok && (sel.Sel.Name == "Stop" || sel.Sel.Name == "Reset")) &&
			!(ok && (sel.Sel.Name == "NewTimer" || sel.Sel.Name == "NewTicker")) {
			return ""
		}
	default:
		return ""
	}
	txt := s.nodeText(node)
	if _, isRange := node.(*ast.RangeStmt); isRange {
		txt = "receive in " + txt
	}
	me := s.p.Procs[q].Name
	if sel, isSelect := node.(*ast.SelectStmt); isSelect {
		if cases := s.selectWaits(q, t); len(cases) > 0 {
			comms := 0
			for _, c := range sel.Body.List {
				if cc, ok := c.(*ast.CommClause); ok && cc.Comm != nil {
					comms++
				}
			}
			if comms > len(cases) {
				// A timer's or ticker's channel, which the model keeps
				// as the timer, not as a channel's waits.
				cases = append(cases, "its other cases")
			}
			return txt + " waits for " + strings.Join(cases, " or ")
		}
	}
	for _, op := range s.p.Procs[q].Trans[t].Op.Body {
		if op.Kind != model.Write {
			continue
		}
		if b, ok := op.Expr.(model.Binary); ok && b.Op == model.OpSub && b.X == model.C(-1) {
			// The first step of RWMutex.Lock, which readers that hold
			// the lock still leave: new ones wait from here on.
			return txt + " shuts out new readers"
		}
		// The model's own name: the variables of a goroutine's waits and
		// offers are named after it (ch.recvq[go@35], go@35.chansel),
		// which the source name would cut short.
		name := s.p.Vars[op.Var].Name
		switch {
		case strings.HasSuffix(name, "q["+me+"]"), strings.HasSuffix(name, ".waiting["+me+"]") && op.Expr == model.C(1):
			return txt + " starts waiting"
		case strings.HasSuffix(name, ".chansel") && !strings.HasPrefix(name, me+"."):
			return txt + " meets " + strings.TrimSuffix(name, ".chansel")
		case name == me+".chansel" && op.Expr == model.C(0):
			// Its offer taken by a partner that met it: it goes on.
			return txt + " completes"
		}
	}
	return txt
}

// selectWaits names the cases a select's step starts waiting on, from
// the goroutine's waits it posts on their channels (ch.recvq[go@35] is
// <-ch, ch.sendq[go@35] a send on ch): <-r.propc, a send on r.applyc;
// none when the step posts none.
func (s *system) selectWaits(q, t int) []string {
	me := s.p.Procs[q].Name
	var cases []string
	for _, op := range s.p.Procs[q].Trans[t].Op.Body {
		if op.Kind != model.Write || op.Expr == model.C(0) {
			continue
		}
		name := s.p.Vars[op.Var].Name
		if ch, ok := strings.CutSuffix(name, ".recvq["+me+"]"); ok {
			cases = append(cases, "<-"+ch)
		} else if ch, ok := strings.CutSuffix(name, ".sendq["+me+"]"); ok {
			cases = append(cases, "a send on "+ch)
		}
	}
	return cases
}

// syncMethod reports whether sel names a method of package sync's Mutex,
// RWMutex, WaitGroup or Cond, so that a step of it is shown as the call the
// source makes (b.mu.Unlock(), wg.Done()) rather than as the atomic
// operation it is lowered to.
func (s *system) syncMethod(sel *ast.SelectorExpr) bool {
	fn, ok := s.r.pass.TypesInfo.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return false
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return false
	}
	t := recv.Type()
	if p, isPtr := t.(*types.Pointer); isPtr {
		t = p.Elem()
	}
	named, isNamed := t.(*types.Named)
	if !isNamed {
		return false
	}
	switch named.Obj().Name() {
	case "Mutex", "RWMutex", "WaitGroup", "Cond":
		return true
	}
	return false
}

// foreignSyncMethod is syncMethod for a call in another package's code,
// whose types the pass does not have: the method's name and the type of
// the memory the transition acts on (c.lock.Lock() on a sync.RWMutex).
func (s *system) foreignSyncMethod(q, t int, sel *ast.SelectorExpr) bool {
	if _, known := s.r.pass.TypesInfo.Uses[sel.Sel]; known {
		return false
	}
	typ := s.sys.Origins[q][t].Type
	if typ == nil {
		return false
	}
	if p, isPtr := typ.(*types.Pointer); isPtr {
		typ = p.Elem()
	}
	named, ok := types.Unalias(typ).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "sync" {
		return false
	}
	for i := range named.NumMethods() {
		if named.Method(i).Name() == sel.Sel.Name {
			return true
		}
	}
	return false
}

// originCall returns the call that transition t of process q lowers, or
// nil when it lowers something else.
func (s *system) originCall(q, t int) *ast.CallExpr {
	if q >= len(s.sys.Origins) || t >= len(s.sys.Origins[q]) {
		return nil
	}
	o := s.sys.Origins[q][t]
	if c, ok := o.Node.(*ast.CallExpr); ok && o.At.IsValid() && !s.inPackageFile(o.Node.Pos()) {
		if _, byName := ast.Unparen(c.Fun).(*ast.Ident); byName {
			// A go statement's shim calling its function or close (go
			// n.Add(1), go close(ch)): the user's call.
			call, _ := s.callAt(o.At).(*ast.CallExpr)
			return call
		}
	}
	call, _ := o.Node.(*ast.CallExpr)
	return call
}

// atomicCallText returns the source text of the call to package
// sync/atomic that transition t of process q lowers (l.next.Add(1),
// atomic.CompareAndSwapInt32(&l.state, 0, 1)), or "" when it lowers
// something else.
func (s *system) atomicCallText(q, t int) string {
	call := s.originCall(q, t)
	if call == nil {
		return ""
	}
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		id = f.Sel
	case *ast.Ident:
		id = f
	default:
		return ""
	}
	obj, known := s.r.pass.TypesInfo.Uses[id]
	if !known && s.foreignAtomicMethod(q, t, id.Name) {
		return types.ExprString(call)
	}
	fn, ok := obj.(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" {
		return ""
	}
	return types.ExprString(call)
}

// foreignAtomicMethod reports whether transition t of process q lowers, in
// another package's code, a call of the method name of a sync/atomic type
// (v.l.Store(x) on an atomic.Int32 field): the location it accesses has
// that type.
func (s *system) foreignAtomicMethod(q, t int, name string) bool {
	typ := s.sys.Origins[q][t].Type
	if typ == nil {
		return false
	}
	if p, ok := typ.(*types.Pointer); ok {
		typ = p.Elem()
	}
	named, ok := types.Unalias(typ).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "sync/atomic" {
		return false
	}
	for _, prefix := range []string{"Load", "Store", "Swap", "Add", "And", "Or", "CompareAndSwap"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// foreignAtomicFunc returns the name of the sync/atomic function that the
// call of transition t of process q reads as, where the call is in another
// package's code (whose types the pass does not have): "atomic.StoreUint32"
// for atomic.StoreUint32(&i.v, val) as written. It returns "" otherwise.
func (s *system) foreignAtomicFunc(q, t int) string {
	call := s.originCall(q, t)
	if call == nil {
		return ""
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if _, known := s.r.pass.TypesInfo.Uses[sel.Sel]; known {
		return ""
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok || pkg.Name != "atomic" {
		return ""
	}
	for _, prefix := range []string{"Load", "Store", "Swap", "Add", "And", "Or", "CompareAndSwap"} {
		if strings.HasPrefix(sel.Sel.Name, prefix) {
			return "atomic." + sel.Sel.Name
		}
	}
	return ""
}

// maxSteps bounds the steps of an interleaving a finding lists without
// -witness: the first, and the last ones before the bad state.
const maxSteps = 8

// stepsRelated is the interleaving of t, one related position per step
// that touches memory.
func (s *system) stepsRelated(t *model.Trace) []analysis.RelatedInformation {
	var out []analysis.RelatedInformation
	for _, st := range t.Steps {
		txt := s.stepText(st)
		if txt == "" || st.Flush {
			continue
		}
		txt = lineSuffix.ReplaceAllString(txt, "")
		out = append(out, analysis.RelatedInformation{Pos: s.stmtPos(st.Proc, st.Trans),
			Message: fmt.Sprintf("step %d: %s %s", len(out)+1, s.p.Procs[st.Proc].Name, txt)})
	}
	return out
}

// capSteps keeps, without -witness, the first step and the last
// maxSteps-1 of steps, saying which it left out; it leaves out two steps
// or more, never one (which would take the line its note takes).
func (s *system) capSteps(steps []analysis.RelatedInformation) []analysis.RelatedInformation {
	if len(steps) <= maxSteps+1 || s.cfg.Witness {
		return steps
	}
	first := steps[0]
	out := []analysis.RelatedInformation{{Pos: first.Pos,
		Message: fmt.Sprintf("%s (steps 2 to %d are left out; -witness shows them all)", first.Message, len(steps)-maxSteps+1)}}
	return append(out, steps[len(steps)-maxSteps+1:]...)
}

// lineSuffix is the " (line N)" a step's text ends with, which a related
// position says already.
var lineSuffix = regexp.MustCompile(` \(line \d+\)$`)

// plural returns one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
