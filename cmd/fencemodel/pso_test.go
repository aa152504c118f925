package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/internal/litmus"
	"github.com/fencecheck/fencecheck/internal/longtest"
)

// corpus is the shared litmus corpus, beside the repository.
var corpus = filepath.Join("..", "..", "..", "shared", "litmus", "x86-tso.json")

// TestLitmusRMM writes the litmus tests of the corpus (in the quick run,
// every sixth of at most four threads: the explicit engine searches PSO
// without its partial-order reduction, and 6.SB takes 635,070 states) as
// Memorax models and checks each with fencemodel check under
// PSO, TSO and SC, as a user would: the PSO verdict must be that of the
// corpus's own interpreter (litmus.Test.Reachable, which does not use
// package model), and the TSO and SC verdicts herd's.
func TestLitmusRMM(t *testing.T) {
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("litmus corpus not found at %s (it sits beside the repository in the project's checkout): %v", corpus, err)
	}
	tests, err := litmus.Load(corpus)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	step := longtest.Size(6, 1)
	var files []string
	want := map[string]map[string]bool{} // file → model → allowed
	for i, lt := range tests {
		if i%step != 0 || step > 1 && len(lt.Threads) > 4 {
			continue
		}
		src, err := litmusRMM(&lt)
		if err != nil {
			t.Fatalf("%s: %v", lt.Name, err)
		}
		file := filepath.Join(dir, fmt.Sprintf("t%03d.rmm", i))
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		pso, _, err := lt.Reachable(litmus.PSO)
		if err != nil {
			t.Fatalf("%s: %v", lt.Name, err)
		}
		files = append(files, file)
		want[file] = map[string]bool{"pso": pso, "tso": litmus.Allowed(lt.TSO), "sc": litmus.Allowed(lt.SC)}
	}
	for _, m := range []string{"pso", "tso", "sc"} {
		var out, errb bytes.Buffer
		run(append([]string{"check", "-q", "-model=" + m}, files...), &out, &errb)
		if errb.Len() > 0 {
			t.Fatalf("-model=%s: %s", m, errb.String())
		}
		got := map[string]bool{}
		for line := range strings.SplitSeq(strings.TrimSpace(out.String()), "\n") {
			file, verdict, ok := strings.Cut(line, ": ")
			if !ok || want[file] == nil {
				t.Fatalf("-model=%s: unexpected line %q", m, line)
			}
			switch {
			case strings.HasPrefix(verdict, "unsafe under "+m+" "):
				got[file] = true
			case strings.HasPrefix(verdict, "safe under "+m+" "):
				got[file] = false
			default:
				t.Fatalf("-model=%s: %s: %s", m, file, verdict)
			}
		}
		for _, file := range files {
			v, ok := got[file]
			if !ok {
				t.Errorf("-model=%s: no verdict for %s", m, file)
			} else if v != want[file][m] {
				src, _ := os.ReadFile(file)
				t.Errorf("-model=%s: %s: allowed=%v, want %v:\n%s", m, file, v, want[file][m], src)
			}
		}
	}
	t.Logf("%d litmus tests as .rmm under PSO, TSO and SC", len(files))
}

// litmusRMM writes lt as a Memorax model whose forbidden state is lt's
// final condition. A condition that is a conjunction of tests of registers
// is tested by each thread on its own registers at its end, the forbidden
// state all threads at END. Any other condition needs an observer: each
// thread runs its instructions, then a locked block (which waits for its
// buffers to be empty) copies the registers the condition names into
// shared variables and sets its done flag; the observer's locked block
// waits for every flag and reads the copies and the locations the
// condition names (and writes a flag of its own, as Memorax wants of an
// atomic block), and it reaches BAD when the condition holds.
func litmusRMM(lt *litmus.Test) (string, error) {
	local := localConds(lt.Cond, len(lt.Threads))
	vals := []int64{0, 1}
	add := int64(0)
	for _, v := range lt.Init {
		vals = append(vals, v)
	}
	var locs []string
	addLoc := func(l string) {
		if l != "" && !slices.Contains(locs, l) {
			locs = append(locs, l)
		}
	}
	for k := range lt.Init {
		if !strings.Contains(k, ":") {
			addLoc(k)
		}
	}
	slices.Sort(locs)
	regs := make([][]string, len(lt.Threads))
	for th, code := range lt.Threads {
		for _, in := range code {
			addLoc(in.Loc)
			vals = append(vals, in.Val, in.Expect)
			if in.Op == "LOCKADD" {
				add += max(in.Val, 0)
			}
			if in.Reg != "" && !slices.Contains(regs[th], in.Reg) {
				regs[th] = append(regs[th], in.Reg)
			}
		}
	}
	var walk func(c *litmus.Cond)
	walk = func(c *litmus.Cond) {
		if c == nil {
			return
		}
		vals = append(vals, c.Val)
		addLoc(c.Mem)
		for _, d := range slices.Concat(c.And, c.Or) {
			walk(d)
		}
		walk(c.Not)
	}
	walk(lt.Cond)
	dom := fmt.Sprintf("[%d:%d]", slices.Min(vals), slices.Max(vals)+add)
	var b strings.Builder
	b.WriteString("forbidden\n ")
	for range lt.Threads {
		if local != nil {
			b.WriteString(" END")
		} else {
			b.WriteString(" *")
		}
	}
	if local == nil {
		b.WriteString(" BAD")
	}
	b.WriteString("\ndata\n")
	// The registers the observer needs.
	named := func(th int, r string) bool {
		return local == nil && condNames(lt.Cond, th, r)
	}
	for _, l := range locs {
		fmt.Fprintf(&b, "  %s = %d : %s\n", l, lt.Init[l], dom)
	}
	if local == nil {
		b.WriteString("  seen = 0 : [0:1]\n")
	}
	for th := range lt.Threads {
		if local != nil {
			break
		}
		fmt.Fprintf(&b, "  done%d = 0 : [0:1]\n", th)
		for _, r := range regs[th] {
			if named(th, r) {
				fmt.Fprintf(&b, "  reg%d_%s = 0 : %s\n", th, r, dom)
			}
		}
	}
	for th, code := range lt.Threads {
		b.WriteString("process\nregisters\n  $tmp = 0 : " + dom + "\n")
		for _, r := range regs[th] {
			fmt.Fprintf(&b, "  $%s = %d : %s\n", r, lt.Init[fmt.Sprintf("%d:%s", th, r)], dom)
		}
		b.WriteString("text\n")
		for _, in := range code {
			reg := "$tmp"
			if in.Reg != "" {
				reg = "$" + in.Reg
			}
			switch in.Op {
			case "W":
				fmt.Fprintf(&b, "  write: %s := %d;\n", in.Loc, in.Val)
			case "R":
				fmt.Fprintf(&b, "  read: %s := %s;\n", reg, in.Loc)
			case "MFENCE":
				b.WriteString("  fence;\n")
			case "XCHG":
				fmt.Fprintf(&b, "  locked { read: %s := %s; write: %s := %d };\n", reg, in.Loc, in.Loc, in.Val)
			case "LOCKADD":
				fmt.Fprintf(&b, "  locked { read: %s := %s; write: %s := %s + %d };\n", reg, in.Loc, in.Loc, reg, in.Val)
			case "CMPXCHG":
				fmt.Fprintf(&b, "  locked { read: %[1]s := %[2]s; assume: %[1]s = %[3]d; write: %[2]s := %[4]d or read: %[1]s := %[2]s; assume: %[1]s != %[3]d };\n",
					reg, in.Loc, in.Expect, in.Val)
			default:
				return "", fmt.Errorf("thread %d: unknown operation %q", th, in.Op)
			}
		}
		if local != nil {
			fmt.Fprintf(&b, "  assume: %s;\n  END: nop\n", local[th])
			continue
		}
		b.WriteString("  locked {")
		for _, r := range regs[th] {
			if named(th, r) {
				fmt.Fprintf(&b, " write: reg%d_%s := $%s;", th, r, r)
			}
		}
		fmt.Fprintf(&b, " write: done%d := 1 }\n", th)
	}
	if local != nil {
		return b.String(), nil
	}
	b.WriteString("process\nregisters\n")
	for _, l := range locs {
		fmt.Fprintf(&b, "  $m_%s = 0 : %s\n", l, dom)
	}
	for th := range lt.Threads {
		for _, r := range regs[th] {
			if named(th, r) {
				fmt.Fprintf(&b, "  $r%d_%s = 0 : %s\n", th, r, dom)
			}
		}
	}
	b.WriteString("text\n  locked {")
	var reads []string
	for th := range lt.Threads {
		reads = append(reads, fmt.Sprintf(" read: done%d = 1", th))
		for _, r := range regs[th] {
			if named(th, r) {
				reads = append(reads, fmt.Sprintf(" read: $r%d_%s := reg%d_%s", th, r, th, r))
			}
		}
	}
	for _, l := range locs {
		reads = append(reads, fmt.Sprintf(" read: $m_%s := %s", l, l))
	}
	// Memorax makes a locked block atomic only when it writes.
	b.WriteString(strings.Join(reads, ";") + "; write: seen := 1 };\n")
	cond, err := rmmCond(lt.Cond)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "  assume: %s;\n  BAD: nop\n", cond)
	return b.String(), nil
}

// localConds splits c, when it is a conjunction of tests of registers, into
// the test of each of n threads on its own registers ("true" for a thread
// it does not name); it returns nil for any other condition.
func localConds(c *litmus.Cond, n int) []string {
	atoms := []*litmus.Cond{c}
	if len(c.And) > 0 {
		atoms = c.And
	}
	parts := make([][]string, n)
	for _, a := range atoms {
		if a.Reg == nil || len(a.And)+len(a.Or) > 0 || a.Not != nil || a.Reg.Thread < 0 || a.Reg.Thread >= n {
			return nil
		}
		parts[a.Reg.Thread] = append(parts[a.Reg.Thread], fmt.Sprintf("$%s = %d", a.Reg.Reg, a.Val))
	}
	out := make([]string, n)
	for th, ps := range parts {
		out[th] = "true"
		if len(ps) > 0 {
			out[th] = strings.Join(ps, " && ")
		}
	}
	return out
}

// condNames reports whether c tests register r of thread th.
func condNames(c *litmus.Cond, th int, r string) bool {
	if c == nil {
		return false
	}
	if c.Reg != nil && c.Reg.Thread == th && c.Reg.Reg == r {
		return true
	}
	return slices.ContainsFunc(slices.Concat(c.And, c.Or, []*litmus.Cond{c.Not}), func(d *litmus.Cond) bool { return condNames(d, th, r) })
}

// rmmCond writes c over the observer's registers.
func rmmCond(c *litmus.Cond) (string, error) {
	join := func(op string, cs []*litmus.Cond) (string, error) {
		parts := make([]string, len(cs))
		for i, d := range cs {
			s, err := rmmCond(d)
			if err != nil {
				return "", err
			}
			parts[i] = "[" + s + "]"
		}
		return strings.Join(parts, " "+op+" "), nil
	}
	switch {
	case c == nil:
		return "", fmt.Errorf("empty condition")
	case len(c.And) > 0:
		return join("&&", c.And)
	case len(c.Or) > 0:
		return join("||", c.Or)
	case c.Not != nil:
		s, err := rmmCond(c.Not)
		return "not [" + s + "]", err
	case c.Mem != "":
		return fmt.Sprintf("$m_%s = %d", c.Mem, c.Val), nil
	case c.Reg != nil:
		return fmt.Sprintf("$r%d_%s = %d", c.Reg.Thread, c.Reg.Reg, c.Val), nil
	}
	return "", fmt.Errorf("empty condition")
}

// TestPSOCommands checks the PSO paths of check and fences on small models.
func TestPSOCommands(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return file
	}
	const head = "data\n  x = 0 : [0:2]\n  y = 0 : [0:2]\n"
	mp := write("mp.rmm", "forbidden\n  * B\n"+head+"process\ntext\n  write: x := 1;\n  write: y := 1\nprocess\ntext\n  read: y = 1;\n  read: x = 0;\n  B: nop\n")
	mpss := write("mpss.rmm", "forbidden\n  * B\n"+head+"process\ntext\n  write: x := 1;\n  ssfence;\n  write: y := 1\nprocess\ntext\n  read: y = 1;\n  read: x = 0;\n  B: nop\n")
	sb := write("sb.rmm", "forbidden\n  A B\n"+head+"process\ntext\n  write: x := 1;\n  read: y = 0;\n  A: nop\nprocess\ntext\n  write: y := 1;\n  read: x = 0;\n  B: nop\n")
	wrong := write("wrong.rmm", "forbidden\n  A *\n"+head+"process\ntext\n  read: x = 0;\n  A: nop\nprocess\ntext\n  write: x := 1\n")
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"message passing is allowed under PSO, with the flush of y first", []string{"check", "-model=pso", mp}, exitUnsafe, "P0: flush y = 1   buffers: P0[x=1]", ""},
		{"and forbidden under TSO", []string{"check", "-model=tso", mp}, exitSafe, "safe under tso", ""},
		{"a store-store fence forbids it", []string{"check", "-model=pso", mpss}, exitSafe, "safe under pso", ""},
		{"the buffers show the fence", []string{"check", "-model=pso", "-engine=explicit", sb}, exitUnsafe, "[explicit]", ""},
		{"an engine without PSO refuses", []string{"check", "-model=pso", "-engine=sb", mp}, exitUsage, "", "the sb engine does not decide PSO"},
		{"fences under PSO: a store-store fence suffices", []string{"fences", "-model=pso", mp}, exitUnsafe, "store-store barrier after P0@q0->q1: write x := 1", ""},
		{"fences under PSO: store buffering needs full fences", []string{"fences", "-model=pso", sb}, exitUnsafe, "{P0@q0->q1 P1@q0->q1}", ""},
		{"fences under PSO: every minimal set, cheapest first", []string{"fences", "-model=pso", "-all", mp}, exitUnsafe, "1 minimal set(s): {P0@q0->q1(ss)}", ""},
		{"fences under PSO: wrong under SC", []string{"fences", "-model=pso", wrong}, exitUnsafe, "wrong under SC: no barrier can repair it", ""},
		{"fences under SC make no sense", []string{"fences", "-model=sc", mp}, exitUsage, "", "no barrier changes anything under SC"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(tc.args, &out, &errb)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out.String(), errb.String())
			}
			if !strings.Contains(out.String(), tc.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tc.stdout, out.String())
			}
			if !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, errb.String())
			}
		})
	}
}
