package corpus

import (
	"slices"
	"strings"
	"testing"
)

func TestParseSets(t *testing.T) {
	sets, err := ParseSets(strings.NewReader(`# comment

a   corpus  -test=false example.com/a/...
b	repo	std
c   copy:golang.org/x/tools@v0.52.0   ./...
d   corpus+warmonly  -shared example.com/d/...
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(sets) != 4 {
		t.Fatalf("got %d sets, want 4: %+v", len(sets), sets)
	}
	if s := sets[3]; s.Where != InCorpus || !s.NoPartial || !slices.Equal(s.Args, []string{"-shared", "example.com/d/..."}) {
		t.Errorf("set d: %+v", s)
	}
	if sets[0].NoPartial || sets[2].NoPartial {
		t.Errorf("sets a and c re-run on a partly filled cache: %+v", sets)
	}
	if s := sets[0]; s.Name != "a" || s.Where != InCorpus || !slices.Equal(s.Args, []string{"-test=false", "example.com/a/..."}) {
		t.Errorf("set a: %+v", s)
	}
	if s := sets[1]; s.Where != InRepo || !slices.Equal(s.Args, []string{"std"}) {
		t.Errorf("set b: %+v", s)
	}
	if mod, ok := sets[2].CopyOf(); !ok || mod != "golang.org/x/tools@v0.52.0" {
		t.Errorf("set c: CopyOf = %q, %v", mod, ok)
	}
	if _, ok := sets[0].CopyOf(); ok {
		t.Errorf("set a is not a copy")
	}
}

func TestParseSetsErrors(t *testing.T) {
	for _, in := range []string{
		"a corpus\n",                        // no arguments
		"a elsewhere ./...\n",               // unknown place
		"a copy:golang.org/x/tools ./...\n", // no version
		"a corpus x\na repo y\n",            // defined twice
		"a corpus+cold x\n",                 // unknown option
	} {
		if _, err := ParseSets(strings.NewReader(in)); err == nil {
			t.Errorf("ParseSets(%q): no error", in)
		}
	}
}

func TestSelect(t *testing.T) {
	sets := []Set{{Name: "a"}, {Name: "b"}, {Name: "c"}}
	got, err := Select(sets, "c, a")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "a" || got[1].Name != "c" {
		t.Errorf("Select(c, a) = %+v, want a then c (file order)", got)
	}
	if got, _ := Select(sets, ""); len(got) != 3 {
		t.Errorf("Select(\"\") = %d sets, want all 3", len(got))
	}
	if _, err := Select(sets, "a,zz"); err == nil {
		t.Errorf("Select with an unknown set: no error")
	}
}
