package pred

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fencecheck/fencecheck/model"
)

// learned is what the analyses of one program shape found: the templates and
// the largest k. Fence inference checks many copies of one program with
// barriers at different places; they share variables and registers, so what
// refined the abstraction of one usually helps the next.
type learned struct {
	templates []string
	k         int
}

// signature identifies programs whose templates are interchangeable: the
// same shared variables and registers, with the same domains.
func signature(p *model.Program) string {
	var b strings.Builder
	for _, v := range p.Vars {
		fmt.Fprintf(&b, "%s:%v;", v.Name, v.Dom)
	}
	for _, q := range p.Procs {
		fmt.Fprintf(&b, "|%s", q.Name)
		for _, r := range q.Regs {
			fmt.Fprintf(&b, ",%s:%v", r.Name, r.Dom)
		}
	}
	return b.String()
}

// encode writes x in a prefix form that decode reads back into any table.
func (t *terms) encode(b *strings.Builder, x tid) {
	n := t.node(x)
	fmt.Fprintf(b, "%d", n.Op)
	switch n.Op {
	case tVar:
		fmt.Fprintf(b, " %d %d %d", n.V.Kind, n.V.P, n.V.I)
		return
	}
	fmt.Fprintf(b, " %d %d", n.C, len(n.Args))
	for i, a := range n.Args {
		if n.Coef != nil {
			fmt.Fprintf(b, " %d", n.Coef[i])
		}
		b.WriteString(" ")
		t.encode(b, a)
	}
}

// decode reads a term written by encode.
func (t *terms) decode(s string) (tid, error) {
	f := strings.Fields(s)
	x, rest, err := t.decodeFields(f)
	if err != nil {
		return 0, err
	}
	if len(rest) != 0 {
		return 0, fmt.Errorf("trailing fields in an encoded term")
	}
	return x, nil
}

func (t *terms) decodeFields(f []string) (tid, []string, error) {
	num := func() (int64, error) {
		if len(f) == 0 {
			return 0, fmt.Errorf("truncated encoded term")
		}
		v, err := strconv.ParseInt(f[0], 10, 64)
		f = f[1:]
		return v, err
	}
	op, err := num()
	if err != nil {
		return 0, nil, err
	}
	if top(op) == tVar {
		var v [3]int64
		for i := range v {
			if v[i], err = num(); err != nil {
				return 0, nil, err
			}
		}
		return t.intern(node{Op: tVar, V: dvar{Kind: dkind(v[0]), P: int32(v[1]), I: int32(v[2])}}), f, nil
	}
	c, err := num()
	if err != nil {
		return 0, nil, err
	}
	na, err := num()
	if err != nil {
		return 0, nil, err
	}
	n := node{Op: top(op), C: c}
	for range na {
		if top(op) == tLin {
			k, err := num()
			if err != nil {
				return 0, nil, err
			}
			n.Coef = append(n.Coef, k)
		}
		var a tid
		a, f, err = t.decodeFields(f)
		if err != nil {
			return 0, nil, err
		}
		n.Args = append(n.Args, a)
	}
	return t.intern(n), f, nil
}
