package racecmp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/fencecheck/fencecheck/integration/internal/itest"
)

// harnessFile is the name of the stress test generated into each package.
const harnessFile = "racecmp_stress_test.go"

// harnessTemplate is the generated stress test. It calls the system
// function %[2]s of package %[1]s again and again, each call in a goroutine
// of its own so that a panic of the system function is recovered and a
// hang stops the process (after the race reports printed so far) instead of
// the whole run.
const harnessTemplate = `package %[1]s

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"
)

// TestRaceStress runs the system $RACECMP_ITERATIONS times.
func TestRaceStress(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("RACECMP_ITERATIONS"))
	hang, _ := time.ParseDuration(os.Getenv("RACECMP_HANG"))
	for i := range n {
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer func() {
				if r := recover(); r != nil {
					fmt.Fprintf(os.Stderr, "racecmp: panic in iteration %%d: %%v\n", i, r)
				}
			}()
			%[2]s()
		}()
		select {
		case <-done:
		case <-time.After(hang):
			fmt.Fprintf(os.Stderr, "racecmp: hang in iteration %%d\n", i)
			os.Exit(3)
		}
	}
	fmt.Fprintf(os.Stderr, "racecmp: completed %%d iterations\n", n)
}
`

// writeHarness writes the stress test of s into its package under root.
func writeHarness(root string, s *system) error {
	src := fmt.Sprintf(harnessTemplate, s.pkg, s.fn)
	return os.WriteFile(filepath.Join(root, s.pkg, harnessFile), []byte(src), 0o644)
}

// stressConfig says how to run the stress tests.
type stressConfig struct {
	iterations int           // calls of the system function per process
	hang       time.Duration // a call that takes longer is a hang
	attempts   int           // processes per system at most, while they crash or hang
	timeout    time.Duration // wall-clock limit of one process
}

// A stressRun is what the race detector reported for one system.
type stressRun struct {
	reports   []raceReport
	processes int // processes run
	completed int // processes that ran every iteration
	panics    int // recovered panics of the system function
	crashes   int // processes killed by a panic in a goroutine
	hangs     int // processes stopped by a hang
	output    string
	elapsed   time.Duration
}

// runStress runs test binary bin, built from the package of s, until one
// process completes its iterations or cfg.attempts processes ran, and
// collects the race reports.
func runStress(ctx context.Context, bin string, cfg stressConfig) *stressRun {
	start := time.Now()
	r := &stressRun{}
	var all strings.Builder
	for r.processes < cfg.attempts {
		r.processes++
		out, err := runTestBinary(ctx, bin, cfg)
		all.WriteString(out)
		r.reports = append(r.reports, parseRaceReports(out)...)
		r.panics += strings.Count(out, "racecmp: panic in iteration")
		switch {
		case strings.Contains(out, "racecmp: completed"):
			r.completed++
		case strings.Contains(out, "racecmp: hang in iteration"):
			r.hangs++
		case errors.Is(err, context.DeadlineExceeded):
			r.hangs++
		default:
			r.crashes++
		}
		if r.completed > 0 {
			break
		}
	}
	r.output = all.String()
	r.elapsed = time.Since(start)
	return r
}

// runTestBinary runs the stress test of bin once and returns its output.
func runTestBinary(ctx context.Context, bin string, cfg stressConfig) (string, error) {
	env := []string{
		"RACECMP_ITERATIONS=" + strconv.Itoa(cfg.iterations),
		"RACECMP_HANG=" + cfg.hang.String(),
	}
	return itest.RunRace(ctx, cfg.timeout, filepath.Dir(bin), env, bin, "-test.run=^TestRaceStress$", "-test.count=1", "-test.timeout="+cfg.timeout.String())
}

// A raceReport is one "WARNING: DATA RACE" report of the race detector:
// the two accesses and the stacks that created their goroutines.
type raceReport struct {
	accesses []raceAccess
	created  map[string][]frame // goroutine → where it was created
}

// A raceAccess is one side of a race report.
type raceAccess struct {
	op        string  // "Read", "Previous write", …
	goroutine string  // "goroutine 7" or "main goroutine"
	frames    []frame // innermost first
}

// A frame is one line of a stack in a race report.
type frame struct {
	fn   string
	file string
	line int
}

var (
	accessRE  = regexp.MustCompile(`^((?:Previous )?(?:[Aa]tomic )?(?:[Rr]ead|[Ww]rite)) at 0x[0-9a-f]+ by (main goroutine|goroutine \d+):$`)
	createdRE = regexp.MustCompile(`^Goroutine (\d+) \([a-z ]+\) created at:$`)
)

// parseRaceReports extracts the race reports from the output of a test
// binary built with -race.
func parseRaceReports(out string) []raceReport {
	var reports []raceReport
	var block []string
	in := false
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case line == "WARNING: DATA RACE":
			in, block = true, nil
		case in && strings.HasPrefix(line, "=================="):
			reports = append(reports, parseRaceReport(block))
			in = false
		case in:
			block = append(block, line)
		}
	}
	return reports
}

// parseRaceReport parses the lines of one report: sections separated by
// blank lines, each a header and a stack.
func parseRaceReport(lines []string) raceReport {
	r := raceReport{created: map[string][]frame{}}
	for len(lines) > 0 {
		end := 0
		for end < len(lines) && lines[end] != "" {
			end++
		}
		section := lines[:end]
		lines = lines[min(end+1, len(lines)):]
		if len(section) == 0 {
			continue
		}
		frames := parseStack(section[1:])
		if m := accessRE.FindStringSubmatch(section[0]); m != nil {
			r.accesses = append(r.accesses, raceAccess{op: m[1], goroutine: m[2], frames: frames})
		} else if m := createdRE.FindStringSubmatch(section[0]); m != nil {
			r.created["goroutine "+m[1]] = frames
		}
	}
	return r
}

// parseStack parses the frames of a stack: a function line, then a
// file:line line.
func parseStack(lines []string) []frame {
	var frames []frame
	fn := ""
	for _, line := range lines {
		if file, n, ok := itest.ParseFrameFile(line); ok && fn != "" {
			frames = append(frames, frame{fn: fn, file: file, line: n})
			fn = ""
		} else {
			fn = strings.TrimSpace(line)
		}
	}
	return frames
}
