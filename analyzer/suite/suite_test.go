package suite_test

import (
	"bytes"
	"encoding/gob"
	"reflect"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/checkthenact"
	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/internal/facttable"
	"github.com/guardvet/guardvet/analyzer/lockorder"
	"github.com/guardvet/guardvet/analyzer/lockstate"
	"github.com/guardvet/guardvet/analyzer/noblock"
	"github.com/guardvet/guardvet/analyzer/shared"
	"github.com/guardvet/guardvet/analyzer/suite"
)

// TestNogoReady checks what Bazel's nogo (and any other driver) relies on:
// the analyzers validate, and every fact survives a gob round trip.
func TestNogoReady(t *testing.T) {
	all := suite.Analyzers()
	if err := analysis.Validate(all); err != nil {
		t.Fatal(err)
	}
	seen := map[*analysis.Analyzer]bool{}
	var facts []analysis.Fact
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		if a.Doc == "" || a.URL == "" {
			t.Errorf("analyzer %s lacks Doc or URL", a.Name)
		}
		facts = append(facts, a.FactTypes...)
		for _, r := range a.Requires {
			visit(r)
		}
	}
	for _, a := range all {
		visit(a)
	}
	if len(facts) < 4 {
		t.Errorf("found %d fact types, want at least 4 (FieldGuard, Contract, Orders, EffectsTable)", len(facts))
	}
	ref := directives.LockRef{Kind: directives.Param, Param: directives.Receiver, Sel: ".mu", Text: "c.mu"}
	samples := map[reflect.Type]analysis.Fact{
		reflect.TypeFor[*directives.FieldGuard]():  &directives.FieldGuard{By: []directives.LockRef{{Kind: directives.Relative, Sel: ".mu", Text: "mu"}}, Only: []string{"p.T.get"}, OnlyAs: []string{"get"}, Getter: "get", Atomic: true},
		reflect.TypeFor[*directives.Contract]():    &directives.Contract{Convention: directives.ByName, Holds: []directives.LockRef{ref}, Excludes: []directives.LockRef{{Kind: directives.Global, PkgPath: "p", Name: "Mu", Text: "Mu"}}},
		reflect.TypeFor[*directives.Orders]():      &directives.Orders{List: []directives.Order{{Classes: []string{"p.T.a", "p.T.b"}, Texts: []string{"a", "b"}, Where: "p.T"}}},
		reflect.TypeFor[*directives.Aliases]():     &directives.Aliases{Pairs: [][2]directives.LockRef{{{Kind: directives.Relative, Sel: ".snd.ep.mu", Text: "snd.ep.mu"}, {Kind: directives.Relative, Sel: ".mu", Text: "mu"}}}},
		reflect.TypeFor[*lockorder.Acquired]():     &lockorder.Acquired{Refs: []directives.LockRef{ref}, Classes: []string{"p.T.mu"}, Shown: []string{"T.mu"}},
		reflect.TypeFor[*lockorder.Edges]():        &lockorder.Edges{List: []lockorder.Edge{{From: "p.T.a", To: "p.T.b", FromShow: "T.a", ToShow: "T.b", Site: "t.go:3"}}},
		reflect.TypeFor[*noblock.Blocks]():         &noblock.Blocks{Chain: []string{"s.flush", "channel receive"}},
		reflect.TypeFor[*checkthenact.FieldOps]():  &checkthenact.FieldOps{Ops: []checkthenact.FieldOp{{Field: "p.ptmx@*os.File", Name: "ptmx", Base: ref, Write: true, Rechecked: true}}},
		reflect.TypeFor[*lockstate.EffectsTable](): &lockstate.EffectsTable{Table: facttable.Table[lockstate.Effects]{Funcs: []facttable.Entry[lockstate.Effects]{{Key: "T.Lock", Value: lockstate.Effects{Contract: directives.Contract{Acquires: []directives.LockRef{ref}, Downgrades: []directives.LockRef{ref}}, NoEscape: []int{directives.Receiver, 0}, IntoResult: []int{1}, FreshResult: true, Retakes: []directives.LockRef{ref}, CondAcquires: []directives.LockRef{ref}}}}}},
		reflect.TypeFor[*shared.Table]():           &shared.Table{Table: facttable.Table[[]shared.Use]{Funcs: []facttable.Entry[[]shared.Use]{{Key: "T.Add", Value: []shared.Use{{Param: -1, Path: "*.n", Write: true, Index: -1}, {Param: 0, Path: "[]", Index: 1}, {Param: -2, Var: "p.Level", Atomic: true, Index: -1}}}}}},
		reflect.TypeFor[*lockstate.FuncValTable](): &lockstate.FuncValTable{Table: facttable.Table[lockstate.FuncVals]{Funcs: []facttable.Entry[lockstate.FuncVals]{{Key: "Cleanup.Clean", Value: lockstate.FuncVals{Runs: []int{directives.Receiver}, Keeps: []lockstate.Flow{{From: 0, To: directives.Receiver}}, Clears: []int{1}}}}}},
		reflect.TypeFor[*lockstate.ParamTable]():   &lockstate.ParamTable{Table: facttable.Table[lockstate.ParamSummary]{Funcs: []facttable.Entry[lockstate.ParamSummary]{{Key: "T.Get", Value: lockstate.ParamSummary{ReadOnly: []int{directives.Receiver}, AtomicRead: []int{0}, AtomicWrite: []int{1}}}}}},
	}
	for _, f := range facts {
		sample, ok := samples[reflect.TypeOf(f)]
		if !ok {
			t.Errorf("no sample for fact type %T; add one", f)
			continue
		}
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(sample); err != nil {
			t.Fatalf("%T: encode: %v", f, err)
		}
		got := reflect.New(reflect.TypeOf(f).Elem()).Interface()
		if err := gob.NewDecoder(&buf).Decode(got); err != nil {
			t.Fatalf("%T: decode: %v", f, err)
		}
		if !reflect.DeepEqual(got, sample) {
			t.Errorf("%T did not round-trip:\n got %+v\nwant %+v", f, got, sample)
		}
	}
}
