package gclplugin_test

import (
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
	"github.com/fencecheck/fencecheck/gclplugin"
)

// newPlugin builds the plugin the way golangci-lint does: through the
// registry that the package's init fills.
func newPlugin(t *testing.T, settings any) *gclplugin.Plugin {
	t.Helper()
	ctor, err := register.GetPlugin(gclplugin.Name)
	if err != nil {
		t.Fatalf("GetPlugin(%q): %v", gclplugin.Name, err)
	}
	lp, err := ctor(settings)
	if err != nil {
		t.Fatalf("New(%v): %v", settings, err)
	}
	p, ok := lp.(*gclplugin.Plugin)
	if !ok {
		t.Fatalf("New returned %T, want *gclplugin.Plugin", lp)
	}
	return p
}

func TestNewDecodesSettings(t *testing.T) {
	def := analyzer.DefaultConfig()
	tests := []struct {
		name     string
		settings any
		want     analyzer.Config
	}{
		{"no settings", nil, def},
		{"empty map", map[string]any{}, def},
		{"empty values keep the defaults", map[string]any{"engine": nil, "budget": ""}, def},
		{
			name: "every setting",
			settings: map[string]any{
				"engine":    "sb",
				"fences":    "all",
				"placement": "anywhere",
				"budget":    "2m30s",
				"witness":   true,
				"races":     false,
				"blocking":  false,
				"memory":    512,
				"maxwork":   1000,
			},
			want: analyzer.Config{
				Engine:      analyzer.EngineSB,
				Fences:      analyzer.FencesAll,
				Placement:   analyzer.PlacementAnywhere,
				Budget:      150 * time.Second,
				Witness:     true,
				Races:       false,
				Blocking:    false,
				MemoryLimit: 512,
				Work:        1000,
			},
		},
		{
			name:     "the bounded engine and unfixed",
			settings: map[string]any{"engine": "bmc", "unfixed": true, "maxwork": float64(6e6)},
			want: analyzer.Config{
				Engine:    analyzer.EngineBMC,
				Fences:    def.Fences,
				Placement: def.Placement,
				Races:     def.Races,
				Blocking:  def.Blocking,
				Unfixed:   true,
				Work:      6_000_000,
			},
		},
		{
			name:     "as .golangci.yml of the integration tests",
			settings: map[string]any{"engine": "sb", "fences": "cheapest", "placement": "after-writes", "budget": "1m", "races": false},
			want: analyzer.Config{
				Engine:    analyzer.EngineSB,
				Fences:    def.Fences,
				Placement: def.Placement,
				Budget:    time.Minute,
				Blocking:  def.Blocking,
			},
		},
		{
			name:     "one setting",
			settings: map[string]any{"engine": "explicit"},
			want: analyzer.Config{
				Engine:    analyzer.EngineExplicit,
				Fences:    def.Fences,
				Placement: def.Placement,
				Races:     def.Races,
				Blocking:  def.Blocking,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPlugin(t, tt.settings)
			if got := p.Config(); got != tt.want {
				t.Errorf("Config() = %+v, want %+v", got, tt.want)
			}
			if got := p.GetLoadMode(); got != register.LoadModeTypesInfo {
				t.Errorf("GetLoadMode() = %q, want %q", got, register.LoadModeTypesInfo)
			}
			as, err := p.BuildAnalyzers()
			if err != nil {
				t.Fatalf("BuildAnalyzers: %v", err)
			}
			if len(as) != 1 || as[0].Name != "fencecheck" {
				t.Fatalf("BuildAnalyzers() = %v, want the one fencecheck analyzer", as)
			}
			if got := as[0].Flags.Lookup("engine").Value.String(); got != tt.want.Engine {
				t.Errorf("analyzer's -engine flag = %q, want %q", got, tt.want.Engine)
			}
		})
	}
}

func TestNewRejectsBadSettings(t *testing.T) {
	tests := []struct {
		name     string
		settings any
		// wantErr are substrings of the error: the setting's name and why.
		wantErr []string
	}{
		{"not a map", "engine=sb", []string{"want a map of settings", "string"}},
		{"list", []any{"engine"}, []string{"want a map of settings"}},
		{"unknown key", map[string]any{"engines": "sb"}, []string{`unknown setting "engines"`, "known: blocking, budget, engine, fences, "}},
		{"unknown key among good ones", map[string]any{"engine": "sb", "max-depth": 3}, []string{`unknown setting "max-depth"`}},
		{"engine not a string", map[string]any{"engine": 3}, []string{`setting "engine" must be a string`, "int"}},
		{"fences not a string", map[string]any{"fences": []any{"all"}}, []string{`setting "fences" must be a string`}},
		{"budget as a number", map[string]any{"budget": 30}, []string{`setting "budget" must be a string`}},
		{"witness not a bool", map[string]any{"witness": "yes"}, []string{`setting "witness" must be a bool`}},
		{"races not a bool", map[string]any{"races": "no"}, []string{`setting "races" must be a bool`}},
		{"memory not a number", map[string]any{"memory": "2GB"}, []string{`setting "memory" must be an int`}},
		{"memory negative", map[string]any{"memory": -1}, []string{`setting "memory" must be an int`}},
		{"maxwork not a number", map[string]any{"maxwork": "lots"}, []string{`setting "maxwork" must be an int`}},
		{"maxwork negative", map[string]any{"maxwork": -1}, []string{`setting "maxwork" must be an int`}},
		{"budget not a duration", map[string]any{"budget": "soon"}, []string{`budget "soon" is not a duration`}},
		{"budget negative", map[string]any{"budget": "-1s"}, []string{"budget", "negative"}},
		{"unknown engine", map[string]any{"engine": "z3"}, []string{`engine "z3"`}},
		{"unknown fences", map[string]any{"fences": "some"}, []string{`fences "some"`}},
		{"unknown placement", map[string]any{"placement": "before-reads"}, []string{`placement "before-reads"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := gclplugin.New(tt.settings)
			if err == nil {
				t.Fatalf("New(%#v) = %v, nil; want an error", tt.settings, p)
			}
			for _, want := range tt.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("New(%#v) error %q does not contain %q", tt.settings, err, want)
				}
			}
		})
	}
}

// TestSettingsAreFlags checks that every flag of the analyzer is a setting
// of the plugin, and that the plugin has no other.
func TestSettingsAreFlags(t *testing.T) {
	a := analyzer.New(analyzer.DefaultConfig())
	n := 0
	a.Flags.VisitAll(func(f *flag.Flag) {
		n++
		var v any = f.Value.String()
		switch f.Value.(flag.Getter).Get().(type) {
		case bool:
			v = f.Value.String() == "true"
		case int64:
			v = 0
		}
		if _, err := gclplugin.New(map[string]any{f.Name: v}); err != nil {
			t.Errorf("the analyzer's flag -%s as a setting: %v", f.Name, err)
		}
	})
	_, err := gclplugin.New(map[string]any{"no-such-setting": true})
	if err == nil || strings.Count(err.Error(), ", ")+1 != n {
		t.Errorf("the settings are not the analyzer's %d flags: %v", n, err)
	}
}

// TestAnalyzerOnTestdata runs the analyzer that BuildAnalyzers returns on
// testdata/src: the diagnostics (// want comments) and the suggested fixes
// (.golden files).
func TestAnalyzerOnTestdata(t *testing.T) {
	for _, settings := range []map[string]any{
		nil,
		{"engine": "sb", "fences": "cheapest", "budget": "1m"},
	} {
		p := newPlugin(t, settings)
		as, err := p.BuildAnalyzers()
		if err != nil {
			t.Fatalf("BuildAnalyzers: %v", err)
		}
		results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), as[0], "storebuffer", "safe")
		for _, r := range results {
			for _, d := range r.Diagnostics {
				if len(d.Related) > 0 {
					t.Errorf("%s: diagnostic %q has related information, which golangci-lint would report as issues of their own", r.Pass.Fset.Position(d.Pos), d.Message)
				}
			}
		}
	}
}
