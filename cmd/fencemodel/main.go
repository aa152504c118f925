// Command fencemodel checks model files (Memorax .rmm or native .fcm) directly:
// it decides whether a bad state is reachable, prints the counterexample with
// the store buffers at each step, and reports statistics.
//
// Usage:
//
//	fencemodel check [-engine=explicit] [-model=tso|sc] [-buffer=N] [-budget=D] FILE...
//
// Exit status: 0 when no bad state is reachable in any file, 1 when one is
// reachable in some file, 2 on a usage or input error, 3 when a budget ran out
// (inconclusive) and no file was unsafe.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

// Exit codes.
const (
	exitSafe         = 0
	exitUnsafe       = 1
	exitUsage        = 2
	exitInconclusive = 3
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: fencemodel COMMAND [flags] FILE...

commands:
  check   decide whether a bad state is reachable; print the trace
  help    print this text

run 'fencemodel COMMAND -h' for the flags of a command
`

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "check":
		return check(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitSafe
	}
	fmt.Fprintf(stderr, "fencemodel: unknown command %q\n%s", args[0], usage)
	return exitUsage
}

// engineFlags are the flags shared by the commands that run an engine.
type engineFlags struct {
	engine    string
	model     string
	buffer    int
	budget    time.Duration
	maxStates int64
}

func (f *engineFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.engine, "engine", "explicit", "reachability engine: explicit")
	fs.StringVar(&f.model, "model", "tso", "memory model: tso or sc")
	fs.IntVar(&f.buffer, "buffer", 0, "store-buffer bound of the explicit engine under TSO (0: exact for loop-free programs, else 4)")
	fs.DurationVar(&f.budget, "budget", time.Minute, "time budget per file")
	fs.Int64Var(&f.maxStates, "max-states", 0, "state budget per file (0: engine default)")
}

func (f *engineFlags) newEngine() (engines.Engine, error) {
	switch f.engine {
	case "explicit":
		return &explicit.Engine{Bound: f.buffer, MaxStates: f.maxStates}, nil
	}
	return nil, fmt.Errorf("unknown engine %q (want explicit)", f.engine)
}

func check(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var ef engineFlags
	ef.register(fs)
	quiet := fs.Bool("q", false, "print only the verdict line of each file")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	m, err := model.ParseModel(ef.model)
	if err != nil {
		fmt.Fprintf(stderr, "fencemodel: %v\n", err)
		return exitUsage
	}
	eng, err := ef.newEngine()
	if err != nil {
		fmt.Fprintf(stderr, "fencemodel: %v\n", err)
		return exitUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "fencemodel check: no model file given")
		return exitUsage
	}
	code := exitSafe
	worse := func(c int) {
		// usage > unsafe > inconclusive > safe
		rank := map[int]int{exitSafe: 0, exitInconclusive: 1, exitUnsafe: 2, exitUsage: 3}
		if rank[c] > rank[code] {
			code = c
		}
	}
	for _, file := range fs.Args() {
		p, err := modelfile.Load(file)
		if err != nil {
			fmt.Fprintf(stderr, "%v\n", err)
			worse(exitUsage)
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), ef.budget)
		res, err := eng.Check(ctx, p, m)
		cancel()
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", file, err)
			worse(exitUsage)
			continue
		}
		fmt.Fprintf(stdout, "%s: %s [%s]\n", file, res, eng.Name())
		switch res.Status {
		case engines.Unsafe:
			worse(exitUnsafe)
			if !*quiet {
				printTrace(stdout, p, res.Trace)
			}
		case engines.Inconclusive:
			worse(exitInconclusive)
		}
	}
	return code
}

func printTrace(w io.Writer, p *model.Program, t *model.Trace) {
	states, err := p.Replay(t)
	var re *model.ReplayError
	if errors.As(err, &re) {
		fmt.Fprintf(w, "  internal error: trace does not replay: %v\n", err)
		return
	}
	fmt.Fprintf(w, "  initial memory: %s\n", formatMem(p, t.InitMem))
	fmt.Fprint(w, indent(p.FormatTrace(t, states), "  "))
}

func formatMem(p *model.Program, mem []int64) string {
	s := ""
	for i, v := range mem {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%s=%d", p.Vars[i].Name, v)
	}
	return s
}

func indent(s, prefix string) string {
	out := ""
	line := ""
	for _, r := range s {
		line += string(r)
		if r == '\n' {
			out += prefix + line
			line = ""
		}
	}
	if line != "" {
		out += prefix + line + "\n"
	}
	return out
}
