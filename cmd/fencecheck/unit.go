package main

// This file is the fast path of go vet's unit protocol. go vet runs its vet
// tool once per package, as `tool [flags] vet.cfg`, where vet.cfg is the JSON
// form of unitchecker.Config. unitchecker parses and type-checks every such
// package before it calls the analyzer, and writes the package's types and
// facts to Config.VetxOutput, where the runs for the packages importing it
// read them. fencecheck declares no facts and reports nothing on a package
// without //fencecheck: directives, so for such a package (and for every
// package go vet runs only for its facts) this file writes what unitchecker
// would write there except the types, and exits without type checking.
//
// A vetx file without types cannot serve as an import of a package that is
// type-checked, so before unitchecker runs on a package with directives,
// unitWithTypes gives each of its imports that came through the fast path the
// types the compiler exported for it (Config.PackageFile), in the format
// unitchecker reads.

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"go/token"
	"go/types"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
	"golang.org/x/tools/go/gcexportdata"

	"github.com/fencecheck/fencecheck/extract"
)

// vetx files, as unitchecker writes and reads them: the magic, then the
// little-endian uint32 lengths of the types and of the facts, then both.
const (
	vetxMagic      = "vetx"
	vetxHeaderSize = 12
)

// noTypesVetx is the vetx file of a package that went through the fast path:
// no types and, as fencecheck declares no facts, no facts.
var noTypesVetx = []byte(vetxMagic + "\x00\x00\x00\x00\x00\x00\x00\x00")

// unitOutput holds the driver flags that change what a run on a unit without
// findings writes.
type unitOutput struct {
	json bool // -json: stdout gets a JSON tree, empty here
	fix  bool // -fix: a fix archive, empty here, instead of diagnostics
}

// parseUnitArgs reports whether args (the command-line arguments without the
// program name) are a unit run: flags fencecheck knows, then one file whose
// name ends in ".cfg". It parses the flags as singlechecker does, into the
// analyzer's own flag values (which singlechecker sets again to the same
// values when it runs); any flag it does not know, the protocol queries -V
// and -flags among them, makes it answer false, leaving the arguments to
// singlechecker.
func parseUnitArgs(a *analysis.Analyzer, args []string) (cfgFile string, out unitOutput, ok bool) {
	if len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg") {
		return "", out, false
	}
	fs := flag.NewFlagSet(a.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	a.Flags.VisitAll(func(f *flag.Flag) { fs.Var(f.Value, f.Name, f.Usage) })
	// The flags of singlechecker's driver that may precede a .cfg file.
	fs.BoolVar(&out.json, "json", false, "")
	fs.BoolVar(&out.fix, "fix", false, "")
	fs.Int("c", -1, "")
	for _, name := range []string{"diff", "source", "v", "all", "test"} {
		fs.Bool(name, false, "")
	}
	for _, name := range []string{"tags", "debug", "cpuprofile", "memprofile", "trace"} {
		fs.String(name, "", "")
	}
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 {
		return "", unitOutput{}, false
	}
	return fs.Arg(0), out, true
}

// readUnitConfig reads a go vet unit configuration file.
func readUnitConfig(file string) (*unitchecker.Config, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	cfg := new(unitchecker.Config)
	if err := json.Unmarshal(data, cfg); err != nil {
		return nil, fmt.Errorf("cannot decode JSON config file %s: %w", file, err)
	}
	return cfg, nil
}

// fastUnit runs the fast path on the unit described by cfgFile. It returns
// false, having written nothing, when the unit needs the full analysis: it has
// a file with a directive and go vet wants its diagnostics, or something
// (an unreadable file, a configuration unitchecker would reject) is best
// reported by unitchecker itself. It returns true when it has written the
// unit's outputs, or an error when writing them failed.
func fastUnit(cfgFile string, out unitOutput) (bool, error) {
	cfg, err := readUnitConfig(cfgFile)
	if err != nil || len(cfg.GoFiles) == 0 {
		return false, nil
	}
	if !cfg.VetxOnly {
		for _, name := range cfg.GoFiles {
			data, err := os.ReadFile(name)
			// A file that may hold a directive, or a comment that is almost
			// one (extract.MayHoldDirectives), takes the full path; so
			// does one that has "fencecheck:" elsewhere, in a string say.
			if err != nil || extract.MayHoldDirectives(data) {
				return false, nil
			}
		}
	}
	if err := writeCleanUnit(cfg, out); err != nil {
		return true, err
	}
	return true, nil
}

// writeCleanUnit writes what unitchecker writes for a unit on which
// fencecheck reports nothing: an empty stdout (an empty JSON tree with
// -json), an empty fix archive with -fix, and the vetx file, here without
// types.
func writeCleanUnit(cfg *unitchecker.Config, out unitOutput) error {
	if cfg.Stdout != "" {
		var stdout []byte
		if !cfg.VetxOnly && !out.fix && out.json {
			stdout = []byte("{}\n")
		}
		if err := os.WriteFile(cfg.Stdout, stdout, 0o666); err != nil {
			return err
		}
	}
	if !cfg.VetxOnly && out.fix && cfg.FixArchive != "" {
		if err := writeEmptyZip(cfg.FixArchive, cfg.ID); err != nil {
			return fmt.Errorf("can't create -fix archive: %w", err)
		}
	}
	if cfg.VetxOutput != "" {
		if err := os.WriteFile(cfg.VetxOutput, noTypesVetx, 0o666); err != nil {
			return fmt.Errorf("type+fact export failed: %w", err)
		}
	}
	return nil
}

// writeEmptyZip writes a zip archive without entries, commented with id.
func writeEmptyZip(name, id string) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	if err := zw.SetComment(id); err != nil {
		f.Close()
		return err
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readVetxHeader returns the lengths of the types and of the facts in the
// vetx file name.
func readVetxHeader(name string) (typesLen, factsLen uint32, err error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	var h [vetxHeaderSize]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		return 0, 0, fmt.Errorf("vetx file %s: %w", name, err)
	}
	if string(h[:4]) != vetxMagic {
		return 0, 0, fmt.Errorf("vetx file %s has bad magic %q", name, h[:4])
	}
	return binary.LittleEndian.Uint32(h[4:8]), binary.LittleEndian.Uint32(h[8:12]), nil
}

// unitWithTypes returns a unit configuration that unitchecker can type-check
// against: cfgFile itself when every import's vetx file has types, else a
// copy, written into dir, whose imports without types (those that went
// through the fast path) are replaced by vetx files, also in dir, holding the
// types from the compiler's export data of the import.
func unitWithTypes(cfgFile, dir string) (string, error) {
	data, err := os.ReadFile(cfgFile)
	if err != nil {
		return "", err
	}
	var cfg unitchecker.Config
	if err := json.Unmarshal(data, &cfg); err != nil {
		return "", fmt.Errorf("cannot decode JSON config file %s: %w", cfgFile, err)
	}
	var missing []string
	for _, path := range slices.Sorted(maps.Keys(cfg.PackageVetx)) {
		typesLen, factsLen, err := readVetxHeader(cfg.PackageVetx[path])
		if err != nil {
			return "", fmt.Errorf("import %q: %w", path, err)
		}
		if typesLen == 0 && factsLen == 0 {
			missing = append(missing, path)
		}
	}
	if len(missing) == 0 {
		return cfgFile, nil
	}
	vetx := maps.Clone(cfg.PackageVetx)
	for i, path := range missing {
		export, ok := cfg.PackageFile[path]
		if !ok {
			return "", fmt.Errorf("import %q: no types in its vetx file and no export data", path)
		}
		name := filepath.Join(dir, fmt.Sprintf("import%d.vetx", i))
		if err := writeTypesVetx(name, export, path); err != nil {
			return "", fmt.Errorf("import %q: %w", path, err)
		}
		vetx[path] = name
	}
	// Change PackageVetx only, keeping every other field as go vet wrote it.
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return "", fmt.Errorf("cannot decode JSON config file %s: %w", cfgFile, err)
	}
	if raw["PackageVetx"], err = json.Marshal(vetx); err != nil {
		return "", err
	}
	js, err := json.MarshalIndent(raw, "", "\t")
	if err != nil {
		return "", err
	}
	name := filepath.Join(dir, "vet.cfg")
	if err := os.WriteFile(name, append(js, '\n'), 0o666); err != nil {
		return "", err
	}
	return name, nil
}

// writeTypesVetx writes to name a vetx file holding the types of package path
// read from the compiler's export data in the file export, and no facts.
func writeTypesVetx(name, export, path string) error {
	fset := token.NewFileSet()
	pkg, err := readExportData(fset, export, path)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	buf.WriteString(vetxMagic)
	buf.Write(make([]byte, 8)) // the lengths, set below
	// gcexportdata.Write writes the indexed format that unitchecker reads,
	// after a leading 'i' that unitchecker does not expect.
	if err := gcexportdata.Write(&buf, fset, pkg); err != nil {
		return fmt.Errorf("exporting types: %w", err)
	}
	data := buf.Bytes()
	if data[vetxHeaderSize] != 'i' {
		return fmt.Errorf("exporting types: unexpected format %q", data[vetxHeaderSize])
	}
	data = slices.Delete(data, vetxHeaderSize, vetxHeaderSize+1)
	binary.LittleEndian.PutUint32(data[4:8], uint32(len(data)-vetxHeaderSize))
	return os.WriteFile(name, data, 0o666)
}

// readExportData reads the types of package path from the compiler's export
// data in the file export.
func readExportData(fset *token.FileSet, export, path string) (*types.Package, error) {
	f, err := os.Open(export)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := gcexportdata.NewReader(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("reading export data %s: %w", export, err)
	}
	return gcexportdata.Read(r, fset, make(map[string]*types.Package), path)
}
