package extract

import (
	"cmp"
	"go/ast"
	"go/types"
	"slices"
)

// Which packages are read from source: those with a function that the
// analysed package's code may reach by calls, or a package-level variable
// it may use (whose initialisation must run), followed through the bodies
// of the functions reached (read from source to find them). A call through
// an interface reaches the methods of that name and signature of every
// type whose values reached code may make: a type named in it (a composite
// literal, a conversion, new, a variable's type), with the types its
// structs embed. The search works on a package's own type-check against
// the export data of its imports; it only decides which packages are read
// from source, which go/ssa then builds whole: a call it misses stays a
// call into export data, refused at its position.

// reachability is the state of the search.
type reachability struct {
	l     *progLoader
	funcs map[string]bool
	// dyn holds the interface methods called, by name.
	dyn map[string][]*types.Func
	// made holds the named types whose values reached code may make, by
	// key, in the order found.
	made  map[string]bool
	types []*types.Named
}

func newReachability(l *progLoader) *reachability {
	return &reachability{l: l, funcs: map[string]bool{}, dyn: map[string][]*types.Func{}, made: map[string]bool{}}
}

// roots starts the search from everything the analysed package uses, and
// from the types its own types embed.
func (r *reachability) roots(self *types.Package, info *types.Info) {
	for _, obj := range sortedObjects(info.Uses) {
		if obj.Pkg() != self || isInterfaceMethod(obj) {
			r.use(obj)
		}
	}
	for _, obj := range sortedObjects(info.Defs) {
		if tn, ok := obj.(*types.TypeName); ok && obj.Pkg() == self && obj.Parent() == self.Scope() {
			if n, ok := types.Unalias(tn.Type()).(*types.Named); ok {
				r.embedded(n)
			}
		}
	}
}

// use follows one object that reached code uses.
func (r *reachability) use(obj types.Object) {
	switch obj := obj.(type) {
	case *types.Func:
		if isInterfaceMethod(obj) {
			r.callDynamic(obj)
			return
		}
		r.reach(obj)
	case *types.TypeName:
		if n, ok := types.Unalias(obj.Type()).(*types.Named); ok {
			r.make(n)
		}
	case *types.Var:
		// A package-level variable: its package is read from source,
		// so that its initialisation runs before the set-up.
		if obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope() {
			r.l.reachPackage(obj.Pkg().Path())
		}
	}
}

// reach marks fn reached and follows its body.
func (r *reachability) reach(fn *types.Func) {
	if fn.Pkg() == nil {
		return
	}
	key := funcKey(fn)
	if r.funcs[key] {
		return
	}
	r.funcs[key] = true
	pp := r.l.reachPackage(fn.Pkg().Path())
	if pp == nil {
		return
	}
	for _, obj := range pp.decls[key] {
		r.use(obj)
	}
}

// callDynamic records a call of the interface method im and reaches the
// methods it may call among the types made so far.
func (r *reachability) callDynamic(im *types.Func) {
	for _, prev := range r.dyn[im.Name()] {
		if types.Identical(prev.Type(), im.Type()) || funcKey(prev) == funcKey(im) {
			return
		}
	}
	r.dyn[im.Name()] = append(r.dyn[im.Name()], im)
	for i := 0; i < len(r.types); i++ {
		if m := methodNamed(r.types[i], im.Name()); m != nil && sameShape(im, m) {
			r.reach(m)
		}
	}
}

// make records that reached code may make values of n, and reaches the
// methods of n that the interface calls found so far may call.
func (r *reachability) make(n *types.Named) {
	n = n.Origin()
	obj := n.Obj()
	if obj.Pkg() == nil || !r.l.mayReadFromSource(obj.Pkg().Path()) {
		return
	}
	key := obj.Pkg().Path() + "." + obj.Name()
	if r.made[key] {
		return
	}
	r.made[key] = true
	r.types = append(r.types, n)
	for i := range n.NumMethods() {
		m := n.Method(i)
		for _, im := range r.dyn[m.Name()] {
			if sameShape(im, m) {
				r.reach(m)
				break
			}
		}
	}
	r.embedded(n)
}

// embedded makes the named types that n's struct embeds.
func (r *reachability) embedded(n *types.Named) {
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return
	}
	for i := range st.NumFields() {
		f := st.Field(i)
		if !f.Embedded() {
			continue
		}
		t := types.Unalias(f.Type())
		if p, ok := t.(*types.Pointer); ok {
			t = types.Unalias(p.Elem())
		}
		if e, ok := t.(*types.Named); ok {
			r.make(e)
		}
	}
}

// isInterfaceMethod reports whether obj is a method of an interface.
func isInterfaceMethod(obj types.Object) bool {
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig, _ := fn.Type().(*types.Signature)
	return sig != nil && sig.Recv() != nil && types.IsInterface(sig.Recv().Type())
}

// methodNamed returns n's method called name, or nil.
func methodNamed(n *types.Named, name string) *types.Func {
	for i := range n.NumMethods() {
		if m := n.Method(i); m.Name() == name {
			return m
		}
	}
	return nil
}

// sameShape reports whether a call of the interface method im may call the
// concrete method m: their signatures are the same when written with full
// package paths (the two may come from different type-checks), or, when
// either involves type parameters, have as many parameters and results.
func sameShape(im, m *types.Func) bool {
	a, b := im.Type().(*types.Signature), m.Type().(*types.Signature)
	if a.Params().Len() != b.Params().Len() || a.Results().Len() != b.Results().Len() || a.Variadic() != b.Variadic() {
		return false
	}
	if generic(a) || generic(b) {
		return true
	}
	return types.TypeString(withoutRecv(a), nil) == types.TypeString(withoutRecv(b), nil)
}

// generic reports whether sig's receiver has type parameters or arguments,
// or its receiver is one.
func generic(sig *types.Signature) bool {
	if sig.RecvTypeParams().Len() > 0 || sig.TypeParams().Len() > 0 {
		return true
	}
	t := types.Unalias(sig.Recv().Type())
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	switch t := t.(type) {
	case *types.TypeParam:
		return true
	case *types.Named:
		return t.TypeParams().Len() > 0 || t.TypeArgs().Len() > 0
	}
	return false
}

// withoutRecv is sig without its receiver.
func withoutRecv(sig *types.Signature) *types.Signature {
	return types.NewSignatureType(nil, nil, nil, sig.Params(), sig.Results(), sig.Variadic())
}

// funcKey names a function or method the same way in every type-check of
// its package.
func funcKey(fn *types.Func) string {
	fn = fn.Origin()
	path := ""
	if fn.Pkg() != nil {
		path = fn.Pkg().Path()
	}
	if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
		t := types.Unalias(recv.Type())
		if p, ok := t.(*types.Pointer); ok {
			t = types.Unalias(p.Elem())
		}
		if n, ok := t.(*types.Named); ok {
			return path + "." + n.Obj().Name() + "." + fn.Name()
		}
		return path + ".(" + types.TypeString(t, nil) + ")." + fn.Name()
	}
	return path + "." + fn.Name()
}

// declUses lists, for each function and method declared in files, the
// objects its declaration uses, by funcKey.
func declUses(files []*ast.File, info *types.Info) map[string][]types.Object {
	out := map[string][]types.Object{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			fn, ok := info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			seen := map[types.Object]bool{}
			var objs []types.Object
			ast.Inspect(fd, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					if obj := info.Uses[id]; obj != nil && !seen[obj] {
						seen[obj] = true
						objs = append(objs, obj)
					}
				}
				return true
			})
			key := funcKey(fn)
			out[key] = append(out[key], objs...)
		}
	}
	return out
}

// sortedObjects returns the distinct values of m in a fixed order.
func sortedObjects[K comparable](m map[K]types.Object) []types.Object {
	seen := map[types.Object]bool{}
	out := make([]types.Object, 0, len(m))
	for _, obj := range m {
		if obj != nil && !seen[obj] {
			seen[obj] = true
			out = append(out, obj)
		}
	}
	slices.SortFunc(out, func(a, b types.Object) int {
		return cmp.Or(cmp.Compare(pkgPath(a), pkgPath(b)), cmp.Compare(a.Name(), b.Name()), cmp.Compare(a.Pos(), b.Pos()))
	})
	return out
}

// pkgPath is the path of obj's package, or "".
func pkgPath(obj types.Object) string {
	if obj.Pkg() == nil {
		return ""
	}
	return obj.Pkg().Path()
}
