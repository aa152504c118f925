// Package gclplugin makes fencecheck a golangci-lint v2 module plugin.
//
// Importing the package registers a linter named "fencecheck" with
// github.com/golangci/plugin-module-register. A golangci-lint binary that
// blank-imports it (built by `golangci-lint custom` from a .custom-gcl.yml, or
// by hand from a main package that calls golangci-lint's command entry point)
// runs the fencecheck analyzer when .golangci.yml enables it:
//
//	version: "2"
//	linters:
//	  enable:
//	    - fencecheck
//	  settings:
//	    custom:
//	      fencecheck:
//	        type: module
//	        description: memory barriers for lock-free code on x86-TSO
//	        settings:
//	          engine: auto         # auto, explicit, sb, pred or bmc
//	          fences: cheapest     # cheapest or all
//	          placement: after-writes  # after-writes or anywhere
//	          maxwork: 6000000     # work per system (states, constraints; 4 per abstract state, 200 per solver call)
//	          budget: 2m           # wall-clock time per system, a Go duration
//	          witness: false       # include the breaking interleaving
//	          races: true          # report data races under the Go memory model
//	          blocking: true       # report goroutines that can block forever
//	          memory: 2048         # MiB of heap the analysis may use
//	          unfixed: false       # report only the findings without a suggested fix
//
// The settings are the analyzer's flags (fencecheck -help lists them): each
// one is forwarded to the flag of its name, as on the command line. Every
// setting is optional; an unknown setting, one of the wrong type, or a value
// the analyzer does not accept makes New fail with an error that names the
// setting, so golangci-lint stops before it lints anything.
package gclplugin

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/fencecheck/fencecheck/analyzer"
)

// Name is the linter's name in golangci-lint's configuration and in
// //nolint:fencecheck comments.
const Name = "fencecheck"

func init() {
	register.Plugin(Name, New)
}

// Plugin is the golangci-lint plugin for one configuration.
type Plugin struct {
	cfg analyzer.Config
}

var _ register.LinterPlugin = (*Plugin)(nil)

// New decodes golangci-lint's settings for fencecheck (nil when the
// configuration has none) into an analyzer configuration and checks it.
func New(settings any) (register.LinterPlugin, error) {
	cfg, err := Decode(settings)
	if err != nil {
		return nil, err
	}
	return &Plugin{cfg: cfg}, nil
}

// Decode turns golangci-lint's raw settings into an analyzer.Config: the
// defaults, with each setting present forwarded to the analyzer's flag of
// the same name (analyzer.Config.RegisterFlags), so that the settings are
// the flags. It reports a setting that names no flag, a value of the wrong
// type, one the flag cannot parse and any value that analyzer.Config.Validate
// rejects, naming the setting. An empty value (a YAML key without one, or
// "") keeps the default.
func Decode(settings any) (analyzer.Config, error) {
	cfg := analyzer.DefaultConfig()
	if settings == nil {
		return cfg, nil
	}
	fs := flag.NewFlagSet(Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cfg.RegisterFlags(fs)
	m, ok := settings.(map[string]any)
	if !ok {
		return analyzer.Config{}, fmt.Errorf("fencecheck settings: want a map of settings (%s), got %T", knownSettings(fs), settings)
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		f := fs.Lookup(k)
		if f == nil {
			return analyzer.Config{}, fmt.Errorf("fencecheck settings: unknown setting %q (known: %s)", k, knownSettings(fs))
		}
		v, err := flagValue(f, m[k])
		if err != nil {
			return analyzer.Config{}, err
		}
		if v == "" {
			continue // an empty value: the default
		}
		if err := fs.Set(k, v); err != nil {
			if kindOf(f) == kindDuration {
				return analyzer.Config{}, fmt.Errorf("fencecheck settings: %s %q is not a duration (want e.g. \"30s\" or \"2m\"): %w", k, v, err)
			}
			return analyzer.Config{}, fmt.Errorf("fencecheck settings: setting %q: %w", k, err)
		}
	}
	if err := cfg.Validate(); err != nil {
		return analyzer.Config{}, err // already says "fencecheck: invalid <setting> ..."
	}
	return cfg, nil
}

// The kinds of flag values, by the type of the settings that set them.
const (
	kindString   = "string"
	kindBool     = "bool"
	kindInt      = "int"
	kindDuration = "duration"
)

// kindOf returns the kind of f's value.
func kindOf(f *flag.Flag) string {
	switch f.Value.(flag.Getter).Get().(type) {
	case bool:
		return kindBool
	case int, int64, uint, uint64:
		return kindInt
	case time.Duration:
		return kindDuration
	}
	return kindString
}

// flagValue returns the flag text of a setting's value v for flag f, "" for
// an empty value, or an error when v does not have the type the flag needs:
// golangci-lint hands over YAML values as strings, bools and numbers.
func flagValue(f *flag.Flag, v any) (string, error) {
	if v == nil {
		return "", nil
	}
	kind := kindOf(f)
	switch kind {
	case kindString, kindDuration:
		if s, ok := v.(string); ok {
			return s, nil
		}
	case kindBool:
		if b, ok := v.(bool); ok {
			return strconv.FormatBool(b), nil
		}
	case kindInt:
		switch n := v.(type) {
		case int:
			if n >= 0 {
				return strconv.Itoa(n), nil
			}
		case int64:
			if n >= 0 {
				return strconv.FormatInt(n, 10), nil
			}
		case uint64:
			return strconv.FormatUint(n, 10), nil
		case float64:
			if n >= 0 && n == float64(int64(n)) {
				return strconv.FormatInt(int64(n), 10), nil
			}
		}
	}
	want, article := kind, "a"
	switch kind {
	case kindDuration:
		want = `string (a Go duration such as "30s" or "2m")`
	case kindBool:
		want = "bool (true or false)"
	case kindInt:
		want, article = "int (a whole number, 0 or more: "+f.Usage+")", "an"
	default:
		want = "string (" + f.Usage + ")"
	}
	return "", fmt.Errorf("fencecheck settings: setting %q must be %s %s, got %v (%T)", f.Name, article, want, v, v)
}

// knownSettings lists the setting names, the analyzer's flags, for error
// messages.
func knownSettings(fs *flag.FlagSet) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return strings.Join(names, ", ")
}

// Config returns the analyzer configuration the plugin was built with.
func (p *Plugin) Config() analyzer.Config { return p.cfg }

// BuildAnalyzers returns the fencecheck analyzer for the plugin's
// configuration, with its diagnostics' related information dropped (see
// withoutRelated).
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return []*analysis.Analyzer{withoutRelated(analyzer.New(p.cfg))}, nil
}

// withoutRelated returns a copy of a whose diagnostics carry no related
// information. golangci-lint turns each related-information entry into an
// issue of its own, at the overtaking load and at the bad state, which a
// //nolint:fencecheck on the store's line cannot silence; fencecheck's
// message already names those positions, so nothing is lost.
func withoutRelated(a *analysis.Analyzer) *analysis.Analyzer {
	b := &analysis.Analyzer{
		Name:             a.Name,
		Doc:              a.Doc,
		URL:              a.URL,
		Requires:         a.Requires,
		ResultType:       a.ResultType,
		FactTypes:        a.FactTypes,
		RunDespiteErrors: a.RunDespiteErrors,
	}
	a.Flags.VisitAll(func(f *flag.Flag) { b.Flags.Var(f.Value, f.Name, f.Usage) })
	run := a.Run
	b.Run = func(pass *analysis.Pass) (any, error) {
		p := *pass
		p.Report = func(d analysis.Diagnostic) {
			d.Related = nil
			pass.Report(d)
		}
		return run(&p)
	}
	return b
}

// GetLoadMode reports that the analyzer needs type information (it builds
// SSA from typed syntax).
func (p *Plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
