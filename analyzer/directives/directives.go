package directives

import (
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"reflect"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/docs"
	"github.com/guardvet/guardvet/analyzer/internal/ignore"
	"github.com/guardvet/guardvet/analyzer/internal/lockpath"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
	"github.com/guardvet/guardvet/analyzer/internal/report"
	"github.com/guardvet/guardvet/analyzer/internal/srcpos"
)

// Analyzer reads //guard: directives, reports malformed ones at their own
// position, and exports what they say as facts for every other package.
var Analyzer = &analysis.Analyzer{
	Name:       "directives",
	Doc:        docs.Extract(docFile, "directives"),
	URL:        docs.RuleURL("directives"),
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{(*FieldGuard)(nil), (*Contract)(nil), (*Orders)(nil), (*Aliases)(nil)},
	Requires:   []*analysis.Analyzer{config.Analyzer},
}

// Category is the diagnostic category of malformed directives.
const Category = "directives"

// Result is the directive view of one package: its own directives and the
// facts imported from its dependencies.
type Result struct {
	Pkg *types.Package
	// Config is the run's options (analyzer config), for the engine and
	// the rules, which all read this Result.
	Config   *config.Config
	Declared int // directives in this package, suppressions of the checklocks dialect not counted (suppressionOnly)
	Imported int // guard and contract facts from dependencies
	Ignores  []*Ignore
	// Orders are the //guard:order declarations of this package and its
	// dependencies; Local are this package's, with their positions.
	Orders []Order
	Local  []LocalOrder

	fields    map[*types.Var]*FieldGuard
	funcs     map[*types.Func]*Contract
	globalsMu sync.Mutex // Global fills globals lazily, and rules run in parallel
	globals   map[string]*types.Var
	force     map[string]map[int]bool // lines marked +checklocksforce, by file
	prose     map[*types.Var]*ProseGuard
	protocol  map[*types.Var]bool // fields whose comment describes how they are shared
	// localAliases are this package's +checklocksalias equations, by type.
	localAliases []typeAliases
	// aliases are the lock equations (+checklocksalias) of struct types
	// declared here or in dependencies, as rewrites from the longer name
	// to the shorter.
	aliases map[*types.TypeName][]lockpath.Rewrite
}

// CanonLock returns the one name guardvet uses for the lock at p: p with
// every name that a +checklocksalias equation of a struct type along the
// path declares equal replaced by the shorter one (e.mu.ndp.ep.mu is e.mu
// when e's type declares ndp.ep.mu=mu). Lock states are keyed, and lock
// paths compared, by this name.
func (r *Result) CanonLock(p lockpath.Path) lockpath.Path {
	if len(r.aliases) == 0 || !p.Valid() {
		return p
	}
	return lockpath.Canonical(p, r.rewritesOf)
}

func (r *Result) rewritesOf(t types.Type) []lockpath.Rewrite {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return nil
	}
	return r.aliases[n.Origin().Obj()]
}

// addAliases records the lock equations of a struct type.
func (r *Result) addAliases(tn *types.TypeName, pairs [][2]LockRef) {
	for _, pair := range pairs {
		a, b := pair[0], pair[1]
		if a.Kind != Relative || b.Kind != Relative || a.Sel == b.Sel {
			continue // an equation with a package-level lock is not applied (docs/checklocks.md)
		}
		if shorter(b.Sel, a.Sel) {
			a, b = b, a
		}
		// a is the shorter name: rewrite b to a.
		if r.aliases == nil {
			r.aliases = map[*types.TypeName][]lockpath.Rewrite{}
		}
		r.aliases[tn] = append(r.aliases[tn], lockpath.Rewrite{From: b.Sel, To: a.Sel})
	}
}

// shorter orders lock selectors by number of steps, then as strings.
func shorter(a, b string) bool {
	na, nb := strings.Count(a, ".")+strings.Count(a, "["), strings.Count(b, ".")+strings.Count(b, "[")
	if na != nb {
		return na < nb
	}
	return a < b
}

// Forced reports whether pos is on a +checklocksforce line: the locks its
// field accesses and contract calls need are to be treated as held from
// there on.
func (r *Result) Forced(p token.Position) bool {
	return r.force[p.Filename][p.Line]
}

// ForcedAt is Forced for a token.Pos; it costs nothing in a package
// without +checklocksforce.
func (r *Result) ForcedAt(fset *token.FileSet, pos token.Pos) bool {
	if len(r.force) == 0 {
		return false
	}
	return r.Forced(fset.Position(pos))
}

// Ignore is a //guard:ignore directive (see package ignore).
type Ignore = ignore.Ignore

type typeAliases struct {
	tn    *types.TypeName
	pairs [][2]LockRef
}

// LocalOrder is an order declared in this package, with its position.
type LocalOrder struct {
	Order
	Pos token.Pos
}

// Active reports whether anything in or below this package is annotated.
// Rules return early when it is false: with no directives, guardvet is silent.
func (r *Result) Active() bool { return r.Declared > 0 || r.Imported > 0 }

// Full reports whether every rule applies to this package: it has
// directives of its own, or -config.allrules asks for every rule in
// packages that import annotated ones.
//
// A package that is Active but not Full has no directives of its own and
// only imports annotated packages (a blank import of one is enough). There
// guardvet checks only the imported contracts: accesses to imported guarded
// fields and calls against the declared contracts of imported functions
// (guardedby). The rules about lock discipline in general (lock balance,
// self-deadlock through inferred effects, lock order, noblock, escape,
// check-then-act) report nothing there unless a flag asks: they still run
// for the facts they export to annotated packages. This is the one place
// that decides it; rules ask Full rather than counting directives.
func (r *Result) Full() bool { return r.Declared > 0 || (r.Config.AllRules() && r.Imported > 0) }

// Guard returns the directives on a field or package-level variable, from
// this package or any dependency.
func (r *Result) Guard(v *types.Var) *FieldGuard {
	if v == nil {
		return nil
	}
	return r.fields[v.Origin()]
}

// AnyRefcount reports whether a field in scope (of this package or a
// dependency) carries //guard:refcount, so that the check of deletes can
// skip packages where no map is refcounted without walking their syntax.
func (r *Result) AnyRefcount() bool {
	for _, g := range r.fields {
		if g.Refcount != "" {
			return true
		}
	}
	return false
}

// Contract returns the declared contract of fn, or nil.
func (r *Result) Contract(fn *types.Func) *Contract {
	if fn == nil {
		return nil
	}
	return r.funcs[fn.Origin()]
}

// Global finds the package-level variable a Global LockRef names, searching
// this package and its transitive imports.
func (r *Result) Global(ref LockRef) *types.Var {
	key := ref.PkgPath + "." + ref.Name
	r.globalsMu.Lock()
	defer r.globalsMu.Unlock()
	if v, ok := r.globals[key]; ok {
		return v
	}
	var found *types.Var
	seen := map[*types.Package]bool{}
	var visit func(p *types.Package)
	visit = func(p *types.Package) {
		if found != nil || seen[p] {
			return
		}
		seen[p] = true
		if p.Path() == ref.PkgPath {
			found, _ = p.Scope().Lookup(ref.Name).(*types.Var)
			return
		}
		for _, imp := range p.Imports() {
			visit(imp)
		}
	}
	visit(r.Pkg)
	r.globals[key] = found
	return found
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{
		Pkg:      pass.Pkg,
		Config:   config.Of(pass),
		fields:   map[*types.Var]*FieldGuard{},
		funcs:    map[*types.Func]*Contract{},
		globals:  map[string]*types.Var{},
		prose:    map[*types.Var]*ProseGuard{},
		protocol: map[*types.Var]bool{},
	}
	for _, f := range pass.AllObjectFacts() {
		switch fact := f.Fact.(type) {
		case *FieldGuard:
			if v, ok := f.Object.(*types.Var); ok {
				res.fields[v] = fact
				res.Imported++
			}
		case *Aliases:
			if tn, ok := f.Object.(*types.TypeName); ok {
				res.addAliases(tn, fact.Pairs)
			}
		case *Contract:
			if fn, ok := f.Object.(*types.Func); ok {
				res.funcs[fn] = fact
				if fact.Convention == "" {
					res.Imported++
				}
			}
		}
	}
	for _, f := range pass.AllPackageFacts() {
		if o, ok := f.Fact.(*Orders); ok {
			res.Orders = append(res.Orders, o.List...)
			res.Imported++
		}
	}
	for _, file := range pass.Files {
		c := &collector{pass: pass, res: res, file: file}
		c.collect()
	}
	if res.Config.ProseGuards() || res.Config.LockedConvention() {
		for _, file := range pass.Files {
			c := &collector{pass: pass, res: res, file: file}
			c.conventions()
		}
	}
	if len(res.Local) > 0 {
		var own Orders
		for _, o := range res.Local {
			own.List = append(own.List, o.Order)
			res.Orders = append(res.Orders, o.Order)
		}
		pass.ExportPackageFact(&own)
	}
	sort.Slice(res.Ignores, func(i, j int) bool { return res.Ignores[i].Pos < res.Ignores[j].Pos })
	findGetters(pass, res)
	// Export in a deterministic order.
	for _, a := range res.localAliases {
		pass.ExportObjectFact(a.tn, &Aliases{Pairs: a.pairs})
	}
	for v, g := range res.fields {
		if v.Pkg() == pass.Pkg {
			pass.ExportObjectFact(v, g)
		}
	}
	for fn, c := range res.funcs {
		if fn.Pkg() == pass.Pkg && !c.Empty() {
			pass.ExportObjectFact(fn, c)
		}
	}
	return res, nil
}

// suppressionOnly reports whether d only silences findings: gVisor's
// +checklocksignore and +checklocksforce. They do not make a package
// annotated: gVisor's code generators write them into every package they
// touch (the state and marshal files), so they say nothing about whether
// the package opted in to lock checking. Native //guard:ignore is written
// in answer to a finding and still counts.
func suppressionOnly(d Directive) bool {
	return d.Dialect && (d.Verb == "checklocksignore" || d.Verb == "checklocksforce")
}

// collector attaches the directives of one file to declarations.
type collector struct {
	pass    *analysis.Pass
	res     *Result
	file    *ast.File
	pending map[*ast.Comment]Directive // parsed but not yet attached
	aliases map[*types.Struct][][2]LockRef
}

func (c *collector) report(pos token.Pos, msg string) {
	c.pass.Report(analysis.Diagnostic{Pos: pos, End: report.End(c.pass, pos), Category: Category, Message: msg})
}

func (c *collector) collect() {
	c.pending = map[*ast.Comment]Directive{}
	for _, g := range c.file.Comments {
		for _, cm := range g.List {
			d, ok, problem := parseCandidate(cm)
			if !ok {
				continue
			}
			if problem != "" || !suppressionOnly(d) {
				c.res.Declared++
			}
			if problem != "" {
				c.report(cm.Slash, problem)
				continue
			}
			if d.Warn != "" {
				c.report(cm.Slash, d.Warn)
			}
			c.pending[cm] = d
		}
	}
	if len(c.pending) == 0 {
		return
	}
	for _, decl := range c.file.Decls {
		switch decl := decl.(type) {
		case *ast.FuncDecl:
			c.funcDecl(decl)
		case *ast.GenDecl:
			c.genDecl(decl)
		}
	}
	// The fields of anonymous struct types outside type declarations (var
	// x struct{...}, []struct{...}, a local's type) carry directives like
	// a named struct's fields; their lock paths are relative to the struct.
	// checklocks reads none of them (unreadStruct).
	if len(c.pending) > 0 {
		ast.Inspect(c.file, func(n ast.Node) bool {
			if st, ok := n.(*ast.StructType); ok {
				c.structFields(st, "", false)
			}
			return len(c.pending) > 0
		})
	}
	// Whatever is left is either a line ignore inside a body or misplaced.
	var left []*ast.Comment
	for cm := range c.pending {
		left = append(left, cm)
	}
	sort.Slice(left, func(i, j int) bool { return left[i].Slash < left[j].Slash })
	for _, cm := range left {
		d := c.pending[cm]
		if (d.Verb == "ignore" || d.Verb == "checklocksignore" || d.Verb == "checklocksforce") && (c.insideBody(cm.Slash) || d.Dialect && c.endOfLine(cm.Slash)) {
			// checklocks keys its line annotations by line wherever they
			// are: at the end of a line of a package-level initializer too.
			c.lineIgnore(cm.Slash, d)
			continue
		}
		if d.Dialect && c.insideBody(cm.Slash) {
			c.report(cm.Slash, inBody(d))
			continue
		}
		c.report(cm.Slash, "misplaced directive "+d.Spelling+": it applies to "+verbs[d.Verb].targets.String()+
			"; put it in the doc comment or trailing comment of one")
	}
}

// parseCandidate is parseComment behind a cheap test that rules out most
// comments.
func parseCandidate(cm *ast.Comment) (d Directive, ok bool, problem string) {
	if !strings.Contains(cm.Text, "guard:") && !strings.Contains(cm.Text, "check") && !misspelledCandidate(cm.Text) {
		return Directive{}, false, ""
	}
	return parseComment(cm)
}

// Annotates reports whether comment c makes its package annotated, as
// counted in Result.Declared: a directive, a malformed one included, other
// than a checklocks suppression. The driver asks it of every file it loads
// (see config's -config.summaries).
func Annotates(c *ast.Comment) bool {
	d, ok, problem := parseCandidate(c)
	return ok && (problem != "" || !suppressionOnly(d))
}

// Of returns the directives' result in a pass whose analyzer requires
// Analyzer (or its copy, config.Bind).
func Of(pass *analysis.Pass) *Result {
	for _, v := range pass.ResultOf {
		if r, ok := v.(*Result); ok {
			return r
		}
	}
	panic("directives.Of: the analyzer " + pass.Analyzer.Name + " does not require directives.Analyzer")
}

// FileAnnotated reports whether a comment of f makes its package
// annotated (Annotates): what the standalone driver asks of the files it
// loads, checks or caches.
func FileAnnotated(f *ast.File) bool {
	for _, g := range f.Comments {
		for _, c := range g.List {
			if Annotates(c) {
				return true
			}
		}
	}
	return false
}

// misspelledCandidate is a cheap test for comments that may be a
// misspelled //guard: prefix (see misspelledPrefix): //word: near the start.
func misspelledCandidate(text string) bool {
	i := strings.IndexByte(text, ':')
	return i >= 6 && i <= 9 && strings.HasPrefix(text, "//")
}

// take removes and returns the pending directives in the comment groups.
func (c *collector) take(groups ...*ast.CommentGroup) []Directive {
	var ds []Directive
	for _, g := range groups {
		if g == nil {
			continue
		}
		for _, cm := range g.List {
			if d, ok := c.pending[cm]; ok {
				ds = append(ds, d)
				delete(c.pending, cm)
			}
		}
	}
	return ds
}

func (c *collector) wrongTarget(d Directive, here string) {
	c.report(d.Pos, d.Spelling+" applies to "+verbs[d.Verb].targets.String()+", not to "+here+"; move it")
}

// applying yields the directives of ds that apply to target, in order,
// and reports each of the others (wrongTarget, with here naming the
// target) where it comes among them.
func (c *collector) applying(ds []Directive, target Target, here string) iter.Seq[Directive] {
	return func(yield func(Directive) bool) {
		for _, d := range ds {
			if verbs[d.Verb].targets&target == 0 {
				c.wrongTarget(d, here)
				continue
			}
			if !yield(d) {
				return
			}
		}
	}
}

func (c *collector) insideBody(pos token.Pos) bool {
	for _, decl := range c.file.Decls {
		if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil && fd.Body.Pos() <= pos && pos < fd.Body.End() {
			return true
		}
		if gd, ok := decl.(*ast.GenDecl); ok && gd.Pos() <= pos && pos < gd.End() {
			found := false
			ast.Inspect(gd, func(n ast.Node) bool {
				if fl, ok := n.(*ast.FuncLit); ok && fl.Body.Pos() <= pos && pos < fl.Body.End() {
					found = true
				}
				return !found
			})
			if found {
				return true
			}
		}
	}
	return false
}

// lineIgnore records a statement-level ignore. A trailing comment covers its
// own line; a //guard:ignore alone on its line covers the next line, and a
// checklocks annotation alone on its line is reported (aloneInBody).
func (c *collector) lineIgnore(pos token.Pos, d Directive) {
	tf := c.pass.Fset.File(pos)
	line := tf.Line(pos)
	if d.Dialect {
		// checklocks keys it by its own line, always.
		if before, ok := srcpos.LinePrefix(c.pass.Fset, c.pass.ReadFile, pos); ok && strings.TrimSpace(before) == "" {
			c.report(pos, aloneInBody(d))
			return
		}
	} else if c.aloneOnLine(tf, pos) {
		line++
	}
	if d.Verb == "checklocksforce" {
		// Not a suppression: the locks the line's accesses need are held
		// from there on (the engine applies it).
		if c.res.force == nil {
			c.res.force = map[string]map[int]bool{}
		}
		if c.res.force[tf.Name()] == nil {
			c.res.force[tf.Name()] = map[int]bool{}
		}
		c.res.force[tf.Name()][line] = true
		return
	}
	c.res.Ignores = append(c.res.Ignores, &Ignore{Pos: pos, Reason: d.Text, File: tf.Name(), Line: line, Dialect: d.Dialect})
}

// endOfLine reports whether the comment at pos is known to follow code on
// its line.
func (c *collector) endOfLine(pos token.Pos) bool {
	before, ok := srcpos.LinePrefix(c.pass.Fset, c.pass.ReadFile, pos)
	return ok && strings.TrimSpace(before) != ""
}

func (c *collector) aloneOnLine(tf *token.File, pos token.Pos) bool {
	before, ok := srcpos.LinePrefix(c.pass.Fset, c.pass.ReadFile, pos)
	return !ok || strings.TrimSpace(before) == ""
}

func (c *collector) funcDecl(fd *ast.FuncDecl) {
	ds := c.take(fd.Doc)
	if len(ds) == 0 {
		return
	}
	fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return
	}
	sig := fn.Type().(*types.Signature)
	contract := c.res.funcs[fn]
	if contract == nil {
		contract = &Contract{}
	}
	for d := range c.applying(ds, OnFunc, "a function") {
		if d.Verb == "blocks" {
			contract.Blocks = true
			continue
		}
		if d.Verb == "ignore" || d.Verb == "checklocksignore" {
			contract.Ignore = d.Text
			c.res.Ignores = append(c.res.Ignores, &Ignore{Pos: d.Pos, Reason: d.Text, From: fd.Pos(), To: fd.End(), Dialect: d.Dialect})
			continue
		}
		verb := d.Verb
		if verb == "checklocks" {
			verb = "holds" // on a function, +checklocks means the caller holds the lock
		}
		for _, arg := range d.Args {
			ref, problem := c.resolveFuncLock(sig, arg)
			if problem != "" {
				c.report(d.Pos, d.Spelling+" "+shorten(arg)+": "+problem+"; write a path like c.mu from a receiver or parameter to a lock, or a package-level lock")
				continue
			}
			for _, l := range contract.lockLists() {
				if l.verb == verb {
					*l.refs = append(*l.refs, ref)
				}
			}
		}
	}
	c.res.funcs[fn] = contract
}

func (c *collector) genDecl(gd *ast.GenDecl) {
	switch gd.Tok {
	case token.TYPE:
		shared := c.groupAliases(gd)
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			groups := []*ast.CommentGroup{ts.Doc, ts.Comment}
			if len(gd.Specs) == 1 {
				groups = append(groups, gd.Doc)
			}
			tn, _ := c.pass.TypesInfo.Defs[ts.Name].(*types.TypeName)
			if _, isStruct := ts.Type.(*ast.StructType); isStruct {
				for _, d := range shared {
					c.alias(d, ts, tn)
				}
			}
			for d := range c.applying(c.take(groups...), OnType, "a type") {
				if d.Verb == "checklocksalias" {
					c.alias(d, ts, tn)
					continue
				}
				c.order(d, tn)
			}
			if st, ok := ts.Type.(*ast.StructType); ok {
				c.structFields(st, ts.Name.Name, true)
			}
		}
	case token.VAR:
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			if st, ok := vs.Type.(*ast.StructType); ok {
				c.structFields(st, "", true) // checklocks reads var x struct{...}
			}
			var ds []Directive
			for _, d := range c.globalDirectives(gd, vs) {
				if d.Verb == "order" {
					c.order(d, nil)
					continue
				}
				ds = append(ds, d)
			}
			if len(ds) == 0 {
				continue
			}
			rest := c.severalNames(ds, vs.Names, "variables")
			for i, name := range vs.Names {
				v, _ := c.pass.TypesInfo.Defs[name].(*types.Var)
				if v == nil {
					continue
				}
				if i > 0 {
					ds = rest
				}
				c.fieldGuard(v, nil, "", ds)
			}
		}
	default:
		for _, d := range c.take(gd.Doc) {
			c.wrongTarget(d, "a "+gd.Tok.String()+" declaration")
		}
	}
}

// structFields attaches directives to the fields of a struct type, recursing
// into anonymous struct-typed fields (whose paths are relative to them).
// read says whether checklocks reads the annotations of these fields: it
// does for a package-level type or var declaration of a struct type and
// the struct types of their fields, and nowhere else.
func (c *collector) structFields(st *ast.StructType, typeName string, read bool) {
	tv := c.pass.TypesInfo.Types[st]
	strct, _ := tv.Type.(*types.Struct)
	for i, field := range st.Fields.List {
		if inner, ok := field.Type.(*ast.StructType); ok {
			c.structFields(inner, typeName, read)
		}
		ds := c.take(field.Doc, field.Comment)
		if len(ds) == 0 || strct == nil {
			continue
		}
		if !read {
			ds = c.unreadStruct(ds)
		} else {
			c.fieldIndex(ds, st, i)
		}
		var vars []*types.Var
		for _, name := range field.Names {
			if v, ok := c.pass.TypesInfo.Defs[name].(*types.Var); ok {
				vars = append(vars, v)
			}
		}
		if len(field.Names) == 0 { // embedded field
			for i := 0; i < strct.NumFields(); i++ {
				if f := strct.Field(i); f.Embedded() && f.Pos() == field.Type.Pos() {
					vars = append(vars, f)
				}
			}
		}
		rest := ds
		if read {
			rest = c.severalNames(ds, field.Names, "fields")
		}
		for j, v := range vars {
			if j > 0 {
				ds = rest
			}
			c.fieldGuard(v, strct, typeName, ds)
		}
	}
}

// fieldGuard resolves the directives on one field (strct != nil) or
// package-level variable (strct == nil).
func (c *collector) fieldGuard(v *types.Var, strct *types.Struct, typeName string, ds []Directive) {
	g := c.res.fields[v]
	if g == nil {
		g = &FieldGuard{}
	}
	for d := range c.applying(ds, OnField, "a field or variable") {
		switch d.Verb {
		case "checklocksignore":
			// The field is deliberately unchecked (and, under inference,
			// not inferred): no guard.
		case "by", "checklocks":
			ref, problem := c.resolveFieldLock(strct, d.Args[0])
			if problem != "" {
				c.report(d.Pos, d.Spelling+" "+shorten(d.Args[0])+": "+problem+"; name a lock field of this struct (mu, inner.mu) or a package-level lock")
				continue
			}
			g.By = append(g.By, ref)
			alias, _ := c.aliasOf(strct, ref)
			g.Alias = append(g.Alias, alias)
		case "only":
			for _, name := range d.Args {
				key, problem := c.resolveOnly(typeName, name)
				if problem != "" {
					c.report(d.Pos, "//guard:only "+shorten(name)+": "+problem)
					continue
				}
				g.Only = append(g.Only, key)
				g.OnlyAs = append(g.OnlyAs, name)
			}
		case "atomic":
			g.Atomic = true
		case "noblock":
			if lock, _ := locks.IsLock(v.Type()); !lock {
				c.report(d.Pos, "//guard:noblock marks a lock, and "+v.Name()+" is not one (type "+types.TypeString(v.Type(), types.RelativeTo(c.pass.Pkg))+"); put it on the mutex field")
				continue
			}
			g.NoBlock = true
		case "refcount":
			if problem := refcountProblem(v, strct, d.Args[0]); problem != "" {
				c.report(d.Pos, "//guard:refcount "+shorten(d.Args[0])+": "+problem)
				continue
			}
			g.Refcount = d.Args[0]
		}
	}
	if len(g.By)+len(g.Only) > 0 || g.Atomic || g.NoBlock || g.Refcount != "" {
		c.res.fields[v] = g
	}
}

// refcountProblem says what is wrong with //guard:refcount count on the
// field v of strct, or "": v must be a map, and count a field of the same
// struct, a map with the same key type and integer values.
func refcountProblem(v *types.Var, strct *types.Struct, count string) string {
	m, ok := v.Type().Underlying().(*types.Map)
	if strct == nil {
		return "the directive goes on a struct field (a map whose entries are counted), not on a package-level variable"
	}
	if !ok {
		return "the directive goes on a map field whose entries are counted, and " + v.Name() + " is not one"
	}
	cv := astq.Field(strct, count)
	if cv == nil {
		return "no field " + count + " in this struct; name the map that counts each entry's users"
	}
	cm, ok := cv.Type().Underlying().(*types.Map)
	if ok {
		if b, isBasic := cm.Elem().Underlying().(*types.Basic); isBasic && b.Info()&types.IsInteger != 0 && types.Identical(cm.Key(), m.Key()) {
			return ""
		}
	}
	return count + " must be a map from the same key type as " + v.Name() + " to an integer count"
}
