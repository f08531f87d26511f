package adopt

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/cmd/guardvet/internal/baseline"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/configfile"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/output"
)

// TestBaselineEntryScope: a baseline entry is in a run's scope, matched
// or reported stale, when its file was checked and its rule ran there;
// an entry of a file the run did not check, of a rule it did not run, of
// guard inference without -infer, or of a file the configuration file
// excludes is out of scope, and -write-baseline keeps it. An entry of a
// deleted file is in every run's scope: no run can report it again.
func TestBaselineEntryScope(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.go", "unchecked.go", "gen/g.go"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte("package a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var enabled []*analysis.Analyzer
	for _, name := range []string{"guardedby", "lockorder", "guardinfer"} {
		enabled = append(enabled, &analysis.Analyzer{Name: name})
	}
	res := output.Result{Checked: map[string]bool{filepath.Join(dir, "a.go"): true, filepath.Join(dir, "gen", "g.go"): true}}
	conf, err := configfile.Parse(filepath.Join(dir, configfile.Name), []byte("overrides:\n  - paths: [gen]\n    exclude: true\n"),
		configfile.Schema{Rules: []string{"guardedby", "lockorder", "guardinfer", "noblock"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		rule, file string
		conf       bool // with the configuration file
		want       bool
	}{
		{"guardedby", "a.go", false, true},
		{"guardedby", "a.go", true, true},
		{"noblock", "a.go", false, false}, // the rule did not run
		{"guardedby", "unchecked.go", false, false},
		{"guardinfer", "a.go", false, false}, // inference is off
		{"guardedby", "gen/g.go", false, true},
		{"guardedby", "gen/g.go", true, false}, // excluded by the configuration file
		{"noblock", "deleted.go", false, true}, // gone: in every run's scope
	} {
		ad := &Adoption{path: filepath.Join(dir, "guardvet-baseline.json"), decided: map[string]bool{}}
		if c.conf {
			ad.conf = conf
		}
		got := ad.inScope(res, enabled)(baseline.Finding{Rule: c.rule, File: c.file, Line: 1, Message: "m"})
		if got != c.want {
			t.Errorf("entry %s in %s (configuration file: %v): in scope %v, want %v", c.rule, c.file, c.conf, got, c.want)
		}
	}
}
