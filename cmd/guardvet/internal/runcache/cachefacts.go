package runcache

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/objectpath"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/internal/resultcache"
)

// A package's facts, as the cache keeps them for the packages that import
// it: for each analyzer with facts, the object facts its action on the
// package exported on the package's own objects, and the package facts it
// exported. What an importer's pass sees of them is computed as the
// checker driver passes facts on: a package's facts with those it
// inherited from its imports, filtered by exportedFrom at each step.
// Objects are named by package path and objectpath, so an importer that
// sees the package through export data finds them; facts on objects
// objectpath cannot name (locals) are left out, as go vet's fact files
// leave them out.
//
// Annotated says whether the package's own files have a directive, so a
// run can tell whether -config.summaries is on (as the standalone driver
// decides it: on when any package loaded has one) without parsing
// packages it does not analyse; Summaries is the setting the facts were
// computed with, since it changes them.
type factsEntry struct {
	Annotated bool
	Summaries bool
	Objects   []objectFactRec
	Packages  []packageFactRec
}

type objectFactRec struct {
	Analyzer, PkgPath string
	Path              objectpath.Path
	Fact              analysis.Fact
}

type packageFactRec struct {
	Analyzer, PkgPath, PkgName string
	Fact                       analysis.Fact
}

// registerFacts makes the analyzers' fact types known to gob, once per
// run (gob.Register is idempotent for a type).
func registerFacts(analyzers []*analysis.Analyzer) {
	for _, a := range requiresFirst(analyzers) {
		for _, f := range a.FactTypes {
			gob.Register(f)
		}
	}
}

// requiresFirst lists the analyzers and what they require, transitively,
// each after what it requires: the order a driver runs them in.
func requiresFirst(analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	var out []*analysis.Analyzer
	seen := map[*analysis.Analyzer]bool{}
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, r := range a.Requires {
			visit(r)
		}
		out = append(out, a)
	}
	for _, a := range analyzers {
		visit(a)
	}
	return out
}

// factsKey is the key of a package's facts entry.
func factsKey(pkg resultcache.Key) resultcache.Key {
	return resultcache.Key(hashOf(pkg[:], []byte("facts")))
}

func encodeFacts(e *factsEntry) ([]byte, error) {
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(e); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func decodeFacts(data []byte) (*factsEntry, error) {
	var e factsEntry
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&e); err != nil {
		return nil, err
	}
	return &e, nil
}

// ownAnnotated reports whether a package's own files have a directive.
func ownAnnotated(p *packages.Package) bool {
	for _, f := range p.Syntax {
		if directives.FileAnnotated(f) {
			return true
		}
	}
	return false
}

// graphFacts collects the facts entry of every package a checker graph
// analysed, by package ID. summaries is the run's -config.summaries.
func graphFacts(graph *checker.Graph, summaries bool) map[string]*factsEntry {
	out := map[string]*factsEntry{}
	encoders := map[*types.Package]*objectpath.Encoder{}
	for act := range graph.All() {
		if act.Err != nil {
			continue
		}
		e := out[act.Package.ID]
		if e == nil {
			e = &factsEntry{Annotated: ownAnnotated(act.Package), Summaries: summaries}
			out[act.Package.ID] = e
		}
		if len(act.Analyzer.FactTypes) == 0 {
			continue
		}
		own := act.Package.Types
		for _, f := range act.AllObjectFacts() {
			if f.Object.Pkg() != own {
				continue
			}
			if rec, ok := objectRec(encoders, act.Analyzer.Name, f.Object, f.Fact); ok {
				e.Objects = append(e.Objects, rec)
			}
		}
		for _, f := range act.AllPackageFacts() {
			if f.Package == own {
				e.Packages = append(e.Packages, packageFactRec{Analyzer: act.Analyzer.Name, PkgPath: own.Path(), PkgName: own.Name(), Fact: f.Fact})
			}
		}
	}
	return out
}

func objectRec(encoders map[*types.Package]*objectpath.Encoder, analyzer string, obj types.Object, fact analysis.Fact) (objectFactRec, bool) {
	pkg := obj.Pkg()
	if pkg == nil {
		return objectFactRec{}, false
	}
	enc := encoders[pkg]
	if enc == nil {
		enc = new(objectpath.Encoder)
		encoders[pkg] = enc
	}
	path, err := enc.For(obj)
	if err != nil {
		return objectFactRec{}, false
	}
	return objectFactRec{Analyzer: analyzer, PkgPath: pkg.Path(), Path: path, Fact: fact}, true
}

// exportedFrom is the checker driver's rule for the object facts of a
// package that its importers inherit (golang.org/x/tools/go/analysis/
// checker, unexported there): what the compiler's export data can name.
func exportedFrom(obj types.Object, pkg *types.Package) bool {
	switch obj := obj.(type) {
	case *types.Func:
		return obj.Exported() && obj.Pkg() == pkg || obj.Signature().Recv() != nil
	case *types.Var:
		if obj.IsField() {
			return true
		}
		return obj.Pkg() == pkg
	case *types.TypeName, *types.Const:
		return true
	}
	return false
}

// factSet is the facts one analysis pass sees: object facts by object and
// fact type, package facts by package and fact type.
type factSet struct {
	objects  map[objectFactKey]analysis.Fact
	packages map[packageFactKey]analysis.Fact
}

type objectFactKey struct {
	obj types.Object
	t   reflect.Type
}

type packageFactKey struct {
	pkg *types.Package
	t   reflect.Type
}

func newFactSet() *factSet {
	return &factSet{objects: map[objectFactKey]analysis.Fact{}, packages: map[packageFactKey]analysis.Fact{}}
}

// addEntry adds the facts of analyzer from a cached entry, resolving
// objects and packages in the importer's universe (pkgOf). An object the
// universe does not have is not reachable from the importer and is left
// out; a package it does not have is made, for its package facts.
func (fs *factSet) addEntry(e *factsEntry, analyzer string, pkgOf func(path, name string, create bool) *types.Package) error {
	for _, r := range e.Objects {
		if r.Analyzer != analyzer {
			continue
		}
		pkg := pkgOf(r.PkgPath, "", false)
		if pkg == nil {
			continue
		}
		obj, err := objectpath.Object(pkg, r.Path)
		if err != nil {
			continue // not in this universe's view of the package
		}
		fs.objects[objectFactKey{obj, reflect.TypeOf(r.Fact)}] = r.Fact
	}
	for _, r := range e.Packages {
		if r.Analyzer != analyzer {
			continue
		}
		pkg := pkgOf(r.PkgPath, r.PkgName, true)
		if pkg == nil {
			return fmt.Errorf("no package %s for its facts", r.PkgPath)
		}
		fs.packages[packageFactKey{pkg, reflect.TypeOf(r.Fact)}] = r.Fact
	}
	return nil
}

// merge adds from's facts to fs.
func (fs *factSet) merge(from *factSet) {
	if from == nil {
		return
	}
	for k, f := range from.objects {
		fs.objects[k] = f
	}
	for k, f := range from.packages {
		fs.packages[k] = f
	}
}

// exportable is what importers inherit of the facts a pass on pkg saw and
// made: the object facts the export data can name, and every package fact.
func (fs *factSet) exportable(pkg *types.Package) *factSet {
	out := newFactSet()
	for k, f := range fs.objects {
		if exportedFrom(k.obj, pkg) {
			out.objects[k] = f
		}
	}
	for k, f := range fs.packages {
		out.packages[k] = f
	}
	return out
}

func factType(f analysis.Fact) reflect.Type { return reflect.TypeOf(f) }

// copyFact sets *ptr to *f, as the drivers' ImportObjectFact does.
func copyFact(ptr, f analysis.Fact) {
	reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(f).Elem())
}
