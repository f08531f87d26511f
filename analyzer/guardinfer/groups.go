package guardinfer

import (
	"go/ast"
	"go/types"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/goroutines"
)

// Ownership through containers. A new object stored into another new
// object of the same function stays as private as its container:
//
//	s := &Conn{}
//	w := &wrapper{conn: s}        // s is inside w
//	s.mgr = newManager(func() { use(w) }) // w is inside what s owns
//	s.setup()                     // s is still this goroutine's own
//	return w                      // now both are shared
//
// The new objects a function links this way (one stored into the other,
// in a new-object expression or through a store into the other's own
// memory) form a group: a store of one into another does not share
// either, and sharing any member (returning it, sending it, storing it
// where others reach it, handing it to a goroutine) shares them all.

// findGroups links the body's new objects stored into each other.
func (dc *declContext) findGroups() {
	parent := map[*types.Var]*types.Var{}
	find := func(v *types.Var) *types.Var {
		for parent[v] != nil && parent[v] != v {
			v = parent[v]
		}
		return v
	}
	union := func(a, b *types.Var) {
		ra, rb := find(a), find(b)
		if ra != rb {
			parent[ra] = rb
		}
	}
	link := func(l, r ast.Expr) {
		var into *types.Var
		if id, ok := ast.Unparen(l).(*ast.Ident); ok {
			v := dc.localVar(id)
			if v == nil || !dc.allocs[v] || !astq.NewObject(dc.info, r) {
				return // w := &T{...}: a new object built around others
			}
			into = v
		} else if into = storeRoot(dc.info, l); into == nil || !dc.allocs[into] {
			return // w.f = x, w.m[k] = x: into w's own memory
		}
		ast.Inspect(r, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v, _ := dc.info.Uses[id].(*types.Var); v != nil && v != into && dc.allocs[v] {
					union(v, into)
				}
			}
			return true
		})
	}
	ast.Inspect(dc.fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // runs later, if at all: its stores are not the body's
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i := range n.Lhs {
					link(n.Lhs[i], n.Rhs[i])
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == len(n.Values) {
				for i := range n.Names {
					link(n.Names[i], n.Values[i])
				}
			}
		}
		return true
	})
	members := map[*types.Var][]*types.Var{}
	seen := map[*types.Var]bool{}
	add := func(v *types.Var) {
		if !seen[v] {
			seen[v] = true
			members[find(v)] = append(members[find(v)], v)
		}
	}
	for v, p := range parent {
		add(v)
		add(p)
	}
	dc.group = map[*types.Var][]*types.Var{}
	for _, vs := range members {
		for _, v := range vs {
			dc.group[v] = vs
		}
	}
}

// groupOf returns the new objects v shares its fate with, v included.
func (dc *declContext) groupOf(v *types.Var) []*types.Var {
	if dc.group == nil {
		dc.findGroups()
	}
	if g := dc.group[v]; g != nil {
		return g
	}
	return []*types.Var{v}
}

// ownedByGroup reports whether l is a part of an object of v's group
// (ownedBy, ownedDeep): storing there keeps what is stored in the group.
func (dc *declContext) ownedByGroup(l ast.Expr, v *types.Var) bool {
	for _, u := range dc.groupOf(v) {
		if dc.ownedBy(l, u) || dc.ownedDeep(l, u) {
			return true
		}
	}
	return false
}

// localVar is the variable an identifier declares or uses, if it is not a
// field.
func (dc *declContext) localVar(id *ast.Ident) *types.Var {
	v, _ := dc.info.Defs[id].(*types.Var)
	if v == nil {
		v, _ = dc.info.Uses[id].(*types.Var)
	}
	if v == nil || v.IsField() {
		return nil
	}
	return v
}

// storeRoot is the local whose own memory a store's left side is in:
// w for w.f, w.inner.f and w.m[k].
func storeRoot(info *types.Info, l ast.Expr) *types.Var {
	for {
		switch e := ast.Unparen(l).(type) {
		case *ast.IndexExpr:
			l = e.X
		case *ast.SelectorExpr:
			return accessRoot(info, e)
		default:
			return nil
		}
	}
}

// sharesOtherMember reports whether cfg node n shares another object of
// v's group, and with it v.
func (dc *declContext) sharesOtherMember(n ast.Node, v *types.Var) bool {
	for _, u := range dc.groupOf(v) {
		if u != v && dc.shares(n, u) {
			return true
		}
	}
	return false
}

// spawnUsesGroup reports whether a goroutine start hands the goroutine v
// or an object of its group.
func (dc *declContext) spawnUsesGroup(s *goroutines.Spawn, v *types.Var) bool {
	return dc.spawnUses(s, v) || dc.spawnUsesOtherMember(s, v)
}

// spawnUsesOtherMember reports whether a goroutine start hands the
// goroutine an object of v's group other than v.
func (dc *declContext) spawnUsesOtherMember(s *goroutines.Spawn, v *types.Var) bool {
	for _, u := range dc.groupOf(v) {
		if u != v && dc.spawnUses(s, u) {
			return true
		}
	}
	return false
}
