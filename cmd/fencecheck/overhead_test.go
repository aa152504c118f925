package main_test

import (
	"fmt"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// BenchmarkOverheadStd compares `go vet -vettool=fencecheck std` with plain
// `go vet std`: the standard library has no //fencecheck: directives, so
// fencecheck must cost next to nothing there. Both commands run against the
// same build cache, which the first (untimed) round fills with the compiled
// packages; every timed run passes a flag value never used before, so that
// go vet's cache of analysis results (keyed by the flags) misses and the
// analyses really run, while compilation stays cached. Each iteration runs
// both commands, alternating which goes first. It reports the median seconds
// of each and their ratio, fencecheck over vet:
//
//	go test ./cmd/fencecheck -run '^$' -bench Overhead -benchtime 5x
func BenchmarkOverheadStd(b *testing.B) {
	bin, gocmd := buildToolB(b)
	vet := func(nonce int) []string {
		// Any flag makes go vet leave the defaults it applies to GOROOT
		// packages: keep -unsafeptr off, as they do.
		return []string{"vet", "-unsafeptr=false", fmt.Sprintf("-printf.funcs=fencecheckNonce%d", nonce), "std"}
	}
	fc := func(nonce int) []string {
		// A budget that differs in the last nanosecond: a new cache key.
		return []string{"vet", "-vettool=" + bin, fmt.Sprintf("-budget=%dns", int64(30*time.Second)+int64(nonce)), "std"}
	}
	timeRun := func(args []string) time.Duration {
		start := time.Now()
		cmd := exec.Command(gocmd, args...)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("go %v: %v\n%s", args, err, out)
		}
		return time.Since(start)
	}
	nonce := int(time.Now().UnixNano() % 1e9)
	// Fill the build cache (export data of std) for both.
	timeRun(vet(nonce))
	timeRun(fc(nonce))
	b.ResetTimer()
	var vets, fcs []time.Duration
	for i := range b.N {
		nonce++
		if i%2 == 0 {
			vets = append(vets, timeRun(vet(nonce)))
			fcs = append(fcs, timeRun(fc(nonce)))
		} else {
			fcs = append(fcs, timeRun(fc(nonce)))
			vets = append(vets, timeRun(vet(nonce)))
		}
	}
	b.StopTimer()
	v, f := median(vets), median(fcs)
	b.ReportMetric(v.Seconds(), "vet-s")
	b.ReportMetric(f.Seconds(), "fencecheck-s")
	b.ReportMetric(f.Seconds()/v.Seconds(), "ratio")
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// buildToolB is buildTool for benchmarks.
func buildToolB(b *testing.B) (bin, gocmd string) {
	b.Helper()
	gocmd, err := exec.LookPath("go")
	if err != nil {
		b.Skipf("no go command: %v", err)
	}
	bin = b.TempDir() + "/fencecheck"
	if out, err := exec.Command(gocmd, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin, gocmd
}
