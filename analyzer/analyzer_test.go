package analyzer_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
	"github.com/fencecheck/fencecheck/internal/longtest"
)

// TestAnalyzer checks the diagnostics of every testdata package that the
// x86-TSO configuration analyses. The packages of a configuration go to
// one analysistest.Run, which loads and type-checks the standard library
// they import once for all of them (about a second of CPU per load).
func TestAnalyzer(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, analysistest.TestData(), analyzer.New(tsoOnly()),
		"correct", "sc", "nodirectives", "nofence", "directives", "unsupported", "pkginit", "hygiene", "hygienetests", "localrange", "goints", "bitops")
}

// TestBlocking checks the deadlocks, leaks, run-time panics and races of
// the packages of blocking operations (mutexes, wait groups, channels and
// select), under the default configuration (the race question first) and
// with each engine that decides unbounded loops: they must agree. The
// quick run checks blocking with every engine and channels, whose systems
// are the larger, with the explicit engine alone; the long suites check
// both with every engine.
func TestBlocking(t *testing.T) {
	t.Parallel()
	for _, engine := range []string{analyzer.EngineAuto, "explicit", "sb", "pred"} {
		pkgs := []string{"blocking", "channels"}
		if longtest.Quick() && engine != "explicit" {
			pkgs = pkgs[:1]
		}
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			cfg := analyzer.DefaultConfig()
			cfg.Engine = engine
			analysistest.Run(t, analysistest.TestData(), analyzer.New(cfg), pkgs...)
		})
	}
}

// TestSuggestedFixes checks the diagnostics and the fixes, against the
// .golden files, of the packages whose barriers can be made atomic stores.
func TestSuggestedFixes(t *testing.T) {
	t.Parallel()
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), analyzer.New(tsoOnly()), "sb", "dekker", "fixes", "unbounded", "storebarriers")
}

// TestConfigurations checks the flags that change what is reported.
func TestConfigurations(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		config func(*analyzer.Config)
		pkgs   []string
	}{
		{"witness", func(c *analyzer.Config) { c.Witness = true }, []string{"witness"}},
		{"fencesall", func(c *analyzer.Config) { c.Fences = analyzer.FencesAll }, []string{"fencesall"}},
		{"budget", func(c *analyzer.Config) { c.Budget = time.Nanosecond }, []string{"budget"}},
		{"memory", func(c *analyzer.Config) { c.MemoryLimit = 1 }, []string{"memory"}},
		{"anywhere", func(c *analyzer.Config) { c.Placement = analyzer.PlacementAnywhere }, []string{"anywhere", "hygieneanywhere"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cfg := tsoOnly()
			c.config(&cfg)
			analysistest.Run(t, analysistest.TestData(), analyzer.New(cfg), c.pkgs...)
		})
	}
}

// TestFlags checks that the flags set the analyzer's own configuration.
func TestFlags(t *testing.T) {
	a := analyzer.New(analyzer.DefaultConfig())
	for _, f := range []struct{ name, value string }{
		{"engine", "sb"}, {"fences", "all"}, {"placement", "anywhere"}, {"budget", "2s"}, {"witness", "true"}, {"races", "false"}, {"blocking", "false"}, {"memory", "512"}, {"maxwork", "1000"}, {"unfixed", "true"},
	} {
		if err := a.Flags.Set(f.name, f.value); err != nil {
			t.Errorf("setting -%s=%s: %v", f.name, f.value, err)
		}
	}
	if got := analyzer.Analyzer.Flags.Lookup("engine").Value.String(); got != "auto" {
		t.Errorf("setting a flag of one analyzer changed another: -engine=%s", got)
	}
	if err := a.Flags.Set("engine", "fast"); err != nil {
		t.Fatalf("the engine flag is a string flag; setting it failed: %v", err)
	}
	for _, name := range []string{"json", "c", "fix", "diff", "test", "debug", "flags", "V", "tags", "v", "all", "source", "cpuprofile", "memprofile", "trace", "work"} {
		if a.Flags.Lookup(name) != nil {
			t.Errorf("flag -%s clashes with a flag of the analysis drivers", name)
		}
	}
	if analyzer.Analyzer.Name != "fencecheck" || analyzer.Analyzer.URL == "" || !strings.HasPrefix(analyzer.Analyzer.Doc, "report data races, and the memory barriers") {
		t.Errorf("Analyzer: name %q, URL %q, doc %q", analyzer.Analyzer.Name, analyzer.Analyzer.URL, analyzer.Analyzer.Doc)
	}
}

// TestInvalidFlag checks that an invalid configuration fails the run of a
// package with directives, naming the flag's field and value.
func TestInvalidFlag(t *testing.T) {
	cfg := analyzer.DefaultConfig()
	cfg.Engine = "fast"
	var rec recorder
	analysistest.Run(&rec, analysistest.TestData(), analyzer.New(cfg), "sb")
	if !strings.Contains(rec.String(), `invalid engine "fast"`) {
		t.Errorf("run with -engine=fast: got errors\n%s\nwant one naming the invalid engine", rec.String())
	}
}

// recorder is an analysistest.Testing that records errors.
type recorder struct{ strings.Builder }

func (r *recorder) Errorf(format string, args ...any) {
	r.WriteString(fmt.Sprintf(format, args...) + "\n")
}

func TestConfigValidate(t *testing.T) {
	valid := analyzer.DefaultConfig()
	for _, c := range []struct {
		name    string
		change  func(*analyzer.Config)
		wantErr string
	}{
		{"default", func(*analyzer.Config) {}, ""},
		{"sb", func(c *analyzer.Config) { c.Engine = "sb" }, ""},
		{"explicit", func(c *analyzer.Config) { c.Engine = "explicit" }, ""},
		{"pred", func(c *analyzer.Config) { c.Engine = "pred" }, ""},
		{"all", func(c *analyzer.Config) { c.Fences = "all" }, ""},
		{"anywhere", func(c *analyzer.Config) { c.Placement = "anywhere" }, ""},
		{"budget", func(c *analyzer.Config) { c.Budget = time.Minute }, ""},
		{"witness", func(c *analyzer.Config) { c.Witness = true }, ""},
		{"bad engine", func(c *analyzer.Config) { c.Engine = "z3" }, `engine "z3"`},
		{"empty engine", func(c *analyzer.Config) { c.Engine = "" }, `engine ""`},
		{"bad fences", func(c *analyzer.Config) { c.Fences = "some" }, `fences "some"`},
		{"bad placement", func(c *analyzer.Config) { c.Placement = "before-reads" }, `placement "before-reads"`},
		{"negative budget", func(c *analyzer.Config) { c.Budget = -time.Second }, "budget -1s"},
		{"work", func(c *analyzer.Config) { c.Work = 1000 }, ""},
		{"negative work", func(c *analyzer.Config) { c.Work = -1 }, "work bound -1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := valid
			c.change(&cfg)
			err := cfg.Validate()
			switch {
			case c.wantErr == "" && err != nil:
				t.Errorf("Validate: %v, want nil", err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Errorf("Validate: %v, want an error containing %q", err, c.wantErr)
			}
		})
	}
}

// tsoOnly is the configuration of the packages that test the x86-TSO
// analysis alone: races off, so a system is judged as if every plain access
// compiled to one MOV in program order.
func tsoOnly() analyzer.Config {
	c := analyzer.DefaultConfig()
	c.Races = false
	return c
}

// TestRaces checks the race findings of the default configuration and their
// fixes against the .golden files: every access to a racing field or
// variable made atomic.
func TestRaces(t *testing.T) {
	t.Parallel()
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), analyzer.New(analyzer.DefaultConfig()), "races", "racefree", "sliced", "pointerraces")
}

// TestRaceFixesHold applies the race fixes (the .golden files of TestRaces)
// and runs the analyzer again: the fixed package type-checks and has
// neither a race nor a missing barrier.
func TestRaceFixesHold(t *testing.T) {
	for _, pkg := range []string{"races", "pointerraces"} {
		t.Run(pkg, func(t *testing.T) {
			goldens, err := filepath.Glob(filepath.Join("testdata", "src", pkg, "*.go.golden"))
			if err != nil || len(goldens) == 0 {
				t.Fatalf("no .golden files for %s: %v", pkg, err)
			}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module fixed\n\ngo 1.26\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, g := range goldens {
				src, err := os.ReadFile(g)
				if err != nil {
					t.Fatal(err)
				}
				name := strings.TrimSuffix(filepath.Base(g), ".golden")
				if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, d := range analyze(t, dir, analyzer.New(analyzer.DefaultConfig())) {
				if strings.HasPrefix(d.msg, "race:") || strings.HasPrefix(d.msg, "x86-TSO:") || strings.HasPrefix(d.msg, "SC:") {
					t.Errorf("after the fixes, line %d: %s", d.line, d.msg)
				}
			}
		})
	}
}
