package guardinfer

import (
	_ "embed"
	"flag"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/internal/docs"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
	"github.com/guardvet/guardvet/analyzer/internal/report"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

//go:embed doc.go
var docFile string

// Analyzer is the guardinfer rule.
var Analyzer = &analysis.Analyzer{
	Name:       "guardinfer",
	Doc:        docs.Extract(docFile, "guardinfer"),
	URL:        "https://github.com/guardvet/guardvet#guardinfer",
	Run:        run,
	Requires:   []*analysis.Analyzer{lockstate.Analyzer},
	ResultType: report.UsedType,
	Flags:      flags(),
}

// Category is the diagnostic category of this rule.
const Category = "guardinfer"

var (
	on       bool
	minSites = 4
	ratio    = 0.9
)

func flags() flag.FlagSet {
	fs := flag.NewFlagSet("guardinfer", flag.ContinueOnError)
	fs.Var(&enable{}, "on", "infer guards for fields without directives (off by default)")
	fs.IntVar(&minSites, "min", minSites, "fewest accesses of a field before inferring its guard")
	fs.Float64Var(&ratio, "ratio", ratio, "share of accesses that must hold the lock")
	return *fs
}

// enable turns inference on: the engine then analyses unannotated
// packages and records candidate accesses.
type enable struct{}

func (*enable) String() string   { return fmt.Sprint(on) }
func (*enable) IsBoolFlag() bool { return true }
func (*enable) Set(s string) error {
	if err := lockstate.EngineSwitch(&on).Set(s); err != nil {
		return err
	}
	lockstate.RecordCandidates = on
	return nil
}

func run(pass *analysis.Pass) (any, error) {
	ls := pass.ResultOf[lockstate.Analyzer].(*lockstate.Result)
	rep := report.New(pass, ls.Dirs, Category)
	if !on {
		return rep.Flush(), nil
	}
	prePublication := initHelpers(pass, ls)
	byField := map[*types.Var][]*lockstate.Access{}
	lockedName := map[*lockstate.Access]bool{} // in a ...Locked method, on its receiver
	var fields []*types.Var
	for _, f := range ls.Funcs {
		conv := strings.HasSuffix(f.Obj.Name(), "Locked")
		recv := f.Obj.Type().(*types.Signature).Recv()
		for _, acc := range f.Candidates {
			v := acc.Var.Origin()
			if v.Pkg() != pass.Pkg || acc.Fresh || !acc.Base.Valid() || ignoredField(v) {
				continue
			}
			if prePublication[f.Obj] && recv != nil && acc.Base.Root == types.Object(recv) {
				continue // an init helper only ever called on an unpublished object
			}
			if _, seen := byField[v]; !seen {
				fields = append(fields, v)
			}
			byField[v] = append(byField[v], acc)
			if conv && recv != nil && acc.Base.Root == types.Object(recv) {
				lockedName[acc] = true
			}
		}
	}
	heldAt := func(a *lockstate.Access, path []string) bool {
		// The ...Locked naming convention: the caller holds the lock.
		return lockedName[a] || a.State.Lock(a.Base.Field(path...)).Mode.Held()
	}
	sort.Slice(fields, func(i, j int) bool { return fields[i].Pos() < fields[j].Pos() })
	for _, v := range fields {
		accs := byField[v]
		atomicCheck(pass, rep, v, accs)
		inferLock(pass, rep, v, accs, heldAt)
	}
	return rep.Flush(), nil
}

func ignoredField(v *types.Var) bool {
	switch v.Type().Underlying().(type) {
	case *types.Chan, *types.Signature:
		return true // channel operations synchronise; func fields are usually set once
	}
	if lock, _ := locks.IsLock(v.Type()); lock {
		return true
	}
	if n, ok := types.Unalias(v.Type()).(*types.Named); ok && n.Obj().Pkg() != nil {
		if p := n.Obj().Pkg().Path(); p == "sync" || p == "sync/atomic" {
			return true
		}
	}
	return false
}

// inferLock reports accesses missing the lock that guards the field at
// nearly every other site.
func inferLock(pass *analysis.Pass, rep *report.Reporter, v *types.Var, accs []*lockstate.Access, heldAt func(*lockstate.Access, []string) bool) {
	if len(accs) < minSites {
		return
	}
	writes := 0
	for _, a := range accs {
		if a.Write && !a.Atomic {
			writes++
		}
	}
	if writes == 0 {
		return // read-only after construction
	}
	owner := ownerStruct(pass, accs[0])
	if owner == nil {
		return
	}
	best, bestHeld := "", 0
	var bestPaths []string
	for i := 0; i < owner.NumFields(); i++ {
		f := owner.Field(i)
		if lock, _ := locks.IsLock(f.Type()); !lock {
			continue
		}
		path := append([]string{f.Name()}, locks.EmbeddedPath(f.Type(), pass.Pkg)...)
		held := 0
		for _, a := range accs {
			if heldAt(a, path) {
				held++
			}
		}
		if held > bestHeld {
			best, bestHeld, bestPaths = f.Name(), held, path
		}
	}
	if best == "" || bestHeld == len(accs) || float64(bestHeld) < ratio*float64(len(accs)) {
		return
	}
	var example string
	for _, a := range accs {
		if heldAt(a, bestPaths) {
			p := pass.Fset.Position(a.Pos)
			example = fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
			break
		}
	}
	fix := addDirective(pass, v, best)
	for _, a := range accs {
		if heldAt(a, bestPaths) {
			continue
		}
		name := types.ExprString(a.Node)
		lock := best
		if sel, ok := a.Node.(*ast.SelectorExpr); ok {
			lock = types.ExprString(sel.X) + "." + best
		}
		d := analysis.Diagnostic{Pos: a.Pos, Message: fmt.Sprintf(
			"%s is accessed with %s held at %d of %d sites (e.g. %s); here it is not: lock %s here, or if this access is safe, say why with //guard:ignore; //guard:by %s on the field makes guardedby check it",
			name, lock, bestHeld, len(accs), example, lock, best)}
		if fix != nil {
			d.SuggestedFixes = []analysis.SuggestedFix{*fix}
		}
		rep.Report(d)
	}
}

// atomicCheck reports plain accesses to a field that other sites update
// with sync/atomic.
func atomicCheck(pass *analysis.Pass, rep *report.Reporter, v *types.Var, accs []*lockstate.Access) {
	var atomicSite token.Pos
	for _, a := range accs {
		if a.Atomic {
			atomicSite = a.Pos
			break
		}
	}
	if !atomicSite.IsValid() {
		return
	}
	p := pass.Fset.Position(atomicSite)
	for _, a := range accs {
		if a.Atomic || (!a.Write && len(a.State.Held()) > 0) {
			continue // writers lock and store atomically; plain reads under the lock are fine
		}
		name := types.ExprString(a.Node)
		rep.Report(analysis.Diagnostic{Pos: a.Pos, Message: fmt.Sprintf(
			"%s is accessed with sync/atomic elsewhere (e.g. %s:%d) but plainly here; use atomic loads and stores at every site, or an atomic type such as atomic.Int64",
			name, filepath.Base(p.Filename), p.Line)})
	}
}

// ownerStruct is the struct type that declares the accessed field.
func ownerStruct(pass *analysis.Pass, a *lockstate.Access) *types.Struct {
	se, ok := a.Node.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	sel := pass.TypesInfo.Selections[se]
	if sel == nil {
		return nil
	}
	t := sel.Recv()
	idx := sel.Index()
	for _, i := range idx[:len(idx)-1] {
		st, ok := derefStruct(t)
		if !ok {
			return nil
		}
		t = st.Field(i).Type()
	}
	st, _ := derefStruct(t)
	return st
}

func derefStruct(t types.Type) (*types.Struct, bool) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	return st, ok
}

// addDirective is the fix that writes //guard:by lock on the field.
func addDirective(pass *analysis.Pass, v *types.Var, lock string) *analysis.SuggestedFix {
	for _, file := range pass.Files {
		if file.Pos() > v.Pos() || v.Pos() >= file.End() {
			continue
		}
		var field *ast.Field
		ast.Inspect(file, func(n ast.Node) bool {
			if f, ok := n.(*ast.Field); ok {
				for _, name := range f.Names {
					if name.Pos() == v.Pos() {
						field = f
					}
				}
			}
			return field == nil
		})
		if field == nil || len(field.Names) != 1 {
			return nil
		}
		text := " //guard:by " + lock
		pos := field.End()
		if field.Comment != nil {
			tf := pass.Fset.File(field.Pos())
			pos = tf.LineStart(tf.Line(field.Pos()))
			src, err := pass.ReadFile(tf.Name())
			if err != nil {
				return nil
			}
			line := string(src[tf.Offset(pos):tf.Offset(field.Pos())])
			text = line + "//guard:by " + lock + "\n"
			if strings.TrimSpace(line) != "" {
				return nil
			}
		}
		return &analysis.SuggestedFix{
			Message:   "Declare //guard:by " + lock + " on " + v.Name(),
			TextEdits: []analysis.TextEdit{{Pos: pos, End: pos, NewText: []byte(text)}},
		}
	}
	return nil
}

// initHelpers finds unexported methods that are only ever called, in this
// package, on an object not yet published (s := &S{}; s.init()): they run
// before any other goroutine can see the object.
func initHelpers(pass *analysis.Pass, ls *lockstate.Result) map[*types.Func]bool {
	all, fresh := map[*types.Func]int{}, map[*types.Func]int{}
	for _, f := range ls.Funcs {
		for _, call := range f.Calls {
			fn := call.Callee.Origin()
			if fn.Pkg() != pass.Pkg || fn.Exported() || fn.Type().(*types.Signature).Recv() == nil {
				continue
			}
			all[fn]++
			se, ok := ast.Unparen(call.Node.Fun).(*ast.SelectorExpr)
			if !ok {
				continue
			}
			if id, ok := ast.Unparen(se.X).(*ast.Ident); ok {
				if v, ok := pass.TypesInfo.Uses[id].(*types.Var); ok && call.State.Fresh(v) {
					fresh[fn]++
				}
			}
		}
	}
	out := map[*types.Func]bool{}
	for fn, n := range all {
		if fresh[fn] == n {
			out[fn] = true
		}
	}
	return out
}
