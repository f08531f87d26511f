package runcache

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/objectpath"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/output"
)

// An incremental run analyses, after an edit, only the root packages the
// cache misses and the packages whose facts it lacks (the edited ones),
// as go vet does: each from source, with what it imports read from the
// compiler's export data (go list -export) and the facts of those imports
// from the cache. The packages that did not change are neither parsed nor
// type-checked. It gives up (ok false), for the run to analyse the
// missing roots with their imports from source as a cold run does, when
// anything is not as it expects: a facts entry missing or computed with
// another -config.summaries, a package that did not change importing one
// that did (an entry lost), an error in go list, parsing or type-checking,
// or an analyzer that fails.
type incremental struct {
	rc        *Cache
	plan      *cachePlan
	enabled   []*analysis.Analyzer
	fset      *token.FileSet
	sizes     types.Sizes
	order     []*packages.Package                  // the packages to analyse, imports first
	analyse   map[string]bool                      // their IDs
	cached    map[string]*factsEntry               // the facts entries of the others, by ID
	exports   map[string]string                    // export data files, by ID
	universes map[string]map[string]*types.Package // by test family, then path
	done      map[string]*analysedPkg              // by ID
	inherited map[string]*factSet                  // exportable facts of unanalysed packages, by family, ID, analyzer
	// inheritedPart holds the sets inherit could not complete (a package
	// not loaded into the universe), for one importing package each.
	inheritedPart map[string]*factSet
	summaries     bool
}

type analysedPkg struct {
	meta       *packages.Package
	files      []*ast.File
	types      *types.Package
	info       *types.Info
	annotated  bool
	exportable map[string]*factSet // by analyzer: what importers inherit
	own        map[string]*factSet // by analyzer: the facts on its own objects and itself
	diags      map[*analysis.Analyzer][]analysis.Diagnostic
}

// analyseIncrementally runs the incremental analysis of the plan's
// missing roots.
func (rc *Cache) analyseIncrementally(cfg *packages.Config, plan *cachePlan, enabled []*analysis.Analyzer) (res LoadResult, why error) {
	inc := &incremental{rc: rc, plan: plan, enabled: enabled, fset: token.NewFileSet(),
		analyse: map[string]bool{}, cached: map[string]*factsEntry{}, universes: map[string]map[string]*types.Package{},
		done: map[string]*analysedPkg{}, inherited: map[string]*factSet{}, inheritedPart: map[string]*factSet{}}
	defer func() {
		if r := recover(); r != nil { // an analyzer's panic, or a surprise in export data
			why = fmt.Errorf("panic: %v", r)
		}
	}()
	for _, step := range []struct {
		name string
		ok   func() bool
	}{
		{"nothing to analyse", inc.selectPackages},
		{"too much changed: a cold analysis is faster", inc.worthIt},
		{"a facts entry is missing", inc.readFacts},
		{"go list -export failed", func() bool { return inc.loadExports(cfg) }},
		{"a file does not parse", inc.parse},
		{"cached facts were computed with another -config.summaries", inc.decideSummaries},
	} {
		if !step.ok() {
			return res, errors.New(step.name)
		}
	}
	// The analyzers run under the run's configuration with the summaries
	// decided: copies bound to it (config.Bind), not the options changed.
	inc.enabled = config.Bind(inc.enabled, rc.conf.MustWith("summaries", fmt.Sprint(inc.summaries)))
	for _, p := range inc.order {
		if !inc.check(p) {
			return res, fmt.Errorf("type errors in %s", p.ID)
		}
		if !inc.run(p) {
			return res, fmt.Errorf("an analyzer failed on %s", p.ID)
		}
	}
	return inc.result(), nil
}

// selectPackages lists what to analyse: the missing roots, and the
// packages in their imports whose facts entry is missing; in an order
// where imports come first, and the packages of test variants after the
// others.
func (inc *incremental) selectPackages() bool {
	need := map[*packages.Package]bool{}
	var visit func(p *packages.Package)
	seen := map[*packages.Package]bool{}
	var post []*packages.Package
	visit = func(p *packages.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		for _, path := range sortedKeys(p.Imports) {
			visit(p.Imports[path])
		}
		post = append(post, p)
	}
	for _, p := range inc.plan.meta {
		if inc.plan.missing[p.ID] {
			need[p] = true
			visit(p)
		}
	}
	// Analysed: the missing roots, and what they import that has no facts
	// entry under its key (its content changed, or the entry was lost).
	// The others are read from export data, compiled from their current
	// content, with facts cached under their current keys: both match
	// what they are now, whatever else changed.
	for _, p := range post {
		data, hit := inc.rc.get(factsKey(inc.plan.pk.of(p)))
		if hit {
			if e, err := decodeFacts(data); err == nil {
				inc.cached[p.ID] = e
			} else {
				hit = false
			}
		}
		if need[p] || !hit {
			inc.order = append(inc.order, p)
			inc.analyse[p.ID] = true
		}
	}
	// Plain packages before test variants (a variant may import a plain
	// package, never the other way), imports first within each.
	sort.SliceStable(inc.order, func(i, j int) bool { return family(inc.order[i]) == "" && family(inc.order[j]) != "" })
	return len(inc.order) > 0
}

// worthIt reports whether the incremental analysis is likely faster than
// a cold one. It compiles what changed (go list -export) and analyses one
// package at a time; a cold analysis of the missing roots loads their
// imports from source but in parallel. When more than a quarter of the
// roots (of at least eight), or more than incrementalMax packages, are to
// be analysed, the cold analysis wins (an edit to a package most of the
// module imports).
func (inc *incremental) worthIt() bool {
	return len(inc.order) <= incrementalMax && 4*len(inc.order) <= max(len(inc.plan.roots), 8)
}

// incrementalMax bounds the packages an incremental run analyses.
const incrementalMax = 40

// readFacts reads the facts entries of every package of the load that is
// not analysed: their Annotated bits decide -config.summaries.
func (inc *incremental) readFacts() bool {
	all := true
	packages.Visit(inc.plan.meta, nil, func(p *packages.Package) {
		if inc.analyse[p.ID] || inc.cached[p.ID] != nil {
			return
		}
		data, ok := inc.rc.get(factsKey(inc.plan.pk.of(p)))
		if !ok {
			all = false
			return
		}
		e, err := decodeFacts(data)
		if err != nil {
			all = false
			return
		}
		inc.cached[p.ID] = e
	})
	return all
}

// loadExports asks go list for the export data of the packages the
// analysed ones import and that are not analysed themselves (compiling
// what the build cache lacks; not the analysed packages, which would be
// compiled for nothing). A test variant among them is listed through the
// patterns, with tests.
func (inc *incremental) loadExports(cfg *packages.Config) bool {
	ec := *cfg
	ec.Mode = packages.NeedName | packages.NeedExportFile | packages.NeedForTest
	ec.ParseFile = nil
	ec.Tests = false
	var patterns []string
	seen := map[string]bool{}
	variant := false
	for _, p := range inc.order {
		for _, d := range p.Imports {
			if inc.analyse[d.ID] || seen[d.ID] || d.PkgPath == "unsafe" {
				continue
			}
			seen[d.ID] = true
			variant = variant || family(d) != "" || d.ID != d.PkgPath
			patterns = append(patterns, d.PkgPath)
		}
	}
	if !variant && len(patterns) == 0 {
		patterns = nil // everything imported is analysed: no export data needed
	} else if variant {
		ec.Mode |= packages.NeedImports | packages.NeedDeps
		ec.Tests = cfg.Tests
		patterns = inc.plan.reload
	}
	inc.exports = map[string]string{}
	var pkgs []*packages.Package
	if len(patterns) > 0 {
		sort.Strings(patterns)
		var err error
		if pkgs, err = packages.Load(&ec, patterns...); err != nil || loadErrors(pkgs) {
			return false
		}
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) { inc.exports[p.ID] = p.ExportFile })
	goarch := runtime.GOARCH
	if v, ok := os.LookupEnv("GOARCH"); ok && v != "" {
		goarch = v
	}
	inc.sizes = types.SizesFor("gc", goarch)
	return inc.sizes != nil
}

// parse parses the packages to analyse, as go/packages does.
func (inc *incremental) parse() bool {
	for _, p := range inc.order {
		a := &analysedPkg{meta: p, diags: map[*analysis.Analyzer][]analysis.Diagnostic{}, exportable: map[string]*factSet{}, own: map[string]*factSet{}}
		for _, name := range p.CompiledGoFiles {
			src, err := os.ReadFile(name)
			if err != nil {
				return false
			}
			f, err := parser.ParseFile(inc.fset, name, src, parser.AllErrors|parser.ParseComments)
			if err != nil {
				return false
			}
			a.files = append(a.files, f)
		}
		a.annotated = ownAnnotated(&packages.Package{Syntax: a.files})
		inc.done[p.ID] = a
	}
	return true
}

// decideSummaries sets -config.summaries as a cold run would (off when no
// package loaded has a directive), and requires the cached facts the
// analysis reads to have been computed with it.
func (inc *incremental) decideSummaries() bool {
	any := false
	for _, a := range inc.done {
		any = any || a.annotated
	}
	for _, e := range inc.cached {
		any = any || e.Annotated
	}
	inc.summaries = any && inc.rc.conf.Summaries()
	for _, p := range inc.order {
		for _, d := range p.Imports {
			if e := inc.cached[d.ID]; e != nil && e.Summaries != inc.summaries {
				return false
			}
		}
	}
	return true
}

// family is the test binary a package belongs to ("p.test" for
// "q [p.test]", and for the test main package p.test itself), or "" for a
// plain package.
func family(p *packages.Package) string {
	id := p.ID
	if i := strings.Index(id, " ["); i >= 0 && strings.HasSuffix(id, "]") {
		return id[i+2 : len(id)-1]
	}
	if p.Name == "main" && strings.HasSuffix(id, ".test") {
		return id
	}
	return ""
}

// universe returns the packages by path that p's family sees: the plain
// packages, with the family's variants in place of the plain packages
// they vary.
func (inc *incremental) universe(p *packages.Package) map[string]*types.Package {
	fam := family(p)
	u := inc.universes[fam]
	if u != nil {
		return u
	}
	u = map[string]*types.Package{}
	if fam != "" {
		varied := map[string]bool{}
		for _, q := range inc.plan.byID {
			if family(q) == fam && q.Name != "main" {
				varied[q.PkgPath] = true
			}
		}
		for path, pkg := range inc.universe(&packages.Package{}) {
			if !varied[path] {
				u[path] = pkg
			}
		}
	}
	inc.universes[fam] = u
	return u
}

// importer resolves p's imports: analysed packages by their types from
// source, the others from export data into p's universe.
func (inc *incremental) importer(p *packages.Package) types.Importer {
	u := inc.universe(p)
	return importerFunc(func(path string) (*types.Package, error) {
		if path == "unsafe" {
			return types.Unsafe, nil
		}
		dep := p.Imports[path]
		if dep == nil {
			return nil, fmt.Errorf("no metadata for %s", path)
		}
		if a := inc.done[dep.ID]; a != nil && inc.analyse[dep.ID] {
			if a.types == nil {
				return nil, fmt.Errorf("%s is not checked yet", dep.ID)
			}
			u[dep.PkgPath] = a.types
			return a.types, nil
		}
		if pkg := u[dep.PkgPath]; pkg != nil && pkg.Complete() {
			return pkg, nil
		}
		file := inc.exports[dep.ID]
		if file == "" {
			return nil, fmt.Errorf("no export data for %s", dep.ID)
		}
		f, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r, err := exportData(f)
		if err != nil {
			return nil, fmt.Errorf("export data of %s: %v", dep.ID, err)
		}
		return gcexportdata.Read(r, inc.fset, u, dep.PkgPath)
	})
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// check type-checks p from source, as go/packages does.
func (inc *incremental) check(p *packages.Package) bool {
	a := inc.done[p.ID]
	tc := &types.Config{Importer: inc.importer(p), Sizes: inc.sizes, Error: func(error) {}}
	if p.Module != nil && p.Module.GoVersion != "" {
		tc.GoVersion = "go" + p.Module.GoVersion
	}
	a.types = types.NewPackage(p.PkgPath, p.Name)
	a.info = &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
	if err := types.NewChecker(tc, inc.fset, a.types, a.info).Files(a.files); err != nil {
		return false
	}
	inc.universe(p)[p.PkgPath] = a.types
	return true
}

// analyzersFor lists, imports first, the analyzers a cold run runs on p:
// every one asked for, and what they require, on a root; those with facts,
// and what they require, on a dependency.
func (inc *incremental) analyzersFor(p *packages.Package) []*analysis.Analyzer {
	_, root := inc.plan.keys[p.ID]
	var asked []*analysis.Analyzer
	for _, a := range inc.enabled {
		if root || len(a.FactTypes) > 0 {
			asked = append(asked, a)
		}
	}
	return requiresFirst(asked)
}

// run runs the analyzers on p, each with the facts of what p imports.
func (inc *incremental) run(p *packages.Package) bool {
	a := inc.done[p.ID]
	results := map[*analysis.Analyzer]any{}
	_, root := inc.plan.keys[p.ID]
	module := &analysis.Module{}
	if m := p.Module; m != nil {
		module = &analysis.Module{Path: m.Path, Version: m.Version, GoVersion: m.GoVersion}
	}
	for _, an := range inc.analyzersFor(p) {
		facts := newFactSet()
		if len(an.FactTypes) > 0 && !inc.importFacts(p, an, facts) {
			return false
		}
		inputs := map[*analysis.Analyzer]any{}
		for _, r := range an.Requires {
			inputs[r] = results[r]
		}
		pass := inc.pass(p, a, an, facts, inputs, module)
		res, err := an.Run(pass.Pass)
		if err != nil {
			return false
		}
		results[an] = res
		if root && slices.Contains(inc.enabled, an) {
			a.diags[an] = pass.diags
		}
		if len(an.FactTypes) > 0 {
			a.exportable[an.Name] = facts.exportable(a.types)
			a.own[an.Name] = ownFacts(facts, a.types)
		}
	}
	return true
}

// importFacts fills facts with what an's passes on p's imports pass on.
func (inc *incremental) importFacts(p *packages.Package, an *analysis.Analyzer, facts *factSet) bool {
	for _, path := range sortedKeys(p.Imports) {
		d := p.Imports[path]
		if inc.analyse[d.ID] {
			facts.merge(inc.done[d.ID].exportable[an.Name])
			continue
		}
		from, ok := inc.inheritedFrom(p, d, an)
		if !ok {
			return false
		}
		facts.merge(from)
	}
	return true
}

// inheritedFrom is what an unanalysed package d passes on of an's facts,
// in the universe of p (which imports it): its own facts from the cache,
// with what its imports pass on, filtered as the checker driver filters
// them (exportedFrom).
//
// A fact on an object is kept only if the object can be found in the
// universe's view of its package, so d is read from its export data
// first. Where that cannot be done (no export data listed for it), the
// set is not remembered for the family: a later package that loads d
// would otherwise inherit a set missing d's object facts, and lose the
// findings they give (a lock a callee of d acquires).
func (inc *incremental) inheritedFrom(p, d *packages.Package, an *analysis.Analyzer) (*factSet, bool) {
	fs, ok, _ := inc.inherit(p, d, an)
	return fs, ok
}

func (inc *incremental) inherit(p, d *packages.Package, an *analysis.Analyzer) (fs *factSet, ok, complete bool) {
	key := family(p) + "\x00" + d.ID + "\x00" + an.Name
	if fs, seen := inc.inherited[key]; seen {
		return fs, fs != nil, true
	}
	// An incomplete set is remembered for p alone: p's imports share
	// dependencies, which are then read once.
	partKey := p.ID + "\x00" + key
	if fs, seen := inc.inheritedPart[partKey]; seen {
		return fs, fs != nil, false
	}
	e := inc.cached[d.ID]
	if e == nil {
		return nil, false, true
	}
	u := inc.universe(p)
	complete = inc.loadInto(u, d)
	inc.inherited[key] = nil // a cycle would be a bug in go list's graph
	pkgOf := func(path, name string, create bool) *types.Package {
		if pkg := u[path]; pkg != nil {
			return pkg
		}
		if !create {
			return nil
		}
		pkg := types.NewPackage(path, name)
		u[path] = pkg
		return pkg
	}
	visible := newFactSet()
	if err := visible.addEntry(e, an.Name, pkgOf); err != nil {
		return nil, false, true
	}
	for _, path := range sortedKeys(d.Imports) {
		from, ok, whole := inc.inherit(p, d.Imports[path], an)
		if !ok {
			return nil, false, true
		}
		complete = complete && whole
		visible.merge(from)
	}
	fs = visible.exportable(u[d.PkgPath])
	if complete {
		inc.inherited[key] = fs
	} else {
		delete(inc.inherited, key)
		inc.inheritedPart[partKey] = fs
	}
	return fs, true, complete
}

// loadInto makes sure the universe u holds d's package as its export data
// describes it, complete, reading it if need be; it reports whether u
// does. An analysed package is complete once checked.
func (inc *incremental) loadInto(u map[string]*types.Package, d *packages.Package) bool {
	if pkg := u[d.PkgPath]; pkg != nil && pkg.Complete() {
		return true
	}
	file := inc.exports[d.ID]
	if file == "" {
		return false
	}
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	r, err := exportData(f)
	if err != nil {
		return false
	}
	pkg, err := gcexportdata.Read(r, inc.fset, u, d.PkgPath)
	return err == nil && pkg.Complete()
}

// ownFacts are the facts a pass on pkg holds on pkg's objects and on pkg.
func ownFacts(facts *factSet, pkg *types.Package) *factSet {
	out := newFactSet()
	for k, f := range facts.objects {
		if k.obj.Pkg() == pkg {
			out.objects[k] = f
		}
	}
	for k, f := range facts.packages {
		if k.pkg == pkg {
			out.packages[k] = f
		}
	}
	return out
}

// incPass is an analysis.Pass with the diagnostics it reported.
type incPass struct {
	*analysis.Pass
	diags []analysis.Diagnostic
}

func (inc *incremental) pass(p *packages.Package, a *analysedPkg, an *analysis.Analyzer, facts *factSet, inputs map[*analysis.Analyzer]any, module *analysis.Module) *incPass {
	ip := &incPass{}
	allowed := map[string]bool{}
	for _, group := range [][]string{p.CompiledGoFiles, p.GoFiles, p.OtherFiles, p.IgnoredFiles} {
		for _, f := range group {
			allowed[f] = true
		}
	}
	ip.Pass = &analysis.Pass{
		Analyzer: an, Fset: inc.fset, Files: a.files, OtherFiles: p.OtherFiles, IgnoredFiles: p.IgnoredFiles,
		Pkg: a.types, TypesInfo: a.info, TypesSizes: inc.sizes, Module: module, ResultOf: inputs,
		Report: func(d analysis.Diagnostic) { ip.diags = append(ip.diags, d) },
		ImportObjectFact: func(obj types.Object, ptr analysis.Fact) bool {
			if f, ok := facts.objects[objectFactKey{obj, factType(ptr)}]; ok {
				copyFact(ptr, f)
				return true
			}
			return false
		},
		ExportObjectFact: func(obj types.Object, f analysis.Fact) {
			if obj.Pkg() != a.types {
				panic(fmt.Sprintf("fact on an object of another package: %v", obj))
			}
			facts.objects[objectFactKey{obj, factType(f)}] = f
		},
		ImportPackageFact: func(pkg *types.Package, ptr analysis.Fact) bool {
			if f, ok := facts.packages[packageFactKey{pkg, factType(ptr)}]; ok {
				copyFact(ptr, f)
				return true
			}
			return false
		},
		ExportPackageFact: func(f analysis.Fact) { facts.packages[packageFactKey{a.types, factType(f)}] = f },
		AllObjectFacts: func() []analysis.ObjectFact {
			out := make([]analysis.ObjectFact, 0, len(facts.objects))
			for k, f := range facts.objects {
				out = append(out, analysis.ObjectFact{Object: k.obj, Fact: f})
			}
			return out
		},
		AllPackageFacts: func() []analysis.PackageFact {
			out := make([]analysis.PackageFact, 0, len(facts.packages))
			for k, f := range facts.packages {
				out = append(out, analysis.PackageFact{Package: k.pkg, Fact: f})
			}
			return out
		},
		ReadFile: func(name string) ([]byte, error) {
			if !allowed[name] {
				return nil, fmt.Errorf("Pass.ReadFile: %s is not among OtherFiles, IgnoredFiles, or names of Files", name)
			}
			return os.ReadFile(name)
		},
	}
	return ip
}

// result turns the analysed roots' diagnostics into a load's result: the
// findings, and the -json tree as the checker driver prints it.
func (inc *incremental) result() LoadResult {
	res := LoadResult{Findings: map[string][]output.Finding{}, Tree: output.JSONTree{}, Code: output.ExitClean, facts: inc.facts()}
	for _, p := range inc.order {
		if _, root := inc.plan.keys[p.ID]; !root {
			continue
		}
		res.Roots = append(res.Roots, p.ID)
		a := inc.done[p.ID]
		entry := map[string]json.RawMessage{}
		for _, an := range inc.enabled {
			diags := a.diags[an]
			if len(diags) == 0 {
				continue
			}
			for _, d := range diags {
				res.Findings[p.ID] = append(res.Findings[p.ID], output.Finding{Analyzer: an, Diag: d, Fset: inc.fset,
					Posn: inc.fset.Position(d.Pos), Variant: strings.Contains(p.ID, " [")})
			}
			if data, err := output.JSONDiagnostics(inc.fset, diags); err == nil {
				entry[an.Name] = data
			}
		}
		if len(entry) > 0 {
			res.Tree[p.ID] = entry
		}
	}
	return res
}

// facts returns the facts entries of the analysed packages, by ID.
func (inc *incremental) facts() map[string]*factsEntry {
	out := map[string]*factsEntry{}
	for _, p := range inc.order {
		a := inc.done[p.ID]
		e := &factsEntry{Annotated: a.annotated, Summaries: inc.summaries}
		encoders := map[*types.Package]*objectpath.Encoder{}
		for _, name := range sortedKeys(a.own) {
			fs := a.own[name]
			for k, f := range fs.objects {
				if rec, ok := objectRec(encoders, name, k.obj, f); ok {
					e.Objects = append(e.Objects, rec)
				}
			}
			for k, f := range fs.packages {
				e.Packages = append(e.Packages, packageFactRec{Analyzer: name, PkgPath: k.pkg.Path(), PkgName: k.pkg.Name(), Fact: f})
			}
		}
		out[p.ID] = e
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
