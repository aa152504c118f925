package extract

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// sync.OnceFunc, OnceValue and OnceValues.
//
// Each is a sync.Once inside a closure: the first call runs f, every call
// waits for that run to end and returns what it computed, and when f
// panicked every call panics. The model lowers them from Go source of its
// own, written for each instance (the types of f's results spelled as
// aliases T, T1, T2 of the instance's type arguments), with the Once
// spelled out as Go's is: an atomic flag read first, then a mutex, and the
// flag set by a deferred store, so the Once is done even when f panics.
// The first caller's panic is f's own, with its value; a later call
// panics with a value of the model's (a recovered value that is compared
// with f's is not f's). The flag, the mutex and the results are the
// closure's variables, so a goroutine that reads a result after its call
// is ordered after the run that wrote it, exactly as in Go, and nothing
// else is ordered.

// onceFuncForm is how each function's source differs: f's results, the
// variables that hold them, and the returned function's results.
type onceFuncForm struct {
	results, vars, store, ret string
}

var onceFuncForms = map[string]onceFuncForm{
	"OnceFunc":   {results: "", vars: "", store: "f()", ret: ""},
	"OnceValue":  {results: " T", vars: "result T", store: "result = f()", ret: "result"},
	"OnceValues": {results: " (T1, T2)", vars: "result1 T1; result2 T2", store: "result1, result2 = f()", ret: "result1, result2"},
}

// source is the Go source of the function name of this form.
func (fm onceFuncForm) source(name string) string {
	return fmt.Sprintf(`func %[1]s(f func()%[2]s) func()%[2]s {
	var mu sync.Mutex
	var done Flag
	var finished bool
	var (%[3]s)
	run := func() {
		mu.Lock()
		defer mu.Unlock()
		if !done.Load() {
			defer done.Store(true)
			%[4]s
			finished = true
		}
	}
	return func()%[2]s {
		if !done.Load() {
			run()
		}
		if !finished {
			panic("sync: the function given to %[1]s panicked")
		}
		return %[5]s
	}
}`, name, fm.results, fm.vars, fm.store, fm.ret)
}

// ModelSources returns the Go source texts of the model's own code that
// systems may run (sync.Map's methods, sync.OnceFunc, OnceValue and
// OnceValues, WaitGroup.Go, the goroutine of a go statement on a function
// without a body): the names of their variables may appear in findings.
func ModelSources() []string {
	srcs := []string{syncMapSrc, goCallSrc, wgGoSrc}
	for _, name := range slices.Sorted(maps.Keys(onceFuncForms)) {
		srcs = append(srcs, "package sync\n\n"+onceFuncForms[name].source(name))
	}
	return srcs
}

// onceFuncShim returns, for fn an instance of sync.OnceFunc, OnceValue or
// OnceValues, the function of the model's source that stands for it
// (made once per instance); nil for any other function.
func (x *extractor) onceFuncShim(fn *ssa.Function) (*ssa.Function, error) {
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "sync" || fn.Signature.Recv() != nil {
		return nil, nil
	}
	form, ok := onceFuncForms[obj.Name()]
	if !ok {
		return nil, nil
	}
	if sh, ok := x.shims[fn]; ok {
		return sh, nil
	}
	f, _ := fn.Signature.Params().At(0).Type().Underlying().(*types.Signature)
	if f == nil {
		return nil, fmt.Errorf("%s takes no function", fn)
	}
	n := len(x.shims)
	// The type arguments, as aliases of a package of their own that the
	// source imports with a dot.
	targs := types.NewPackage(fmt.Sprintf("sync·typeargs%d", n), "typeargs")
	for i := 0; i < f.Results().Len(); i++ {
		name := "T"
		if f.Results().Len() > 1 {
			name = fmt.Sprintf("T%d", i+1)
		}
		targs.Scope().Insert(types.NewTypeName(token.NoPos, targs, name, f.Results().At(i).Type()))
	}
	// The flag is a sync/atomic.Bool, named Flag there too: package sync's
	// export data has the part of sync/atomic it uses, Bool among it.
	var flag types.Object
	for _, p := range obj.Pkg().Imports() {
		if p.Path() == "sync/atomic" {
			flag = p.Scope().Lookup("Bool")
		}
	}
	if flag == nil {
		return nil, fmt.Errorf("the model of %s: no sync/atomic.Bool in package sync's imports", fn)
	}
	targs.Scope().Insert(types.NewTypeName(token.NoPos, targs, "Flag", flag.Type()))
	targs.MarkComplete()
	text := fmt.Sprintf("package sync\n\nimport (\n\t\"sync\"\n\n\t. %q\n)\n\n%s\n", targs.Path(), form.source(obj.Name()))
	imp := importerFunc(func(path string) (*types.Package, error) {
		switch path {
		case "sync":
			return obj.Pkg(), nil
		case targs.Path():
			return targs, nil
		}
		return nil, fmt.Errorf("no package %s", path)
	})
	prog := x.ssapkg.Prog
	if prog.Package(targs) == nil {
		prog.CreatePackage(targs, nil, nil, true)
	}
	sp, err := x.modelSource(fmt.Sprintf("sync.%s#%d", obj.Name(), n), fmt.Sprintf("sync·once%d", n), text, imp)
	if err != nil {
		return nil, fmt.Errorf("the model of %s: %w", fn, err)
	}
	sh := sp.Func(obj.Name())
	if x.shims == nil {
		x.shims = map[*ssa.Function]*ssa.Function{}
	}
	x.shims[fn] = sh
	return sh, nil
}

// modelSource type-checks and builds the Go source text of the model's own
// as the package path, in the program's universe of types (imp gives its
// imports), named file in positions; its functions are inlined as the
// package's own.
func (x *extractor) modelSource(file, path, text string, imp types.Importer) (*ssa.Package, error) {
	f, err := parser.ParseFile(x.fset, file, text, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}, Scopes: map[ast.Node]*types.Scope{},
		Instances: map[*ast.Ident]types.Instance{}, FileVersions: map[*ast.File]string{},
	}
	pkg, err := (&types.Config{Importer: imp}).Check(path, x.fset, []*ast.File{f}, info)
	if err != nil {
		return nil, err
	}
	x.modelFiles = append(x.modelFiles, f)
	sp := x.ssapkg.Prog.CreatePackage(pkg, []*ast.File{f}, info, false)
	sp.Build()
	x.srcPkgs[sp] = true
	return sp, nil
}

// inModelSource reports whether pos lies in the model's own source.
func (x *extractor) inModelSource(pos token.Pos) bool {
	for _, f := range x.modelFiles {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return true
		}
	}
	return false
}
