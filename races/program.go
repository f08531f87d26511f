package races

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// Options are what a run of the analysis takes.
type Options struct {
	// Tests makes test functions (TestX(*testing.T)) roots, each run
	// once, and loads the packages' tests.
	Tests bool
	// Dir is the directory the patterns are resolved in ("" for the
	// current one); Env, if not nil, the go command's environment.
	Dir string
	Env []string
	// Progress, if not nil, is told what the run is doing.
	Progress func(stage string)
	// MemoryLimit is the heap, in bytes, past which the run stops with
	// ErrTooLarge; 0 is three quarters of the memory available when it
	// starts.
	MemoryLimit uint64
}

// program is the SSA of the packages named and the call graph over it.
type program struct {
	fset  *token.FileSet
	prog  *ssa.Program
	cg    *callgraph.Graph
	own   map[*ssa.Package]bool // the packages named: the only ones with bodies
	pkgs  []*ssa.Package        // the same, in load order
	names map[*ssa.Function]string
	// dynamic memoises the callees of calls through interfaces and
	// function values, in a stable order.
	dynamic map[ssa.CallInstruction][]*ssa.Function
	// broken are the packages named that were left out: they, or
	// packages they import, failed to load or type-check.
	broken []*packages.Package
	// serial is the types whose documentation says they are not safe
	// for concurrent use (serialdoc.go).
	serial map[*types.TypeName]bool
	// concurrent is the types whose documentation says they are safe
	// for concurrent use (serialdoc.go).
	concurrent map[*types.TypeName]bool
}

// LoadError says that none of the packages named loaded and
// type-checked, each with its errors or its dependencies' (Pkgs, for the
// caller to print as it prints other load errors).
type LoadError struct{ Pkgs []*packages.Package }

func (e *LoadError) Error() string {
	var msgs []string
	packages.Visit(e.Pkgs, nil, func(p *packages.Package) {
		for _, err := range p.Errors {
			msgs = append(msgs, err.Error())
		}
	})
	return strings.Join(msgs, "\n")
}

// load loads patterns and builds the program. Dependencies are typed from
// export data and have no bodies: calls into them are leaves, recognised
// by what they are (sync.Mutex.Lock, http.HandleFunc, go statements'
// targets in the packages named).
func load(patterns []string, opts Options) (*program, error) {
	progress(opts, "loading packages")
	cfg := &packages.Config{
		Mode:  packages.LoadSyntax,
		Tests: opts.Tests,
		Dir:   opts.Dir,
		Env:   opts.Env,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("no packages matched %s", strings.Join(patterns, " "))
	}
	// A package that fails to load or type-check, itself or through an
	// import, is left out; the rest are analysed, as a program whose
	// broken parts are missing. The caller prints the errors.
	var good, broken []*packages.Package
	for _, pkg := range pkgs {
		if failed(pkg) {
			broken = append(broken, pkg)
		} else {
			good = append(good, pkg)
		}
	}
	packages.Visit(broken, nil, dropCompilerEcho)
	if len(good) == 0 {
		return nil, &LoadError{Pkgs: broken}
	}
	progress(opts, "building SSA")
	prog, spkgs := ssautil.Packages(good, ssa.InstantiateGenerics)
	p := &program{fset: prog.Fset, prog: prog, own: map[*ssa.Package]bool{}, names: map[*ssa.Function]string{}, dynamic: map[ssa.CallInstruction][]*ssa.Function{}, broken: broken}
	p.serial, p.concurrent = typeDocs(good)
	seen := map[*ssa.Package]bool{}
	for _, sp := range spkgs {
		if sp == nil || seen[sp] {
			continue
		}
		seen[sp] = true
		p.own[sp] = true
		p.pkgs = append(p.pkgs, sp)
	}
	prog.Build()
	progress(opts, "building the call graph")
	funcs := ssautil.AllFunctions(prog)
	p.cg = vta.CallGraph(funcs, cha.CallGraph(prog))
	p.cg.DeleteSyntheticNodes()
	return p, nil
}

// failed reports whether pkg or a package it imports failed to load or
// type-check.
func failed(pkg *packages.Package) bool {
	bad := false
	packages.Visit([]*packages.Package{pkg}, nil, func(p *packages.Package) {
		bad = bad || len(p.Errors) > 0 || len(p.TypeErrors) > 0
	})
	return bad
}

// dropCompilerEcho drops, from a package that failed to parse or
// type-check, the go command's report of the same errors from compiling it
// for export data ("# path" and the compiler's lines), so that each error
// is printed once.
func dropCompilerEcho(p *packages.Package) {
	own := false
	for _, e := range p.Errors {
		own = own || e.Kind == packages.ParseError || e.Kind == packages.TypeError
	}
	if !own {
		return
	}
	errs := p.Errors[:0]
	for _, e := range p.Errors {
		if e.Kind != packages.ListError || !strings.HasPrefix(e.Msg, "# ") {
			errs = append(errs, e)
		}
	}
	p.Errors = errs
}

func progress(opts Options, stage string) {
	if opts.Progress != nil {
		opts.Progress(stage)
	}
}

// ownFunc reports whether fn has a body in one of the packages named.
func (p *program) ownFunc(fn *ssa.Function) bool {
	if fn == nil || fn.Blocks == nil {
		return false
	}
	pkg := fn.Pkg
	if pkg == nil && fn.Origin() != nil {
		pkg = fn.Origin().Pkg
	}
	return pkg != nil && p.own[pkg]
}

// callees returns the functions a call site can call, by the call graph,
// in a stable order.
func (p *program) callees(fn *ssa.Function, site ssa.CallInstruction) []*ssa.Function {
	if c := site.Common(); c.StaticCallee() != nil {
		return []*ssa.Function{c.StaticCallee()}
	}
	if out, ok := p.dynamic[site]; ok {
		return out
	}
	node := p.cg.Nodes[fn]
	if node == nil {
		return nil
	}
	var out []*ssa.Function
	for _, e := range node.Out {
		if e.Site == site && e.Callee.Func != nil {
			out = append(out, e.Callee.Func)
		}
	}
	sortedFuncs(out)
	p.dynamic[site] = out
	return out
}

// methodName is fn's name, after its receiver type's for a method
// (Session.Detach, handle).
func methodName(fn *ssa.Function) string {
	if recv := fn.Signature.Recv(); recv != nil {
		if named, ok := types.Unalias(deref(recv.Type())).(*types.Named); ok {
			return named.Obj().Name() + "." + fn.Name()
		}
	}
	return fn.Name()
}

// name is how a finding names a function: Session.Detach, handle,
// Server.start$1 for a closure (as func literal 1 in Server.start).
func (p *program) name(fn *ssa.Function) string {
	if n, ok := p.names[fn]; ok {
		return n
	}
	n := methodName(fn)
	if parent := fn.Parent(); parent != nil {
		n = p.name(parent) + "." + strings.TrimPrefix(fn.Name(), parent.Name())
		n = strings.Replace(n, ".$", " func literal ", 1)
	}
	p.names[fn] = n
	return n
}

// ownFuncs is every function with a body in the packages named, sorted.
func (p *program) ownFuncs() []*ssa.Function {
	var out []*ssa.Function
	for fn := range ssautil.AllFunctions(p.prog) {
		if p.ownFunc(fn) {
			out = append(out, fn)
		}
	}
	sortedFuncs(out)
	return out
}
