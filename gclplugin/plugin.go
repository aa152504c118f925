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
//	          engine: auto         # auto, sb, pred or explicit
//	          fences: cheapest     # cheapest or all
//	          placement: after-writes  # after-writes or anywhere
//	          maxwork: 6000000     # work per system (states, constraints; 4 per abstract state, 200 per solver call)
//	          budget: 2m           # wall-clock time per system, a Go duration
//	          witness: false       # include the breaking interleaving
//	          races: true          # report data races under the Go memory model
//	          memory: 2048         # MiB of heap the analysis may use
//
// Every setting is optional; an unknown setting, one of the wrong type, or a
// value the analyzer does not accept makes New fail with an error that names
// the setting, so golangci-lint stops before it lints anything.
package gclplugin

import (
	"flag"
	"fmt"
	"maps"
	"slices"
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

// Settings are the plugin's settings: the "settings" map of
// linters.settings.custom.fencecheck in .golangci.yml. The zero value of a
// field means the analyzer's default.
type Settings struct {
	// Engine is the reachability engine: "auto", "sb", "pred" or "explicit".
	Engine string `json:"engine"`
	// Fences is "cheapest" (one cheapest minimal barrier set) or "all".
	Fences string `json:"fences"`
	// Placement is where barriers may go: "after-writes" or "anywhere".
	Placement string `json:"placement"`
	// Budget is the wall-clock time one system may take, as a Go duration
	// ("30s", "2m"); empty means the analyzer's default.
	Budget string `json:"budget"`
	// Witness includes the interleaving that breaks a system in its
	// diagnostic.
	Witness bool `json:"witness"`
	// Races reports data races under the Go memory model; nil means the
	// analyzer's default (on).
	Races *bool `json:"races"`
	// Blocking reports goroutines that can block forever (deadlock: and
	// leak:); nil means the analyzer's default (on).
	Blocking *bool `json:"blocking"`
	// Memory is the heap, in MiB, that the analysis may use; 0 means the
	// analyzer's default.
	Memory int64 `json:"memory"`
	// MaxWork bounds the engines' work on one system (analyzer.Config.Work);
	// 0 means the analyzer's default.
	MaxWork int64 `json:"maxwork"`
}

// setting describes one key of Settings: the YAML type its value must have
// and the values it takes, for the error message of an ill-typed one.
type setting struct {
	kind string // "string", "bool" or "int"
	want string // the values it takes
}

// settingKinds has an entry for every field of Settings, by JSON name.
var settingKinds = map[string]setting{
	"engine":    {"string", "auto, sb, pred or explicit"},
	"fences":    {"string", "cheapest or all"},
	"placement": {"string", "after-writes or anywhere"},
	"budget":    {"string", `a Go duration such as "30s" or "2m"`},
	"witness":   {"bool", "true or false"},
	"races":     {"bool", "true or false"},
	"blocking":  {"bool", "true or false"},
	"memory":    {"int", "MiB, such as 2048"},
	"maxwork":   {"int", "work units, such as 6000000"},
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
// defaults, overridden by each setting present. It reports an unknown
// setting, a setting of the wrong type, an unparsable budget and any value
// that analyzer.Config.Validate rejects, naming the setting.
func Decode(settings any) (analyzer.Config, error) {
	cfg := analyzer.DefaultConfig()
	if settings == nil {
		return cfg, nil
	}
	if err := checkShape(settings); err != nil {
		return analyzer.Config{}, err
	}
	s, err := register.DecodeSettings[Settings](settings)
	if err != nil {
		return analyzer.Config{}, fmt.Errorf("fencecheck settings: %w", err)
	}
	if s.Engine != "" {
		cfg.Engine = s.Engine
	}
	if s.Fences != "" {
		cfg.Fences = s.Fences
	}
	if s.Placement != "" {
		cfg.Placement = s.Placement
	}
	if s.Budget != "" {
		d, err := time.ParseDuration(s.Budget)
		if err != nil {
			return analyzer.Config{}, fmt.Errorf("fencecheck settings: budget %q is not a duration (want e.g. \"30s\" or \"2m\"): %w", s.Budget, err)
		}
		cfg.Budget = d
	}
	cfg.Witness = s.Witness
	if s.Races != nil {
		cfg.Races = *s.Races
	}
	if s.Blocking != nil {
		cfg.Blocking = *s.Blocking
	}
	cfg.MemoryLimit = s.Memory
	cfg.Work = s.MaxWork
	if err := cfg.Validate(); err != nil {
		return analyzer.Config{}, err // already says "fencecheck: invalid <setting> ..."
	}
	return cfg, nil
}

// checkShape reports, before the JSON round trip of register.DecodeSettings
// gets to it, a settings value that is not a map, a key that names no
// setting and a value of the wrong type, with the setting's name and the
// type it needs. golangci-lint hands over YAML maps as map[string]any.
func checkShape(settings any) error {
	m, ok := settings.(map[string]any)
	if !ok {
		return fmt.Errorf("fencecheck settings: want a map of settings (%s), got %T", knownSettings(), settings)
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		want, ok := settingKinds[k]
		if !ok {
			return fmt.Errorf("fencecheck settings: unknown setting %q (known: %s)", k, knownSettings())
		}
		v := m[k]
		if v == nil {
			continue // an empty YAML value: the default
		}
		var typed bool
		switch want.kind {
		case "string":
			_, typed = v.(string)
		case "bool":
			_, typed = v.(bool)
		case "int":
			switch n := v.(type) {
			case int:
				typed = n >= 0
			case int64:
				typed = n >= 0
			case uint64:
				typed = true
			case float64:
				typed = n >= 0 && n == float64(int64(n))
			}
		}
		if !typed {
			article := "a"
			if want.kind == "int" {
				article = "an"
			}
			return fmt.Errorf("fencecheck settings: setting %q must be %s %s (%s), got %v (%T)", k, article, want.kind, want.want, v, v)
		}
	}
	return nil
}

// knownSettings lists the setting names for error messages.
func knownSettings() string {
	return strings.Join(slices.Sorted(maps.Keys(settingKinds)), ", ")
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
