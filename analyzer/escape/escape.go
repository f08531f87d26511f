package escape

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/report"
	"github.com/guardvet/guardvet/analyzer/internal/rule"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// Analyzer is the escape rule.
var Analyzer = rule.New(rule.Spec{Name: Category, DocFile: docFile, Run: run,
	Requires: []*analysis.Analyzer{config.Analyzer}})

// Category is the diagnostic category of this rule.
const Category = "escape"

func run(p *rule.Pass) {
	pass, ls, rep := p.Pass, p.Engine, p.Report
	if !ls.Dirs.Full() {
		return // no directives here: not in this rule's scope
	}
	sn := newSnapshots(pass, ls.Dirs)
	sn.strict = config.Of(pass).Strict()
	for _, f := range ls.Funcs {
		returned(pass, ls, rep, sn, f)
		usedAfterUnlock(pass, ls, rep, sn, f)
	}
}

// returned reports returns that hand out a guarded map, slice or field
// address while releasing the lock.
func returned(pass *analysis.Pass, ls *lockstate.Result, rep *report.Reporter, sn *snapshots, f *lockstate.Func) {
	for _, ret := range f.Returns {
		if ret.Node == nil {
			continue
		}
		for _, r := range ret.Node.Results {
			e, addr := ast.Unparen(r), false
			if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
				e, addr = ast.Unparen(u.X), true
			}
			acc := f.AccessAt(e)
			// A map or slice inside a guarded struct-typed field, by value
			// (o.ring.buf with o.ring guarded), is guarded state too.
			for inner := e; acc == nil; {
				se, ok := inner.(*ast.SelectorExpr)
				if !ok {
					break
				}
				if _, isPtr := pass.TypesInfo.TypeOf(se.X).Underlying().(*types.Pointer); isPtr {
					break
				}
				inner = ast.Unparen(se.X)
				acc = f.AccessAt(inner)
			}
			t := pass.TypesInfo.TypeOf(e)
			if acc == nil || (!addr && !astq.IsContainer(t)) {
				continue
			}
			if !addr && !sn.strict {
				if emptyWhereReturned(pass.TypesInfo, sn.tree(f), ret.Node, e) || (acc.Node == e && sn.copyOnWrite(acc.Var)) {
					continue // nothing handed out, or nothing its owner changes
				}
			}
			for _, ref := range acc.Guard.By {
				lock, shown := ls.LockFor(pass.Pkg, acc, ref)
				if !lock.Valid() || !acc.State.Lock(lock).Mode.Held() || ret.Exit.Lock(lock).Mode.Held() {
					continue // not covered at the access (guardedby's report), or still held for the caller
				}
				name := types.ExprString(e)
				rep.Reportf(r.Pos(), report.Related(ret.Exit.Lock(lock).Site, shown+" released here"),
					"returns %s, the guarded %s itself, to callers that will use it after %s is released; return a copy made under the lock%s",
					types.ExprString(r), what(name, addr, t), shown, copyHint(t, name, addr))
				break
			}
		}
	}
}

// usedAfterUnlock reports p := &x.f (or m := x.m) taken under the lock and
// used after it is released, once per variable, where the reference leaves.
func usedAfterUnlock(pass *analysis.Pass, ls *lockstate.Result, rep *report.Reporter, sn *snapshots, f *lockstate.Func) {
	done := map[*types.Var]bool{}
	for _, use := range f.RefUses {
		if done[use.Var] {
			continue
		}
		acc := f.AccessAt(use.Source)
		if acc == nil {
			continue
		}
		for _, ref := range acc.Guard.By {
			lock, shown := ls.LockFor(pass.Pkg, acc, ref)
			if !lock.Valid() || !acc.State.Lock(lock).Mode.Held() || use.State.Lock(lock).Mode.Held() {
				continue
			}
			if types.Identical(use.Var.Type(), acc.Var.Type()) { // a copy of the map or slice, not &x.f
				if takenOver(f, sn.tree(f), acc, use.Var, lock) || sn.unshared(acc.Var) || (!sn.strict && sn.copyOnWrite(acc.Var)) {
					done[use.Var] = true
					break
				}
			}
			done[use.Var] = true
			name := types.ExprString(acc.Node)
			line := pass.Fset.Position(use.Node.Pos()).Line
			rep.Reportf(acc.Pos, report.Related(use.Node.Pos(), use.Var.Name()+" used here, after "+shown+" is released"),
				"%s keeps a reference into guarded %s that is used at line %d after %s is released; copy the value under the lock instead",
				use.Var.Name(), name, line, shown)
			break
		}
	}
}

func what(name string, addr bool, t types.Type) string {
	if addr {
		return "field " + name
	}
	if _, ok := t.Underlying().(*types.Map); ok {
		return "map"
	}
	return "slice"
}

func copyHint(t types.Type, name string, addr bool) string {
	if addr {
		return " (return the value, not its address)"
	}
	if _, ok := t.Underlying().(*types.Map); ok {
		return " (maps.Clone(" + name + "))"
	}
	return " (slices.Clone(" + name + "))"
}
