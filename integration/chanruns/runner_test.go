package chanruns

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fencecheck/fencecheck/integration/internal/itest"
)

// runnerDir is the directory, in the generated module, of the command that
// runs the systems.
const runnerDir = "cmd/run"

// runnerHead is the start of the runner command, up to its imports of the
// generated packages; runnerMain follows the table of systems.
const runnerHead = `// Command run calls one generated system again and again, each call in a
// goroutine of its own under a watchdog, and reports on stderr the
// deadlocks and leaks it sees. A panic of a goroutine crashes the process
// (the runtime prints "panic: ..."), and the race detector, in a binary
// built with -race, prints its reports as it finds them.
package main

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"strings"
	"time"
`

// runnerMain is the rest of the runner after its table of systems.
const runnerMain = `
func main() {
	name := flag.String("sys", "", "the package of the system to run")
	n := flag.Int("n", 300, "calls of the system function")
	hang := flag.Duration("hang", time.Second, "a call that takes longer, its goroutines all blocked, is a deadlock")
	leakWait := flag.Duration("leakwait", 200*time.Millisecond, "a goroutine of the system still blocked this long after the call returned is a leak")
	leaks := flag.Bool("leaks", true, "look for leaks and stop at the first (false: leave leaked goroutines behind)")
	stopHang := flag.Bool("stophang", true, "stop at the first deadlock (false: go on, leaving the blocked goroutines behind)")
	maxHangs := flag.Int("maxhangs", 3, "with -stophang=false, stop after this many deadlocks")
	flag.Parse()
	sys := systems[*name]
	if sys == nil {
		fmt.Fprintf(os.Stderr, "chanruns: no system %q\n", *name)
		os.Exit(2)
	}
	prefix := "gen/" + *name + "."
	base := runtime.NumGoroutine()
	hangs := 0
	for i := range *n {
		done := make(chan struct{})
		go func() {
			defer close(done)
			sys()
		}()
		if !waitDone(done, *hang, prefix) {
			report("deadlock", i, prefix)
			hangs++
			if *stopHang || hangs >= *maxHangs {
				fmt.Fprintf(os.Stderr, "chanruns: stopped after %d deadlocks\n", hangs)
				os.Exit(3)
			}
			base = runtime.NumGoroutine()
			continue
		}
		if *leaks && !settle(base, *leakWait, prefix) {
			report("leak", i, prefix)
			os.Exit(4)
		}
	}
	fmt.Fprintf(os.Stderr, "chanruns: completed %d iterations\n", *n)
}

// waitDone waits for done, and says false when the call does not end
// within hang while none of the system's goroutines can run (it waits
// longer, up to ten times, while one can).
func waitDone(done chan struct{}, hang time.Duration, prefix string) bool {
	t := time.NewTimer(hang)
	defer t.Stop()
	for extra := 0; ; extra++ {
		select {
		case <-done:
			return true
		case <-t.C:
		}
		select {
		case <-done:
			return true
		default:
		}
		if extra >= 10 || !progressing(systemGoroutines(prefix)) {
			return false
		}
		t.Reset(hang)
	}
}

// settle waits for the number of goroutines to come back to base, and says
// false when, after wait, goroutines of the system are left and all of
// them are blocked (it waits longer, up to ten times, while one can run).
func settle(base int, wait time.Duration, prefix string) bool {
	start := time.Now()
	for i := 0; runtime.NumGoroutine() > base; i++ {
		if since := time.Since(start); since > wait {
			gs := systemGoroutines(prefix)
			if len(gs) == 0 {
				return true
			}
			if !progressing(gs) || since > 10*wait {
				return false
			}
		}
		if i < 50 {
			runtime.Gosched()
		} else {
			time.Sleep(200 * time.Microsecond)
		}
	}
	return true
}

// A goroutine is one goroutine of the system in a dump of every
// goroutine's stack: its number, its state, and its innermost frame in
// the system's package.
type goroutine struct {
	id, state, at string
}

var headerRE = regexp.MustCompile(` + "`^goroutine (\\d+) .*?\\[([^\\],]+)`" + `)

// systemGoroutines returns the goroutines running code of the package
// whose functions start with prefix.
func systemGoroutines(prefix string) []goroutine {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var gs []goroutine
	for _, block := range strings.Split(string(buf), "\n\n") {
		lines := strings.Split(block, "\n")
		m := headerRE.FindStringSubmatch(lines[0])
		if m == nil {
			continue
		}
		for k := 1; k+1 < len(lines); k++ {
			if strings.HasPrefix(lines[k], prefix) {
				at := strings.TrimSpace(lines[k+1])
				if j := strings.LastIndex(at, " +0x"); j >= 0 {
					at = at[:j]
				}
				gs = append(gs, goroutine{id: m[1], state: m[2], at: at})
				break
			}
		}
	}
	return gs
}

// blockedStates are the states of goroutines that wait for another
// goroutine.
var blockedStates = map[string]bool{
	"chan receive": true, "chan send": true, "select": true, "select (no cases)": true,
	"chan receive (nil chan)": true, "chan send (nil chan)": true,
	"sync.WaitGroup.Wait": true, "sync.Mutex.Lock": true, "semacquire": true, "sync.Cond.Wait": true,
}

// progressing reports whether one of gs can still run.
func progressing(gs []goroutine) bool {
	for _, g := range gs {
		if !blockedStates[g.state] {
			return true
		}
	}
	return false
}

// report prints an event and where the system's goroutines stand.
func report(kind string, i int, prefix string) {
	fmt.Fprintf(os.Stderr, "chanruns: %s in iteration %d\n", kind, i)
	for _, g := range systemGoroutines(prefix) {
		fmt.Fprintf(os.Stderr, "chanruns: \tgoroutine %s [%s] at %s\n", g.id, g.state, g.at)
	}
}
`

// writeRunner writes the runner command, which imports every program.
func writeRunner(root string, progs []program) error {
	var b strings.Builder
	b.WriteString(runnerHead)
	b.WriteString("\n")
	for _, p := range progs {
		fmt.Fprintf(&b, "\t%s \"gen/%s\"\n", p.pkg, p.pkg)
	}
	b.WriteString(")\n\n// systems are the system functions by package.\nvar systems = map[string]func(){\n")
	for _, p := range progs {
		fmt.Fprintf(&b, "\t%q: %s.%s,\n", p.pkg, p.pkg, systemFunc)
	}
	b.WriteString("}\n")
	b.WriteString(runnerMain)
	dir := filepath.Join(root, filepath.FromSlash(runnerDir))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "main.go"), []byte(b.String()), 0o644)
}

// runConfig says how to run the systems.
type runConfig struct {
	iterations int           // calls of the system function per process
	hang       time.Duration // a call blocked this long is a deadlock
	leakWait   time.Duration // goroutines blocked this long after the call are leaked
	attempts   int           // processes per system at most
	timeout    time.Duration // wall-clock limit of one process
}

// Event kinds seen at run time.
const (
	// evRace is a report of the race detector on memory: two accesses of
	// the program's to one variable.
	evRace = "race"
	// evChanRace is a report of the race detector on a channel: a send
	// (a read of the channel for the race detector) or a close racing
	// with a close (a write), the run time's own accesses.
	evChanRace = "chan-race"
	evDeadlock = "deadlock"
	evLeak     = "leak"
	evPanic    = "panic"
)

// eventKinds lists the kinds of run-time events in the order of the
// tables.
var eventKinds = []string{evRace, evChanRace, evDeadlock, evLeak, evPanic}

// An event is the first run-time event of one kind of a system.
type event struct {
	kind   string
	detail string // the panic's message, where the goroutines block, the racing lines
	lines  []int  // lines of the program: of the panic, of the blocked goroutines, of the racing accesses
}

// A runResult is what the processes of one system saw.
type runResult struct {
	events     map[string]*event
	counts     map[string]int // processes that saw each kind
	processes  int
	completed  int      // processes that ran every iteration
	problems   []string // processes that ended for no reason the harness knows
	output     string   // of every process
	elapsed    time.Duration
	iterations int // iterations run, as far as the markers tell
}

// has reports whether the runs saw an event of kind.
func (r *runResult) has(kind string) bool { return r.events[kind] != nil }

// runSystem runs the runner binary on system pkg: a first process stops at
// the first deadlock or leak; the next ones, started while processes stop
// before they complete their iterations (attempts at most), no longer
// stop at a kind already seen, so that the other kinds can still show.
func runSystem(ctx context.Context, bin, pkg string, cfg runConfig) *runResult {
	start := time.Now()
	r := &runResult{events: map[string]*event{}, counts: map[string]int{}}
	var all strings.Builder
	for r.processes < cfg.attempts {
		r.processes++
		hang, maxHangs := cfg.hang, 1
		if r.has(evDeadlock) {
			// The deadlock is known: later ones only need telling apart
			// from slow calls, and a few more are enough.
			hang, maxHangs = cfg.hang/4, 5
		}
		args := []string{"-sys=" + pkg, "-n=" + strconv.Itoa(cfg.iterations),
			"-hang=" + hang.String(), "-leakwait=" + cfg.leakWait.String(), "-maxhangs=" + strconv.Itoa(maxHangs),
			"-leaks=" + strconv.FormatBool(!r.has(evLeak)), "-stophang=" + strconv.FormatBool(!r.has(evDeadlock))}
		out, err := itest.RunRace(ctx, cfg.timeout, "", []string{"GOTRACEBACK=all"}, bin, args...)
		fmt.Fprintf(&all, "$ run %s\n%s", strings.Join(args, " "), out)
		po := parseProcess(out, pkg)
		for _, e := range po.events {
			r.counts[e.kind]++
			if r.events[e.kind] == nil {
				r.events[e.kind] = e
			}
		}
		r.iterations += po.iterations
		switch {
		case po.completed:
			r.completed++
		case po.stopped:
		case errors.Is(err, context.DeadlineExceeded):
			r.problems = append(r.problems, fmt.Sprintf("process %d ran out of its %v", r.processes, cfg.timeout))
		default:
			r.problems = append(r.problems, fmt.Sprintf("process %d ended without a reason the harness knows (%v)", r.processes, err))
		}
		if po.completed || len(r.problems) > 0 {
			break
		}
	}
	r.output = all.String()
	r.elapsed = time.Since(start)
	return r
}

// A processOutcome is what one process's output says.
type processOutcome struct {
	events     []*event
	completed  bool // it ran every iteration
	stopped    bool // it ended for a reason the harness knows: an event
	iterations int
}

// The lines of the runner's output: an event and the goroutines it left
// blocked, and the end of a process that completed its iterations.
var (
	markerRE    = regexp.MustCompile(`^chanruns: (deadlock|leak) in iteration (\d+)$`)
	goroutineRE = regexp.MustCompile(`^chanruns: \tgoroutine (\d+) \[([^\]]+)\] at (.*)$`)
	completedRE = regexp.MustCompile(`^chanruns: completed (\d+) iterations$`)
)

// parseProcess reads the output of one process of system pkg.
func parseProcess(out, pkg string) processOutcome {
	var po processOutcome
	lines := strings.Split(strings.ReplaceAll(out, "\r", ""), "\n")
	file := pkg + ".go"
	// lineOf returns line n of file0 when file0 is the program's file.
	lineOf := func(file0 string, n int) (int, bool) {
		if filepath.Base(file0) != file || filepath.Base(filepath.Dir(file0)) != pkg {
			return 0, false
		}
		return n, true
	}
	// The races: on memory, and on channels (a send or a close, the
	// run time's own accesses, racing with a close).
	var races [2]struct {
		n     int
		lines []int
		funcs []string
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case line == "WARNING: DATA RACE":
			var lns []int
			var funcs []string
			onChan := false
			// Each access: its innermost function, and its first frame in
			// the program.
			for j := i + 1; j < len(lines) && !strings.HasPrefix(lines[j], "=================="); j++ {
				if !strings.Contains(lines[j], " at 0x") || strings.HasPrefix(lines[j], "Goroutine") {
					continue
				}
				if j+1 < len(lines) {
					fn := strings.TrimSpace(lines[j+1])
					if strings.HasPrefix(fn, "runtime.") {
						onChan = true
						funcs = append(funcs, strings.TrimSuffix(fn, "()"))
					}
				}
				for k := j + 1; k < len(lines) && lines[k] != ""; k++ {
					if f, n, ok := itest.ParseFrameFile(lines[k]); ok {
						if n, ok := lineOf(f, n); ok {
							lns = append(lns, n)
							break
						}
					}
				}
			}
			k := 0
			if onChan {
				k = 1
			}
			races[k].n++
			for _, n := range lns {
				if !slices.Contains(races[k].lines, n) {
					races[k].lines = append(races[k].lines, n)
				}
			}
			for _, f := range funcs {
				if !slices.Contains(races[k].funcs, f) {
					races[k].funcs = append(races[k].funcs, f)
				}
			}
		case markerRE.MatchString(line):
			m := markerRE.FindStringSubmatch(line)
			it, _ := strconv.Atoi(m[2])
			po.iterations = max(po.iterations, it+1)
			e := &event{kind: m[1], detail: "iteration " + m[2] + ":"}
			for j := i + 1; j < len(lines); j++ {
				g := goroutineRE.FindStringSubmatch(lines[j])
				if g == nil {
					break
				}
				n, ok := lineOf(itest.SplitPos(g[3]))
				at := g[3]
				if ok {
					at = "line " + strconv.Itoa(n)
					e.lines = append(e.lines, n)
				}
				e.detail += fmt.Sprintf(" goroutine %s [%s] at %s;", g[1], g[2], at)
			}
			e.detail = strings.TrimSuffix(e.detail, ";")
			po.events = append(po.events, e)
			po.stopped = true
		case completedRE.MatchString(line):
			n, _ := strconv.Atoi(completedRE.FindStringSubmatch(line)[1])
			po.iterations = max(po.iterations, n)
			po.completed = true
		case strings.HasPrefix(line, "chanruns: stopped after"):
			po.stopped = true
		case strings.HasPrefix(line, "fatal error: all goroutines are asleep"):
			po.events = append(po.events, &event{kind: evDeadlock, detail: line})
			po.stopped = true
		case strings.HasPrefix(line, "panic: ") && !po.hasPanic():
			e := &event{kind: evPanic, detail: strings.TrimSuffix(strings.TrimPrefix(line, "panic: "), " [recovered]")}
			// The panicking goroutine's innermost frame in the program.
			for j := i + 1; j < len(lines); j++ {
				if f, n, ok := itest.ParseFrameFile(lines[j]); ok {
					if n, ok := lineOf(f, n); ok {
						e.lines = []int{n}
						e.detail += " at line " + strconv.Itoa(n)
						break
					}
				}
			}
			po.events = append(po.events, e)
			po.stopped = true
		}
	}
	for k, kind := range []string{evRace, evChanRace} {
		rs := races[k]
		if rs.n == 0 {
			continue
		}
		e := &event{kind: kind, lines: rs.lines, detail: fmt.Sprintf("%d report(s), accesses at lines %s", rs.n, joinInts(rs.lines))}
		if len(rs.funcs) > 0 {
			e.detail += " in " + strings.Join(rs.funcs, ", ")
		}
		po.events = append([]*event{e}, po.events...)
	}
	return po
}

// hasPanic reports whether po holds a panic already.
func (po *processOutcome) hasPanic() bool {
	return slices.ContainsFunc(po.events, func(e *event) bool { return e.kind == evPanic })
}

// joinInts joins ns with commas.
func joinInts(ns []int) string {
	var ss []string
	for _, n := range ns {
		ss = append(ss, strconv.Itoa(n))
	}
	return strings.Join(ss, ", ")
}
