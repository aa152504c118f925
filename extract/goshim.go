package extract

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Go statements on functions known by behaviour.
//
// A go statement on a function the model knows by what it does rather
// than by its source (go wg.Done(), go n.Add(1), go mu.Unlock(): methods
// of package sync and sync/atomic), or on the built-in close, starts a
// goroutine that runs a shim of
// the model's own source, func call(f func(P0, P1) R0, a0 P0, a1 P1) {
// f(a0, a1) }, with the function and the go statement's arguments (the
// receiver first): the call in it is lowered as a call in a goroutine is.
// The parameter and result types are aliases in a package of their own
// that the shim imports with a dot, as the once shims' type arguments are
// (oncefunc.go). One shim is made per signature.

// goShim returns the shim that calls a function of signature sig (a
// method's receiver as its first parameter) in a goroutine.
func (x *extractor) goShim(sig *types.Signature) (*ssa.Function, error) {
	if sig.Variadic() {
		return nil, fmt.Errorf("a go statement on a variadic function known by its behaviour")
	}
	var params []types.Type
	if r := sig.Recv(); r != nil {
		params = append(params, r.Type())
	}
	for i := range sig.Params().Len() {
		params = append(params, sig.Params().At(i).Type())
	}
	var results []types.Type
	for i := range sig.Results().Len() {
		results = append(results, sig.Results().At(i).Type())
	}
	return x.shimOf("", params, results)
}

// goBuiltinShim returns the shim that calls the built-in name (go
// close(ch)) on arguments of types params in a goroutine.
func (x *extractor) goBuiltinShim(name string, params []types.Type) (*ssa.Function, error) {
	return x.shimOf(name, params, nil)
}

// shimOf returns the shim that calls, with arguments of types params, the
// built-in builtin or, for "", a function of those parameters and results
// passed as its first argument.
func (x *extractor) shimOf(builtin string, params, results []types.Type) (*ssa.Function, error) {
	key := builtin + types.TypeString(types.NewTuple(varsOf(params)...), nil) + types.TypeString(types.NewTuple(varsOf(results)...), nil)
	if sh, ok := x.goShims[key]; ok {
		return sh, nil
	}
	n := len(x.goShims)
	targs := types.NewPackage(fmt.Sprintf("go·typeargs%d", n), "typeargs")
	var ps, rs, formals, actuals []string
	for i, t := range params {
		name := fmt.Sprintf("P%d", i)
		targs.Scope().Insert(types.NewTypeName(token.NoPos, targs, name, t))
		ps = append(ps, name)
		formals = append(formals, fmt.Sprintf("a%d %s", i, name))
		actuals = append(actuals, fmt.Sprintf("a%d", i))
	}
	for i, t := range results {
		name := fmt.Sprintf("R%d", i)
		targs.Scope().Insert(types.NewTypeName(token.NoPos, targs, name, t))
		rs = append(rs, name)
	}
	targs.MarkComplete()
	callee := builtin
	if builtin == "" {
		fn := "func(" + strings.Join(ps, ", ") + ")"
		if len(rs) > 0 {
			fn += " (" + strings.Join(rs, ", ") + ")"
		}
		formals = append([]string{"f " + fn}, formals...)
		callee = "f"
	}
	text := fmt.Sprintf("package gocall\n\nimport . %q\n\nfunc call(%s) { %s(%s) }\n", targs.Path(),
		strings.Join(formals, ", "), callee, strings.Join(actuals, ", "))
	imp := importerFunc(func(path string) (*types.Package, error) {
		if path == targs.Path() {
			return targs, nil
		}
		return nil, fmt.Errorf("no package %s", path)
	})
	prog := x.ssapkg.Prog
	if prog.Package(targs) == nil {
		prog.CreatePackage(targs, nil, nil, true)
	}
	sp, err := x.modelSource(fmt.Sprintf("go#%d", n), fmt.Sprintf("go·call%d", n), text, imp)
	if err != nil {
		return nil, fmt.Errorf("the model of a go statement: %w", err)
	}
	if x.goShims == nil {
		x.goShims = map[string]*ssa.Function{}
	}
	x.goShims[key] = sp.Func("call")
	return x.goShims[key], nil
}

// varsOf returns unnamed variables of types ts, for a tuple.
func varsOf(ts []types.Type) []*types.Var {
	var out []*types.Var
	for _, t := range ts {
		out = append(out, types.NewVar(token.NoPos, nil, "", t))
	}
	return out
}
