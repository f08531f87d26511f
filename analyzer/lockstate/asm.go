package lockstate

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/astq"
)

// Functions implemented in assembly. A function declared without a Go body
// (its code is in a .s file) says nothing about what it does through its
// pointer parameters, so a pointer handed to it may be written. Packages
// that implement a function in assembly on some platforms usually give it
// a Go body on the others, in a file excluded from this build by its build
// constraints (analysis.Pass.IgnoredFiles). Both implement one contract, so
// when every such Go body accesses a pointer parameter only through
// sync/atomic, the assembly is taken to as well.
//
// This applies to a function of this package without a Go body here, and
// to one whose body here hands a pointer parameter (or an address inside
// what it points to) to such a function and otherwise accesses it only
// atomically: gVisor's atomicbitops.OrUint32 calls the assembly orUint32 on
// amd64 and has a loop of atomic.CompareAndSwapUint32 elsewhere.
//
// The ignored files are parsed, not type-checked, so a Go body counts as
// atomic through a pointer parameter p only when p appears nowhere but as
// the first argument of a function of the file's own import of
// "sync/atomic" (p itself, or &p.f.g through fields of the value p points
// to, checked against p's type here), or as the receiver of a method that
// the summary of this build says is atomic (p.Load()).

// opaqueArg reports whether arg, passed to callee, is a pointer parameter
// being summarised (or an address inside what it points to) and callee is
// a function of this package without a Go body whose summary says nothing.
func (fa *funcAnalysis) opaqueArg(callee *types.Func, arg ast.Expr) bool {
	if fa.pacc == nil || callee == nil || fa.a.bodyless[callee.Origin()] == nil {
		return false
	}
	if x := addrOperand(fa.info, arg); x != nil {
		return fa.addrInto(x) != nil
	}
	return fa.pointsInto(arg) != nil
}

// finishAccess settles the parameters handed only to functions without a
// Go body (and otherwise accessed only atomically, or not at all) by the Go
// bodies of fn built elsewhere, and returns the summary.
func (a *packageAnalysis) finishAccess(fn *types.Func, pa *paramAccess) *ParamSummary {
	for v, i := range pa.index {
		f := pa.flags[v]
		if f&paramOpaque == 0 || f&(paramPlain|paramWrite) != 0 {
			continue
		}
		switch a.fallbackKind(fn, i, v.Type()) {
		case kindAtomicRead:
			pa.flags[v] = f&^paramOpaque | paramAtomic
		case kindAtomicWrite:
			pa.flags[v] = f&^paramOpaque | paramAtomic | paramAtomicWrite
		}
	}
	return pa.result()
}

// bodylessAccess returns the access summary of a function of this package
// without a Go body: from its Go bodies built elsewhere, or nil.
func (a *packageAnalysis) bodylessAccess(fn *types.Func) *ParamSummary {
	if a.bodyless[fn] == nil || len(a.pass.IgnoredFiles) == 0 {
		return nil
	}
	if sum, ok := a.asmAccess[fn]; ok {
		return sum
	}
	a.asmAccess[fn] = nil // recursion: nothing known
	pa := newParamAccess(fn.Type().(*types.Signature))
	for v := range pa.index {
		pa.flags[v] = paramOpaque
	}
	sum := a.finishAccess(fn, pa)
	a.asmAccess[fn] = sum
	return sum
}

// fallbackIndex holds the names of the functions the package's ignored Go
// files declare, and those files parsed on demand.
type fallbackIndex struct {
	read  func(string) ([]byte, error) // the pass's ReadFile
	fset  *token.FileSet
	names map[string][]string  // function or method name -> files
	files map[string]*ast.File // nil: unreadable or unparsable
}

// newFallbackIndex reads each ignored Go file once, for the names after
// "func" at the start of a line: a cheap scan, where parsing every file
// (syscall has hundreds for other platforms) would not be.
func newFallbackIndex(read func(string) ([]byte, error), ignored []string) *fallbackIndex {
	idx := &fallbackIndex{read: read, fset: token.NewFileSet(), names: map[string][]string{}, files: map[string]*ast.File{}}
	for _, name := range ignored {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		src, err := read(name)
		if err != nil {
			continue
		}
		for line := range bytes.Lines(src) {
			rest, ok := bytes.CutPrefix(line, []byte("func "))
			if !ok {
				continue
			}
			if bytes.HasPrefix(rest, []byte("(")) { // a method: skip the receiver
				if i := bytes.IndexByte(rest, ')'); i >= 0 {
					rest = bytes.TrimLeft(rest[i+1:], " ")
				}
			}
			if i := bytes.IndexAny(rest, "([ "); i > 0 {
				fn := string(rest[:i])
				if l := idx.names[fn]; len(l) == 0 || l[len(l)-1] != name {
					idx.names[fn] = append(l, name)
				}
			}
		}
	}
	return idx
}

// fallbackKind says what every Go body of fn in the ignored files does
// through its pointer parameter i (directives.Receiver for the receiver),
// of type t: kindAtomicRead or kindAtomicWrite when each accesses it only
// atomically, kindWrite otherwise or when there is none.
func (a *packageAnalysis) fallbackKind(fn *types.Func, i int, t types.Type) paramKind {
	if len(a.pass.IgnoredFiles) == 0 || !astq.IsPointer(t) {
		return kindWrite
	}
	if a.fallbacks == nil {
		a.fallbacks = newFallbackIndex(a.pass.ReadFile, a.pass.IgnoredFiles)
	}
	idx := a.fallbacks
	sig := fn.Type().(*types.Signature)
	found, write := false, false
	for _, name := range idx.names[fn.Name()] {
		f, ok := idx.files[name]
		if !ok {
			f = nil
			if src, err := idx.read(name); err == nil {
				if pf, err := parser.ParseFile(idx.fset, name, src, parser.SkipObjectResolution); err == nil {
					f = pf
				}
			}
			idx.files[name] = f
		}
		if f == nil {
			return kindWrite // a body that cannot be read may do anything
		}
		atomicName := atomicImport(f)
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Name.Name != fn.Name() || !sameRecv(fd, sig) {
				continue
			}
			param := fallbackParam(fd, sig, i)
			if param == "" || shadowed(fd.Body, param) || (atomicName != "" && shadowed(fd.Body, atomicName)) {
				return kindWrite // no name, or one the body declares again: not followed
			}
			ok, w := a.atomicOnly(fd.Body, param, t, atomicName)
			if !ok {
				return kindWrite
			}
			found, write = true, write || w
		}
	}
	switch {
	case !found:
		return kindWrite
	case write:
		return kindAtomicWrite
	}
	return kindAtomicRead
}

// atomicImport returns the name under which f imports "sync/atomic", or "".
func atomicImport(f *ast.File) string {
	for _, imp := range f.Imports {
		if path, err := strconv.Unquote(imp.Path.Value); err != nil || path != "sync/atomic" {
			continue
		}
		if imp.Name == nil {
			return "atomic"
		}
		if imp.Name.Name != "_" && imp.Name.Name != "." {
			return imp.Name.Name
		}
	}
	return ""
}

// sameRecv reports whether fd declares a function or method like sig: no
// receiver for a function, a receiver of the same named type for a method,
// and as many parameters.
func sameRecv(fd *ast.FuncDecl, sig *types.Signature) bool {
	n := 0
	for _, field := range fd.Type.Params.List {
		n += max(len(field.Names), 1)
	}
	if n != sig.Params().Len() {
		return false
	}
	r := sig.Recv()
	if r == nil || fd.Recv == nil || len(fd.Recv.List) != 1 {
		return r == nil && fd.Recv == nil
	}
	t := r.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	e := fd.Recv.List[0].Type
	if st, ok := e.(*ast.StarExpr); ok {
		e = st.X
	}
	switch x := e.(type) {
	case *ast.IndexExpr:
		e = x.X
	case *ast.IndexListExpr:
		e = x.X
	}
	id, ok := e.(*ast.Ident)
	return ok && id.Name == named.Obj().Name()
}

// fallbackParam returns the name of fd's parameter i (or receiver), or "".
func fallbackParam(fd *ast.FuncDecl, sig *types.Signature, i int) string {
	var id *ast.Ident
	if i == directives.Receiver {
		if names := fd.Recv.List[0].Names; len(names) == 1 {
			id = names[0]
		}
	} else {
		k := 0
		for _, field := range fd.Type.Params.List {
			for _, name := range field.Names {
				if k == i {
					id = name
				}
				k++
			}
		}
	}
	if id == nil || id.Name == "_" {
		return ""
	}
	return id.Name
}

// shadowed reports whether body declares name anywhere (a definition, a
// var, a closure's parameter or a range variable): the file is parsed but
// not type-checked, so an identifier is the parameter (or the sync/atomic
// import) by its name only when nothing in the body declares that name.
func shadowed(body *ast.BlockStmt, name string) bool {
	found := false
	declares := func(ids ...*ast.Ident) {
		for _, id := range ids {
			found = found || (id != nil && id.Name == name)
		}
	}
	fields := func(fl *ast.FieldList) {
		if fl != nil {
			for _, f := range fl.List {
				declares(f.Names...)
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					id, _ := l.(*ast.Ident)
					declares(id)
				}
			}
		case *ast.ValueSpec:
			declares(n.Names...)
		case *ast.FuncLit:
			fields(n.Type.Params)
			fields(n.Type.Results)
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				k, _ := n.Key.(*ast.Ident)
				v, _ := n.Value.(*ast.Ident)
				declares(k, v)
			}
		case *ast.TypeSwitchStmt:
			if as, ok := n.Assign.(*ast.AssignStmt); ok && len(as.Lhs) == 1 {
				id, _ := as.Lhs[0].(*ast.Ident)
				declares(id)
			}
		}
		return !found
	})
	return found
}

// atomicOnly reports whether body, parsed but not type-checked, uses the
// pointer parameter param (of type t) only atomically and at least once,
// and whether it writes through it.
func (a *packageAnalysis) atomicOnly(body *ast.BlockStmt, param string, t types.Type, atomicName string) (ok, write bool) {
	allowed := map[*ast.Ident]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		x, ok := ast.Unparen(se.X).(*ast.Ident)
		if !ok {
			return true
		}
		switch {
		case atomicName != "" && x.Name == atomicName && isAtomicFunc(se.Sel.Name) && len(call.Args) > 0:
			if id := a.fallbackTarget(call.Args[0], param, t); id != nil {
				allowed[id] = true
				write = write || !strings.HasPrefix(se.Sel.Name, "Load")
			}
		case x.Name == param:
			m, index, _ := types.LookupFieldOrMethod(t, true, a.pass.Pkg, se.Sel.Name)
			if m, ok := m.(*types.Func); ok && len(index) == 1 { // not promoted through an embedded field
				switch a.paramKindOf(m, directives.Receiver) {
				case kindAtomicWrite:
					allowed[x], write = true, true
				case kindAtomicRead:
					allowed[x] = true
				}
			}
		}
		return true
	})
	if len(allowed) == 0 {
		return false, false
	}
	ok = true
	sels := map[*ast.Ident]bool{} // x.name: a field or method, not the parameter
	ast.Inspect(body, func(n ast.Node) bool {
		if se, isSel := n.(*ast.SelectorExpr); isSel {
			sels[se.Sel] = true
		}
		if id, isID := n.(*ast.Ident); isID && id.Name == param && !allowed[id] && !sels[id] {
			ok = false
		}
		return ok
	})
	return ok, write
}

// isAtomicFunc reports whether name is that of a sync/atomic function on
// an address (AddInt32, LoadPointer, CompareAndSwapUint64, ...).
func isAtomicFunc(name string) bool {
	for _, op := range []string{"Add", "And", "CompareAndSwap", "Load", "Or", "Store", "Swap"} {
		if rest, ok := strings.CutPrefix(name, op); ok {
			switch rest {
			case "Int32", "Int64", "Uint32", "Uint64", "Uintptr", "Pointer":
				return true
			}
		}
	}
	return false
}

// fallbackTarget returns the identifier of param when e is param itself or
// &param.f.g..., a field (of a field...) of the value param points to,
// checked against param's type t.
func (a *packageAnalysis) fallbackTarget(e ast.Expr, param string, t types.Type) *ast.Ident {
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		if id.Name == param {
			return id
		}
		return nil
	}
	u, ok := e.(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return nil
	}
	var names []string
	x := ast.Unparen(u.X)
	for {
		sel, ok := x.(*ast.SelectorExpr)
		if !ok {
			break
		}
		names = append([]string{sel.Sel.Name}, names...)
		x = ast.Unparen(sel.X)
	}
	id, ok := x.(*ast.Ident)
	if !ok || id.Name != param || len(names) == 0 {
		return nil
	}
	cur := t.(*types.Pointer).Elem()
	for _, name := range names {
		if astq.IsPointer(cur) {
			return nil // the field of another object
		}
		obj, _, indirect := types.LookupFieldOrMethod(cur, false, a.pass.Pkg, name)
		v, ok := obj.(*types.Var)
		if !ok || !v.IsField() || indirect {
			return nil // a method value, or a field reached through a pointer
		}
		cur = v.Type()
	}
	return id
}

// exportedPtrFunc reports whether fn is an exported package-level function
// with a pointer parameter: one other packages may pass a field's address.
// Its summary is exported only when it calls sync/atomic or assembly
// (callsAtomic): summarising every such function of every package, and
// copying the facts into every importer, costs about a tenth more time on
// the standard library.
func exportedPtrFunc(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	if !fn.Exported() || sig.Recv() != nil {
		return false
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if astq.IsPointer(sig.Params().At(i).Type()) {
			return true
		}
	}
	return false
}

// callsAtomic reports whether fd's body calls a sync/atomic function or a
// function of this package without a Go body.
func (a *packageAnalysis) callsAtomic(fd *ast.FuncDecl) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && !found {
			if fn := typeutil.StaticCallee(a.pass.TypesInfo, call); fn != nil {
				found = a.bodyless[fn.Origin()] != nil ||
					fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic" && fn.Type().(*types.Signature).Recv() == nil
			}
		}
		return !found
	})
	return found
}
