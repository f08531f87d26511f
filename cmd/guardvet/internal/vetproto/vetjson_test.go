package vetproto

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSortVetJSON: unitchecker's JSON, an entry per analyzer, becomes one
// entry per package, sorted by file, line, column, rule and message, each
// diagnostic as written but for its related positions, which are folded
// into its message; a failed analyzer makes the entry its error.
func TestSortVetJSON(t *testing.T) {
	in := `{
	"p": {
		"noblock": [{"category": "noblock", "posn": "/a/b.go:9:2", "end": "/a/b.go:9:2", "message": "n", "related": [{"posn": "/a/b.go:8:2", "end": "/a/b.go:8:2", "message": "r"}]}],
		"guardedby": [
			{"category": "guardedby", "posn": "/a/b.go:10:1", "end": "/a/b.go:10:1", "message": "g2"},
			{"category": "guardedby", "posn": "/a/b.go:9:2", "end": "/a/b.go:9:2", "message": "g1"},
			{"category": "guardedby", "posn": "/a/a.go:30:1", "end": "/a/a.go:30:1", "message": "g0 <&>"}
		],
		"directives": [{"category": "directives", "posn": "-", "end": "-", "message": "d"}]
	}
}`
	out, err := sortVetJSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var tree map[string]map[string][]struct{ Category, Posn, Message string }
	if err := json.Unmarshal(out, &tree); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var got []string
	for _, d := range tree["p"]["guardvet"] {
		got = append(got, d.Category+" "+d.Posn+" "+d.Message)
	}
	want := []string{"directives - d", "guardedby /a/a.go:30:1 g0 <&>", "guardedby /a/b.go:9:2 g1", "noblock /a/b.go:9:2 n; related: b.go:8:2: r", "guardedby /a/b.go:10:1 g2"}
	if len(tree) != 1 || len(tree["p"]) != 1 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s\nin\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), out)
	}
	if strings.Contains(string(out), `"related"`) || !strings.Contains(string(out), `"end": "/a/b.go:9:2"`) || !strings.Contains(string(out), `\u003c\u0026\u003e`) || !strings.HasSuffix(string(out), "}\n") {
		t.Errorf("related positions left as entries of their own, or the end, HTML escapes or the final newline lost:\n%s", out)
	}

	in = `{"p": {"lockorder": {"error": "failed prerequisites: lockstate"}, "guardedby": {"error": "boom"}, "directives": [{"posn": "/a/b.go:1:1", "message": "d"}]}}`
	out, err = sortVetJSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var failed map[string]map[string]struct{ Error string }
	if err := json.Unmarshal(out, &failed); err != nil || failed["p"]["guardvet"].Error != "guardedby: boom\nlockorder: failed prerequisites: lockstate" {
		t.Errorf("failed analyzers: %v\n%s", err, out)
	}

	if out, err := sortVetJSON([]byte("{}\n")); err != nil || string(out) != "{}\n" {
		t.Errorf("no diagnostics: %q, %v", out, err)
	}
	if _, err := sortVetJSON([]byte(`{"p": {"x": 3}}`)); err == nil {
		t.Errorf("an entry that is neither a list nor an error: no error")
	}
}
