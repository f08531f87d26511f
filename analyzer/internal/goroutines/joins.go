package goroutines

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/cfg"

	"github.com/guardvet/guardvet/analyzer/internal/flowgraph"
)

// Joins within a body: which statements and blocks wait for a goroutine
// to finish, and whether a place in a closure run in place comes after
// one.

// JoinedBefore reports whether every path from the entry of body, a
// closure its starter runs in place, to pos passes a join of s first: the
// read in try(func() error { select { case <-ch: read } }), called while
// the goroutine may still run, comes after the goroutine is done.
func (s *Spawn) JoinedBefore(info *types.Info, body *ast.BlockStmt, pos token.Pos) bool {
	g := flowgraph.New(info, body)
	if len(g.Blocks) == 0 {
		return false
	}
	jt := &joinTest{s: s, info: info, joined: map[ast.Node]bool{}}
	comm := commNodes(body)
	seen := map[*cfg.Block]bool{g.Blocks[0]: true}
	reached := false
	var walk func(blk *cfg.Block)
	walk = func(blk *cfg.Block) {
		for _, n := range blk.Nodes {
			if !comm[n] && jt.isJoin(n) {
				return
			}
			if n.Pos() <= pos && pos < n.End() {
				reached = true
				return
			}
		}
		for _, succ := range blk.Succs {
			if reached || seen[succ] || jt.blockJoins(succ) {
				continue
			}
			seen[succ] = true
			walk(succ)
		}
	}
	walk(g.Blocks[0])
	return !reached
}

// commNodes are the communications of body's select cases: go/cfg lists
// them before the select branches, where they are not joins; only the
// case body one of them enters is.
func commNodes(body ast.Node) map[ast.Node]bool {
	comm := map[ast.Node]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if cc, ok := n.(*ast.CommClause); ok && cc.Comm != nil {
			comm[cc.Comm] = true
		}
		return true
	})
	return comm
}

// joinTest answers, with memos, whether a node or a block waits for the
// goroutine of s to finish.
type joinTest struct {
	s      *Spawn
	info   *types.Info
	joined map[ast.Node]bool
}

func (jt *joinTest) isJoin(n ast.Node) bool {
	j, ok := jt.joined[n]
	if !ok {
		j = jt.s.joins(jt.info, n)
		jt.joined[n] = j
	}
	return j
}

// loopJoins: a loop body with a join among its own statements.
func (jt *joinTest) loopJoins(body *ast.BlockStmt) bool {
	for _, st := range body.List {
		if jt.isJoin(st) {
			return true
		}
	}
	return false
}

// blockJoins: a block entered only once the goroutine is joined (a
// select case receiving from its channel, the end of a range over it).
func (jt *joinTest) blockJoins(blk *cfg.Block) bool {
	s, info := jt.s, jt.info
	switch blk.Kind {
	case cfg.KindRangeDone:
		if r, ok := blk.Stmt.(*ast.RangeStmt); ok && s.hasKey("recv", key(r.X)) {
			if _, isChan := info.TypeOf(r.X).Underlying().(*types.Chan); isChan {
				s.Joins = append(s.Joins, r)
				return true
			}
		}
		if r, ok := blk.Stmt.(*ast.RangeStmt); ok && jt.loopJoins(r.Body) {
			return true
		}
	case cfg.KindForDone:
		// for i := 0; i < n; i++ { <-done }: a loop that waits for
		// the signal at each iteration ends once the goroutines it
		// waits for have signalled (like a receive in a loop, this
		// takes the count to match).
		if f, ok := blk.Stmt.(*ast.ForStmt); ok && f.Cond != nil && jt.loopJoins(f.Body) {
			return true
		}
	case cfg.KindSelectCaseBody:
		if cc, ok := blk.Stmt.(*ast.CommClause); ok && cc.Comm != nil && jt.isJoin(cc.Comm) {
			return true
		}
	}
	return false
}

// calleeReceives returns the channels that the body of fd, the function a
// call runs, receives from (<-ch, a select case, a range over it) when
// they are reached from its receiver or parameters, spelled with the
// caller's arguments: x.Wait() with Wait's body <-w.done receives from
// x.done.
func calleeReceives(info *types.Info, call *ast.CallExpr, fd *ast.FuncDecl) []string {
	names := argNames(call, fd)
	var out []string
	add := func(ch ast.Expr) {
		head, rest, _ := strings.Cut(key(ch), ".")
		if arg, ok := names[head]; ok && head != "_" {
			if rest != "" {
				arg += "." + rest
			}
			out = append(out, arg)
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt:
			return false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				add(n.X)
			}
		case *ast.RangeStmt:
			if _, isChan := info.TypeOf(n.X).Underlying().(*types.Chan); isChan {
				add(n.X)
			}
		}
		return true
	})
	return out
}
