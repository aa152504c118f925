package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/unitchecker"
	"golang.org/x/tools/go/gcexportdata"

	"github.com/fencecheck/fencecheck/analyzer"
)

func TestParseUnitArgs(t *testing.T) {
	tests := []struct {
		args []string
		cfg  string // "" when not a unit run
		out  unitOutput
	}{
		{args: []string{"vet.cfg"}, cfg: "vet.cfg"},
		{args: []string{"-json", "vet.cfg"}, cfg: "vet.cfg", out: unitOutput{json: true}},
		{args: []string{"-json=false", "vet.cfg"}, cfg: "vet.cfg"},
		{args: []string{"-fix", "-diff", "vet.cfg"}, cfg: "vet.cfg", out: unitOutput{fix: true}},
		{args: []string{"-budget", "30s", "-engine=sb", "-witness", "vet.cfg"}, cfg: "vet.cfg"},
		{args: []string{"-c=2", "-tags=x", "vet.cfg"}, cfg: "vet.cfg"},
		{args: nil},
		{args: []string{"./..."}},
		{args: []string{"-V=full"}},
		{args: []string{"-flags"}},
		{args: []string{"-flags", "vet.cfg"}},
		{args: []string{"-unknown", "vet.cfg"}},
		{args: []string{"-budget=soon", "vet.cfg"}},
		{args: []string{"a.cfg", "b.cfg"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			cfg, out, ok := parseUnitArgs(analyzer.New(analyzer.DefaultConfig()), tt.args)
			if ok != (tt.cfg != "") || cfg != tt.cfg || out != tt.out {
				t.Errorf("parseUnitArgs(%q) = %q, %+v, %v; want %q, %+v, %v", tt.args, cfg, out, ok, tt.cfg, tt.out, tt.cfg != "")
			}
		})
	}
}

// writeUnit writes a unit of one Go file with content src and returns its
// configuration, which names files in dir for the outputs.
func writeUnit(t *testing.T, dir, src string, vetxOnly bool) *unitchecker.Config {
	t.Helper()
	goFile := filepath.Join(dir, "p.go")
	if err := os.WriteFile(goFile, []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	return &unitchecker.Config{
		ID:         "example.com/p",
		ImportPath: "example.com/p",
		GoFiles:    []string{goFile},
		VetxOnly:   vetxOnly,
		VetxOutput: filepath.Join(dir, "vet.out"),
		Stdout:     filepath.Join(dir, "vet.stdout"),
		FixArchive: filepath.Join(dir, "vet.fix.zip"),
	}
}

// writeConfig writes cfg as a go vet unit configuration file into dir.
func writeConfig(t *testing.T, dir string, cfg *unitchecker.Config) string {
	t.Helper()
	js, err := json.MarshalIndent(cfg, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "vet.cfg")
	if err := os.WriteFile(name, js, 0o666); err != nil {
		t.Fatal(err)
	}
	return name
}

const (
	plainSrc     = "package p\n\n// F is ordinary code.\nfunc F() int { return 1 }\n"
	directiveSrc = "package p\n\n//fencecheck:system\nfunc s() {}\n"
)

func TestFastUnit(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		vetxOnly bool
		out      unitOutput
		want     bool   // the fast path is taken
		stdout   string // the content of Config.Stdout
		fixZip   bool   // an empty fix archive is written
	}{
		{name: "plain", src: plainSrc, want: true},
		{name: "plain json", src: plainSrc, out: unitOutput{json: true}, want: true, stdout: "{}\n"},
		{name: "plain fix", src: plainSrc, out: unitOutput{fix: true}, want: true, fixZip: true},
		{name: "plain json fix", src: plainSrc, out: unitOutput{json: true, fix: true}, want: true, fixZip: true},
		{name: "plain vetx-only", src: plainSrc, vetxOnly: true, out: unitOutput{json: true, fix: true}, want: true},
		{name: "directive", src: directiveSrc, want: false},
		{name: "directive json", src: directiveSrc, out: unitOutput{json: true}, want: false},
		{name: "directive vetx-only", src: directiveSrc, vetxOnly: true, out: unitOutput{json: true}, want: true},
		{name: "directive in a string", src: "package p\n\nconst s = \"//fencecheck:system\"\n", want: false},
		{name: "almost a directive", src: "package p\n\n// FenceCheck:system\nfunc s() {}\n", want: false},
		{name: "prose", src: "package p\n\n// fencecheck reports this.\nfunc s() {}\n", want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := writeUnit(t, dir, tt.src, tt.vetxOnly)
			got, err := fastUnit(writeConfig(t, dir, cfg), tt.out)
			if err != nil || got != tt.want {
				t.Fatalf("fastUnit = %v, %v; want %v, nil", got, err, tt.want)
			}
			if !got {
				for _, name := range []string{cfg.VetxOutput, cfg.Stdout, cfg.FixArchive} {
					if _, err := os.Stat(name); err == nil {
						t.Errorf("full path, but %s was written", filepath.Base(name))
					}
				}
				return
			}
			if vetx, err := os.ReadFile(cfg.VetxOutput); err != nil || !bytes.Equal(vetx, noTypesVetx) {
				t.Errorf("vetx file %q, %v; want %q", vetx, err, noTypesVetx)
			}
			if stdout, err := os.ReadFile(cfg.Stdout); err != nil || string(stdout) != tt.stdout {
				t.Errorf("stdout file %q, %v; want %q", stdout, err, tt.stdout)
			}
			zr, err := zip.OpenReader(cfg.FixArchive)
			if !tt.fixZip {
				if err == nil {
					zr.Close()
					t.Errorf("a fix archive was written")
				}
				return
			}
			if err != nil {
				t.Fatalf("fix archive: %v", err)
			}
			defer zr.Close()
			if len(zr.File) != 0 || zr.Comment != cfg.ID {
				t.Errorf("fix archive has %d files and comment %q; want none and %q", len(zr.File), zr.Comment, cfg.ID)
			}
		})
	}
}

func TestFastUnitDeclines(t *testing.T) {
	dir := t.TempDir()
	noFiles := writeUnit(t, dir, plainSrc, false)
	noFiles.GoFiles = nil
	missing := writeUnit(t, dir, plainSrc, false)
	missing.GoFiles = []string{filepath.Join(dir, "missing.go")}
	for name, cfgFile := range map[string]string{
		"no such config": filepath.Join(dir, "missing.cfg"),
		"no Go files":    writeConfig(t, t.TempDir(), noFiles),
		"missing file":   writeConfig(t, t.TempDir(), missing),
	} {
		if got, err := fastUnit(cfgFile, unitOutput{}); got || err != nil {
			t.Errorf("%s: fastUnit = %v, %v; want false, nil: unitchecker reports the problem", name, got, err)
		}
	}
}

// exportData returns the file of the compiler's export data for the
// standard package path.
func exportData(t *testing.T, path string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("compiles a package with go list -export")
	}
	out, err := exec.Command("go", "list", "-export", "-f", "{{.Export}}", path).Output()
	if err != nil {
		t.Skipf("go list -export %s: %v", path, err)
	}
	return strings.TrimSpace(string(out))
}

func TestUnitWithTypes(t *testing.T) {
	dir := t.TempDir()
	cfg := writeUnit(t, dir, directiveSrc, false)
	noTypes := filepath.Join(dir, "sync.vetx")
	if err := os.WriteFile(noTypes, noTypesVetx, 0o666); err != nil {
		t.Fatal(err)
	}
	cfg.ImportMap = map[string]string{"sync": "sync"}
	cfg.PackageVetx = map[string]string{"sync": noTypes}
	cfg.PackageFile = map[string]string{"sync": exportData(t, "sync")}
	cfgFile := writeConfig(t, dir, cfg)

	out := t.TempDir()
	typed, err := unitWithTypes(cfgFile, out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := readUnitConfig(typed)
	if err != nil {
		t.Fatal(err)
	}
	vetx := got.PackageVetx["sync"]
	if filepath.Dir(vetx) != out {
		t.Fatalf("PackageVetx[sync] = %s, want a file in %s", vetx, out)
	}
	got.PackageVetx = cfg.PackageVetx
	a, _ := json.Marshal(cfg)
	b, _ := json.Marshal(got)
	if !bytes.Equal(a, b) {
		t.Errorf("the configuration changed beyond PackageVetx:\n%s\nwant\n%s", b, a)
	}
	typesLen, factsLen, err := readVetxHeader(vetx)
	if err != nil || typesLen == 0 || factsLen != 0 {
		t.Fatalf("vetx header: %d bytes of types, %d of facts, %v; want types and no facts", typesLen, factsLen, err)
	}
	data, err := os.ReadFile(vetx)
	if err != nil {
		t.Fatal(err)
	}
	// unitchecker reads the types as indexed export data without the 'i'
	// that gcexportdata expects.
	exported := append([]byte{'i'}, data[vetxHeaderSize:vetxHeaderSize+typesLen]...)
	pkg, err := gcexportdata.Read(bytes.NewReader(exported), token.NewFileSet(), make(map[string]*types.Package), "sync")
	if err != nil {
		t.Fatalf("reading the types back: %v", err)
	}
	if pkg.Scope().Lookup("Mutex") == nil {
		t.Errorf("the types of sync lack Mutex")
	}

	// A unit whose imports all have types is left as it is.
	if again, err := unitWithTypes(typed, t.TempDir()); err != nil || again != typed {
		t.Errorf("unitWithTypes on a typed unit = %s, %v; want %s", again, err, typed)
	}

	// An import without types or export data is an error.
	delete(cfg.PackageFile, "sync")
	if _, err := unitWithTypes(writeConfig(t, t.TempDir(), cfg), t.TempDir()); err == nil {
		t.Errorf("unitWithTypes without export data: no error")
	}
}
