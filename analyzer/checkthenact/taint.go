package checkthenact

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// Which locals carry the value read at r, at each point of a body: a
// forward may-analysis over the body's control-flow graph. A local defined
// or assigned from an expression that contains the read, or uses a local
// that carries it, carries it from there on; a compound assignment (v +=
// d) keeps what it carried, and so does v++; a plain assignment from an
// expression that does not use it (v = 0) stops it, and so does a range
// loop's element variable. Where paths meet, a
// local carries it if it does on some path. Errors are not followed: an
// error says whether a step failed, not what the state was.

// carriers is the set of locals that carry the read.
type carriers map[*types.Var]bool

// taint is the analysis of one read in one body: the locals that carry it
// at the start of each block.
type taint struct {
	in []carriers
}

type taintKey struct {
	f       *lockstate.Func
	r       ast.Node
	results string // curResults, as the helper results that carry the read
}

// carriedAt returns the locals that carry the value read at r just before
// the block node that contains n, or nil when n is not in the graph.
func (c *checker) carriedAt(f *lockstate.Func, parents *astq.Tree, n, r ast.Node) (carriers, bool) {
	fg := c.flow(f)
	if fg == nil {
		return nil, false
	}
	at, ok := fg.locate(parents, n)
	if !ok {
		return nil, false
	}
	key := taintKey{f: f, r: r}
	for _, k := range c.curResults {
		key.results += string(rune('0' + k))
	}
	t := c.taints[key]
	if t == nil {
		t = c.runTaint(f, fg, parents, r)
		c.taints[key] = t
	}
	if t.in[at.block] == nil {
		return carriers{}, true // not reached from the entry
	}
	s := cloneCarriers(t.in[at.block])
	for _, node := range fg.g.Blocks[at.block].Nodes[:at.index] {
		c.taintNode(f, parents, node, r, s)
	}
	return s, true
}

func (c *checker) runTaint(f *lockstate.Func, fg *flowGraph, parents *astq.Tree, r ast.Node) *taint {
	blocks := fg.g.Blocks
	t := &taint{in: make([]carriers, len(blocks))}
	if len(blocks) == 0 {
		return t
	}
	t.in[0] = carriers{}
	work := []int32{0}
	queued := make([]bool, len(blocks))
	queued[0] = true
	for budget := 64 * len(blocks); len(work) > 0 && budget > 0; budget-- {
		slices.Sort(work)
		b := blocks[work[0]]
		work = work[1:]
		queued[b.Index] = false
		s := cloneCarriers(t.in[b.Index])
		for _, node := range b.Nodes {
			c.taintNode(f, parents, node, r, s)
		}
		for _, succ := range b.Succs {
			in := t.in[succ.Index]
			changed := in == nil
			if in == nil {
				in = carriers{}
				t.in[succ.Index] = in
			}
			for v := range s {
				if !in[v] {
					in[v] = true
					changed = true
				}
			}
			if changed && !queued[succ.Index] {
				queued[succ.Index] = true
				work = append(work, succ.Index)
			}
		}
	}
	return t
}

// taintNode applies the assignments in one block node to s.
func (c *checker) taintNode(f *lockstate.Func, parents *astq.Tree, node ast.Node, r ast.Node, s carriers) {
	info := f.Resolver.Info
	local := func(e ast.Expr) *types.Var {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		v, _ := info.ObjectOf(id).(*types.Var)
		if v == nil || v.IsField() || (v.Pkg() != nil && v.Parent() == v.Pkg().Scope()) || isError(v.Type()) {
			return nil
		}
		return v
	}
	carries := func(e ast.Expr) bool { return c.containsValue(e, r) || c.mentions(e, s) }
	set := func(v *types.Var, on bool) {
		if v == nil {
			return
		}
		if on {
			s[v] = true
		} else {
			delete(s, v)
		}
	}
	switch n := node.(type) {
	case *ast.AssignStmt:
		switch {
		case n.Tok != token.ASSIGN && n.Tok != token.DEFINE: // v += d
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 {
				if v := local(n.Lhs[0]); v != nil {
					set(v, s[v] || carries(n.Rhs[0]))
				}
			}
		case len(n.Lhs) == len(n.Rhs):
			on := make([]bool, len(n.Lhs))
			for i := range n.Lhs {
				on[i] = carries(n.Rhs[i])
			}
			for i, l := range n.Lhs {
				set(local(l), on[i])
			}
		case len(n.Rhs) == 1: // v, ok := call()
			rhs := ast.Unparen(n.Rhs[0])
			for i, l := range n.Lhs {
				on := c.mentions(rhs, s)
				if rhs == r {
					on = c.curResults == nil || slices.Contains(c.curResults, i)
				} else if contains(rhs, r) {
					on = true
				}
				set(local(l), on)
			}
		}
	case *ast.ValueSpec:
		for i, name := range n.Names {
			v, _ := info.Defs[name].(*types.Var)
			if v == nil || isError(v.Type()) {
				continue
			}
			switch {
			case len(n.Values) == len(n.Names):
				set(v, carries(n.Values[i]))
			case len(n.Values) == 1:
				set(v, carries(n.Values[0]))
			default:
				set(v, false)
			}
		}
	case ast.Expr:
		// A range statement's key and value, listed as nodes of their own,
		// name one element each: what the loop does with each is decided
		// on that element (a subscriber that stopped reading is removed),
		// not on the state read, so they do not carry it.
		if rs, ok := parents.Parent(n).(*ast.RangeStmt); ok && (rs.Key == n || rs.Value == n) {
			set(local(n), false)
		}
	}
}

// mentions reports whether e uses a local in s (not inside a closure).
func (c *checker) mentions(e ast.Node, s carriers) bool {
	if len(s) == 0 {
		return false
	}
	return astq.Contains(e, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return false
		}
		v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
		return ok && s[v]
	})
}

func cloneCarriers(s carriers) carriers {
	if s == nil {
		return carriers{}
	}
	return maps.Clone(s)
}
