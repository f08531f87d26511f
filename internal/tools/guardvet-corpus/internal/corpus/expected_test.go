package corpus

import (
	"strings"
	"testing"
)

const sample = `# header line 1
# header line 2

# a note about the x entry
s2	m@v1/b.go:10:2	guardedby	true	the lock is not held on the error path	x written while mu is not held
s1	m@v1/a.go:9:1	lockorder	benign	one instance per process	cycle message

s1	m@v1/a.go:10:1	escape	untriaged	placeholder
# trailing comment
`

func TestExpectedRoundTrip(t *testing.T) {
	x, err := ParseExpected(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if len(x.Header) != 2 || x.Header[1] != "# header line 2" {
		t.Errorf("header = %q", x.Header)
	}
	if len(x.Entries) != 3 {
		t.Fatalf("got %d entries, want 3", len(x.Entries))
	}
	e := x.Entries[0]
	if e.Set != "s2" || e.Pos != "m@v1/b.go:10:2" || e.Rule != "guardedby" || e.Verdict != True ||
		e.Reason != "the lock is not held on the error path" || e.Message != "x written while mu is not held" || e.Line != 5 {
		t.Errorf("entry 0 = %+v", e)
	}
	if len(e.Notes) != 1 || e.Notes[0] != "# a note about the x entry" {
		t.Errorf("entry 0 notes = %q", e.Notes)
	}
	if x.Entries[2].Message != "" || x.Entries[2].Verdict != Untriaged {
		t.Errorf("five-field entry = %+v", x.Entries[2])
	}
	if len(x.Trailer) != 1 {
		t.Errorf("trailer = %q", x.Trailer)
	}

	var b strings.Builder
	if err := x.Write(&b, []string{"s1", "s2"}); err != nil {
		t.Fatal(err)
	}
	want := `# header line 1
# header line 2

s1	m@v1/a.go:9:1	lockorder	benign	one instance per process	cycle message
s1	m@v1/a.go:10:1	escape	untriaged	placeholder

# a note about the x entry
s2	m@v1/b.go:10:2	guardedby	true	the lock is not held on the error path	x written while mu is not held

# trailing comment
`
	if b.String() != want {
		t.Errorf("Write:\n%s\nwant:\n%s", b.String(), want)
	}
	// Writing what was written changes nothing.
	y, err := ParseExpected(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var c strings.Builder
	y.Write(&c, []string{"s1", "s2"})
	if c.String() != b.String() {
		t.Errorf("second Write differs:\n%s\nfirst:\n%s", c.String(), b.String())
	}
}

func TestParseExpectedErrors(t *testing.T) {
	for _, in := range []string{
		"s\tm@v/a.go:1:1\trule\ttrue\n",                // four fields
		"s\tm@v/a.go:1:1\trule\ttrue\tr\tmsg\textra\n", // seven
		"s\tm@v/a.go\trule\ttrue\treason\n",            // no line and column
		"s\tm@v/a.go:x:1\trule\ttrue\treason\n",        // line not a number
		"s\tm@v/a.go:1:1\t\ttrue\treason\n",            // no rule
		"s m@v/a.go:1:1 rule true reason\n",            // spaces, not tabs
	} {
		if _, err := ParseExpected(strings.NewReader(in)); err == nil {
			t.Errorf("ParseExpected(%q): no error", in)
		}
	}
}
