package adopt

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardvet/guardvet/cmd/guardvet/internal/configfile"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/output"
)

// TestHintUnannotated: a clean run whose checked files have no
// directive prints the one hint line, naming how many packages it
// checked; a directive in one of them, a finding, or hints: false in the
// configuration file keeps it quiet.
func TestHintUnannotated(t *testing.T) {
	dir := t.TempDir()
	plain, annotated := filepath.Join(dir, "plain.go"), filepath.Join(dir, "annotated.go")
	files := map[string]string{
		plain:     "package a\n\n// check the value first\nvar x int\n",
		annotated: "package a\n\nimport \"sync\"\n\ntype T struct {\n\tmu sync.Mutex\n\tn  int //guard:by mu\n}\n",
	}
	for name, src := range files {
		if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	result := func(checked ...string) output.Result {
		r := output.Result{Checked: map[string]bool{}, Dirs: map[string]bool{dir: true}, Code: output.ExitClean}
		for _, f := range checked {
			r.Checked[f] = true
		}
		return r
	}
	var buf bytes.Buffer
	(&Adoption{}).HintUnannotated(result(plain), &buf)
	if got := buf.String(); !strings.HasPrefix(got, "guardvet: no //guard: or checklocks directive in the 1 package checked,") || strings.Count(got, "\n") != 1 {
		t.Errorf("no directive: %q, want the hint", got)
	}
	conf, err := configfile.Parse(filepath.Join(dir, configfile.Name), []byte("hints: false\n"), configfile.Schema{})
	if err != nil || !conf.NoHints {
		t.Fatalf("hints: false: %v", err)
	}
	buf.Reset()
	(&Adoption{conf: conf}).HintUnannotated(result(plain), &buf)
	if buf.Len() > 0 {
		t.Errorf("hints: false: %q, want no hint", buf.String())
	}
	for what, res := range map[string]output.Result{
		"a directive":  result(plain, annotated),
		"a finding":    func() output.Result { r := result(plain); r.Findings = []output.Finding{{}}; return r }(),
		"errors":       func() output.Result { r := result(plain); r.Code = output.ExitError; return r }(),
		"nothing read": result(),
	} {
		buf.Reset()
		(&Adoption{}).HintUnannotated(res, &buf)
		if buf.Len() > 0 {
			t.Errorf("%s: %q, want no hint", what, buf.String())
		}
	}
}
