package noblock

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/report"
	"github.com/guardvet/guardvet/analyzer/internal/rule"
	"github.com/guardvet/guardvet/analyzer/internal/summaries"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// Analyzer is the noblock rule.
var Analyzer = rule.New(rule.Spec{Name: Category, DocFile: docFile, Run: run,
	Requires: []*analysis.Analyzer{config.Analyzer},
	Facts:    []analysis.Fact{(*Blocks)(nil)}, Flags: config.RuleFlags(Category)})

// Category is the diagnostic category of this rule.
const Category = "noblock"

// Blocks says that calling a function can block, and how: the chain of
// calls from it to a blocking operation.
type Blocks struct{ Chain []string }

func (*Blocks) AFact() {}

func (b *Blocks) String() string { return "blocks(" + strings.Join(b.Chain, " -> ") + ")" }

type checker struct {
	pass   *analysis.Pass
	ls     *lockstate.Result
	rep    *report.Reporter
	funcs  map[*types.Func][]*lockstate.Func
	blocks *summaries.Memo[Blocks, *Blocks]
	all    bool // -noblock.all: every lock counts as //guard:noblock
}

func run(p *rule.Pass) {
	pass, ls := p.Pass, p.Engine
	c := &checker{pass: pass, ls: ls, rep: p.Report,
		funcs: map[*types.Func][]*lockstate.Func{}, all: config.Of(pass).NoblockAll()}
	c.blocks = summaries.New(pass, c.computeBlocks)
	if !ls.Dirs.Active() {
		return
	}
	if !ls.Dirs.Full() {
		c.rep.Silence() // facts for annotated importers, no reports here
	}
	c.funcs = ls.Bodies()
	for _, f := range ls.Funcs {
		for _, call := range f.Calls {
			if chain := c.callBlocks(call); chain != nil {
				c.check(call.Node.Lparen, call.State, chain, call.Callee.Name() == "Wait" && isMethod(call.Callee, "sync", "Cond"))
			}
		}
		for _, op := range f.ChanOps {
			if op.NonBlocking {
				continue
			}
			c.check(op.Node.Pos(), op.State, []string{chanText(op)}, false)
		}
	}
	summaries.Export(pass, c.funcs, func(fn *types.Func) analysis.Fact {
		if chain := c.funcBlocks(fn); chain != nil {
			return &Blocks{Chain: chain}
		}
		return nil
	})
}

func chanText(op *lockstate.ChanOp) string {
	switch op.Kind {
	case lockstate.Send:
		return "channel send"
	case lockstate.Receive:
		return "channel receive"
	case lockstate.RangeReceive:
		return "range over a channel"
	}
	return "select without a default case"
}

// check reports a blocking operation at pos for every noblock lock held.
func (c *checker) check(pos token.Pos, state *lockstate.State, chain []string, condWait bool) {
	held := state.Held()
	if condWait && len(held) < 2 {
		return // Cond.Wait releases its own lock while it waits
	}
	for _, p := range held {
		if !c.marked(p) && !c.all {
			continue
		}
		why := "//guard:noblock"
		if !c.marked(p) {
			why = "-noblock.all"
		}
		what := chain[len(chain)-1]
		via := ""
		if len(chain) > 1 {
			via = " (through " + strings.Join(chain[:len(chain)-1], " -> ") + ")"
		}
		shown := p.Local(c.pass.Pkg)
		c.rep.Reportf(pos, report.Related(state.Lock(p).Site, shown+" locked here"),
			"%s%s can block while %s is held (%s); copy what you need under the lock, release %s, then block",
			what, via, shown, why, shown)
	}
}

// marked reports whether the lock at p carries //guard:noblock.
func (c *checker) marked(p lockpath.Path) bool {
	g := c.ls.Dirs.Guard(lockpath.LockVar(p))
	return g != nil && g.NoBlock
}

// callBlocks returns the chain by which a call can block, or nil.
func (c *checker) callBlocks(call *lockstate.Call) []string {
	name := calleeText(call)
	if direct(call.Callee, call.Node, c.pass.TypesInfo) {
		return []string{name}
	}
	if call.Contract != nil && call.Contract.Blocks {
		return []string{name + " (//guard:blocks)"}
	}
	if chain := c.funcBlocks(call.Callee); chain != nil {
		return append([]string{name}, chain...)
	}
	return nil
}

func calleeText(call *lockstate.Call) string {
	return types.ExprString(call.Node.Fun)
}

// funcBlocks returns how fn can block: //guard:blocks, its bodies in this
// package, or a fact. Recursion contributes nothing.
func (c *checker) funcBlocks(fn *types.Func) []string {
	if fn == nil {
		return nil
	}
	if k := c.ls.Dirs.Contract(fn.Origin()); k != nil && k.Blocks {
		return []string{fn.Name() + " (//guard:blocks)"}
	}
	if b := c.blocks.Of(fn); b != nil {
		return b.Chain
	}
	return nil
}

// computeBlocks finds the first blocking operation a function of this
// package reaches.
func (c *checker) computeBlocks(fn *types.Func) *Blocks {
	var chain []string
	for _, body := range c.funcs[fn] {
		for _, op := range body.ChanOps {
			if !op.NonBlocking && chain == nil {
				chain = []string{chanText(op)}
			}
		}
		for _, call := range body.Calls {
			if chain != nil {
				break
			}
			if sub := c.callBlocks(call); sub != nil && call.Callee.Origin() != fn {
				chain = sub
			}
		}
	}
	if chain == nil {
		return nil
	}
	return &Blocks{Chain: chain}
}

// direct reports whether a call is one of the blocking operations in the
// table (docs/rules/noblock.md).
func direct(fn *types.Func, call *ast.CallExpr, info *types.Info) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	pkg, name := fn.Pkg().Path(), fn.Name()
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		switch pkg + "." + name {
		case "time.Sleep", "net/http.Get", "net/http.Post", "net/http.PostForm", "net/http.Head":
			return true
		case "io.Copy", "io.CopyN", "io.CopyBuffer", "io.ReadAll", "io.ReadFull", "io.ReadAtLeast":
			for _, arg := range call.Args {
				if isFileOrConn(info.TypeOf(arg)) {
					return true
				}
			}
		}
		return false
	}
	switch {
	case isMethod(fn, "sync", "WaitGroup") && name == "Wait",
		isMethod(fn, "sync", "Cond") && name == "Wait",
		isMethod(fn, "os/exec", "Cmd") && (name == "Wait" || name == "Run" || name == "Output" || name == "CombinedOutput"),
		isMethod(fn, "net/http", "Client") && (name == "Do" || name == "Get" || name == "Post" || name == "PostForm" || name == "Head"):
		return true
	case name == "Read" || name == "Write" || name == "Close":
		if se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			return isFileOrConn(info.TypeOf(se.X))
		}
	}
	return false
}

func isMethod(fn *types.Func, pkg, typ string) bool {
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil || fn.Pkg() == nil || fn.Pkg().Path() != pkg {
		return false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == typ
}

// isFileOrConn reports whether t is *os.File or implements net.Conn.
func isFileOrConn(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		if n, ok := types.Unalias(p.Elem()).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "os" && n.Obj().Name() == "File" {
			return true
		}
	}
	n, ok := types.Unalias(t).(*types.Named)
	if ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "net" && n.Obj().Name() == "Conn" {
		return true
	}
	return implementsConn(t)
}

// implementsConn checks for net.Conn's method set without importing net's
// types: Read, Write, Close, LocalAddr, RemoteAddr, SetDeadline.
func implementsConn(t types.Type) bool {
	ms := types.NewMethodSet(t)
	for _, m := range []string{"Read", "Write", "Close", "LocalAddr", "RemoteAddr", "SetDeadline", "SetReadDeadline", "SetWriteDeadline"} {
		if ms.Lookup(nil, m) == nil {
			return false
		}
	}
	return true
}
