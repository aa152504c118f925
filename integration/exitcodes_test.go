package integration

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestExitCodesAndFixes runs fencecheck standalone and under go vet on the
// store-buffering module in every output mode and checks the exit status,
// where the output goes, and what -fix and -diff do to the files: the
// conventions of golang.org/x/tools/go/analysis drivers.
func TestExitCodesAndFixes(t *testing.T) {
	requireIntegration(t)
	bin := fencecheckBinary(t)
	env := []string{"GOTOOLCHAIN=local"}
	vettool := "-vettool=" + bin
	const file = "sb/sb.go"

	tests := []struct {
		name string
		args []string
		code int
		// out must appear in the output; fixed: whether the file is then
		// the fixed version.
		out   []string
		fixed bool
		json  bool
	}{
		{name: "standalone", args: []string{bin, "-races=false", "./..."}, code: 3, out: []string{"sb.go:16:", "sb.go:21:", "x86-TSO: "}},
		{name: "standalone -json", args: []string{bin, "-races=false", "-json", "./..."}, code: 0, json: true},
		{name: "standalone -fix -diff", args: []string{bin, "-races=false", "-fix", "-diff", "./..."}, code: 0, out: []string{"+\t\"sync/atomic\"", "-\t\tx = 1", "+\t\tatomic.StoreInt32(&x, 1)"}},
		{name: "standalone -fix", args: []string{bin, "-races=false", "-fix", "./..."}, code: 0, fixed: true},
		{name: "go vet", args: []string{"go", "vet", vettool, "-races=false", "./..."}, code: 1, out: []string{"sb.go:16:", "sb.go:21:", "x86-TSO: "}},
		{name: "go vet -json", args: []string{"go", "vet", vettool, "-races=false", "-json", "./..."}, code: 0, json: true},
		{name: "go vet -fix -diff", args: []string{"go", "vet", vettool, "-races=false", "-fix", "-diff", "./..."}, code: 1, out: []string{"+\t\"sync/atomic\"", "-\t\ty = 1", "+\t\tatomic.StoreInt32(&y, 1)"}},
		{name: "go vet -fix", args: []string{"go", "vet", vettool, "-races=false", "-fix", "./..."}, code: 0, fixed: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mod := lockfreeModule(t)
			r := run(t, mod, env, tt.args[0], tt.args[1:]...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d\n%s", r.code, tt.code, r.out)
			}
			for _, want := range tt.out {
				if !strings.Contains(r.out, want) {
					t.Errorf("output lacks %q\n%s", want, r.out)
				}
			}
			if tt.json {
				checkJSON(t, r.out)
			}
			got := readFile(t, mod, file)
			if want := string(fixedSB(t)); tt.fixed && got != want {
				t.Errorf("%s after the fix =\n%s\nwant\n%s", file, got, want)
			} else if !tt.fixed && got == want {
				t.Errorf("%s was changed although no fix was asked for", file)
			}
			if tt.fixed {
				// Nothing left to report.
				if r := run(t, mod, env, "go", "vet", vettool, "-races=false", "./..."); r.code != 0 {
					t.Errorf("go vet after the fix: exit %d\n%s", r.code, r.out)
				}
			}
		})
	}
}

// jsonDiagnostic is a diagnostic in the -json report of the analysis
// drivers.
type jsonDiagnostic struct {
	Posn           string            `json:"posn"`
	Message        string            `json:"message"`
	SuggestedFixes []json.RawMessage `json:"suggested_fixes"`
}

// checkJSON checks the -json report of the analysis drivers (a JSON object
// from package path to analyzer name to diagnostics, one per package under
// go vet, which heads each with a "# package" line): fencecheck's two
// diagnostics on package sb, each with its fix.
func checkJSON(t *testing.T, out string) {
	t.Helper()
	var body strings.Builder
	for line := range strings.Lines(out) {
		if !strings.HasPrefix(line, "#") {
			body.WriteString(line)
		}
	}
	var diags []jsonDiagnostic
	dec := json.NewDecoder(strings.NewReader(body.String()))
	for dec.More() {
		var rep map[string]map[string]json.RawMessage
		if err := dec.Decode(&rep); err != nil {
			t.Fatalf("-json output: %v\n%s", err, out)
		}
		for pkg, byAnalyzer := range rep {
			raw, ok := byAnalyzer["fencecheck"]
			if !ok {
				continue
			}
			var ds []jsonDiagnostic
			if err := json.Unmarshal(raw, &ds); err != nil {
				t.Fatalf("-json diagnostics of %s: %v\n%s", pkg, err, raw)
			}
			if !strings.HasSuffix(pkg, "/sb") && len(ds) > 0 {
				t.Errorf("-json: diagnostics on package %s: %s", pkg, raw)
			}
			diags = append(diags, ds...)
		}
	}
	if len(diags) != len(sbStoreLines) {
		t.Fatalf("-json: %d fencecheck diagnostics, want %d\n%s", len(diags), len(sbStoreLines), out)
	}
	for _, d := range diags {
		if !strings.HasPrefix(d.Message, "x86-TSO: ") {
			t.Errorf("-json: diagnostic at %s: message %q lacks the x86-TSO prefix", d.Posn, d.Message)
		}
		if len(d.SuggestedFixes) == 0 {
			t.Errorf("-json: diagnostic at %s has no suggested fix", d.Posn)
		}
	}
}
