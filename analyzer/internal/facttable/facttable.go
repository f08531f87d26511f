// Package facttable is a package fact that maps a package's functions,
// by key, to what an analyzer summarised of each. One fact per package
// rather than one per function: a driver copies every fact of every
// dependency into each package's pass, so per-function facts grow with
// the square of a program's size. The engine's effects and access
// summaries and the shared rule's uses are such tables.
package facttable

import (
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Entry is one function's value in a Table.
type Entry[V any] struct {
	Key   string
	Value V
}

// Table holds the entries of one package, sorted by key (facts must
// encode deterministically). A fact type embeds it.
type Table[V any] struct {
	Funcs []Entry[V]
}

// Add appends the value of the function with key.
func (t *Table[V]) Add(key string, v V) {
	t.Funcs = append(t.Funcs, Entry[V]{Key: key, Value: v})
}

// Export sorts the entries and exports fact (the fact type embedding t)
// for the pass's package, unless t is empty.
func (t *Table[V]) Export(pass *analysis.Pass, fact analysis.Fact) {
	if len(t.Funcs) == 0 {
		return
	}
	sort.Slice(t.Funcs, func(i, j int) bool { return t.Funcs[i].Key < t.Funcs[j].Key })
	pass.ExportPackageFact(fact)
}

// Format writes the table for a fact's String method: name, then each
// entry's key and what value says of it, "name(k1: v1; k2: v2)".
func (t *Table[V]) Format(name string, value func(V) string) string {
	var b strings.Builder
	b.WriteString(name + "(")
	for i, e := range t.Funcs {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(e.Key + ":")
		if v := value(e.Value); v != "" {
			b.WriteString(" " + v)
		}
	}
	b.WriteString(")")
	return b.String()
}

// Index reads the tables of other packages, each once, by key.
type Index[V any] struct {
	pass   *analysis.Pass
	newFct func() (analysis.Fact, *Table[V])
	byPkg  map[*types.Package]map[string]*V
}

// NewIndex returns an index of the tables newFact makes (a new, empty fact
// and the Table it embeds).
func NewIndex[V any](pass *analysis.Pass, newFact func() (analysis.Fact, *Table[V])) *Index[V] {
	return &Index[V]{pass: pass, newFct: newFact, byPkg: map[*types.Package]map[string]*V{}}
}

// Lookup returns the value of key in pkg's table, or nil.
func (x *Index[V]) Lookup(pkg *types.Package, key string) *V {
	if pkg == nil {
		return nil
	}
	index, ok := x.byPkg[pkg]
	if !ok {
		fact, t := x.newFct()
		if x.pass.ImportPackageFact(pkg, fact) {
			index = make(map[string]*V, len(t.Funcs))
			for i := range t.Funcs {
				index[t.Funcs[i].Key] = &t.Funcs[i].Value
			}
		}
		x.byPkg[pkg] = index
	}
	return index[key]
}
