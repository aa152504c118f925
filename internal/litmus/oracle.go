package litmus

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Memory names a memory model for [Test.Reachable].
type Memory uint8

const (
	// SC: every store reaches memory at once.
	SC Memory = iota
	// TSO: one FIFO store buffer per thread.
	TSO
	// PSO: one FIFO store buffer per thread and location.
	PSO
)

// Reachable decides whether t's condition can hold at the end of an
// execution under mem, and returns the number of configurations it
// visited. It is an oracle for the engines' conformance tests, written on
// the test's own instructions and independent of package model: a plain
// depth-first search of every interleaving of the threads' instructions
// and of the flushes of their buffers, with the final condition evaluated
// once every thread has finished and every buffer is empty. A buffer holds
// (location, value) pairs; a flush moves the oldest pair of a buffer to
// memory; a read takes the thread's newest buffered store to its location,
// else memory; MFENCE, XCHG and LOCKADD wait for the thread's buffers to
// be empty and then act on memory.
func (t *Test) Reachable(mem Memory) (bool, int, error) {
	o := &oracle{t: t, mem: mem, seen: map[string]bool{}}
	init := config{pcs: make([]int, len(t.Threads)), vals: map[string]int64{}}
	for k, v := range t.Init {
		init.vals[k] = v
	}
	init.bufs = make([][]store, len(t.Threads))
	found, err := o.search(init)
	return found, len(o.seen), err
}

type store struct {
	loc string
	val int64
}

// config is one configuration: each thread's next instruction, the values
// of memory locations ("x") and registers ("0:EAX"), and each thread's
// pending stores, oldest first (under PSO the buffer of a location is the
// subsequence of its stores).
type config struct {
	pcs  []int
	vals map[string]int64
	bufs [][]store
}

func (c config) clone() config {
	d := config{pcs: slices.Clone(c.pcs), vals: make(map[string]int64, len(c.vals)), bufs: make([][]store, len(c.bufs))}
	for k, v := range c.vals {
		d.vals[k] = v
	}
	for i, b := range c.bufs {
		d.bufs[i] = slices.Clone(b)
	}
	return d
}

func (c config) key() string {
	var b strings.Builder
	fmt.Fprint(&b, c.pcs, ";")
	keys := make([]string, 0, len(c.vals))
	for k := range c.vals {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%d,", k, c.vals[k])
	}
	for _, buf := range c.bufs {
		fmt.Fprint(&b, buf, ";")
	}
	return b.String()
}

type oracle struct {
	t    *Test
	mem  Memory
	seen map[string]bool
}

func (o *oracle) search(c config) (bool, error) {
	k := c.key()
	if o.seen[k] {
		return false, nil
	}
	o.seen[k] = true
	done := true
	for th, buf := range c.bufs {
		if len(buf) > 0 {
			done = false
		}
		// Flushes: the oldest store of the buffer, or under PSO the
		// oldest store of each location.
		for i, s := range buf {
			if i > 0 && (o.mem != PSO || slices.ContainsFunc(buf[:i], func(e store) bool { return e.loc == s.loc })) {
				continue
			}
			d := c.clone()
			d.vals[s.loc] = s.val
			d.bufs[th] = slices.Delete(d.bufs[th], i, i+1)
			if ok, err := o.search(d); ok || err != nil {
				return ok, err
			}
		}
	}
	for th, code := range o.t.Threads {
		pc := c.pcs[th]
		if pc == len(code) {
			continue
		}
		done = false
		succ, err := o.step(c, th, code[pc])
		if err != nil {
			return false, err
		}
		for _, d := range succ {
			d.pcs[th]++
			if ok, err := o.search(d); ok || err != nil {
				return ok, err
			}
		}
	}
	if !done {
		return false, nil
	}
	return o.holds(c, o.t.Cond)
}

// step returns the configurations after thread th executes in, none when it
// must wait.
func (o *oracle) step(c config, th int, in Instr) ([]config, error) {
	reg := strconv.Itoa(th) + ":" + in.Reg
	empty := len(c.bufs[th]) == 0
	d := c.clone()
	switch in.Op {
	case "W":
		if o.mem == SC {
			d.vals[in.Loc] = in.Val
		} else {
			d.bufs[th] = append(d.bufs[th], store{in.Loc, in.Val})
		}
	case "R":
		v := c.vals[in.Loc]
		for _, s := range c.bufs[th] {
			if s.loc == in.Loc {
				v = s.val // the newest one wins
			}
		}
		d.vals[reg] = v
	case "MFENCE":
		if !empty {
			return nil, nil
		}
	case "XCHG", "LOCKADD", "CMPXCHG":
		if !empty {
			return nil, nil
		}
		old := c.vals[in.Loc]
		if in.Reg != "" {
			d.vals[reg] = old
		}
		switch {
		case in.Op == "XCHG":
			d.vals[in.Loc] = in.Val
		case in.Op == "LOCKADD":
			d.vals[in.Loc] = old + in.Val
		case old == in.Expect:
			d.vals[in.Loc] = in.Val
		}
	default:
		return nil, fmt.Errorf("%s: thread %d: unknown operation %q", o.t.Name, th, in.Op)
	}
	return []config{d}, nil
}

// holds evaluates cond at the end of an execution.
func (o *oracle) holds(c config, cond *Cond) (bool, error) {
	switch {
	case cond == nil:
		return false, fmt.Errorf("%s: empty condition", o.t.Name)
	case len(cond.And) > 0:
		for _, d := range cond.And {
			if ok, err := o.holds(c, d); !ok || err != nil {
				return false, err
			}
		}
		return true, nil
	case len(cond.Or) > 0:
		for _, d := range cond.Or {
			if ok, err := o.holds(c, d); ok || err != nil {
				return ok, err
			}
		}
		return false, nil
	case cond.Not != nil:
		ok, err := o.holds(c, cond.Not)
		return !ok, err
	case cond.Mem != "":
		return c.vals[cond.Mem] == cond.Val, nil
	case cond.Reg != nil:
		return c.vals[strconv.Itoa(cond.Reg.Thread)+":"+cond.Reg.Reg] == cond.Val, nil
	}
	return false, fmt.Errorf("%s: empty condition", o.t.Name)
}
