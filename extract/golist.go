package extract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// listedPackage is what the go command says of a package of the build.
type listedPackage struct {
	ImportPath string
	Dir        string
	// Export is the file of the package's export data, as the compiler
	// wrote it.
	Export   string
	Standard bool
	GoFiles  []string
	CgoFiles []string
	SFiles   []string
	// ImportMap maps an import path of the source to the package it
	// names, when they differ (vendored packages).
	ImportMap map[string]string
	Module    *struct{ GoVersion string }
	Error     *struct{ Err string }
}

// listFields are the fields of listedPackage, for go list's -json flag.
const listFields = "ImportPath,Dir,Export,Standard,GoFiles,CgoFiles,SFiles,ImportMap,Module,Error"

// goList runs `go list -deps -export` in dir on the import paths and
// returns the packages of the build that they reach, in dependency order
// (every package after those it imports), each with its source directory,
// its files and its export data. The go command is the one of the
// environment, with its settings (GOFLAGS, GO111MODULE, GOPATH): those
// the build of the analysed package was made with.
//
// With tests, paths are listed with their tests (-test), and a package
// compiled again for a test ("p [x.test]", p with x's test files, or
// importing such a package) stands for p: the variant the test was built
// against.
func goList(dir string, paths []string, tests bool, env []string) (map[string]*listedPackage, []string, error) {
	args := []string{"list", "-e", "-deps", "-export", "-json=" + listFields}
	if tests {
		args = append(args, "-test")
	}
	args = append(append(args, "--"), paths...)
	cmd := exec.Command(goCommand(), args...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		return nil, nil, fmt.Errorf("go list -deps -export in %s: %w: %s", dir, err, msg)
	}
	pkgs := map[string]*listedPackage{}
	var order []string
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		p := new(listedPackage)
		if err := dec.Decode(p); err != nil {
			return nil, nil, fmt.Errorf("reading the output of go list: %w", err)
		}
		path, variant, _ := strings.Cut(p.ImportPath, " ")
		if strings.HasSuffix(path, ".test") && variant == "" && tests {
			continue // a test's main package
		}
		if q := pkgs[path]; q != nil && (variant == "" || strings.Contains(q.ImportPath, " ")) {
			continue // a test variant stands for path already
		}
		if pkgs[path] == nil {
			order = append(order, path)
		} else {
			// The variant comes after what it imports, as the plain
			// package did: it moves to the end of the order.
			order = append(slices.DeleteFunc(order, func(q string) bool { return q == path }), path)
		}
		pkgs[path] = p
	}
	return pkgs, order, nil
}

// gopathEnv returns the settings of a GOPATH-mode build of the package
// with import path pkgPath in directory dir, when dir is pkgPath below
// the src folder of a GOPATH tree (ROOT/src/PKGPATH), or nil. A build
// loaded that way (analysistest's testdata, a GOPATH workspace) is listed
// again with them when the environment's settings do not find its
// imports.
func gopathEnv(dir, pkgPath string) []string {
	suffix := string(filepath.Separator) + filepath.Join("src", filepath.FromSlash(pkgPath))
	if pkgPath == "" || !strings.HasSuffix(dir, suffix) {
		return nil
	}
	root := strings.TrimSuffix(dir, suffix)
	return []string{"GOPATH=" + root, "GO111MODULE=off", "GOWORK=off"}
}

// listFailed reports whether a package of the listing has an error: one
// of the imports was not found.
func listFailed(list map[string]*listedPackage) bool {
	for _, p := range list {
		if p.Error != nil {
			return true
		}
	}
	return false
}

// goCommand is the go command of the toolchain whose standard library
// the build uses, or "go" from the PATH.
func goCommand() string {
	if src := gorootSrc(); src != "" {
		cand := filepath.Join(filepath.Dir(src), "bin", "go")
		if fi, err := os.Stat(cand); err == nil && !fi.IsDir() {
			return cand
		}
	}
	return "go"
}

// goVersion is the language version of a listed package's module, in the
// form go/types takes, or "" when not known.
func (p *listedPackage) goVersion() string {
	if p.Module == nil || p.Module.GoVersion == "" {
		return ""
	}
	return "go" + p.Module.GoVersion
}
