package races

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A dependency's function has no body here (program.go builds bodies
// only for the packages named), so the points-to analysis gives what it
// returns one object per type: clientv3.NewCtxClient's *Client in one
// call is the *Client of every other, and two runs of one handler, each
// setting up the client it just made, race. depSources reads the
// dependency's source instead, for the one function asked about: its
// result is fresh when every return gives an object the call allocates
// (&T{...}, new(T), the address of a local variable, a local variable
// only ever assigned those, nil, or the fresh result of another function
// of its package). What it reads is syntax alone, so it says fresh only
// where the syntax leaves no doubt: a variable whose address is taken,
// or that is assigned anything else, is not.
type depSources struct {
	fset  *token.FileSet // the program's: where the export data puts each function
	own   *token.FileSet // the files parsed here
	files map[string]*ast.File
	dirs  map[string]map[string][]*ast.FuncDecl // directory → function name → declarations
	memo  map[depKey]bool
	// byFunc is fresh's answers, and kept keptIn's: a function is asked
	// about at every call of it.
	byFunc map[resultKey]bool
	kept   map[resultKey]keptAnswer
	// env and dir are the go command's, as the program was loaded;
	// root, the GOROOT it reports, once asked.
	env       []string
	dir, root string
	rootAsked bool
}

type depKey struct {
	decl *ast.FuncDecl
	i    int
}

func newDepSources(fset *token.FileSet, env []string, dir string) *depSources {
	return &depSources{fset: fset, env: env, dir: dir, own: token.NewFileSet(), files: map[string]*ast.File{}, dirs: map[string]map[string][]*ast.FuncDecl{}, memo: map[depKey]bool{}, byFunc: map[resultKey]bool{}, kept: map[resultKey]keptAnswer{}}
}

// fresh reports whether fn, a function of a dependency, returns in its
// result i only objects each call allocates.
func (d *depSources) fresh(fn *ssa.Function, i int) bool {
	k := resultKey{fn, i}
	f, ok := d.byFunc[k]
	if !ok {
		if len(d.files) > maxDepFiles {
			d.forget()
		}
		f = d.freshFunc(fn, i)
		d.byFunc[k] = f
	}
	return f
}

// maxDepFiles bounds the parsed files kept between questions: past it,
// they are dropped (the answers stay), so that a program with many
// dependencies does not keep their syntax for the whole run.
const maxDepFiles = 64

// forget drops the parsed files and what was worked out on them.
func (d *depSources) forget() {
	d.own = token.NewFileSet()
	d.files = map[string]*ast.File{}
	d.dirs = map[string]map[string][]*ast.FuncDecl{}
	d.memo = map[depKey]bool{}
}

func (d *depSources) freshFunc(fn *ssa.Function, i int) bool {
	dir, decl := d.declOf(fn)
	if decl == nil {
		return false
	}
	return d.freshResult(dir, decl, i)
}

// declOf is the declaration of fn, a function of a dependency, and the
// directory of its file; nil where the source cannot be found.
func (d *depSources) declOf(fn *ssa.Function) (string, *ast.FuncDecl) {
	obj := fn.Object()
	if obj == nil || !obj.Pos().IsValid() {
		return "", nil
	}
	pos := d.fset.Position(obj.Pos())
	// Export data writes the standard library's files under $GOROOT.
	if rest, ok := strings.CutPrefix(pos.Filename, "$GOROOT"); ok {
		if d.goroot() == "" {
			return "", nil
		}
		pos.Filename = filepath.Join(d.goroot(), filepath.FromSlash(rest))
	}
	return filepath.Dir(pos.Filename), d.declAt(pos)
}

// keptIn is the result of fn, a function of a dependency, that keeps its
// parameter i (fn.Params' numbering), where keeping it there is all fn
// does with it: every use of the parameter is a field or element of a
// composite literal fn returns in that place (context.WithValue's
// return &valueCtx{parent, key, val}), or a comparison with nil. The
// caller's value then goes where that result goes. -1 with ok where fn
// does not use it at all; ok is false for any other use, a receiver, or
// a name declared again in the body.
func (d *depSources) keptIn(fn *ssa.Function, i int) (result int, ok bool) {
	k := resultKey{fn, i}
	if r, seen := d.kept[k]; seen {
		return r.result, r.ok
	}
	if len(d.files) > maxDepFiles {
		d.forget()
	}
	result, ok = d.keptInDecl(fn, i)
	d.kept[k] = keptAnswer{result, ok}
	return result, ok
}

// keptAnswer is keptIn's answer for a parameter.
type keptAnswer struct {
	result int
	ok     bool
}

// keptInDecl is keptIn, worked out.
func (d *depSources) keptInDecl(fn *ssa.Function, i int) (int, bool) {
	_, decl := d.declOf(fn)
	if decl == nil || decl.Recv != nil && i == 0 {
		return 0, false
	}
	if decl.Recv != nil {
		i--
	}
	name := paramName(decl, i)
	if name == "" || name == "_" || declCount(decl, name) > 0 {
		return 0, false
	}
	return keptInResult(decl.Body, name)
}

// paramName is the name of decl's i-th parameter ("" where unnamed or
// out of range).
func paramName(decl *ast.FuncDecl, i int) string {
	k := 0
	for _, field := range decl.Type.Params.List {
		if len(field.Names) == 0 {
			if k == i {
				return ""
			}
			k++
			continue
		}
		for _, id := range field.Names {
			if k == i {
				return id.Name
			}
			k++
		}
	}
	return ""
}

// keptInResult is keptIn for a body and a parameter's name.
func keptInResult(body *ast.BlockStmt, name string) (int, bool) {
	allowed := map[*ast.Ident]bool{}
	result := -1
	var uses []*ast.Ident
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.ReturnStmt:
			for r, e := range x.Results {
				for _, id := range literalParts(e) {
					allowed[id] = true
					if id.Name == name && result != r {
						if result >= 0 {
							result = -2 // kept in two results
						} else {
							result = r
						}
					}
				}
			}
		case *ast.BinaryExpr:
			if x.Op == token.EQL || x.Op == token.NEQ {
				l, lok := ast.Unparen(x.X).(*ast.Ident)
				r, rok := ast.Unparen(x.Y).(*ast.Ident)
				if lok && rok && (r.Name == "nil" || l.Name == "nil") {
					allowed[l], allowed[r] = true, true
				}
			}
		case *ast.SelectorExpr:
			allowed[x.Sel] = true // a field or method name, not a use
		case *ast.Ident:
			if x.Name == name {
				uses = append(uses, x)
			}
		}
		return true
	})
	if result == -2 {
		return 0, false
	}
	for _, id := range uses {
		if !allowed[id] {
			return 0, false
		}
	}
	return result, true
}

// literalParts is, where e is a composite literal or its address, the
// names that are its elements or its keys (a struct's field names, which
// use nothing, or a map's keys, which it keeps).
func literalParts(e ast.Expr) []*ast.Ident {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return nil
	}
	var out []*ast.Ident
	for _, el := range lit.Elts {
		parts := []ast.Expr{el}
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			parts = []ast.Expr{kv.Key, kv.Value}
		}
		for _, p := range parts {
			if id, ok := ast.Unparen(p).(*ast.Ident); ok {
				out = append(out, id)
			}
		}
	}
	return out
}

// declAt is the function declared on pos's line (export data keeps the
// line, not always the column); nil unless exactly one is.
func (d *depSources) declAt(pos token.Position) *ast.FuncDecl {
	f := d.file(pos.Filename)
	if f == nil {
		return nil
	}
	var found *ast.FuncDecl
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || d.own.Position(fd.Name.Pos()).Line != pos.Line {
			continue
		}
		if found != nil || fd.Body == nil {
			return nil
		}
		found = fd
	}
	return found
}

// goroot is the Go installation the program's standard library comes
// from: the go command's GOROOT. If the go command cannot say, no file
// of the standard library is found, and none of its results is fresh.
func (d *depSources) goroot() string {
	if !d.rootAsked {
		d.rootAsked = true
		cmd := exec.Command("go", "env", "GOROOT")
		cmd.Env, cmd.Dir = d.env, d.dir
		if out, err := cmd.Output(); err == nil {
			d.root = strings.TrimSpace(string(out))
		}
	}
	return d.root
}

func (d *depSources) file(name string) *ast.File {
	if f, ok := d.files[name]; ok {
		return f
	}
	var f *ast.File
	if src, err := os.ReadFile(name); err == nil {
		f, _ = parser.ParseFile(d.own, name, src, parser.SkipObjectResolution)
	}
	d.files[name] = f
	return f
}

// funcsIn is the package-level functions (not methods) declared in the
// files of dir that the default build context compiles, by name.
func (d *depSources) funcsIn(dir string) map[string][]*ast.FuncDecl {
	if m, ok := d.dirs[dir]; ok {
		return m
	}
	m := map[string][]*ast.FuncDecl{}
	d.dirs[dir] = m
	entries, err := os.ReadDir(dir)
	if err != nil {
		return m
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if ok, err := build.Default.MatchFile(dir, name); err != nil || !ok {
			continue
		}
		f := d.file(filepath.Join(dir, name))
		if f == nil {
			continue
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Body != nil {
				m[fd.Name.Name] = append(m[fd.Name.Name], fd)
			}
		}
	}
	return m
}

// freshResult reports whether decl's result i is fresh at every return;
// a declaration whose answer is being worked out (recursion) is not.
func (d *depSources) freshResult(dir string, decl *ast.FuncDecl, i int) bool {
	k := depKey{decl, i}
	if f, ok := d.memo[k]; ok {
		return f
	}
	d.memo[k] = false
	named := resultNames(decl)
	returned := false
	f := true
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if !f {
			return false
		}
		switch x := n.(type) {
		case *ast.FuncLit:
			return false // its returns are its own
		case *ast.ReturnStmt:
			returned = true
			switch {
			case len(x.Results) == 0 && i < len(named) && named[i] != nil:
				f = d.freshVar(dir, decl, named[i].Name)
			case len(x.Results) == 1 && i > 0:
				// return g(): g's result i
				f = d.freshCall(dir, x.Results[0], i)
			case i < len(x.Results):
				f = d.freshExpr(dir, decl, x.Results[i], i, len(x.Results))
			default:
				f = false
			}
		}
		return true
	})
	f = f && returned
	d.memo[k] = f
	return f
}

// resultNames is decl's named results, one per result; nil where unnamed.
func resultNames(decl *ast.FuncDecl) []*ast.Ident {
	var out []*ast.Ident
	if decl.Type.Results == nil {
		return nil
	}
	for _, field := range decl.Type.Results.List {
		if len(field.Names) == 0 {
			out = append(out, nil)
			continue
		}
		out = append(out, field.Names...)
	}
	return out
}

// freshExpr reports whether e, returned in place i of n results, is fresh.
func (d *depSources) freshExpr(dir string, decl *ast.FuncDecl, e ast.Expr, i, n int) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if x.Op != token.AND {
			return false
		}
		switch y := ast.Unparen(x.X).(type) {
		case *ast.CompositeLit:
			return true
		case *ast.Ident:
			// The address of a variable the function declares: a new
			// variable each call.
			return localVar(decl, y.Name)
		}
	case *ast.Ident:
		if x.Name == "nil" {
			return !declares(decl, "nil")
		}
		return d.freshVar(dir, decl, x.Name)
	case *ast.CallExpr:
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && id.Name == "new" && len(x.Args) == 1 && !declares(decl, "new") {
			return true
		}
		if n == 1 {
			return d.freshCall(dir, x, i)
		}
	}
	return false
}

// freshCall reports whether e calls a function of the package in dir
// (by a name no local declaration shadows) whose result i is fresh.
func (d *depSources) freshCall(dir string, e ast.Expr, i int) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fun := ast.Unparen(call.Fun)
	if ix, ok := fun.(*ast.IndexExpr); ok { // an explicit instantiation
		fun = ix.X
	}
	id, ok := fun.(*ast.Ident)
	if !ok {
		return false
	}
	decls := d.funcsIn(dir)[id.Name]
	if len(decls) != 1 {
		return false
	}
	return d.freshResult(dir, decls[0], i)
}

// freshVar reports whether the local variable name (a named result, or
// one declared in the body) holds only fresh values: every assignment to
// it is fresh, and nothing takes its address (which could change it out
// of sight). Parameters are what callers pass: never fresh.
func (d *depSources) freshVar(dir string, decl *ast.FuncDecl, name string) bool {
	if isParam(decl, name) || !localVar(decl, name) {
		return false
	}
	f := true
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if !f {
			return false
		}
		switch x := n.(type) {
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(x.X).(*ast.Ident); ok && x.Op == token.AND && id.Name == name {
				f = false
			}
		case *ast.IncDecStmt:
			if id, ok := x.X.(*ast.Ident); ok && id.Name == name {
				f = false
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{x.Key, x.Value} {
				if id, ok := e.(*ast.Ident); ok && id.Name == name {
					f = false
				}
			}
		case *ast.AssignStmt:
			for k, lhs := range x.Lhs {
				id, ok := lhs.(*ast.Ident)
				if !ok || id.Name != name {
					continue
				}
				switch {
				case len(x.Rhs) == len(x.Lhs):
					f = x.Tok == token.DEFINE || x.Tok == token.ASSIGN
					f = f && d.freshExpr(dir, decl, x.Rhs[k], 0, 1)
				case len(x.Rhs) == 1:
					f = (x.Tok == token.DEFINE || x.Tok == token.ASSIGN) && d.freshCall(dir, x.Rhs[0], k)
				default:
					f = false
				}
			}
		case *ast.ValueSpec:
			for k, id := range x.Names {
				if id.Name != name {
					continue
				}
				switch {
				case len(x.Values) == 0: // the zero value: nil for a pointer
				case len(x.Values) == len(x.Names):
					f = d.freshExpr(dir, decl, x.Values[k], 0, 1)
				case len(x.Values) == 1:
					f = d.freshCall(dir, x.Values[0], k)
				default:
					f = false
				}
			}
		}
		return true
	})
	return f
}

// isParam reports whether name is one of decl's receiver or parameters.
func isParam(decl *ast.FuncDecl, name string) bool {
	for _, list := range []*ast.FieldList{decl.Recv, decl.Type.Params} {
		if list == nil {
			continue
		}
		for _, field := range list.List {
			for _, id := range field.Names {
				if id.Name == name {
					return true
				}
			}
		}
	}
	return false
}

// localVar reports whether name is declared once in decl, as a named
// result or a variable of its body, and nowhere else in it (so that
// every use of the name is that variable).
func localVar(decl *ast.FuncDecl, name string) bool {
	if isParam(decl, name) {
		return false
	}
	return declCount(decl, name) == 1
}

// declares reports whether decl declares name anywhere (shadowing a
// predeclared identifier).
func declares(decl *ast.FuncDecl, name string) bool {
	return isParam(decl, name) || declCount(decl, name) > 0
}

// declCount is how many times decl declares name as a named result or in
// its body (:=, var, a range's :=, a function literal's parameter).
func declCount(decl *ast.FuncDecl, name string) int {
	n := 0
	for _, id := range resultNames(decl) {
		if id != nil && id.Name == name {
			n++
		}
	}
	count := func(ids ...*ast.Ident) {
		for _, id := range ids {
			if id != nil && id.Name == name {
				n++
			}
		}
	}
	ast.Inspect(decl.Body, func(node ast.Node) bool {
		switch x := node.(type) {
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE {
				for _, lhs := range x.Lhs {
					if id, ok := lhs.(*ast.Ident); ok {
						count(id)
					}
				}
			}
		case *ast.RangeStmt:
			if x.Tok == token.DEFINE {
				for _, e := range []ast.Expr{x.Key, x.Value} {
					if id, ok := e.(*ast.Ident); ok {
						count(id)
					}
				}
			}
		case *ast.ValueSpec:
			count(x.Names...)
		case *ast.FuncLit:
			for _, list := range []*ast.FieldList{x.Type.Params, x.Type.Results} {
				if list != nil {
					for _, field := range list.List {
						count(field.Names...)
					}
				}
			}
		}
		return true
	})
	return n
}
