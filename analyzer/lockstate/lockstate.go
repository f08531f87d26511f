package lockstate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/docs"
	"github.com/guardvet/guardvet/analyzer/internal/facttable"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
	"github.com/guardvet/guardvet/analyzer/internal/reach"
)

// Analyzer computes, for every function body, the locks held at each field
// access, call, lock operation and return. It summarises unannotated
// functions with a fixed net lock effect (lock helpers) and exports those
// summaries as facts.
var Analyzer = &analysis.Analyzer{
	Name:       "lockstate",
	Doc:        docs.Extract(docFile, "lockstate"),
	URL:        "https://github.com/guardvet/guardvet/blob/main/docs/how-it-works.md",
	Run:        run,
	Requires:   []*analysis.Analyzer{directives.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{(*EffectsTable)(nil), (*ParamTable)(nil), (*FuncValTable)(nil)},
}

// EffectsTable is a package fact (a facttable): the Effects of the
// package's functions that other packages can call (exported names), keyed
// like ParamTable (F, or T.M).
type EffectsTable struct {
	facttable.Table[Effects]
}

func (*EffectsTable) AFact() {}

func (t *EffectsTable) String() string {
	return t.Format("effectstable", func(e Effects) string { return e.String() })
}

// Effects is the inferred lock effect of an unannotated function, such as
// func (c *C) lock() { c.mu.Lock() }. Of its Contract only Acquires,
// RAcquires, Releases, RReleases, Excludes (locks it takes and leaves
// free) and Downgrades are ever set.
type Effects struct {
	directives.Contract
	// NoEscape lists the parameters (directives.Receiver for the receiver)
	// that the function never publishes: a fresh object passed to it stays
	// fresh, so constructors may call init helpers before taking locks.
	NoEscape []int
	// Unconditional is set for a function declared to acquire a lock that
	// returns one bool yet holds the lock at every return: its result says
	// something else, so it is not a TryLock.
	Unconditional bool
	// IntoResult lists the parameters it publishes only by storing them in
	// the new object it returns; FreshResult says it returns one.
	IntoResult  []int
	FreshResult bool
	// CondAcquires and CondRAcquires list the locks it acquires only when
	// it succeeds (its bool result is true, its error result nil), as a
	// TryLock does (see conditional.go).
	CondAcquires, CondRAcquires []directives.LockRef
	// Retakes lists the caller's locks the function releases and takes
	// again before it returns (a helper that steps out of the lock for
	// I/O, like sync.Cond.Wait): held before and after the call, but not
	// throughout, so after the call its caller is in a new critical
	// section.
	Retakes []directives.LockRef
}

func (*Effects) AFact() {}

func (e *Effects) String() string {
	s := "effects" + e.Contract.String()[len("contract"):]
	if len(e.NoEscape) > 0 {
		s += fmt.Sprintf(" noescape%v", e.NoEscape)
	}
	if e.Unconditional {
		s += " unconditional"
	}
	if len(e.IntoResult) > 0 {
		s += fmt.Sprintf(" intoresult%v", e.IntoResult)
	}
	if e.FreshResult {
		s += " freshresult"
	}
	for _, r := range e.Retakes {
		s += " retakes " + r.Text
	}
	for _, r := range e.CondAcquires {
		s += " condacquires " + r.Text
	}
	for _, r := range e.CondRAcquires {
		s += " condracquires " + r.Text
	}
	return s
}

// Result is the lock state of every function body in the package. It is
// empty when the package neither declares nor imports any directive.
type Result struct {
	Dirs  *directives.Result
	Funcs []*Func
	// Effects is what each function of the package that has one does to
	// its callers' locks and arguments (inferred, not declared). Those
	// other packages can call also go into the package's EffectsTable.
	Effects map[*types.Func]*Effects
	// Conditional lists the package's functions declared to acquire a
	// lock that they take only when they succeed (see conditional.go):
	// their returns are checked by what each reports.
	Conditional map[*types.Func]bool
	// Analysed is true when the package's bodies were analysed: it has or
	// imports directives, or the configuration needs unannotated packages
	// analysed (config.Config.AnalyseUnannotated).
	Analysed bool
	// readers counts down the analyzers still to read Funcs in this
	// package (config.Config.Readers); 0 means unknown.
	readers atomic.Int32
}

// Done says that one reader of the result, a rule, has finished with
// Funcs in this package. When the run says how many rules read it
// (config.Config.Readers, set by the standalone driver) and the last one
// is done, Funcs is dropped: the analysis framework keeps every
// intermediate result until the whole run ends, and under inference the
// per-function events of every package are the largest of them. Each
// reader calls it once, deferred, after it got the result: for the rules,
// the wrapper that internal/rule.New runs them in.
func (r *Result) Done() {
	if r.readers.Load() > 0 && r.readers.Add(-1) == 0 {
		r.Funcs = nil
	}
}

// ReleaseEarly returns c set so that a run of analyzers on the packages
// roots (and their dependencies) drops the engine's per-function records
// of each package as soon as the last rule that reads them is done
// (Result.Done), instead of keeping them until the run ends: the options
// that count those rules (-config.readers, -config.readers.deps) and the
// packages checked (-config.roots). analyzers are the run's, before
// config.Bind. A driver that does not call it (go vet, golangci-lint,
// nogo) keeps every record to the end.
func ReleaseEarly(c *config.Config, analyzers []*analysis.Analyzer, roots []*types.Package) (*config.Config, error) {
	inPkgs, inDeps := Readers(analyzers)
	paths := make([]string, len(roots))
	for i, p := range roots {
		paths[i] = p.Path()
	}
	c, err := c.With("readers", strconv.Itoa(inPkgs))
	if err == nil {
		c, err = c.With("readers.deps", strconv.Itoa(inDeps))
	}
	if err == nil {
		c, err = c.With("roots", strings.Join(paths, ","))
	}
	return c, err
}

// Of returns the engine's result in a pass whose analyzer requires
// Analyzer (or its copy, config.Bind).
func Of(pass *analysis.Pass) *Result {
	for _, v := range pass.ResultOf {
		if r, ok := v.(*Result); ok {
			return r
		}
	}
	panic("lockstate.Of: the analyzer " + pass.Analyzer.Name + " does not require lockstate.Analyzer")
}

// Readers counts the analyzers that a run of analyzers (and of what they
// require) executes and that read this engine's result, those that
// require Analyzer directly: in each package the run checks (inPkgs), and
// in the dependencies it analyses for their facts (inDeps), where only
// analyzers with facts run, with what they require (see ReleaseEarly).
func Readers(analyzers []*analysis.Analyzer) (inPkgs, inDeps int) {
	closure := func(from []*analysis.Analyzer) map[*analysis.Analyzer]bool {
		seen := map[*analysis.Analyzer]bool{}
		var visit func(a *analysis.Analyzer)
		visit = func(a *analysis.Analyzer) {
			if seen[a] {
				return
			}
			seen[a] = true
			for _, req := range a.Requires {
				visit(req)
			}
		}
		for _, a := range from {
			visit(a)
		}
		return seen
	}
	count := func(set map[*analysis.Analyzer]bool) int {
		n := 0
		for a := range set {
			if slices.Contains(a.Requires, Analyzer) {
				n++
			}
		}
		return n
	}
	all := closure(analyzers)
	var withFacts []*analysis.Analyzer
	for a := range all {
		if len(a.FactTypes) > 0 {
			withFacts = append(withFacts, a)
		}
	}
	return count(all), count(closure(withFacts))
}

func run(pass *analysis.Pass) (any, error) {
	dirs := directives.Of(pass)
	a := newPackageAnalysis(pass, dirs)
	a.fresh = dirs.Active() || dirs.Config.Infer() // inference needs fresh objects too
	a.vars = dirs.Config.RecordVars()
	a.capturedVars = map[*ast.FuncDecl]map[*types.Var]bool{}
	a.paramVars = map[*ast.FuncDecl]map[*types.Var]bool{}
	analysed := dirs.Active() || dirs.Config.AnalyseUnannotated()
	if analysed {
		a.fuse = true
		a.analyseAll()
		for _, fd := range a.order { // summaries for other packages, too; in source order so recursion is cut the same way every run
			a.summaryOf(a.pass.TypesInfo.Defs[fd.Name].(*types.Func))
		}
		for _, fd := range a.order {
			if fn := a.pass.TypesInfo.Defs[fd.Name].(*types.Func); exportedPtrMethod(fn) || exportedPtrFunc(fn) && a.callsAtomic(fd) {
				a.accessOf(fn)
			}
		}
	} else if dirs.Config.Summaries() {
		// Nothing here is annotated: only summarise lock helpers that other
		// packages might call, which costs a syntax scan and little else.
		a.summariseHelpers()
	}
	if analysed || dirs.Config.Summaries() {
		for _, fd := range a.bodylessOrder {
			if fn := a.pass.TypesInfo.Defs[fd.Name].(*types.Func); exportedPtrFunc(fn) {
				a.accessOf(fn)
			}
		}
	}
	if analysed || dirs.Config.Summaries() {
		a.exportFuncVals()
	}
	effects := a.exportEffects()
	a.exportAccesses()
	a.fallbacks = nil // parsed files of other platforms: not needed any more
	res := &Result{Dirs: dirs, Funcs: a.funcs, Effects: effects, Analysed: analysed}
	if analysed {
		for _, fd := range a.order {
			if fn := a.pass.TypesInfo.Defs[fd.Name].(*types.Func); a.declaredConditional(fn) {
				if res.Conditional == nil {
					res.Conditional = map[*types.Func]bool{}
				}
				res.Conditional[fn] = true
			}
		}
	}
	res.readers.Store(int32(dirs.Config.Readers(pass.Pkg)))
	return res, nil
}

// packageAnalysis holds the per-package state of the engine.
type packageAnalysis struct {
	pkgLock int8 // hasPackageLock: 0 not computed, 1 yes, -1 no
	// lockHolders remembers which structs hold a lock (holderHasLock).
	lockHolders map[*types.Struct]bool
	// lockTypes remembers IsLock per receiver type (isLockType).
	lockTypes map[types.Type][2]bool
	pass      *analysis.Pass
	dirs      *directives.Result
	decls     map[*types.Func]*ast.FuncDecl
	syncs     map[*types.Func][]int // syncParam's memo
	asyncs    map[*types.Func]int   // asyncParam's memo: the parameter started in a goroutine, or -1
	order     []*ast.FuncDecl
	summaries map[*types.Func]*summary
	// importedEff and importedAcc index the EffectsTable and ParamTable
	// facts of the dependencies.
	importedEff *facttable.Index[Effects]
	importedAcc *facttable.Index[ParamSummary]
	// importedFV indexes the FuncValTable facts of the dependencies;
	// funcVals memoises funcValsOf and fvBound what each declaration's
	// locals hold (see funcvals.go, funcvalcalls.go).
	importedFV *facttable.Index[FuncVals]
	funcVals   map[*types.Func]*FuncVals
	fvBound    map[*ast.FuncDecl]fvLocals
	funcs      []*Func
	// fresh enables fresh-object tracking and parameter escape summaries.
	// Only packages with directives need them; elsewhere they would cost a
	// summary of every function called.
	fresh      bool
	litEffects map[*ast.FuncLit]*litEffect
	// candidates, in packages without directives, are the only functions
	// that can have an effect; others are never analysed there.
	candidates map[*types.Func]bool
	tryAcq     map[*types.Func]bool // see declaredConditional
	// bodyless are this package's functions declared without a Go body
	// (implemented in assembly); asmAccess their access summaries and
	// fallbacks the Go bodies of the package's files built elsewhere
	// (see asm.go).
	// fuse: a function's summary and its events come from one dataflow
	// run (see summaryOf); partial counts the times a summary, access
	// summary, TryLock shape or closure effect was read while still being
	// computed (recursion), which makes what was recorded then provisional.
	fuse          bool
	partial       int
	tryBusy       map[*types.Func]bool
	bodyless      map[*types.Func]*ast.FuncDecl
	bodylessOrder []*ast.FuncDecl
	asmAccess     map[*types.Func]*ParamSummary
	fallbacks     *fallbackIndex
	// vars: record Func.Vars (config.Config.RecordVars); capturedVars
	// caches captured, and paramVars refParams, per declaration.
	vars         bool
	capturedVars map[*ast.FuncDecl]map[*types.Var]bool
	paramVars    map[*ast.FuncDecl]map[*types.Var]bool
}

type summary struct {
	done        bool
	effects     *directives.Contract
	noEscape    []int
	freshResult bool // returns a new object it has not published
	intoResult  []int
	retakes     []directives.LockRef
	// condAcquires, condRAcquires: acquired only on success (condEffects).
	condAcquires, condRAcquires []directives.LockRef
	access                      *ParamSummary
	accState                    uint8
	// recs are the events recorded by the run that computed the summary
	// (the function's Func and its closures'), when that run read nothing
	// provisional: a second run would record the same.
	recs []*Func
}

func newPackageAnalysis(pass *analysis.Pass, dirs *directives.Result) *packageAnalysis {
	a := &packageAnalysis{
		pass:      pass,
		dirs:      dirs,
		decls:     map[*types.Func]*ast.FuncDecl{},
		summaries: map[*types.Func]*summary{},
		importedEff: facttable.NewIndex(pass, func() (analysis.Fact, *facttable.Table[Effects]) {
			f := &EffectsTable{}
			return f, &f.Table
		}),

		importedAcc: facttable.NewIndex(pass, func() (analysis.Fact, *facttable.Table[ParamSummary]) {
			f := &ParamTable{}
			return f, &f.Table
		}),
		importedFV: facttable.NewIndex(pass, func() (analysis.Fact, *facttable.Table[FuncVals]) {
			f := &FuncValTable{}
			return f, &f.Table
		}),
		funcVals:  map[*types.Func]*FuncVals{},
		fvBound:   map[*ast.FuncDecl]fvLocals{},
		bodyless:  map[*types.Func]*ast.FuncDecl{},
		asmAccess: map[*types.Func]*ParamSummary{},
	}
	for _, file := range pass.Files {
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					if fd.Body == nil {
						a.bodyless[fn] = fd
						a.bodylessOrder = append(a.bodylessOrder, fd)
						continue
					}
					a.decls[fn] = fd
					a.order = append(a.order, fd)
				}
			}
		}
	}
	return a
}

func (a *packageAnalysis) analyseAll() {
	for _, fd := range a.order {
		fn := a.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		a.summaryOf(fn)
		if s := a.summaries[fn]; s != nil && s.recs != nil {
			a.funcs = append(a.funcs, s.recs...)
			s.recs = nil
			continue
		}
		fa := a.newFuncAnalysis(fd, fn)
		fa.analyse(fa.entryState(), &Func{Decl: fd, Obj: fn, Context: Declared})
	}
	for _, v := range packageFuncVars(a.pass) {
		fa := a.newFuncAnalysis(v.decl, v.fn)
		fa.analyse(newState(), &Func{Decl: v.decl, Obj: v.fn, Context: Declared})
	}
}

// funcVar is a package-level variable initialised with a function literal
// (var newConn = func(...) *Conn {...}), seen as the declaration of a
// function of the variable's name: its body runs whenever it is called,
// with no lock its callers are known to hold, as a declared function's
// does. Its Func is not a types.Func of the package's scope (no contract
// names it, no summary is kept for other packages: calls through the
// variable are not static calls).
type funcVar struct {
	decl *ast.FuncDecl
	fn   *types.Func
}

// IsFuncVar reports whether fn stands for a function variable's literal
// (var f = func(...) {...}): no directive can be written on it.
func IsFuncVar(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Type().(*types.Signature).Recv() != nil {
		return false
	}
	_, isVar := fn.Pkg().Scope().Lookup(fn.Name()).(*types.Var)
	return isVar
}

// packageFuncVars returns the package's function variables, in source
// order.
func packageFuncVars(pass *analysis.Pass) []funcVar {
	var out []funcVar
	for _, file := range pass.Files {
		for _, d := range file.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if len(vs.Values) != len(vs.Names) {
					continue
				}
				for i, val := range vs.Values {
					lit, ok := ast.Unparen(val).(*ast.FuncLit)
					if !ok || vs.Names[i].Name == "_" {
						continue
					}
					sig, ok := pass.TypesInfo.TypeOf(lit).(*types.Signature)
					if !ok {
						continue
					}
					name := &ast.Ident{NamePos: vs.Names[i].Pos(), Name: vs.Names[i].Name}
					out = append(out, funcVar{
						decl: &ast.FuncDecl{Doc: gd.Doc, Name: name, Type: lit.Type, Body: lit.Body},
						fn:   types.NewFunc(vs.Names[i].Pos(), pass.Pkg, vs.Names[i].Name, sig),
					})
				}
			}
		}
	}
	return out
}

// summariseHelpers computes effects only for functions that could have one:
// those that call a lock method, or (transitively) such a function.
func (a *packageAnalysis) summariseHelpers() {
	candidate := map[*types.Func]bool{}
	a.candidates = candidate
	callers := map[*types.Func][]*types.Func{}
	var work []*types.Func
	for _, fd := range a.order {
		fn := a.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		direct := false
		balance := map[string]int{} // receiver text -> acquires minus releases
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && locks.IsOpName(se.Sel.Name) {
				switch se.Sel.Name {
				case "Lock", "RLock":
					balance[types.ExprString(se.X)]++
				case "Unlock", "RUnlock":
					balance[types.ExprString(se.X)]--
				default: // TryLock, DowngradeLock: an effect that Lock and Unlock counts do not show
					direct = true
				}
				return true
			}
			if callee := typeutil.StaticCallee(a.pass.TypesInfo, call); callee != nil {
				if a.importedEffects(callee) != nil || a.dirs.Contract(callee) != nil {
					direct = true
				} else if _, local := a.decls[callee]; local {
					callers[callee] = append(callers[callee], fn)
				}
			}
			return true
		})
		// Lock and Unlock (or defer Unlock) in equal numbers on each lock,
		// the common case, cannot leave a net effect worth exporting.
		for _, n := range balance {
			if n != 0 {
				direct = true
			}
		}
		if direct {
			candidate[fn] = true
			work = append(work, fn)
		}
	}
	reach.Spread(work, func(fn *types.Func) []*types.Func { return callers[fn] }, func(caller *types.Func) bool {
		if candidate[caller] {
			return false
		}
		candidate[caller] = true
		return true
	})
	// Only exported functions can be called from other packages; the
	// unexported helpers they call are summarised on demand.
	for _, fd := range a.order {
		if fn := a.pass.TypesInfo.Defs[fd.Name].(*types.Func); candidate[fn] && fn.Exported() {
			a.summaryOf(fn)
		}
	}
	// Whether a method only reads through its receiver decides whether
	// x.f.m() is a read or a write of x.f in the packages that call it.
	for _, fd := range a.order {
		if fn := a.pass.TypesInfo.Defs[fd.Name].(*types.Func); exportedPtrMethod(fn) || exportedPtrFunc(fn) && a.callsAtomic(fd) {
			a.accessOf(fn)
		}
	}
}

// exportedPtrMethod reports whether fn is an exported method with a
// pointer receiver of an exported type: one other packages may call on a
// field of that type. (Methods promoted from an unexported embedded type
// are left out: their callers stay conservative.)
func exportedPtrMethod(fn *types.Func) bool {
	if !fn.Exported() {
		return false
	}
	r := fn.Type().(*types.Signature).Recv()
	if r == nil || !astq.IsPointer(r.Type()) {
		return false
	}
	n, ok := types.Unalias(r.Type().(*types.Pointer).Elem()).(*types.Named)
	return ok && n.Obj().Exported()
}

// summaryOf returns the inferred effects of a function declared in this
// package, computing them on first use. Recursion yields no effects.
func (a *packageAnalysis) summaryOf(fn *types.Func) *directives.Contract {
	fn = fn.Origin()
	if s, ok := a.summaries[fn]; ok {
		if !s.done {
			a.partial++
		}
		return s.effects
	}
	s := &summary{}
	a.summaries[fn] = s
	if a.candidates != nil && !a.candidates[fn] {
		s.done = true
		return nil
	}
	fd := a.decls[fn]
	// A declared contract states the function's effects; one read from a
	// convention (a ...Locked name, a doc comment) only what its callers
	// hold, so what the body does to its locks is still inferred (a
	// helper documented as called with mu held that releases it).
	if c := a.dirs.Contract(fn); fd == nil || (declaresLocks(c) && c.Convention == "") {
		s.done = true
		return nil
	}
	fa := a.newFuncAnalysis(fd, fn)
	fa.pacc = newParamAccess(fa.sig)
	s.accState = accBusy
	// In an analysed package the same run records fn's events, which
	// analyseAll then uses instead of running the dataflow again, unless
	// the run read something provisional.
	var rec *Func
	start, partial := len(a.funcs), a.partial
	if a.fuse {
		rec = &Func{Decl: fd, Obj: fn, Context: Declared}
	}
	exits := fa.analyse(fa.entryState(), rec)
	if rec != nil {
		if a.partial == partial {
			s.recs = slices.Clone(a.funcs[start:])
		}
		a.funcs = a.funcs[:start]
	}
	s.access, s.accState = a.finishAccess(fn, fa.pacc), accDone
	s.effects = fa.effects(exits)
	s.retakes = fa.retakes(exits)
	s.condAcquires, s.condRAcquires = fa.condEffects(fa.effectKeep())
	if a.fresh {
		s.noEscape = fa.noEscape(exits)
		s.freshResult = fa.returned && fa.freshResult
		s.intoResult = fa.intoResultParams(exits)
	}
	s.done = true
	return s.effects
}

// declaresLocks reports whether a contract says anything about locks: a
// body that is only //guard:ignore'd (+checklocksignore) or //guard:blocks
// still has effects to infer, such as a lock type's NestedLock.
func declaresLocks(c *directives.Contract) bool {
	return c != nil && len(c.Holds)+len(c.RHolds)+len(c.Acquires)+len(c.RAcquires)+len(c.Releases)+len(c.RReleases)+len(c.Excludes) > 0
}

// effectsOf returns the inferred effects of any callee.
func (a *packageAnalysis) effectsOf(fn *types.Func) *directives.Contract {
	if fn.Pkg() == a.pass.Pkg {
		return a.summaryOf(fn)
	}
	if e := a.importedEffects(fn); e != nil {
		return &e.Contract
	}
	return nil
}

// retakesOf returns the locks a callee releases and takes again.
func (a *packageAnalysis) retakesOf(fn *types.Func) []directives.LockRef {
	return summaryPart(a, fn, func(s *summary) []directives.LockRef { return s.retakes }, func(e *Effects) []directives.LockRef { return e.Retakes })
}

// summaryPart reads one part of what the engine knows of callee fn: from
// its summary in this package, computed if need be, or from the Effects
// its own package exported. It is the zero T when there is neither.
func summaryPart[T any](a *packageAnalysis, fn *types.Func, own func(*summary) T, imported func(*Effects) T) (part T) {
	if fn.Pkg() == a.pass.Pkg {
		a.summaryOf(fn)
		if s := a.summaries[fn.Origin()]; s != nil {
			return own(s)
		}
		return part
	}
	if e := a.importedEffects(fn); e != nil {
		return imported(e)
	}
	return part
}

// escapes reports whether fn may publish its parameter i (Receiver for the
// receiver). Unknown functions may.
func (a *packageAnalysis) escapes(fn *types.Func, i int) bool {
	if fn == nil || !a.fresh {
		return true
	}
	noEscape := summaryPart(a, fn, func(s *summary) []int { return s.noEscape }, func(e *Effects) []int { return e.NoEscape })
	return !slices.Contains(noEscape, i)
}

func (a *packageAnalysis) exportEffects() map[*types.Func]*Effects {
	var fns []*types.Func
	for fn, s := range a.summaries {
		if (s.effects != nil && !s.effects.Empty()) || len(s.noEscape) > 0 || len(s.intoResult) > 0 || s.freshResult || len(s.retakes) > 0 || len(s.condAcquires)+len(s.condRAcquires) > 0 {
			fns = append(fns, fn)
		}
	}
	// Exported bool-returning acquire functions that are not TryLocks say
	// so, for callers in other packages.
	for _, fd := range a.order {
		fn := a.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if !fn.Exported() || a.declaredConditional(fn) {
			continue
		}
		if _, computed := a.tryAcq[fn]; computed && !slices.Contains(fns, fn) {
			fns = append(fns, fn)
		}
	}
	t := &EffectsTable{}
	all := make(map[*types.Func]*Effects, len(fns))
	for _, fn := range fns {
		e := &Effects{}
		if s := a.summaries[fn]; s != nil {
			e.NoEscape = s.noEscape
			e.IntoResult = s.intoResult
			e.FreshResult = s.freshResult
			e.Retakes = s.retakes
			e.CondAcquires, e.CondRAcquires = s.condAcquires, s.condRAcquires
			if s.effects != nil {
				e.Contract = *s.effects
			}
		}
		if v, computed := a.tryAcq[fn]; computed && !v {
			e.Unconditional = true
		}
		all[fn] = e
		if key := LocalKey(fn); key != "" && fn.Exported() { // else other packages cannot call it
			t.Add(key, *e)
		}
	}
	t.Export(a.pass, t)
	return all
}

// importedEffects returns the Effects of a function of another package,
// from its package's EffectsTable (nil: none known).
func (a *packageAnalysis) importedEffects(fn *types.Func) *Effects {
	fn = fn.Origin()
	if fn.Pkg() == nil || fn.Pkg() == a.pass.Pkg {
		return nil
	}
	return a.importedEff.Lookup(fn.Pkg(), LocalKey(fn))
}
