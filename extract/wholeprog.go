package extract

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/ssa"
)

// Whole-program calls. A system may call functions of other packages whose
// Go source the build has: packages of the same module and dependencies,
// and the standard library's of stdFromSource (container/*, sort, slices,
// cmp, math); its other packages the model knows by what they do (sync,
// sync/atomic, context, time, errors). Under go vet a package's
// imports come as export data, types without bodies, and only its direct
// imports completely, so the extractor builds the program again, in one
// universe of types:
//
//   - the go command lists the packages of the build that the analysed
//     package reaches (go list -deps -export): their directories, files
//     and export data;
//   - the packages with a function that the analysed package's code may
//     reach by calls (reach.go) are type-checked from source, in
//     dependency order, each importing the others through one map of
//     packages: a package read from source is in the map before any export
//     data that refers to it is read, and export data reuses the objects
//     the map has, so every package sees one set of types;
//   - every other package comes from its export data, read into the same
//     map; then the analysed package is type-checked again, on the syntax
//     it was given.
//
// Every driver (go vet, the standalone command, the golangci-lint plugin)
// gives the same syntax, and the go command the same build, hence the same
// answers. A package that uses cgo, or that does not type-check from
// source, keeps its export data, and calls into it stay unsupported, with
// the reason; so does a function without a Go body (assembly), but for
// the standard library's assembly with a Go twin (archtwin.go).

// maxSourcePackages bounds how many packages are type-checked from source
// for one package: past it, the rest keep their export data.
const maxSourcePackages = 64

// sourcePackage is a package type-checked from source.
type sourcePackage struct {
	pkg   *types.Package
	files []*ast.File
	info  *types.Info
}

// wholeProgram is the package and the packages it uses, type-checked again
// from source.
type wholeProgram struct {
	pkg  *types.Package
	info *types.Info
	deps []*sourcePackage // in dependency order
}

// newInfo returns a types.Info recording everything go/ssa needs.
func newInfo() *types.Info {
	return &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Instances:    map[*ast.Ident]types.Instance{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		Scopes:       map[ast.Node]*types.Scope{},
		FileVersions: map[*ast.File]string{},
	}
}

// loadWholeProgram returns the package pkg (with its syntax files and info)
// type-checked again together with the packages outside the standard
// library whose functions or variables it may reach, from source, or nil
// when it reaches none whose source is found. noSource lists, for the
// packages it may reach but whose source cannot be used, why.
func loadWholeProgram(fset *token.FileSet, pkg *types.Package, files []*ast.File, info *types.Info) (wp *wholeProgram, noSource map[string]string, err error) {
	l := &progLoader{
		fset:     fset,
		pre:      map[string]*types.Package{},
		parsed:   map[string]*parsedPackage{},
		noSource: map[string]string{},
	}
	if len(files) > 0 {
		l.base = filepath.Dir(fset.Position(files[0].FileStart).Filename)
	}
	var imports []string
	for _, f := range files {
		for _, spec := range f.Imports {
			path, _ := strconv.Unquote(spec.Path.Value)
			if path == "C" {
				return nil, nil, nil // cgo: the package's own syntax is not what gc compiles
			}
			if path != "unsafe" && !slices.Contains(imports, path) {
				imports = append(imports, path)
			}
		}
	}
	if !l.usesOthers(pkg, info) {
		return nil, nil, nil
	}
	// A test's package (a _test.go file) is listed with its tests, by its
	// directory: its imports are then the variants the test was built
	// against.
	tests := slices.ContainsFunc(files, func(f *ast.File) bool {
		return strings.HasSuffix(fset.Position(f.FileStart).Filename, "_test.go")
	})
	if tests {
		imports = []string{"."}
	}
	l.list, l.order, err = goList(l.base, imports, tests, nil)
	if env := gopathEnv(l.base, pkg.Path()); env != nil && (err != nil || listFailed(l.list)) {
		l.list, l.order, err = goList(l.base, imports, tests, env)
	}
	if err != nil {
		return nil, nil, err
	}
	r := newReachability(l)
	r.roots(pkg, info)
	if len(l.parsed) == 0 {
		return nil, l.noSource, nil
	}
	wp, err = l.checkAll(pkg, files)
	return wp, l.noSource, err
}

// checkAll type-checks the packages reached from source, in dependency
// order, and then the analysed package, all in one universe. A package
// that does not type-check from source is left to its export data.
func (l *progLoader) checkAll(pkg *types.Package, files []*ast.File) (*wholeProgram, error) {
	universe := map[string]*types.Package{}
	conf := func(importMap map[string]string, goVersion string, errs *[]error) *types.Config {
		return &types.Config{
			Importer: importerFunc(func(path string) (*types.Package, error) {
				return l.importFrom(universe, importMap, path)
			}),
			Sizes:     types.SizesFor("gc", build.Default.GOARCH),
			GoVersion: goVersion,
			Error:     func(err error) { *errs = append(*errs, err) },
		}
	}
	wp := &wholeProgram{}
	for _, path := range l.order {
		pp := l.parsed[path]
		if pp == nil {
			continue
		}
		var errs []error
		sp := &sourcePackage{files: pp.files, info: newInfo()}
		sp.pkg, _ = conf(pp.listed.ImportMap, pp.listed.goVersion(), &errs).Check(path, l.fset, pp.files, sp.info)
		if len(errs) > 0 {
			l.noSource[path] = fmt.Sprintf("type-checking %s from source: %v", path, errs[0])
			continue
		}
		universe[path] = sp.pkg
		wp.deps = append(wp.deps, sp)
	}
	if len(wp.deps) == 0 {
		return nil, nil
	}
	var errs []error
	wp.info = newInfo()
	wp.pkg, _ = conf(nil, pkg.GoVersion(), &errs).Check(pkg.Path(), l.fset, files, wp.info)
	if len(errs) > 0 {
		return nil, fmt.Errorf("type-checking %s with its dependencies from source: %w", pkg.Path(), errs[0])
	}
	return wp, nil
}

// localize returns pos when it lies in the analysed package, and otherwise
// (code of another package that a system runs) the position of the
// system's name, with a note of where pos is.
func (x *extractor) localize(pos token.Pos, decl *ast.FuncDecl) (token.Pos, string) {
	if !pos.IsValid() {
		return pos, ""
	}
	p := x.fset.Position(pos)
	path, ok := x.foreign[p.Filename]
	if !ok {
		return pos, ""
	}
	return decl.Name.Pos(), fmt.Sprintf(" (at %s:%d:%d in package %s)", filepath.Base(p.Filename), p.Line, p.Column, path)
}

// noSourceReason says why the package of fn, a function the model does
// not know, was not read from source, or "" when nothing is known.
func (x *extractor) noSourceReason(fn *ssa.Function) string {
	if fn.Pkg == nil {
		return ""
	}
	if why := x.noSource[fn.Pkg.Pkg.Path()]; why != "" {
		return why
	}
	if d, ok := fn.Syntax().(*ast.FuncDecl); ok && d.Body == nil && x.srcPkgs[fn.Pkg] {
		return "it has no Go body: its code is assembly, or linked in from elsewhere"
	}
	file := x.fset.Position(fn.Pos()).Filename
	inGoroot := inGoroot(file)
	if why := x.noSource[""]; why != "" && file != "" && !inGoroot && !isStandard(fn.Pkg.Pkg.Path()) {
		return "the packages it uses could not be read from source: " + why
	}
	return ""
}

// uninitialised says why the initial value of g, a variable of a package
// outside the standard library that is not read from source, is not
// known: that package's initialisation does not run in the model. It
// returns "" for the variables of the packages read from source and of the
// standard library.
func (x *extractor) uninitialised(g *ssa.Global) string {
	if g.Pkg == nil || g.Pkg == x.ssapkg || x.srcPkgs[g.Pkg] {
		return ""
	}
	path := g.Pkg.Pkg.Path()
	file := x.fset.Position(g.Pos()).Filename
	if inGoroot(file) || isStandard(path) || (file == "" && x.noSource[path] == "") {
		return ""
	}
	why := "the initialisation of package " + path + ", which is not read from source"
	if r := x.noSource[path]; r != "" {
		why += " (" + r + ")"
	}
	return why
}

// foreignFiles maps the names of the files of the packages read from
// source to their import paths.
func foreignFiles(fset *token.FileSet, deps []*sourcePackage) map[string]string {
	out := map[string]string{}
	for _, d := range deps {
		for _, f := range d.files {
			if tf := fset.File(f.FileStart); tf != nil {
				out[tf.Name()] = d.pkg.Path()
			}
		}
	}
	return out
}

// importerFunc is a types.Importer.
type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// progLoader finds and parses the packages a package reaches from source.
type progLoader struct {
	fset *token.FileSet
	// list and order are the packages of the build, as go list gives them.
	list  map[string]*listedPackage
	order []string
	// pre is the universe of the packages' first type-checks, which find
	// what their functions use: every import from export data.
	pre map[string]*types.Package
	// parsed holds the packages reached, to read from source.
	parsed   map[string]*parsedPackage
	noSource map[string]string
	// base is the directory of the analysed package's files.
	base string
}

// parsedPackage is a package's syntax, with the objects each of its
// functions uses.
type parsedPackage struct {
	listed *listedPackage
	files  []*ast.File
	decls  map[string][]types.Object
}

// usesOthers reports whether the package uses a function or a
// package-level variable of a package outside the standard library that
// may have Go source: the test before anything is listed or read.
func (l *progLoader) usesOthers(self *types.Package, info *types.Info) bool {
	for _, obj := range info.Uses {
		p := obj.Pkg()
		if p == nil || p == self {
			continue
		}
		if _, ok := obj.(*types.Func); !ok {
			if v, ok := obj.(*types.Var); !ok || v.Parent() != p.Scope() {
				continue
			}
		}
		path := p.Path()
		first, _, _ := strings.Cut(path, "/")
		if stdFromSource[path] || strings.Contains(first, ".") || l.sourceDir(p) != "" {
			return true
		}
	}
	return false
}

// mayReadFromSource reports whether the package path of the build is one
// that is read from source when reached.
func (l *progLoader) mayReadFromSource(path string) bool {
	p := l.list[path]
	return p != nil && (!p.Standard || stdFromSource[path])
}

// reachPackage returns the parsed package path, in which a function is
// reached, parsing it the first time; nil when it is not read from
// source (l.noSource says why, unless it is the standard library's).
func (l *progLoader) reachPackage(path string) *parsedPackage {
	if pp := l.parsed[path]; pp != nil || l.noSource[path] != "" || !l.mayReadFromSource(path) {
		return pp
	}
	if len(l.parsed) >= maxSourcePackages {
		l.noSource[path] = fmt.Sprintf("more than %d packages would be read from source", maxSourcePackages)
		return nil
	}
	pp, err := l.parse(l.list[path])
	if err != nil {
		l.noSource[path] = err.Error()
		return nil
	}
	l.parsed[path] = pp
	return pp
}

// importFrom returns package path, as a package importing it through
// importMap names it, from universe: a package read from source is there
// already; any other is read from its export data into universe, whose
// packages the export data's references reuse.
func (l *progLoader) importFrom(universe map[string]*types.Package, importMap map[string]string, path string) (*types.Package, error) {
	if p, ok := importMap[path]; ok {
		path = p
	}
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	if p := universe[path]; p != nil && p.Complete() {
		return p, nil
	}
	lp := l.list[path]
	if lp == nil || lp.Export == "" {
		why := "it is not in the build"
		if lp != nil && lp.Error != nil {
			why = lp.Error.Err
		} else if lp != nil {
			why = "the go command gave no export data"
		}
		return nil, fmt.Errorf("importing %s: %s", path, why)
	}
	f, err := os.Open(lp.Export)
	if err != nil {
		return nil, fmt.Errorf("importing %s: %w", path, err)
	}
	defer f.Close()
	r, err := gcexportdata.NewReader(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("importing %s: %w", path, err)
	}
	p, err := gcexportdata.Read(r, l.fset, universe, path)
	if err != nil {
		return nil, fmt.Errorf("importing %s: %w", path, err)
	}
	return p, nil
}

// sourceDir returns the directory of p's source files, found through the
// positions its export data records, or "" for a package of the standard
// library or one whose source is not found.
func (l *progLoader) sourceDir(p *types.Package) string {
	if isStandard(p.Path()) {
		return ""
	}
	scope := p.Scope()
	for _, name := range scope.Names() {
		pos := scope.Lookup(name).Pos()
		if !pos.IsValid() {
			continue
		}
		file := l.resolve(l.fset.Position(pos).Filename)
		if file == "" {
			continue
		}
		dir := filepath.Dir(file)
		if goroot := gorootSrc(); goroot != "" && strings.HasPrefix(dir, goroot+string(filepath.Separator)) && !stdFromSource[p.Path()] {
			return ""
		}
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir
		}
	}
	return ""
}

// stdFromSource lists the packages of the standard library that are read
// from source like the build's own: plain data structures and
// computations (sorting, math), which touch no memory but their own and
// what they are given, and synchronise nothing.
var stdFromSource = map[string]bool{
	"container/list": true,
	"container/ring": true,
	"container/heap": true,
	"sort":           true,
	"slices":         true,
	"cmp":            true,
	"math":           true,
}

// resolve returns the absolute name of a source file that export data
// names. The go command records a file below its working directory by a
// relative name; that directory is the analysed package's or one above it
// (the module's root, usually), so the first of them where the file exists
// is taken.
func (l *progLoader) resolve(file string) string {
	if rest, ok := strings.CutPrefix(file, "$GOROOT"); ok {
		if gorootSrc() == "" {
			return ""
		}
		return filepath.Join(filepath.Dir(gorootSrc()), rest)
	}
	if file == "" {
		return ""
	}
	if filepath.IsAbs(file) {
		return file
	}
	for d := l.base; d != "" && filepath.IsAbs(d); d = filepath.Dir(d) {
		cand := filepath.Join(d, file)
		if fi, err := os.Stat(cand); err == nil && !fi.IsDir() {
			return cand
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	return ""
}

// isStandard reports whether path names a package the model knows by what
// it does rather than by its code: cgo's C, unsafe, and, when the source
// directory of the standard library is not known, every path whose first
// element has no dot (otherwise sourceDir tells by the directory).
func isStandard(path string) bool {
	if path == "unsafe" || path == "C" {
		return true
	}
	first, _, _ := strings.Cut(path, "/")
	return gorootSrc() == "" && !strings.Contains(first, ".")
}

// inGoroot reports whether file, a position's file name, lies in the
// standard library's source.
func inGoroot(file string) bool {
	return strings.HasPrefix(file, "$GOROOT") || gorootSrc() != "" && strings.HasPrefix(file, gorootSrc())
}

// gorootSrc is the source directory of the standard library.
var gorootSrc = sync.OnceValue(func() string {
	root := os.Getenv("GOROOT")
	if root == "" {
		root = build.Default.GOROOT
	}
	if root == "" {
		if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
			root = strings.TrimSpace(string(out))
		}
	}
	if root == "" {
		return ""
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	return filepath.Join(root, "src")
})

// parse reads the package lp from its directory, the files the go command
// compiles there, and type-checks it against the export data of its
// imports, to find what its functions use.
func (l *progLoader) parse(lp *listedPackage) (*parsedPackage, error) {
	if lp.Error != nil {
		return nil, fmt.Errorf("package %s: %s", lp.ImportPath, lp.Error.Err)
	}
	if len(lp.CgoFiles) > 0 {
		return nil, fmt.Errorf("package %s uses cgo, whose code has no Go source", lp.ImportPath)
	}
	if lp.Dir == "" || len(lp.GoFiles) == 0 {
		return nil, fmt.Errorf("no Go source for package %s", lp.ImportPath)
	}
	pp := &parsedPackage{listed: lp}
	for _, name := range lp.GoFiles {
		f, err := parser.ParseFile(l.fset, filepath.Join(lp.Dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("parsing package %s: %w", lp.ImportPath, err)
		}
		pp.files = append(pp.files, f)
	}
	info := &types.Info{
		Defs:      map[*ast.Ident]types.Object{},
		Uses:      map[*ast.Ident]types.Object{},
		Instances: map[*ast.Ident]types.Instance{},
	}
	conf := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			return l.importFrom(l.pre, lp.ImportMap, path)
		}),
		Sizes:     types.SizesFor("gc", build.Default.GOARCH),
		GoVersion: lp.goVersion(),
		Error:     func(error) {},
	}
	conf.Check(lp.ImportPath, l.fset, pp.files, info)
	pp.decls = declUses(pp.files, info)
	return pp, nil
}
