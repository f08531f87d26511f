// Package goroutines finds, in a function, where goroutines start and where
// the function joins them, and answers which of its statements can run
// while a goroutine it started is still running (its concurrent region).
//
// A goroutine starts at a go statement, errgroup.Group.Go,
// sync.WaitGroup.Go or time.AfterFunc (and context.AfterFunc). It is joined
// by wg.Wait() when it calls wg.Done() (or was started by wg.Go), by
// g.Wait() of the errgroup that started it, by a receive from a channel it
// sends on or closes (also a select case, the end of a range over it, or a
// call handed the channel, taken to receive from it), by a send on an
// unbuffered channel of the starter's that it returns right after
// receiving from (rendezvous.go), by a receive from a channel that a
// goroutine of the starter's signals after waiting for it (a relay:
// go func() { wg.Wait(); close(done) }(); relay.go), by mu.Lock() when it
// calls mu.Unlock() (a mutex used as a semaphore), by synctest.Wait, and
// by reading a pipe the declaration creates to its end (io.ReadAll(r),
// io.Copy(dst, r)) when it closes the pipe's write end. Through the
// package's methods too: a goroutine's call x.stop(), whose body sends on
// or closes x.done on every path, signals x.done, and the starter's call
// x.wait(), whose body receives from x.done, is a receive from it.
// A goroutine's signal counts when it is made on every path of its
// closure (a deferred one where the defer statement is; a path ending in
// panic, os.Exit or log.Fatal does not count), or on some path when
// nothing else in the declaration gives the same signal (a completed wait
// then proves the goroutine gave it); for go f(args), a WaitGroup or
// channel among the arguments, and the signals of f's body reached from
// its receiver or parameters, by the same rule.
// The region of a start is every statement of the starting body reachable
// from it in the control-flow graph (go/cfg) without passing a join; a
// start reachable from itself that way (a loop) runs concurrently with its
// own other instances.
//
// The shared rule uses it; guard inference can use it for its
// concurrency context.
package goroutines

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/flowgraph"
)

// Kind is how a goroutine is started.
type Kind uint8

const (
	GoStmt      Kind = iota // go f(x), go func(){...}()
	ErrgroupGo              // g.Go(f), golang.org/x/sync/errgroup
	WaitGroupGo             // wg.Go(f), sync (Go 1.25)
	AfterFunc               // time.AfterFunc(d, f), context.AfterFunc(ctx, f)
	// HelperGo: a call of a function of the package that runs its
	// function argument in goroutines of its own (parallel(n, func(i)
	// {...}): its body starts a goroutine that calls the parameter),
	// decided from that body.
	HelperGo
)

// Spawn is one place where a body starts a goroutine.
type Spawn struct {
	Node ast.Node // the *ast.GoStmt or *ast.CallExpr
	Kind Kind
	// Lit is the goroutine's function when written in place (go
	// func(){...}(), g.Go(func() error {...})); Callee the function of
	// go f(x) or g.Go(f) when static.
	Lit    *ast.FuncLit
	Callee *types.Func
	Body   *Body
	// Repeats: the start is reachable from itself with no join between,
	// so several instances of the goroutine run at once.
	Repeats bool
	// Loops are the for and range statements of Body around the start:
	// variables declared inside them are new at each iteration.
	Loops []ast.Node
	// Joins are the statements that join the goroutine, in source order.
	Joins []ast.Node

	joinKeys  []joinKey
	declOf    func(*types.Func) *ast.FuncDecl // the package's declarations, or nil
	reached   map[ast.Node]bool               // cfg nodes of Body that run while it may run
	exitReach bool                            // the body can return while it may run
	// helper is, for HelperGo, what the helper's body does with the
	// function: starts it in a loop (many), waits before returning.
	helper helperRun
}

// Body is a function body (a declaration's or a closure's) with the
// goroutines it starts.
type Body struct {
	Block  *ast.BlockStmt
	Lit    *ast.FuncLit // nil for the declaration's own body
	Spawns []*Spawn
	g      *cfg.CFG
	nodes  []ast.Node // every cfg node, for Concurrent's lookup
	// pipes pairs the read end of each pipe the declaration creates
	// (r, w := io.Pipe(); r, w, err := os.Pipe()) with its write end,
	// both as spelled: reading r to its end waits for w to be closed.
	pipes map[string]string
}

type joinKey struct {
	kind string // "wait" (wg or errgroup Wait), "recv" (channel), "lock" (mutex as semaphore), "pipe" (a pipe's write end closed)
	key  string // the receiver or channel, as written
}

// Find returns the bodies of fd (its own and its closures') that start
// goroutines, with their starts and joins analysed.
func Find(info *types.Info, fd *ast.FuncDecl) []*Body { return FindWith(info, fd, nil) }

// FindWith is Find, with the declarations of the package's functions
// (declOf, nil for another package's): for go f(x) and go x.m(), the
// signals in f's or m's body join the goroutine too, spelled as the
// caller's arguments.
func FindWith(info *types.Info, fd *ast.FuncDecl, declOf func(*types.Func) *ast.FuncDecl) []*Body {
	if fd.Body == nil {
		return nil
	}
	// The declaration's signals, found the first time a start asks
	// (most declarations start nothing).
	var sigs []posKey
	sigsDone := false
	declSigs := func() []posKey {
		if !sigsDone {
			sigs, sigsDone = signalsAt(info, fd.Body, false, declOf), true
		}
		return sigs
	}
	pipes := pipeEnds(info, fd.Body)
	var bodies []*Body
	visit := func(block *ast.BlockStmt, lit *ast.FuncLit) {
		b := &Body{Block: block, Lit: lit, pipes: pipes}
		var stack []ast.Node // n's ancestors in block
		ast.Inspect(block, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if l, ok := n.(*ast.FuncLit); ok && l != lit {
				return false // a body of its own
			}
			if s := spawnAt(info, n, declOf, declSigs); s != nil && !(s.Kind == AfterFunc && stoppedAtOnce(info, stack, n)) {
				s.Body, s.declOf = b, declOf
				for i := len(stack) - 1; i >= 0; i-- {
					switch stack[i].(type) {
					case *ast.ForStmt, *ast.RangeStmt:
						s.Loops = append(s.Loops, stack[i])
					}
				}
				b.Spawns = append(b.Spawns, s)
			}
			stack = append(stack, n)
			return true
		})
		if len(b.Spawns) > 0 {
			relayJoins(info, b, declSigs)
			b.analyse(info)
			bodies = append(bodies, b)
		}
	}
	visit(fd.Body, nil)
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if l, ok := n.(*ast.FuncLit); ok {
			visit(l.Body, l)
		}
		return true
	})
	return bodies
}

// spawnAt returns the goroutine start n is, if any.
func spawnAt(info *types.Info, n ast.Node, declOf func(*types.Func) *ast.FuncDecl, declSigs func() []posKey) *Spawn {
	// elsewhere: the declaration gives signal k outside [from, to) too.
	elsewhere := func(from, to token.Pos) func(joinKey) bool {
		return func(k joinKey) bool {
			for _, d := range declSigs() {
				if d.joinKey == k && (d.pos < from || d.pos >= to) {
					return true
				}
			}
			return false
		}
	}
	switch n := n.(type) {
	case *ast.GoStmt:
		s := &Spawn{Node: n, Kind: GoStmt}
		s.Lit, _ = ast.Unparen(n.Call.Fun).(*ast.FuncLit)
		if s.Lit == nil {
			s.Callee = typeutil.StaticCallee(info, n.Call)
		}
		var inLit func(joinKey) bool
		if s.Lit != nil {
			inLit = elsewhere(s.Lit.Pos(), s.Lit.End())
		}
		s.joinKeys = goJoins(info, n.Call, s.Lit, inLit, declOf)
		if s.Callee != nil && declOf != nil {
			if fd := declOf(s.Callee.Origin()); fd != nil && fd.Body != nil {
				s.joinKeys = append(s.joinKeys, calleeJoins(info, n.Call, fd, elsewhere(token.NoPos, token.NoPos))...)
			}
		}
		return s
	case *ast.CallExpr:
		fn := typeutil.StaticCallee(info, n)
		if fn == nil || len(n.Args) == 0 {
			return nil
		}
		var s *Spawn
		arg := ast.Unparen(n.Args[len(n.Args)-1])
		switch fn.FullName() {
		case "(*golang.org/x/sync/errgroup.Group).Go":
			s = &Spawn{Node: n, Kind: ErrgroupGo}
			s.joinKeys = []joinKey{{"wait", recvKey(n)}}
		case "(*sync.WaitGroup).Go":
			s = &Spawn{Node: n, Kind: WaitGroupGo}
			s.joinKeys = []joinKey{{"wait", recvKey(n)}}
		case "time.AfterFunc", "context.AfterFunc":
			s = &Spawn{Node: n, Kind: AfterFunc}
		default:
			return helperSpawn(info, n, fn, declOf)
		}
		s.Lit, _ = arg.(*ast.FuncLit)
		if s.Lit == nil {
			_, s.Lit = astq.ReturnedLit(arg) // g.Go(func(b T) func() error { return func() error {...} }(b))
		}
		if s.Lit == nil {
			if id, ok := arg.(*ast.Ident); ok {
				s.Callee, _ = info.Uses[id].(*types.Func)
			} else if se, ok := arg.(*ast.SelectorExpr); ok {
				s.Callee, _ = info.Uses[se.Sel].(*types.Func)
			}
		}
		if s.Lit != nil {
			s.joinKeys = append(s.joinKeys, goJoins(info, nil, s.Lit, elsewhere(s.Lit.Pos(), s.Lit.End()), declOf)...)
		}
		return s
	}
	return nil
}

// stoppedAtOnce reports whether the timer a time.AfterFunc call makes is
// stopped by the very next statement (t = time.AfterFunc(d, f);
// t.Stop()): the function then runs only after a later t.Reset, which
// orders everything before that Reset before it, so the call starts
// nothing here (pgx's slowWriteTimer). stack holds n's ancestors.
func stoppedAtOnce(info *types.Info, stack []ast.Node, n ast.Node) bool {
	if len(stack) < 2 {
		return false
	}
	as, ok := stack[len(stack)-1].(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Rhs[0] != n {
		return false
	}
	list, ok := astq.StmtList(stack[len(stack)-2])
	if !ok {
		return false
	}
	for i, st := range list {
		if st != ast.Stmt(as) || i+1 == len(list) {
			continue
		}
		es, ok := list[i+1].(*ast.ExprStmt)
		if !ok {
			return false
		}
		call, ok := ast.Unparen(es.X).(*ast.CallExpr)
		if !ok {
			return false
		}
		se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		fn := typeutil.StaticCallee(info, call)
		return ok && fn != nil && fn.FullName() == "(*time.Timer).Stop" && key(se.X) == key(as.Lhs[0])
	}
	return false
}

func recvKey(call *ast.CallExpr) string {
	if se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return key(se.X)
	}
	return ""
}

// key spells an expression for matching joins: &wg and wg are the same.
func key(e ast.Expr) string {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	return types.ExprString(e)
}

// goJoins returns what can join a goroutine: the WaitGroups it calls Done
// on and the channels it sends on or closes (anywhere in its body, not in
// its own goroutines), or, for go f(args), the WaitGroups and channels it
// is passed.
func goJoins(info *types.Info, call *ast.CallExpr, lit *ast.FuncLit, elsewhere func(joinKey) bool, declOf func(*types.Func) *ast.FuncDecl) []joinKey {
	var keys []joinKey
	if lit == nil {
		if call == nil {
			return nil
		}
		for _, a := range call.Args {
			t := info.TypeOf(a)
			if t == nil {
				continue
			}
			if p, ok := t.Underlying().(*types.Pointer); ok {
				t = p.Elem()
			}
			if _, ok := t.Underlying().(*types.Chan); ok {
				keys = append(keys, joinKey{"recv", key(a)})
			} else if isNamed(t, "sync", "WaitGroup") {
				keys = append(keys, joinKey{"wait", key(a)})
			}
		}
		return keys
	}
	return append(joinSignals(info, lit.Body, elsewhere, declOf), rendezvousKeys(lit)...)
}

// everyPath keeps the signals a body makes on every path from its entry
// to a return (a deferred signal counts where the defer statement is). A
// path that ends in a call that cannot return (panic, os.Exit, log.Fatal,
// a test's FailNow) does not count against a signal: nothing waits on it.
func everyPath(info *types.Info, body *ast.BlockStmt, keys []joinKey, declOf func(*types.Func) *ast.FuncDecl) []joinKey {
	if len(keys) == 0 {
		return nil
	}
	g := flowgraph.New(info, body)
	// Each node's signals, found once for all the keys.
	at := map[ast.Node][]joinKey{}
	sigsOf := func(n ast.Node) []joinKey {
		ks, ok := at[n]
		if !ok {
			ks = signals(info, n, declOf)
			at[n] = ks
		}
		return ks
	}
	var out []joinKey
	done := map[joinKey]bool{}
	for _, k := range keys {
		if done[k] {
			continue
		}
		done[k] = true
		if onEveryPath(info, g, k, sigsOf) {
			out = append(out, k)
		}
	}
	return out
}

func onEveryPath(info *types.Info, g *cfg.CFG, k joinKey, sigsOf func(ast.Node) []joinKey) bool {
	if len(g.Blocks) == 0 {
		return true
	}
	seen := map[*cfg.Block]bool{}
	var walk func(b *cfg.Block) bool
	walk = func(b *cfg.Block) bool {
		if seen[b] {
			return true // round a loop: judged where it was entered
		}
		seen[b] = true
		for _, n := range b.Nodes {
			for _, m := range sigsOf(n) {
				if m == k {
					return true
				}
			}
		}
		if len(b.Succs) == 0 {
			if b.Kind == cfg.KindSelectAfterCase && len(b.Nodes) == 0 {
				return true // a select without default blocks: not an exit
			}
			if n := len(b.Nodes); n > 0 {
				if es, ok := b.Nodes[n-1].(*ast.ExprStmt); ok {
					if call, ok := ast.Unparen(es.X).(*ast.CallExpr); ok && !flowgraph.MayReturn(info, call) {
						return true
					}
				}
			}
			return false
		}
		for _, s := range b.Succs {
			if !walk(s) {
				return false
			}
		}
		return true
	}
	return walk(g.Blocks[0])
}

// calleeJoins returns the signals of the body of the function that go
// f(args) or go x.m(args) runs, on a WaitGroup or channel reached from
// its receiver or a parameter, spelled with the caller's arguments.
func calleeJoins(info *types.Info, call *ast.CallExpr, fd *ast.FuncDecl, elsewhere func(joinKey) bool) []joinKey {
	names := argNames(call, fd)
	var keys []joinKey
	some := signals(info, fd.Body, nil)
	every := map[joinKey]bool{}
	for _, k := range everyPath(info, fd.Body, some, nil) {
		every[k] = true
	}
	for _, k := range some {
		head, rest, _ := strings.Cut(k.key, ".")
		arg, ok := names[head]
		if !ok || head == "_" {
			continue // not reached from the caller's arguments
		}
		if rest != "" {
			arg += "." + rest
		}
		if t := (joinKey{k.kind, arg}); every[k] || !elsewhere(t) {
			keys = append(keys, t)
		}
	}
	return keys
}

// argNames maps the names of fd's receiver and parameters to the
// arguments of call, a call of fd, as spelled.
func argNames(call *ast.CallExpr, fd *ast.FuncDecl) map[string]string {
	names := map[string]string{} // parameter name -> the caller's argument
	if fd.Recv != nil && len(fd.Recv.List) == 1 && len(fd.Recv.List[0].Names) == 1 {
		if se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			names[fd.Recv.List[0].Names[0].Name] = key(se.X)
		}
	}
	i := 0
	for _, f := range fd.Type.Params.List {
		for _, name := range f.Names {
			if i < len(call.Args) {
				names[name.Name] = key(call.Args[i])
			}
			i++
		}
		if len(f.Names) == 0 {
			i++
		}
	}
	return names
}

// signals returns the WaitGroups a body calls Done on, the channels it
// sends on or closes, and the mutexes it unlocks (not in goroutines it
// starts itself).
func signals(info *types.Info, body ast.Node, declOf func(*types.Func) *ast.FuncDecl) []joinKey {
	var keys []joinKey
	for _, k := range signalsAt(info, body, true, declOf) {
		keys = append(keys, k.joinKey)
	}
	return keys
}

// posKey is a signal and where it is made.
type posKey struct {
	joinKey
	pos token.Pos
}

// signalsAt returns the signals made in n, with their positions; with
// skipGo, not those of goroutines n starts.
func signalsAt(info *types.Info, body ast.Node, skipGo bool, declOf func(*types.Func) *ast.FuncDecl) []posKey {
	var keys []posKey
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			return !skipGo
		case *ast.SendStmt:
			keys = append(keys, posKey{joinKey{"recv", key(n.Chan)}, n.Pos()})
		case *ast.CallExpr:
			if ch, ok := closeCall(info, n); ok {
				keys = append(keys, posKey{joinKey{"recv", ch}, n.Pos()})
			}
			if fn := typeutil.StaticCallee(info, n); fn != nil {
				if declOf != nil {
					// x.Stop(), whose body sends on or closes x.stop on
					// every path: the signal is made here, spelled as
					// the caller's arguments (one level down).
					if fd := declOf(fn.Origin()); fd != nil && fd.Body != nil {
						for _, k := range calleeJoins(info, n, fd, func(joinKey) bool { return true }) {
							keys = append(keys, posKey{k, n.Pos()})
						}
					}
				}
				switch fn.FullName() {
				case "(*sync.WaitGroup).Done":
					keys = append(keys, posKey{joinKey{"wait", recvKey(n)}, n.Pos()})
				case "(*os.File).Close", "(*io.PipeWriter).Close", "(*io.PipeWriter).CloseWithError":
					// Closing a pipe's write end ends the reader's
					// io.ReadAll (pipeEnds pairs the two ends).
					keys = append(keys, posKey{joinKey{"pipe", recvKey(n)}, n.Pos()})
				case "(*sync.Mutex).Unlock":
					// A mutex used as a semaphore: the parent locked it,
					// the goroutine unlocks it, the parent's next Lock
					// waits for that.
					keys = append(keys, posKey{joinKey{"lock", recvKey(n)}, n.Pos()})
				}
			}
		}
		return true
	})
	return keys
}

// joinSignals returns the signals of a goroutine's body that join it:
// those it makes on every path, and those it makes on some path only
// when nothing else can give the same signal (elsewhere false): a
// completed wait or receive then proves that this goroutine gave it.
func joinSignals(info *types.Info, body *ast.BlockStmt, elsewhere func(joinKey) bool, declOf func(*types.Func) *ast.FuncDecl) []joinKey {
	some := signals(info, body, declOf)
	out := everyPath(info, body, some, declOf)
	have := map[joinKey]bool{}
	for _, k := range out {
		have[k] = true
	}
	for _, k := range some {
		if !have[k] && (elsewhere == nil || !elsewhere(k)) {
			have[k] = true
			out = append(out, k)
		}
	}
	return out
}

// pipeEnds pairs the read and write ends of the pipes created in body
// (r, w := io.Pipe(), r, w, err := os.Pipe()), as spelled.
func pipeEnds(info *types.Info, body *ast.BlockStmt) map[string]string {
	var pipes map[string]string
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 || len(as.Lhs) < 2 {
			return true
		}
		call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok {
			return true
		}
		if fn := typeutil.StaticCallee(info, call); fn != nil && (fn.FullName() == "io.Pipe" || fn.FullName() == "os.Pipe") {
			r, w := key(as.Lhs[0]), key(as.Lhs[1])
			if r != "_" && w != "_" {
				if pipes == nil {
					pipes = map[string]string{}
				}
				pipes[r] = w
			}
		}
		return true
	})
	return pipes
}

func isNamed(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

// analyse builds the body's cfg and each start's region.
func (b *Body) analyse(info *types.Info) {
	b.g = flowgraph.New(info, b.Block)
	for _, blk := range b.g.Blocks {
		b.nodes = append(b.nodes, blk.Nodes...)
	}
	for _, s := range b.Spawns {
		s.region(info)
	}
}

// joins reports whether cfg node n (of s.Body) joins s.
func (s *Spawn) joins(info *types.Info, n ast.Node) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if found {
			return false
		}
		switch m := m.(type) {
		case *ast.FuncLit, *ast.GoStmt:
			return false
		case *ast.UnaryExpr:
			if m.Op == token.ARROW && s.hasKey("recv", key(m.X)) {
				found = true
			}
		case *ast.SendStmt:
			if s.rendezvous(info, m) {
				found = true // stop <- x, received by the goroutine as it returns
			}
		case *ast.CallExpr:
			if id, ok := ast.Unparen(m.Fun).(*ast.Ident); ok {
				if _, builtin := info.Uses[id].(*types.Builtin); builtin {
					return true // close(ch) and friends
				}
			}
			name := ""
			if fn := typeutil.StaticCallee(info, m); fn != nil {
				name = fn.FullName()
			}
			switch name {
			case "(*sync.WaitGroup).Wait", "(*golang.org/x/sync/errgroup.Group).Wait":
				if s.hasKey("wait", recvKey(m)) {
					found = true
				}
			case "(*sync.Mutex).Lock":
				if s.hasKey("lock", recvKey(m)) {
					found = true
				}
			case "testing/synctest.Wait", "internal/synctest.Wait":
				found = true // every goroutine of the bubble has blocked or exited
			case "io.ReadAll", "io.Copy", "io.CopyBuffer", "(*bytes.Buffer).ReadFrom":
				// Reading a pipe to its end returns once its write end
				// is closed: a goroutine that closes it on every path
				// has finished what it did before.
				r := m.Args[0]
				if name == "io.Copy" || name == "io.CopyBuffer" {
					r = m.Args[1]
				}
				if w, ok := s.Body.pipes[key(r)]; ok && s.hasKey("pipe", w) {
					found = true
				}
			default:
				// A function handed the channel is taken to receive
				// from it (waitDone(done), also a closure).
				for _, a := range m.Args {
					if _, isChan := info.TypeOf(a).Underlying().(*types.Chan); isChan && s.hasKey("recv", key(a)) {
						found = true
					}
				}
				// A method of the package whose body receives from a
				// channel of its receiver or arguments (x.Wait(), whose
				// body is <-x.done), as a receive here.
				if fn := typeutil.StaticCallee(info, m); fn != nil && s.declOf != nil {
					if fd := s.declOf(fn.Origin()); fd != nil && fd.Body != nil {
						for _, k := range calleeReceives(info, m, fd) {
							if s.hasKey("recv", k) {
								found = true
							}
						}
					}
				}
			}
		}
		return true
	})
	if found {
		s.Joins = append(s.Joins, n)
	}
	return found
}

func (s *Spawn) hasKey(kind, k string) bool {
	for _, j := range s.joinKeys {
		if j.kind == kind && j.key == k {
			return true
		}
	}
	return false
}

// region walks the cfg from the start, stopping at joins: what it reaches
// runs while the goroutine may run.
func (s *Spawn) region(info *types.Info) {
	s.reached = map[ast.Node]bool{}
	if s.Kind == HelperGo {
		// The helper joins its goroutines before it returns: they run
		// with each other (in a loop), not with the caller.
		s.Repeats = s.helper.many
		return
	}
	type at struct {
		blk *cfg.Block
		i   int
	}
	var start at
	for _, blk := range s.Body.g.Blocks {
		for i, n := range blk.Nodes {
			if n.Pos() <= s.Node.Pos() && s.Node.End() <= n.End() {
				start = at{blk, i}
			}
		}
	}
	if start.blk == nil {
		return
	}
	jt := &joinTest{s: s, info: info, joined: map[ast.Node]bool{}}
	isJoin, blockJoins := jt.isJoin, jt.blockJoins
	comm := commNodes(s.Body.Block)
	seen := map[*cfg.Block]bool{}
	var walk func(blk *cfg.Block, from int)
	walk = func(blk *cfg.Block, from int) {
		for i := from; i < len(blk.Nodes); i++ {
			n := blk.Nodes[i]
			if blk == start.blk && i == start.i {
				s.Repeats = true // round a loop, back at the start
			}
			if !comm[n] && isJoin(n) {
				return
			}
			s.reached[n] = true
		}
		// A block with no successor is an exit, except the empty one
		// go/cfg leaves after the last case of a select without default
		// (no case ready: the select blocks, it does not fall through).
		if len(blk.Succs) == 0 && !(blk.Kind == cfg.KindSelectAfterCase && len(blk.Nodes) == 0) {
			s.exitReach = true
		}
		for _, succ := range blk.Succs {
			if seen[succ] || blockJoins(succ) {
				continue
			}
			seen[succ] = true
			walk(succ, 0)
		}
	}
	walk(start.blk, start.i+1)
}

// Concurrent reports whether the statement of s.Body at pos can run while
// the goroutine s started runs. Positions inside closures of the body count
// as the statement that holds them.
func (s *Spawn) Concurrent(pos token.Pos) bool {
	var best ast.Node
	for _, n := range s.Body.nodes {
		if n.Pos() <= pos && pos < n.End() && (best == nil || n.End()-n.Pos() < best.End()-best.Pos()) {
			best = n
		}
	}
	return best != nil && s.reached[best]
}

// OutlivesReturn reports whether the body can return while the goroutine
// may still run.
func (s *Spawn) OutlivesReturn() bool { return s.exitReach }

// Ordered reports whether t, another start in the same body, starts only
// after s is joined and s only after t is joined: neither runs during the
// other.
func (s *Spawn) Ordered(t *Spawn) bool {
	if s == t {
		return !s.Repeats
	}
	return !s.reached[startNode(t)] && !t.reached[startNode(s)]
}

func startNode(s *Spawn) ast.Node {
	var best ast.Node
	for _, n := range s.Body.nodes {
		if n.Pos() <= s.Node.Pos() && s.Node.End() <= n.End() && (best == nil || n.End()-n.Pos() < best.End()-best.Pos()) {
			best = n
		}
	}
	return best
}
