package extract

import (
	"fmt"
	"go/token"
	"go/types"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// An Entity is a shared variable or a register of a System's model as the
// user knows it: what to call it, and where its domain comes from, which
// decides what a value outside the domain means (see "Domains and overflow"
// in the package documentation).
type Entity struct {
	// Name spells it as the Go source does: a variable or field (x,
	// l.flag[0], dif) or, for a value that no variable holds, the
	// expression that computes it (seq - (pos + 1), r.pop()).
	Name string
	// Pos is where the variable is declared or the value computed; it may
	// be token.NoPos.
	Pos token.Pos
	// Ranged is set when the domain is the user's //fencecheck:range: a
	// value outside it is a finding about the program. Otherwise the
	// domain is fencecheck's own inference, and a value outside it is a
	// gap in the inference, never a verdict.
	Ranged bool
	// WaitGroup is set for the counter of a sync.WaitGroup: Go panics when
	// it goes below zero, so such a value is a bad state of the program.
	WaitGroup bool
	// Unsigned64 is set for a value of type uint64, uint or uintptr, which
	// the model holds as its int64 bit pattern.
	Unsigned64 bool
	// Float is 64 or 32 for a float64 or float32, which the model holds as
	// its IEEE 754 bits; 0 for other types.
	Float uint8
	// Refusal is set for the marker of a construct fencecheck does not
	// model, on a path a run may take (a run-time refusal): a run that
	// reaches it ends the analysis inconclusive, and Name is the
	// construct.
	Refusal bool
	// Limit is the widest domain the entity can have: the range of its Go
	// type (narrowed by a //fencecheck:range), or model.Unbounded when that
	// range is too large to enumerate.
	Limit model.Domain
	// Objects spells, for a pointer or an interface value, the values 1,
	// 2, ... as Go code would (&object, or a boxed interface value such as
	// any(1)), and for a function value the functions of its table
	// (funcvals.go); 0 is nil; nil for other entities.
	Objects []string
	// Strings spells, for a string, the values 0, 1, 2, ... as Go literals
	// ("" first); the value -1 is a string fencecheck does not compute
	// (strings.go). Nil for other entities.
	Strings []string
	// Box is set for a cell of the box of an interface value holding a
	// struct, an array, a function or a channel: written once, before the
	// interface value can be read, so that a race on it comes with a race
	// on an interface value that holds it, which Go's race detector
	// reports instead (the run time's copy is not instrumented).
	Box bool
	// Slices names, for a slice header in memory, the arrays of its
	// shapes 1, 2, ... and their offsets (headers.go): a value prints as
	// nil or array[lo:hi]; nil for other entities.
	Slices []shapeName
	// Random names, for a cell that holds random numbers (randomcells.go),
	// what made them ("fastrand()"): the model keeps 0 in it, and a value
	// prints as that random number.
	Random string
	// RWMutex is set for a sync.RWMutex, whose values print as its state.
	RWMutex bool
}

// shapeName is the array and offset of the shape of a slice header.
type shapeName struct {
	array string
	off   int64
}

// Value formats v, a value of e in the model, as Go prints it: a uint64
// bit pattern as the unsigned number, a float's bits as the float, a
// pointer as nil or &object.
func (e Entity) Value(v int64) string {
	if e.Random != "" {
		return "(a random number: " + e.Random + ")"
	}
	if e.RWMutex {
		switch {
		case v == -1:
			return "write-locked"
		case v == 0:
			return "unlocked"
		case v > 0:
			return fmt.Sprintf("read-locked by %d", v)
		}
		return fmt.Sprintf("read-locked by %d, a writer waiting", -v-1)
	}
	if e.Objects != nil {
		switch {
		case v == 0:
			return "nil"
		case v > 0 && v <= int64(len(e.Objects)):
			return e.Objects[v-1]
		}
	}
	if e.Strings != nil {
		switch {
		case v == strAny:
			return "(a string fencecheck does not compute)"
		case v >= 0 && v < int64(len(e.Strings)):
			return strconv.Quote(e.Strings[v])
		}
	}
	if e.Slices != nil {
		k, n := v>>sliceWordBits&(1<<sliceShapeBits-1), v&(1<<sliceWordBits-1)
		off := v >> sliceOffShift
		switch {
		case v == 0:
			return "nil"
		case k > 0 && k <= int64(len(e.Slices)) && e.Slices[k-1].array == "":
			return "[]byte(…)"
		case k > 0 && k <= int64(len(e.Slices)):
			sh := e.Slices[k-1]
			return fmt.Sprintf("%s[%d:%d]", sh.array, sh.off+off, sh.off+off+n)
		}
	}
	if e.Float != 0 {
		return strconv.FormatFloat(model.FloatValue(v, e.Float), 'g', -1, int(e.Float))
	}
	if e.Unsigned64 {
		return strconv.FormatUint(uint64(v), 10)
	}
	return strconv.FormatInt(v, 10)
}

// Describe names e for a message: its name, and its position as
// file.go:line:col when it has one.
func (e Entity) Describe(fset *token.FileSet) string {
	if !e.Pos.IsValid() || fset == nil {
		return e.Name
	}
	p := fset.Position(e.Pos)
	file := p.Filename
	if i := strings.LastIndexAny(file, `/\`); i >= 0 {
		file = file[i+1:]
	}
	return fmt.Sprintf("%s (%s:%d:%d)", e.Name, file, p.Line, p.Column)
}

// source is what a register holds, in the source: a Go variable or an
// expression.
type source struct {
	name string
	pos  token.Pos
}

// resultReg returns a new register of type t for the value of in, named
// after it and recorded as holding it, or -1 when nothing uses the value.
func (p *proc) resultReg(fr *frame, in ssa.Value, t types.Type) int {
	if !used(in) {
		return -1
	}
	r := p.newReg(p.regName(fr, in), t)
	p.holds(r, fr, in)
	return r
}

// holds records that register r holds the SSA value v of fr's function.
func (p *proc) holds(r int, fr *frame, v ssa.Value) {
	d := p.s.x.debugOf(fr.fn)
	src := source{pos: v.Pos()}
	switch {
	case d.ident[v] != nil:
		id := d.ident[v]
		src = source{id.Name, id.Pos()}
	case d.expr[v] != nil:
		e := p.s.x.fullExpr(d.expr[v])
		src = source{types.ExprString(e), e.Pos()}
	default:
		if phi, ok := v.(*ssa.Phi); ok {
			if dv := p.s.x.defs[phi.Pos()]; dv != nil && dv.Name() == phi.Comment {
				src = source{dv.Name(), dv.Pos()}
			}
		}
	}
	if src.name == "" {
		return
	}
	if p.sources == nil {
		p.sources = map[int]source{}
	}
	p.sources[r] = src
}

// holdsResult records that register r holds result k of the call in.
func (p *proc) holdsResult(r int, fr *frame, in *ssa.Call, k int) {
	d := p.s.x.debugOf(fr.fn)
	e, ok := d.expr[in]
	if !ok {
		return
	}
	name := types.ExprString(e)
	if in.Call.Signature().Results().Len() > 1 {
		name = fmt.Sprintf("result %d of %s", k, name)
	}
	if p.sources == nil {
		p.sources = map[int]source{}
	}
	p.sources[r] = source{name, e.Pos()}
}

var (
	ssaTemp = regexp.MustCompile(`^t[0-9]+$`)
	suffix  = regexp.MustCompile(`^(.+)_([0-9]+)$`)
)

// baseName returns the name of a register without the suffix newReg added
// to tell it from an earlier register of the same name (n_2 for n).
func (p *proc) baseName(name string) string {
	m := suffix.FindStringSubmatch(name)
	if m == nil {
		return name
	}
	n, err := strconv.Atoi(m[2])
	if err != nil || n < 2 || p.regNames[m[1]] < n {
		return name
	}
	return m[1]
}

// entities describes the variables and registers of the system's model.
func (s *system) entities() (vars []Entity, regs [][]Entity) {
	objects := []string{}
	for _, o := range s.heap.heap {
		s.display(o)
		if o.box || o.byValue {
			objects = append(objects, o.name)
		} else {
			objects = append(objects, "&"+o.name)
		}
	}
	ptrObjects := func(t types.Type) []string {
		switch {
		case isPtrCell(t):
			return objects
		case t != nil && isFuncCell(t):
			return s.funcNames(t)
		}
		return nil
	}
	strs := append([]string{""}, s.strs...)
	stringsOf := func(t types.Type) []string {
		if t != nil && isString(t) {
			return strs
		}
		return nil
	}
	for x, v := range s.prog.Vars {
		e := Entity{Name: v.Name, Unsigned64: isUnsigned64(s.varType[x]), Float: floatBits(s.varType[x]), Objects: ptrObjects(s.varType[x]), Strings: stringsOf(s.varType[x])}
		if d := s.varDecl[x]; d != nil {
			e.Pos = d.Pos()
			_, e.Ranged = s.x.dirs.Ranges[d]
		}
		if isSliceType(s.varType[x]) {
			e.Slices = s.shapeNames()
		}
		e.WaitGroup = classify(s.varType[x]) == leafWaitGroup
		e.RWMutex = classify(s.varType[x]) == leafRWMutex
		e.Box = s.boxVars[x]
		if d := s.varDecl[x]; d != nil {
			e.Random = s.heap.hint.randomCells[d]
		}
		lo, hi := s.varLimits(x)
		e.Limit = domainOf(topAbs, lo, hi)
		vars = append(vars, e)
	}
	for _, p := range s.procs {
		var es []Entity
		for r, reg := range p.q.Regs {
			e := Entity{Name: reg.Name, Unsigned64: isUnsigned64(p.regType[r]), Float: floatBits(p.regType[r]), Objects: ptrObjects(p.regType[r]), Strings: stringsOf(p.regType[r])}
			base := strings.TrimSuffix(reg.Name, "_tmp")
			if base != reg.Name {
				if b := p.q.RegIndex(base); b >= 0 {
					r = b
				}
			}
			if src, ok := p.sources[r]; ok {
				e.Name, e.Pos, e.Refusal = src.name, src.pos, p.refusals[r]
			} else if name := p.baseName(base); ssaTemp.MatchString(name) {
				e.Name = "a value computed in goroutine " + p.q.Name
			} else {
				e.Name = name
			}
			_, e.Ranged = p.ranged[r]
			lo, hi := p.regLimits(r)
			e.Limit = domainOf(topAbs, lo, hi)
			es = append(es, e)
		}
		regs = append(regs, es)
	}
	return vars, regs
}
