package extract

import (
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/ssa"
)

// Whole-program calls. A system may call functions of other packages whose
// Go source the build has: packages of the same module and dependencies
// (not the standard library, whose packages the model knows by what they
// do: sync, sync/atomic, context, time, errors). Under go vet a package's
// imports come as export data, types without bodies, so the extractor
// type-checks again, from source, every package outside the standard
// library whose functions the package uses, the packages those use in
// turn, and the packages that import any of them (so that each package has
// one set of types), and then the package itself, on the syntax it was
// given. Every driver (go vet, the standalone command, the golangci-lint
// plugin) gives the same syntax and the same export data, hence the same
// answers. The source of a package is found where its export data says its
// declarations are; a package whose source is not there (built with
// -trimpath), that uses cgo, or that does not type-check keeps its export
// data, and calls into it stay unsupported, with the reason.

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
// library that it uses from source, or nil when it uses none whose source
// is found. noSource lists, for the packages whose functions it uses but
// whose source cannot be used, why.
func loadWholeProgram(fset *token.FileSet, pkg *types.Package, files []*ast.File, info *types.Info) (wp *wholeProgram, noSource map[string]string, err error) {
	l := &progLoader{
		fset:     fset,
		exported: map[string]*types.Package{},
		parsed:   map[string]*parsedPackage{},
		noSource: map[string]string{},
	}
	l.collect(pkg)
	if len(files) > 0 {
		l.base = filepath.Dir(fset.Position(files[0].FileStart).Filename)
	}
	for _, f := range files {
		for _, spec := range f.Imports {
			if spec.Path.Value == `"C"` {
				return nil, nil, nil // cgo: the package's own syntax is not what gc compiles
			}
		}
	}
	// The packages whose functions are used, to a fixed point.
	work := l.usedPackages(pkg, info)
	for len(work) > 0 {
		path := work[0]
		work = work[1:]
		if l.parsed[path] != nil || l.noSource[path] != "" {
			continue
		}
		if len(l.parsed) >= maxSourcePackages {
			l.noSource[path] = fmt.Sprintf("more than %d packages would be read from source", maxSourcePackages)
			continue
		}
		pp, err := l.parse(path)
		if err != nil {
			l.noSource[path] = err.Error()
			continue
		}
		l.parsed[path] = pp
		work = append(work, pp.used...)
		// An import the export data describes only in part (a package
		// the analysed one reaches only through another's types) is read
		// from source too, when its source is found.
		for _, imp := range pp.imports {
			if p := l.exported[imp]; p != nil && !p.Complete() && l.sourceDir(p) != "" {
				work = append(work, imp)
			}
		}
		// A package of the build that imports this one must see the same
		// types: it is read from source too.
		for _, q := range l.importers(path) {
			if l.parsed[q] == nil {
				work = append(work, q)
			}
		}
	}
	if len(l.parsed) == 0 {
		return nil, l.noSource, nil
	}
	// Type-check the parsed packages in dependency order, each importing
	// the others' source versions. A package that does not type-check so
	// is dropped, with the packages that import it, and the rest tried
	// again.
	for len(l.parsed) > 0 {
		wp, failed, err := l.checkAll(pkg, files)
		if failed == "" {
			return wp, l.noSource, err
		}
		l.drop(failed, err.Error())
	}
	return nil, l.noSource, nil
}

// checkAll type-checks the parsed packages and then the analysed package
// from source. On an error in a parsed package it returns that package's
// path.
func (l *progLoader) checkAll(pkg *types.Package, files []*ast.File) (wp *wholeProgram, failed string, err error) {
	order, err := l.order()
	if err != nil {
		return nil, "", err
	}
	checked := map[string]*types.Package{}
	imp := importerFunc(func(path string) (*types.Package, error) {
		if p := checked[path]; p != nil {
			return p, nil
		}
		return l.importExported(path)
	})
	conf := func(errs *[]error) *types.Config {
		return &types.Config{
			Importer: imp,
			Sizes:    types.SizesFor("gc", build.Default.GOARCH),
			Error:    func(err error) { *errs = append(*errs, err) },
		}
	}
	wp = &wholeProgram{}
	for _, path := range order {
		pp := l.parsed[path]
		var errs []error
		sp := &sourcePackage{files: pp.files, info: newInfo()}
		sp.pkg, _ = conf(&errs).Check(path, l.fset, pp.files, sp.info)
		if len(errs) > 0 {
			return nil, path, fmt.Errorf("type-checking %s from source: %w", path, errs[0])
		}
		checked[path] = sp.pkg
		wp.deps = append(wp.deps, sp)
	}
	var errs []error
	wp.info = newInfo()
	c := conf(&errs)
	c.GoVersion = pkg.GoVersion()
	wp.pkg, _ = c.Check(pkg.Path(), l.fset, files, wp.info)
	if len(errs) > 0 {
		return nil, "", fmt.Errorf("type-checking %s with its dependencies from source: %w", pkg.Path(), errs[0])
	}
	return wp, "", nil
}

// drop removes path from the packages read from source, with every
// parsed package that imports it, directly or not, giving why.
func (l *progLoader) drop(path, why string) {
	gone := map[string]bool{path: true}
	for changed := true; changed; {
		changed = false
		for q, pp := range l.parsed {
			if !gone[q] && slices.ContainsFunc(pp.imports, func(i string) bool { return gone[i] }) {
				gone[q], changed = true, true
			}
		}
	}
	for q := range gone {
		delete(l.parsed, q)
		if q == path {
			l.noSource[q] = why
		} else {
			l.noSource[q] = fmt.Sprintf("it imports %s, which could not be read from source: %s", path, why)
		}
	}
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
	file := x.fset.Position(fn.Pos()).Filename
	inGoroot := strings.HasPrefix(file, "$GOROOT") || (gorootSrc() != "" && strings.HasPrefix(file, gorootSrc()))
	if why := x.noSource[""]; why != "" && file != "" && !inGoroot && !isStandard(fn.Pkg.Pkg.Path()) {
		return "the packages it uses could not be read from source: " + why
	}
	return ""
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

// progLoader finds and parses the packages a package uses from source.
type progLoader struct {
	fset *token.FileSet
	// exported holds every package of the build reachable from the
	// analysed package, as its export data describes it.
	exported map[string]*types.Package
	parsed   map[string]*parsedPackage
	noSource map[string]string
	fallback types.Importer
	// base is the directory of the analysed package's files.
	base string
}

// parsedPackage is a package's syntax, with the packages outside the
// standard library whose functions it uses.
type parsedPackage struct {
	files   []*ast.File
	imports []string
	used    []string
}

// collect records pkg's imports, transitively.
func (l *progLoader) collect(pkg *types.Package) {
	for _, p := range pkg.Imports() {
		if l.exported[p.Path()] == nil {
			l.exported[p.Path()] = p
			l.collect(p)
		}
	}
}

// importExported returns the export-data package of path, or reads it
// with the compiler's importer when the analysed package does not reach it.
func (l *progLoader) importExported(path string) (*types.Package, error) {
	if p := l.exported[path]; p != nil && p.Complete() {
		return p, nil
	}
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	if l.fallback == nil {
		l.fallback = importer.ForCompiler(l.fset, "gc", nil)
	}
	p, err := l.fallback.Import(path)
	if err != nil {
		return nil, fmt.Errorf("importing %s: %w", path, err)
	}
	l.exported[path] = p
	return p, nil
}

// usedPackages lists the packages outside the standard library whose
// functions or methods info's package uses, in a fixed order.
func (l *progLoader) usedPackages(self *types.Package, info *types.Info) []string {
	seen := map[string]bool{}
	for _, obj := range info.Uses {
		fn, ok := obj.(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg() == self || seen[fn.Pkg().Path()] {
			continue
		}
		if l.sourceDir(fn.Pkg()) != "" {
			seen[fn.Pkg().Path()] = true
		}
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// importers lists the packages of the build outside the standard library
// that import path directly.
func (l *progLoader) importers(path string) []string {
	var out []string
	for q, p := range l.exported {
		if l.sourceDir(p) == "" {
			continue
		}
		for _, imp := range p.Imports() {
			if imp.Path() == path {
				out = append(out, q)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// sourceDir returns the directory of p's source files, found through the
// positions its export data records, or "" for a package of the standard
// library or one whose source is not found.
func (l *progLoader) sourceDir(p *types.Package) string {
	if isStandard(p.Path()) || modelledPackages[p.Path()] {
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

// modelledPackages are the packages outside the standard library that the
// model knows by what they do, not by their code: they are never read from
// source.
var modelledPackages = map[string]bool{
	errGroupPath: true,
}

// stdFromSource lists the packages of the standard library that are read
// from source like the build's own: plain data structures, which touch no
// memory but their own and synchronise nothing.
var stdFromSource = map[string]bool{
	"container/list": true,
	"container/ring": true,
	"container/heap": true,
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

// parse reads the package path from the directory its export data names:
// the files the build would compile there (build constraints applied, test
// files left out), and lists the packages outside the standard library
// whose functions it uses.
func (l *progLoader) parse(path string) (*parsedPackage, error) {
	exp := l.exported[path]
	if exp == nil {
		return nil, fmt.Errorf("package %s is not in the build", path)
	}
	dir := l.sourceDir(exp)
	if dir == "" {
		return nil, fmt.Errorf("no Go source for package %s", path)
	}
	bp, err := build.Default.ImportDir(dir, build.ImportComment)
	if err != nil {
		var noGo *build.NoGoError
		if errors.As(err, &noGo) {
			return nil, fmt.Errorf("no Go source for package %s in %s", path, dir)
		}
		return nil, fmt.Errorf("reading package %s: %w", path, err)
	}
	if len(bp.CgoFiles) > 0 || len(bp.SFiles) > 0 {
		return nil, fmt.Errorf("package %s has cgo or assembly files, whose code has no Go source", path)
	}
	pp := &parsedPackage{imports: bp.Imports}
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(l.fset, filepath.Join(dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("parsing package %s: %w", path, err)
		}
		pp.files = append(pp.files, f)
	}
	// Which functions of other packages it uses: a check against the
	// export data of its imports.
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := &types.Config{
		Importer: importerFunc(l.importExported),
		Sizes:    types.SizesFor("gc", build.Default.GOARCH),
		Error:    func(error) {},
	}
	self, _ := conf.Check(path, l.fset, pp.files, info)
	pp.used = l.usedPackages(self, info)
	return pp, nil
}

// order returns the parsed packages in dependency order.
func (l *progLoader) order() ([]string, error) {
	var out []string
	state := map[string]int{} // 1 visiting, 2 done
	var visit func(string) error
	visit = func(p string) error {
		switch state[p] {
		case 1:
			return fmt.Errorf("import cycle through %s", p)
		case 2:
			return nil
		}
		state[p] = 1
		for _, q := range l.parsed[p].imports {
			if l.parsed[q] != nil {
				if err := visit(q); err != nil {
					return err
				}
			}
		}
		state[p] = 2
		out = append(out, p)
		return nil
	}
	paths := make([]string, 0, len(l.parsed))
	for p := range l.parsed {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		if err := visit(p); err != nil {
			return nil, err
		}
	}
	return out, nil
}
