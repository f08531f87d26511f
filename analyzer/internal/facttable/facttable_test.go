package facttable

import (
	"fmt"
	"go/types"
	"testing"

	"golang.org/x/tools/go/analysis"
)

type fact struct{ Table[int] }

func (*fact) AFact() {}

func TestExportSortsAndIndexFinds(t *testing.T) {
	pkg := types.NewPackage("p", "p")
	var exported analysis.Fact
	pass := &analysis.Pass{
		Pkg:               pkg,
		ExportPackageFact: func(f analysis.Fact) { exported = f },
		ImportPackageFact: func(p *types.Package, f analysis.Fact) bool {
			if p != pkg || exported == nil {
				return false
			}
			*f.(*fact) = *exported.(*fact)
			return true
		},
	}
	empty := &fact{}
	empty.Export(pass, empty)
	if exported != nil {
		t.Fatal("an empty table was exported")
	}
	f := &fact{}
	f.Add("T.b", 2)
	f.Add("T.a", 1)
	f.Export(pass, f)
	if exported == nil || f.Funcs[0].Key != "T.a" {
		t.Fatalf("Export did not sort and export: %+v", f.Funcs)
	}
	imports := 0
	x := NewIndex(pass, func() (analysis.Fact, *Table[int]) {
		imports++
		g := &fact{}
		return g, &g.Table
	})
	if v := x.Lookup(pkg, "T.b"); v == nil || *v != 2 {
		t.Errorf("Lookup(T.b) = %v, want 2", v)
	}
	if v := x.Lookup(pkg, "T.c"); v != nil {
		t.Errorf("Lookup(T.c) = %v, want nil", *v)
	}
	if imports != 1 {
		t.Errorf("the package's table was imported %d times, want once", imports)
	}
	if x.Lookup(types.NewPackage("q", "q"), "T.a") != nil || x.Lookup(nil, "T.a") != nil {
		t.Error("a package without a table has entries")
	}
}

func TestFormat(t *testing.T) {
	var tab Table[int]
	tab.Add("b", 2)
	tab.Add("a", 0)
	got := tab.Format("t", func(v int) string {
		if v == 0 {
			return ""
		}
		return fmt.Sprint(v)
	})
	if want := "t(b: 2; a:)"; got != want {
		t.Errorf("Format = %q, want %q", got, want)
	}
}
