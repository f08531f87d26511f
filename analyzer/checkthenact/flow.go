package checkthenact

import (
	"go/ast"
	"go/token"
	"slices"

	"golang.org/x/tools/go/cfg"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
	"github.com/guardvet/guardvet/analyzer/internal/reach"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// flowGraph is what checkthenact needs of a body's control flow, on the
// go/cfg graph lockstate ran its dataflow over (Func.CFG()): where each
// syntax node sits in it, the post-dominator tree, and which branches
// decide whether a block runs (control dependence).
type flowGraph struct {
	g  *cfg.CFG
	at map[ast.Node]nodeAt
	// succ are the successors of each live block; a block that leaves the
	// function (return, panic, the end of the body) has the virtual exit,
	// index len(g.Blocks), as its successor.
	succ [][]int32
	// ipdom is each block's immediate post-dominator (-1: none).
	ipdom []int32
	// cdeps lists, for each block, the blocks whose branch directly
	// decides whether it runs.
	cdeps [][]int32
}

// nodeAt is the place of a node in the graph: the block, and the index of
// the block node (a statement or a condition) it is part of.
type nodeAt struct {
	block, index int32
}

func newFlowGraph(g *cfg.CFG) *flowGraph {
	n := len(g.Blocks)
	exit := int32(n)
	fg := &flowGraph{g: g, at: map[ast.Node]nodeAt{}, succ: make([][]int32, n+1)}
	for _, b := range g.Blocks {
		if !b.Live {
			continue
		}
		for i, node := range b.Nodes {
			ast.Inspect(node, func(x ast.Node) bool {
				if x == nil {
					return false
				}
				// A later block node wins: a select case's assignment
				// target is listed again in the case's body, where it
				// is assigned.
				fg.at[x] = nodeAt{b.Index, int32(i)}
				_, lit := x.(*ast.FuncLit)
				return !lit
			})
		}
		for _, s := range b.Succs {
			fg.succ[b.Index] = append(fg.succ[b.Index], s.Index)
		}
		if len(b.Succs) == 0 {
			fg.succ[b.Index] = append(fg.succ[b.Index], exit)
		}
	}
	fg.leaveLoops()
	fg.postDominators()
	fg.controlDeps()
	return fg
}

// leaveLoops gives a loop that never ends (for {} with no break or
// return) a way out, so that post-dominance is defined in it: each edge
// that goes back to the head of a cycle that cannot reach the exit also
// may leave. A loop that runs forever is, for what follows it, like one
// that leaves after any whole iteration.
func (fg *flowGraph) leaveLoops() {
	n := len(fg.g.Blocks)
	exit := int32(n)
	reaches := fg.reachExit()
	stuck := false
	for _, b := range fg.g.Blocks {
		if b.Live && !reaches[b.Index] {
			stuck = true
			break
		}
	}
	if !stuck || !fg.g.Blocks[0].Live {
		return
	}
	// Back edges of a depth-first walk from the entry: every cycle has one.
	const (
		unseen = iota
		onStack
		done
	)
	state := make([]uint8, n)
	type frame struct {
		b    int32
		next int
	}
	stack := []frame{{0, 0}}
	state[0] = onStack
	var latches []int32
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next == len(fg.succ[top.b]) {
			state[top.b] = done
			stack = stack[:len(stack)-1]
			continue
		}
		s := fg.succ[top.b][top.next]
		top.next++
		if s == exit {
			continue
		}
		switch state[s] {
		case unseen:
			state[s] = onStack
			stack = append(stack, frame{s, 0})
		case onStack:
			if !reaches[top.b] {
				latches = append(latches, top.b)
			}
		}
	}
	for _, b := range latches {
		fg.succ[b] = append(fg.succ[b], exit)
	}
}

// reachExit marks the blocks from which the exit can be reached.
func (fg *flowGraph) reachExit() []bool {
	n := len(fg.g.Blocks)
	preds := make([][]int32, n+1)
	for b, ss := range fg.succ {
		for _, s := range ss {
			preds[s] = append(preds[s], int32(b))
		}
	}
	reaches := make([]bool, n+1)
	reaches[n] = true
	reach.Spread([]int32{int32(n)}, func(b int32) []int32 { return preds[b] }, func(p int32) bool {
		if reaches[p] {
			return false
		}
		reaches[p] = true
		return true
	})
	return reaches
}

// postDominators computes the immediate post-dominators (Cooper, Harvey
// and Kennedy's iteration, on the reversed graph rooted at the exit).
func (fg *flowGraph) postDominators() {
	n := len(fg.g.Blocks)
	exit := int32(n)
	preds := make([][]int32, n+1)
	for b, ss := range fg.succ {
		for _, s := range ss {
			preds[s] = append(preds[s], int32(b))
		}
	}
	// Postorder of the reversed graph from the exit.
	order := make([]int32, n+1) // postorder number, -1 when not reached
	for i := range order {
		order[i] = -1
	}
	var post []int32
	seen := make([]bool, n+1)
	type frame struct {
		b    int32
		next int
	}
	stack := []frame{{exit, 0}}
	seen[exit] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next == len(preds[top.b]) {
			order[top.b] = int32(len(post))
			post = append(post, top.b)
			stack = stack[:len(stack)-1]
			continue
		}
		p := preds[top.b][top.next]
		top.next++
		if !seen[p] {
			seen[p] = true
			stack = append(stack, frame{p, 0})
		}
	}
	ipdom := make([]int32, n+1)
	for i := range ipdom {
		ipdom[i] = -1
	}
	ipdom[exit] = exit
	intersect := func(a, b int32) int32 {
		for a != b {
			for order[a] < order[b] {
				a = ipdom[a]
			}
			for order[b] < order[a] {
				b = ipdom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for i := len(post) - 1; i >= 0; i-- {
			b := post[i]
			if b == exit {
				continue
			}
			d := int32(-1)
			for _, s := range fg.succ[b] {
				if ipdom[s] == -1 {
					continue
				}
				if d == -1 {
					d = s
				} else {
					d = intersect(s, d)
				}
			}
			if d != ipdom[b] {
				ipdom[b], changed = d, true
			}
		}
	}
	fg.ipdom = ipdom
}

// controlDeps records, for each edge a→s, that the blocks from s up the
// post-dominator tree to a's immediate post-dominator run only when the
// branch at a goes to s (Ferrante, Ottenstein and Warren).
func (fg *flowGraph) controlDeps() {
	n := len(fg.g.Blocks)
	fg.cdeps = make([][]int32, n+1)
	for a, ss := range fg.succ {
		if len(ss) < 2 || fg.ipdom[a] == -1 {
			continue
		}
		for _, s := range ss {
			for r := s; r != fg.ipdom[a] && r != -1 && r != int32(n); r = fg.ipdom[r] {
				if len(fg.cdeps[r]) == 0 || fg.cdeps[r][len(fg.cdeps[r])-1] != int32(a) {
					fg.cdeps[r] = append(fg.cdeps[r], int32(a))
				}
			}
		}
	}
}

// locate finds the block node that contains n. A node outside every block
// node (in a local closure analysed where it is called) is placed at the
// nearest enclosing one.
func (fg *flowGraph) locate(parents *astq.Tree, n ast.Node) (nodeAt, bool) {
	for x := range parents.Ancestry(n) {
		if at, ok := fg.at[x]; ok {
			return at, true
		}
	}
	return nodeAt{}, false
}

// controllers lists the blocks whose branch decides, directly or through
// other branches, whether the node runs: the conditions it is control
// dependent on, guard clauses and early exits included.
func (fg *flowGraph) controllers(parents *astq.Tree, n ast.Node) []*cfg.Block {
	at, ok := fg.locate(parents, n)
	if !ok {
		return nil
	}
	seen := map[int32]bool{}
	var out []*cfg.Block
	reach.Spread([]int32{at.block}, func(b int32) []int32 { return fg.cdeps[b] }, func(a int32) bool {
		if seen[a] {
			return false
		}
		seen[a] = true
		out = append(out, fg.g.Blocks[a])
		return true
	})
	return out
}

// branchCond returns what the branch at the end of block b tests: the
// condition of an if or a for, a case of a switch with the switch's tag
// (or a type switch's assignment), and the statement's init. ok is false
// for a block whose successors the values it reads do not choose (a
// select, a range loop's next iteration).
func branchCond(parents *astq.Tree, b *cfg.Block) (conds []ast.Node, init ast.Stmt, ok bool) {
	if len(b.Succs) != 2 {
		return nil, nil, false
	}
	if cc, isCase := b.Succs[0].Stmt.(*ast.CaseClause); isCase && b.Succs[0].Kind == cfg.KindSwitchCaseBody {
		if ts, isType := parents.Parent(parents.Parent(cc)).(*ast.TypeSwitchStmt); isType {
			return []ast.Node{ts.Assign}, ts.Init, true
		}
	}
	if len(b.Nodes) == 0 {
		return nil, nil, false
	}
	e, isExpr := b.Nodes[len(b.Nodes)-1].(ast.Expr)
	if !isExpr {
		return nil, nil, false
	}
	switch s := parents.Parent(e).(type) {
	case *ast.IfStmt:
		return []ast.Node{e}, s.Init, true
	case *ast.ForStmt:
		return []ast.Node{e}, s.Init, true
	case *ast.CaseClause:
		if sw, isSwitch := parents.Parent(parents.Parent(s)).(*ast.SwitchStmt); isSwitch {
			if sw.Tag != nil {
				return []ast.Node{e, sw.Tag}, sw.Init, true
			}
			return []ast.Node{e}, sw.Init, true
		}
	}
	return []ast.Node{e}, nil, true
}

// reachesAvoiding reports whether the node w can be reached from the
// entry on a path that passes none of the nodes in via after the last
// kill (a position where a critical section of the lock ends or starts).
// The walk goes on past w: round a loop, w may be reached again without a
// read. In the block node that holds w, only what comes before w in the
// source counts.
func (fg *flowGraph) reachesAvoiding(parents *astq.Tree, w ast.Node, via []ast.Node, kill func(ast.Node) []token.Pos) bool {
	wat, ok := fg.locate(parents, w)
	if !ok {
		return true
	}
	// What each block node does: the positions where it reads (gen) and
	// where a section ends or starts (kill).
	type effect struct {
		pos  token.Pos
		read bool
	}
	effects := map[nodeAt][]effect{}
	for _, r := range via {
		if at, ok := fg.locate(parents, r); ok {
			effects[at] = append(effects[at], effect{r.Pos(), true})
		}
	}
	// step runs the nodes of block b from state seen (a read since the
	// last section start) and returns the state at the end, and whether w
	// was reached with no read before it.
	step := func(b *cfg.Block, seen bool) (out bool, reachedUnseen bool) {
		for i := range b.Nodes {
			at := nodeAt{b.Index, int32(i)}
			evs := slices.Clone(effects[at])
			for _, k := range kill(b.Nodes[i]) {
				evs = append(evs, effect{k, false})
			}
			slices.SortStableFunc(evs, func(x, y effect) int { return int(x.pos) - int(y.pos) })
			if at == wat {
				before := seen
				for _, e := range evs {
					if e.pos >= w.Pos() {
						break
					}
					before = e.read
				}
				if !before {
					return false, true
				}
				// Reached having re-read; the path goes on past w
				// (round a loop, back to it).
			}
			for _, e := range evs {
				seen = e.read
			}
		}
		return seen, false
	}
	// A forward walk over (block, seen) pairs: is w reached unseen?
	type item struct {
		b    int32
		seen bool
	}
	work := []item{{0, false}}
	visited := map[item]bool{work[0]: true}
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		b := fg.g.Blocks[it.b]
		out, unseen := step(b, it.seen)
		if unseen {
			return true
		}
		for _, s := range b.Succs {
			next := item{s.Index, out}
			if !visited[next] {
				visited[next] = true
				work = append(work, next)
			}
		}
	}
	return false
}

// sectionStarts returns, for a block node, the positions in it where a
// critical section of lock ends or a new one begins: where the body locks
// or unlocks it, and the calls that release it and take it back (a helper
// that steps out of the lock, sync.Cond.Wait, one that acquires it), as
// the engine's states record them.
func sectionStarts(f *lockstate.Func, lock lockpath.Path) func(ast.Node) []token.Pos {
	var sites []token.Pos
	add := func(p token.Pos) {
		if p.IsValid() {
			sites = append(sites, p)
		}
	}
	// A release ends the section as well: a read before it is stale
	// whatever takes the lock back. A deferred release runs at the
	// return, not where it is written.
	deferred := map[*ast.CallExpr]bool{}
	ast.Inspect(f.Body(), func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			deferred[n.Call] = true
		}
		return true
	})
	for _, op := range f.LockOps {
		// A downgrade keeps the section: no writer gets in.
		if op.Lock == lock && op.Op != locks.NoOp && op.Op != locks.Downgrade && !deferred[op.Node] {
			add(op.Node.Pos())
		}
	}
	for _, a := range f.Accesses {
		if a.State != nil {
			add(a.State.Lock(lock).Site)
		}
	}
	for _, call := range f.Calls {
		if call.State != nil {
			add(call.State.Lock(lock).Site)
		}
	}
	return func(n ast.Node) []token.Pos {
		var out []token.Pos
		for _, p := range sites {
			if n.Pos() <= p && p < n.End() {
				out = append(out, p)
			}
		}
		return out
	}
}

// returnsAvoiding lists the return statements reachable from the
// successors of branch block b without passing block avoid.
func (fg *flowGraph) returnsAvoiding(b *cfg.Block, avoid int32) []*ast.ReturnStmt {
	var out []*ast.ReturnStmt
	seen := map[int32]bool{b.Index: true, avoid: true}
	work := slices.Clone(b.Succs)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[x.Index] {
			continue
		}
		seen[x.Index] = true
		for _, n := range x.Nodes {
			if ret, ok := n.(*ast.ReturnStmt); ok {
				out = append(out, ret)
			}
		}
		work = append(work, x.Succs...)
	}
	return out
}
