package bmc_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

var updateFig11 = flag.Bool("update-fig11", false, "rewrite testdata/fig11 from the benchmark systems")

// fig11Dir holds the benchmark systems as model files, with the manifests
// that fencemodel bench -engine=bmc reads: manifest.json for the main suite
// (the default), counting.json for the counting systems.
const fig11Dir = "../../testdata/fig11"

// fig11Entry is one entry of testdata/fig11/manifest.json.
type fig11Entry struct {
	File       string `json:"file"`
	Name       string `json:"name"`
	Goroutines int    `json:"goroutines"`
	Unroll     int    `json:"unroll"`
	Expect     string `json:"expect"`
	Notes      string `json:"notes"`
}

// TestFig11Files checks that testdata/fig11 holds the benchmark systems of
// the Fig. 11 table, each as a model file that parses back to the program
// the benchmark builds, and a manifest with their bounds and verdicts; with
// -update-fig11 it writes them.
func TestFig11Files(t *testing.T) {
	notes := map[string]string{
		"mutex":       "spin lock (compare-and-swap, atomic release) around a plain increment; bad: two goroutines inside; bug: goroutine 0 takes no lock",
		"barrier":     "flag barrier: write a slot, set a flag atomically, wait for every flag, read the next slot; bad: a slot read as 0; bug: goroutine 0 sets its flag first",
		"publication": "goroutine 0 writes the data and publishes it by an atomic flag; bad: a reader sees the flag and reads 0; bug: the flag is set before the last datum",
		"counter":     "the spin-lock system with the lost update as the bad state (a counting proof)",
		"waitgroup":   "counting barrier (atomic add, wait for n); bad: a slot read as 0; bug: goroutine 0 arrives first",
	}
	manifests := map[string][]fig11Entry{}
	for _, s := range append(mainSuite(), countingSuite()...) {
		name := s.prog.Name + map[bool]string{true: "_bug", false: ""}[s.bug]
		file := name + ".fcm"
		src := native.Format(s.prog)
		path := filepath.Join(fig11Dir, file)
		if *updateFig11 {
			if err := os.MkdirAll(fig11Dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, src, 0o644); err != nil {
				t.Fatal(err)
			}
		} else {
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update-fig11)", err)
			}
			if !bytes.Equal(got, src) {
				t.Errorf("%s differs from the benchmark system (run with -update-fig11)", path)
			}
		}
		p, err := native.Parse(file, src)
		if err != nil {
			t.Fatalf("%s does not parse: %v", file, err)
		}
		// Parsing gives every part a position; the systems have none.
		for _, q := range p.Procs {
			for i := range q.Locs {
				q.Locs[i].Pos = model.Pos{}
			}
			for i := range q.Trans {
				q.Trans[i].Pos = model.Pos{}
			}
		}
		for i := range p.Bad {
			p.Bad[i].Pos = model.Pos{}
		}
		if !bytes.Equal(native.Format(p), src) {
			t.Errorf("%s does not survive a round trip", file)
		}
		expect := map[bool]string{true: "unsafe", false: "safe"}[s.bug]
		m := "manifest.json"
		if s.name == "counter" || s.name == "waitgroup" {
			m = "counting.json"
		}
		manifests[m] = append(manifests[m], fig11Entry{File: file, Name: s.label(), Goroutines: s.n, Unroll: s.unroll, Expect: expect,
			Notes: fmt.Sprintf("%s (SC, unrolled to %d backward jumps per goroutine)", notes[s.name], s.unroll)})
	}
	for name, entries := range manifests {
		manifest, err := json.MarshalIndent(entries, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		manifest = append(manifest, '\n')
		path := filepath.Join(fig11Dir, name)
		if *updateFig11 {
			if err := os.WriteFile(path, manifest, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, manifest) {
			t.Errorf("%s differs from the benchmark systems (run with -update-fig11): %v", path, err)
		}
	}
}
