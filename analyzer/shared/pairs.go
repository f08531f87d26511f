package shared

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"

	"github.com/guardvet/guardvet/analyzer/internal/goroutines"
	"github.com/guardvet/guardvet/analyzer/internal/report"
)

// Pairs of accesses to one variable from code that runs concurrently, and
// whether anything orders them: the findings of the rule.

// pairKind is how two accesses can run at once.
type pairKind uint8

type pair struct {
	a, b   *access // a runs in the goroutine s
	la, lb loc     // the places where they meet
	s      *goroutines.Spawn
	kind   pairKind
}

func (c *checker) variable(v *types.Var, accs []*access, spawns []*goroutines.Spawn, mixed bool) {
	for i, s := range spawns {
		var mine []*access
		for _, a := range accs {
			if a.owner == s {
				mine = append(mine, a)
			}
		}
		if len(mine) == 0 {
			continue
		}
		var found []pair
		for _, g := range mine {
			for _, p := range accs {
				if p.owner == s || p.block != s.Body.Block {
					continue
				}
				if p.exit && !s.OutlivesReturn() || !p.exit && !s.Concurrent(p.at) || inPost(v, p.at, s) || nextIteration(v, p.at, s) || c.joinedInline(p, s) {
					continue
				}
				k := withParent
				if p.ret {
					k = withReturn
				}
				if la, lb, ok := c.conflict(g, p, s, k, mixed); ok {
					found = append(found, pair{g, p, la, lb, s, k})
				}
			}
			if s.Repeats && !declaredIn(v, s) {
				for _, h := range mine {
					if la, lb, ok := c.conflict(g, h, s, withInstance, mixed); ok {
						found = append(found, pair{g, h, la, lb, s, withInstance})
					}
				}
			}
			for _, t := range spawns[i+1:] {
				if t.Body != s.Body || s.Ordered(t) {
					continue
				}
				for _, h := range accs {
					if h.owner != t {
						continue
					}
					if la, lb, ok := c.conflict(g, h, s, withSibling, mixed); ok {
						found = append(found, pair{g, h, la, lb, s, withSibling})
					}
				}
			}
		}
		if len(found) == 0 {
			continue
		}
		// One report per variable and goroutine: the pair with a write in
		// the goroutine first, then the earliest.
		sort.SliceStable(found, func(i, j int) bool {
			x, y := found[i], found[j]
			if x.la.write != y.la.write {
				return x.la.write
			}
			if x.a.pos != y.a.pos {
				return x.a.pos < y.a.pos
			}
			return x.b.pos < y.b.pos
		})
		c.report(v, found[0], mixed)
	}
}

// declaredIn reports whether v is new for each instance of s: declared
// in its closure or inside the loop that starts it.
func declaredIn(v *types.Var, s *goroutines.Spawn) bool {
	if s.Lit != nil && s.Lit.Pos() <= v.Pos() && v.Pos() < s.Lit.End() {
		return true
	}
	for _, l := range s.Loops {
		if l.Pos() <= v.Pos() && v.Pos() < l.End() {
			return true
		}
	}
	return false
}

// inPost reports whether pos is in the post statement of a loop around s
// that declares v: for i := 0; i < n; i++ steps the next iteration's i,
// not the one the goroutine captured (Go 1.22).
func inPost(v *types.Var, pos token.Pos, s *goroutines.Spawn) bool {
	for _, l := range s.Loops {
		if f, ok := l.(*ast.ForStmt); ok && f.Init != nil && f.Post != nil &&
			f.Init.Pos() <= v.Pos() && v.Pos() < f.Init.End() && f.Post.Pos() <= pos && pos < f.Post.End() {
			return true
		}
	}
	return false
}

// nextIteration reports whether v is declared inside a loop around s and
// pos comes before the start (or is in it, as its arguments): reached
// again only in the next iteration, where v is a new variable.
func nextIteration(v *types.Var, pos token.Pos, s *goroutines.Spawn) bool {
	for _, l := range s.Loops {
		if l.Pos() <= v.Pos() && v.Pos() < l.End() && pos < s.Node.End() {
			return true
		}
	}
	return false
}

// conflict reports whether a (in goroutine s) and b can race, and where
// they meet.
//
// With mixed, the variable has atomic accesses: only an atomic and a plain
// access of the same place, one a write, are a race (other places of it
// are taken to be published through the atomics).
func (c *checker) conflict(a, b *access, s *goroutines.Spawn, k pairKind, mixed bool) (loc, loc, bool) {
	if !mixed && (a.atomic || b.atomic) || a.once && b.once {
		return loc{}, loc{}, false
	}
	var la, lb loc
	found := false
search:
	for _, x := range a.locs {
		for _, y := range b.locs {
			if !x.write && !y.write || x.once && y.once {
				continue
			}
			if mixed {
				if x.atomic == y.atomic || x.path != y.path {
					continue
				}
			} else if x.atomic || y.atomic || !overlap(x.path, y.path) {
				continue
			}
			if c.distinctAt(x, y, b, s, k) {
				continue // different elements
			}
			la, lb, found = x, y, true
			break search
		}
	}
	if !found {
		return la, lb, false
	}
	if k == withParent && c.handedOff(b, a, s) {
		return la, lb, false
	}
	if a.state != nil && b.state != nil {
		for _, l := range a.state.Held() {
			if b.state.Lock(l).Mode.Held() {
				return la, lb, false
			}
		}
	}
	return la, lb, true
}

// handedOff reports whether the parent's access p comes before a send on
// or close of a channel that the goroutine receives from before its access
// g (source order): the channel orders them.
func (c *checker) handedOff(p, g *access, s *goroutines.Spawn) bool {
	if s.Lit == nil || g.owner != s {
		return false
	}
	recvs := map[string]token.Pos{} // channel -> first receive in the goroutine
	ast.Inspect(s.Lit.Body, func(n ast.Node) bool {
		var ch ast.Expr
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				ch = n.X
			}
		case *ast.RangeStmt:
			if _, isChan := c.pass.TypesInfo.TypeOf(n.X).Underlying().(*types.Chan); isChan {
				ch = n.X
			}
		}
		if ch != nil {
			k := types.ExprString(ast.Unparen(ch))
			if _, ok := recvs[k]; !ok {
				recvs[k] = n.Pos()
			}
		}
		return true
	})
	found := false
	ast.Inspect(s.Body.Block, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if n.Pos() <= p.at {
			return n.End() > p.at // only what follows the access
		}
		var ch ast.Expr
		switch n := n.(type) {
		case *ast.SendStmt:
			ch = n.Chan
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "close" && len(n.Args) == 1 {
				ch = n.Args[0]
			}
		}
		if ch != nil {
			if r, ok := recvs[types.ExprString(ast.Unparen(ch))]; ok && r < g.pos {
				found = true
			}
		}
		return true
	})
	return found
}

// distinct reports whether two indices name different elements: different
// constants, or, between instances of one goroutine, an index each
// instance has its own of (a parameter or local of the closure, or a
// variable of the loop that starts it).
//
// Between the goroutine and its parent, the parent's index is its own
// too when it is a variable of the loop that starts the goroutine, used
// before the start: it is the next iteration's, and the goroutine has the
// one of the iteration that started it (bc.h[idx].x = ... ; go func(idx
// int) { use(bc.h[idx]) }(idx)).
func (c *checker) distinct(x, y ast.Expr, s *goroutines.Spawn, k pairKind, other *access) bool {
	cx, cy := c.pass.TypesInfo.Types[x].Value, c.pass.TypesInfo.Types[y].Value
	if cx != nil && cy != nil {
		return !constant.Compare(cx, token.EQL, cy)
	}
	varOf := func(e ast.Expr) *types.Var {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		v, _ := c.pass.TypesInfo.Uses[id].(*types.Var)
		return v
	}
	vx, vy := varOf(x), varOf(y)
	if vx == nil || vy == nil || !declaredIn(vx, s) {
		return false
	}
	switch k {
	case withInstance:
		return declaredIn(vy, s)
	case withParent:
		return !other.exit && nextIteration(vy, other.at, s)
	}
	return false
}

// distinctAt reports whether two places overlap only in elements that are
// different: at some element step they share, the two indices differ.
func (c *checker) distinctAt(x, y loc, other *access, s *goroutines.Spawn, k pairKind) bool {
	n := min(len(x.path), len(y.path))
	short := x.path[:n]
	l := 0
	for _, st := range steps(short) {
		l += len(st)
		if st != "[]" && st != "#" {
			continue
		}
		ix, iy := x.indexAt(l), y.indexAt(l)
		if ix != nil && iy != nil && c.distinct(ix, iy, s, k, other) {
			return true
		}
	}
	return false
}

func (c *checker) short(pos token.Pos) string {
	p := c.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

func verb(a *access, l loc) string {
	var v string
	switch {
	case a.ret && l.write:
		v = "set"
	case a.ret:
		v = "returned"
	case l.atomic && l.write:
		v = "written atomically"
	case l.atomic:
		v = "read atomically"
	case l.write && elemLast(l.path):
		v = "written into"
	case l.write:
		v = "written"
	case elemLast(l.path):
		v = "read from"
	default:
		v = "read"
	}
	if a.via != "" {
		v += " by " + a.via
	}
	return v
}

func (c *checker) report(v *types.Var, p pair, mixed bool) {
	start := c.short(p.s.Node.Pos())
	var other, fix string
	switch p.kind {
	case withParent:
		other = fmt.Sprintf("by the function that started it, at %s, before joining it", c.short(p.b.pos))
		fix = "move that access after the join, give the goroutine its own copy, or lock both"
	case withReturn:
		other = fmt.Sprintf("by the return at %s, which the goroutine can outlive", c.short(p.b.pos))
		fix = "join the goroutine before returning, or have it set a variable of its own"
	case withInstance:
		other = fmt.Sprintf("in another instance of it at %s", c.short(p.b.pos))
		fix = "declare " + v.Name() + " inside the goroutine, or collect results by index or over a channel"
	case withSibling:
		other = fmt.Sprintf("in the goroutine started at %s at %s", c.short(p.b.owner.Node.Pos()), c.short(p.b.pos))
		fix = "give each goroutine its own variable, or collect results by index or over a channel"
	}
	if (p.kind == withInstance || p.kind == withSibling) && (hasDeref(p.la.path) || hasDeref(p.lb.path)) {
		// Memory reached through a pointer: both sides share the object.
		fix = "guard it with a mutex both sides hold, or use sync/atomic"
	}
	if p.la.write && strings.HasSuffix(p.la.path, "{}") || p.lb.write && strings.HasSuffix(p.lb.path, "{}") {
		fix = "lock the map on both sides, or send the results over a channel to one goroutine that fills it"
	}
	atomicWord := ", atomic or"
	if mixed {
		atomicWord = " or"
		fix = "mixing sync/atomic and plain accesses of one variable is a race: make every access atomic (atomic.Int64 and the like)"
	}
	shorter := p.la.path
	if len(p.lb.path) < len(shorter) {
		shorter = p.lb.path // the part both use
	}
	name := v.Name() + display(shorter)
	key := fmt.Sprint(v.Pos(), p.s.Node.Pos())
	if c.seen[key] {
		return
	}
	c.seen[key] = true
	c.rep.Reportf(p.a.pos, report.Related(p.b.pos, name+" "+verb(p.b, p.lb)+" here"),
		"%s is %s in the goroutine started at %s and %s %s, with no lock%s join ordering the two; %s",
		name, verb(p.a, p.la), start, verb(p.b, p.lb), other, atomicWord, fix)
}

// joinedInline reports whether an access in closures its body runs in
// place comes, within one of them, only after a join of s.
func (c *checker) joinedInline(p *access, s *goroutines.Spawn) bool {
	for _, in := range p.inline {
		if s.JoinedBefore(c.pass.TypesInfo, in.body, in.at) {
			return true
		}
	}
	return false
}
