package shared

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
)

// A loc is a place in memory that an access reaches from its variable,
// written as the steps from the variable's value:
//
//	""    the variable itself
//	".f"  field f of a struct value
//	"*"   through a pointer
//	"[]"  an element of a slice
//	"{}"  an entry of a map
//	"#"   an element of an array value
//	"&"   the address taken (cancelled by a following "*")
//
// An access through a pointer, slice or map also reads the places on the
// way (p.f reads p): those are locs of their own, read.
type loc struct {
	path   string
	write  bool
	atomic bool
	index  ast.Expr // the index of a last "[]" or "#" step, when known
	// indices are the indices of the element steps before, by the
	// length of the path up to their end.
	indices map[int]ast.Expr
	// once: reached by a callee in a part of it that runs once per object.
	once bool
	// lazy: a callee's lazy initialisation (if x.f == nil { x.f = v }):
	// a write where the callee is called, not in its callers' summaries.
	lazy bool
}

// indexAt returns the index of the element step ending at length l.
func (l loc) indexAt(n int) ast.Expr {
	if n == len(l.path) && l.index != nil {
		return l.index
	}
	return l.indices[n]
}

// steps splits a path into its steps.
func steps(path string) []string {
	var out []string
	for i := 0; i < len(path); {
		j := i + 1
		switch path[i] {
		case '.':
			for j < len(path) && !strings.ContainsRune(".*[{#&", rune(path[j])) {
				j++
			}
		case '[', '{':
			j = i + 2
		}
		out = append(out, path[i:j])
		i = j
	}
	return out
}

// isDeref reports whether a step leaves the variable's own memory.
func isDeref(step string) bool { return step == "*" || step == "[]" || step == "{}" }

func hasDeref(path string) bool {
	return strings.Contains(path, "*") || strings.Contains(path, "[]") || strings.Contains(path, "{}")
}

// normalize cancels "&*"; ok is false when an address remains (taken and
// not followed back).
func normalize(path string) (string, bool) {
	for strings.Contains(path, "&*") {
		path = strings.Replace(path, "&*", "", 1)
	}
	return path, !strings.Contains(path, "&")
}

// overlap reports whether two paths of one variable name overlapping
// memory: one is a prefix of the other, and what remains stays inside the
// shorter's memory (no pointer, slice or map step).
func overlap(x, y string) bool {
	if len(x) > len(y) {
		x, y = y, x
	}
	if !strings.HasPrefix(y, x) {
		return false
	}
	rest := y[len(x):]
	if rest != "" && !strings.ContainsRune(".*[{#&", rune(rest[0])) {
		return false // .f against .fg
	}
	return !hasDeref(rest)
}

// elemStep is the step of indexing a value of type t, "" if it is not a
// slice, map or array (a string).
func elemStep(t types.Type) string {
	if t == nil {
		return ""
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return "[]"
	case *types.Map:
		return "{}"
	case *types.Array:
		return "#"
	case *types.Pointer:
		if _, ok := u.Elem().Underlying().(*types.Array); ok {
			return "*#"
		}
	}
	return ""
}

// fieldSteps are the steps of selecting a field by index path from a
// value of type t (embedded fields and implicit dereferences included).
func fieldSteps(t types.Type, index []int) (string, bool) {
	var b strings.Builder
	for _, idx := range index {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			b.WriteString("*")
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || idx >= st.NumFields() {
			return "", false
		}
		f := st.Field(idx)
		b.WriteString("." + f.Name())
		t = f.Type()
	}
	return b.String(), true
}

// chain climbs from a variable's identifier through field selections,
// indexing and dereferences: top is the outermost expression, path its
// place from the variable, index the index of its last element step, and
// indices the index of each element step, by the length of the path up
// to its end.
func (c *checker) chain(id *ast.Ident, parents *astq.Tree) (top ast.Expr, path string, index ast.Expr, indices map[int]ast.Expr) {
	info := c.pass.TypesInfo
	var n ast.Expr = id
	for {
		p, up := parents.Up(n)
		n = up.(ast.Expr) // n itself, or the outermost parenthesis around it
		switch p := p.(type) {
		case *ast.SelectorExpr:
			if p.Sel == n { // pkg.V
				n = p
				continue
			}
			if p.X != n {
				break
			}
			sel := info.Selections[p]
			if sel == nil || sel.Kind() != types.FieldVal {
				break
			}
			st, ok := fieldSteps(info.TypeOf(p.X), sel.Index())
			if !ok {
				break
			}
			path, index, n = path+st, nil, p
			continue
		case *ast.IndexExpr:
			if p.X != n {
				break
			}
			st := elemStep(info.TypeOf(p.X))
			if st == "" {
				break
			}
			path, index, n = path+st, p.Index, p
			if indices == nil {
				indices = map[int]ast.Expr{}
			}
			indices[len(path)] = p.Index
			continue
		case *ast.StarExpr:
			path, index, n = path+"*", nil, p
			continue
		}
		return n, path, index, indices
	}
}

// useKind is what the expression at the top of a chain is used for.
type useKind uint8

const (
	uRead    useKind = iota
	uWrite           // assigned
	uRange           // ranged over
	uBuiltin         // the first operand of a builtin
	uCall            // an argument or the receiver of a static call
)

// useOf says how the outermost expression of a chain is used. For uCall,
// param is the parameter it is handed to (recvParam for the receiver)
// and addr whether its address is; for uBuiltin, name is the builtin.
type callUse struct {
	kind  useKind
	call  *ast.CallExpr
	fn    *types.Func
	param int
	addr  bool
	name  string
	// keysOnly: a range with no value variable, which reads no element
	// of a slice or array.
	keysOnly bool
}

func (c *checker) useOf(top ast.Expr, parents *astq.Tree) callUse {
	p, node := parents.Up(top)
	addr := false
	if u, ok := p.(*ast.UnaryExpr); ok && u.Op == token.AND {
		p, node = parents.Up(u)
		addr = true
	}
	switch p := p.(type) {
	case *ast.AssignStmt:
		if !addr {
			for _, l := range p.Lhs {
				if l == node {
					return callUse{kind: uWrite}
				}
			}
		}
	case *ast.IncDecStmt:
		if !addr {
			return callUse{kind: uWrite}
		}
	case *ast.RangeStmt:
		if addr {
			break
		}
		if p.X == node {
			return callUse{kind: uRange, keysOnly: p.Value == nil}
		}
		if p.Tok == token.ASSIGN && (p.Key == node || p.Value == node) {
			return callUse{kind: uWrite}
		}
	case *ast.SelectorExpr:
		if u, ok := c.receiverUse(p, top, node, addr, parents); ok {
			return u
		}
	case *ast.CallExpr:
		if u, ok := c.argUse(p, node, addr, parents); ok {
			return u
		}
	}
	return callUse{kind: uRead}
}

// receiverUse is the use of top as the receiver of the method call
// p(...) it is selected by: ok is false when p is not a call, here, of a
// method declared on top's own type.
func (c *checker) receiverUse(p *ast.SelectorExpr, top ast.Expr, node ast.Node, addr bool, parents *astq.Tree) (callUse, bool) {
	info := c.pass.TypesInfo
	sel := info.Selections[p]
	if addr || p.X != node || sel == nil || sel.Kind() != types.MethodVal {
		return callUse{}, false
	}
	cp, _ := parents.Up(p)
	call, ok := cp.(*ast.CallExpr)
	if !ok || ast.Unparen(call.Fun) != p || goOrDefer(call, parents) {
		return callUse{}, false
	}
	fn, _ := sel.Obj().(*types.Func)
	if fn == nil || len(sel.Index()) > 1 {
		return callUse{}, false // a promoted method: its receiver is another place
	}
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return callUse{}, false
	}
	_, ptrRecv := recv.Type().Underlying().(*types.Pointer)
	_, ptrX := info.TypeOf(top).Underlying().(*types.Pointer)
	if ptrRecv == ptrX {
		return callUse{kind: uCall, call: call, fn: fn, param: recvParam}, true
	}
	if ptrRecv { // x.m() with m on *T: &x
		return callUse{kind: uCall, call: call, fn: fn, param: recvParam, addr: true}, true
	}
	return callUse{}, false
}

// argUse is the use of node as an argument of call p: handed to a
// builtin, or to the parameter of a function known by name. ok is false
// otherwise.
func (c *checker) argUse(p *ast.CallExpr, node ast.Node, addr bool, parents *astq.Tree) (callUse, bool) {
	info := c.pass.TypesInfo
	if ast.Unparen(p.Fun) == node {
		return callUse{}, false
	}
	i := -1
	for j, a := range p.Args {
		if a == node {
			i = j
		}
	}
	if i < 0 {
		return callUse{}, false
	}
	if id, ok := ast.Unparen(p.Fun).(*ast.Ident); ok {
		if _, builtin := info.Uses[id].(*types.Builtin); builtin {
			if addr || i > 0 {
				return callUse{}, false
			}
			return callUse{kind: uBuiltin, name: id.Name}, true
		}
	}
	fn := typeutil.StaticCallee(info, p)
	if fn == nil || goOrDefer(p, parents) {
		return callUse{}, false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Variadic() && i >= sig.Params().Len()-1 {
		return callUse{}, false
	}
	return callUse{kind: uCall, call: p, fn: fn, param: i, addr: addr}, true
}

// goOrDefer reports whether call is the call of a go or defer statement:
// its callee runs elsewhere, or later.
func goOrDefer(call *ast.CallExpr, parents *astq.Tree) bool {
	switch parents.Parent(call).(type) {
	case *ast.GoStmt, *ast.DeferStmt:
		return true
	}
	return false
}

// addLoc records a place the access reaches, and the reads on the way
// (with the indices of the element steps among them, a.indices).
func (a *access) addLoc(path string, write bool, index ast.Expr) {
	a.locs = append(a.locs, loc{path: path, write: write, index: index, indices: a.indices})
	st := steps(path)
	prefix := ""
	for _, s := range st {
		if isDeref(s) {
			a.locs = append(a.locs, loc{path: prefix, index: a.indices[len(prefix)], indices: a.indices})
		}
		prefix += s
	}
}

// display renders a path after a variable's name: fields as written,
// elements as [], pointers left out. A last element step is left out
// too: the verb says "into" or "from".
func display(path string) string {
	st := steps(path)
	if n := len(st); n > 0 && (st[n-1] == "[]" || st[n-1] == "{}" || st[n-1] == "#") {
		st = st[:n-1]
	}
	var b strings.Builder
	for _, s := range st {
		switch s {
		case "*", "&":
		case "{}", "#":
			b.WriteString("[]")
		default:
			b.WriteString(s)
		}
	}
	return b.String()
}

func elemLast(path string) bool {
	return strings.HasSuffix(path, "[]") || strings.HasSuffix(path, "{}") || strings.HasSuffix(path, "#")
}
