package corpus

import (
	"errors"
	"strings"
	"testing"
)

func TestDetails(t *testing.T) {
	set := Set{Name: "s"}
	entry := func(verdict string) *Entry {
		return &Entry{Set: "s", Pos: "f.go:1:1", Rule: "r", Verdict: verdict, Line: 7}
	}
	diag := Diag{"s", "f.go:1:1", "r", "msg"}
	for _, tc := range []struct {
		name    string
		run     *Run
		entries []*Entry
		code    int
		say     string
	}{
		{"clean", &Run{Set: set}, nil, ExitOK, "corpus gate: ok: 0 diagnostics"},
		{"expected", &Run{Set: set, Diags: []Diag{diag}}, []*Entry{entry(True)}, ExitOK, "1 true, 0 benign"},
		{"unexpected", &Run{Set: set, Diags: []Diag{diag}}, nil, ExitFail, "f.go:1:1\tr\tmsg"},
		{"known false", &Run{Set: set, Diags: []Diag{diag}}, []*Entry{entry(False)}, ExitOK, "0 benign, 1 known false positives"},
		{"missing", &Run{Set: set}, []*Entry{entry(Benign)}, ExitFail, "1 missing"},
		{"untriaged", &Run{Set: set, Diags: []Diag{diag}}, []*Entry{entry(Untriaged)}, ExitFail, "1 untriaged"},
		{"typo", &Run{Set: set, Diags: []Diag{diag}}, []*Entry{entry("ture")}, ExitFail, `line 7: "ture"`},
		{"error", &Run{Set: set, Err: errors.New("guardvet exited 2")}, []*Entry{entry(True)}, ExitError, "exited 2"},
	} {
		var b strings.Builder
		res := Check(tc.run, tc.entries)
		code := Details(&b, []*Result{res}, "expected.txt")
		if code != tc.code || !strings.Contains(b.String(), tc.say) {
			t.Errorf("%s: exit %d, want %d; output should contain %q:\n%s", tc.name, code, tc.code, tc.say, b.String())
		}
		_ = res.Row() // must not panic, error or not
	}
}
