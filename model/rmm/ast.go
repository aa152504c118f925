package rmm

import "github.com/fencecheck/fencecheck/model"

// The syntax tree of an .rmm file, as parsed, before names are resolved.

type fileAST struct {
	forbidden []badTuple
	globals   []decl
	procs     []*procDecl
}

// badTuple is one forbidden combination: one label (or *) per process.
type badTuple struct {
	pos     model.Pos
	entries []badEntry
}

type badEntry struct {
	label string // "" for *
	pos   model.Pos
}

// decl declares a shared variable or a register.
type decl struct {
	name string // without the $ of a register
	pos  model.Pos
	init model.Init
	dom  model.Domain
}

type procDecl struct {
	pos   model.Pos
	count int // copies of the process: process(N)
	data  []decl
	regs  []decl
	text  []lstmt
}

// lstmt is a statement with the labels written before it.
type lstmt struct {
	labels []labelRef
	s      *stmt
}

type labelRef struct {
	name string
	pos  model.Pos
}

type stmtKind uint8

const (
	sNop     stmtKind = iota
	sAssign           // reg := e
	sAssume           // assume: cond
	sReadEq           // read: loc = e
	sReadReg          // read: reg := loc
	sWrite            // write: loc := e
	sCas              // cas(loc, e, e2)
	sFence            // fence, ssfence, llfence
	sIf               // if cond then body[0] else els
	sWhile            // while cond do body[0]
	sGoto             // goto label
	sEither           // either { alts[0] or ... }
	sLocked           // locked { alts[0] or ... }
	sSeq              // { body }
)

// flavor refines reads, writes and fences.
type flavor uint8

const (
	plain   flavor = iota
	locked         // locked write
	sync           // syncwr, syncrd
	slocked        // slocked write
	ssFence        // ssfence
	llFence        // llfence
)

type stmt struct {
	kind   stmtKind
	pos    model.Pos
	flavor flavor
	reg    string // sAssign, sReadReg: the register, without $
	regPos model.Pos
	loc    *memloc
	e, e2  *aexpr // values; sIf, sWhile, sAssume: e is the condition
	label  labelRef
	body   []lstmt   // sSeq; sIf: then part; sWhile: loop body
	els    *lstmt    // sIf: else part, or nil
	alts   [][]lstmt // sEither, sLocked
}

type mlKind uint8

const (
	mlGlobal mlKind = iota // x
	mlMy                   // x[my]
	mlOther                // x[N]
	mlPtr                  // [e]
)

// memloc is a reference to shared memory.
type memloc struct {
	kind mlKind
	name string
	idx  int64
	ptr  *aexpr
	pos  model.Pos
}

func (m *memloc) String() string {
	switch m.kind {
	case mlMy:
		return m.name + "[my]"
	case mlOther:
		return m.name + "[" + itoa(m.idx) + "]"
	case mlPtr:
		return "[pointer]"
	}
	return m.name
}

type exprKind uint8

const (
	eNum exprKind = iota // val; also true (1) and false (0)
	eReg                 // name
	eNeg                 // -x
	eNot                 // not x
	eBin                 // x op y: arithmetic, comparison, && and ||
)

// aexpr is an arithmetic or boolean expression as written.
type aexpr struct {
	kind  exprKind
	pos   model.Pos
	val   int64
	name  string
	op    model.BinOp
	x, y  *aexpr
	depth int
}
