package configfile

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var schema = Schema{
	Rules: []string{"checkthenact", "directives", "guardedby", "guardinfer", "shared", "unusedignore"},
	Flag: func(name, value string) error {
		switch name {
		case "noblock.all", "test":
			if value != "true" && value != "false" {
				return fmt.Errorf("want true or false")
			}
			return nil
		case "tags", "config.infer.score", "config.infer.ratio":
			return nil
		}
		return fmt.Errorf("no such flag")
	},
}

const example = `# guardvet's settings
disable: [unusedignore]
inference:
  score: 3
flags:
  noblock.all: true
tests: false
tags: [integration, e2e]
baseline: ci/guardvet-baseline.json
overrides:
  - paths: [internal/gen]
    exclude: true
  - paths: ["legacy/**"]
    infer: true
  - paths: ["**/*_test.go"]
    disable: checkthenact
`

func TestParse(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, Name)
	f, err := Parse(path, []byte(example), schema)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f.Rules, map[string]bool{"unusedignore": false}) {
		t.Errorf("Rules = %v", f.Rules)
	}
	want := []Flag{{"config.infer.score", "3", 4}, {"noblock.all", "true", 6}, {"test", "false", 7}, {"tags", "integration,e2e", 8}}
	if !reflect.DeepEqual(f.Flags, want) {
		t.Errorf("Flags = %v, want %v", f.Flags, want)
	}
	if f.Baseline != filepath.Join(dir, "ci", "guardvet-baseline.json") {
		t.Errorf("Baseline = %s, want it relative to the file", f.Baseline)
	}
	in := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	for file, want := range map[string]bool{"internal/gen/x.go": true, "internal/gen/sub/y.go": true, "internal/generate.go": false, "legacy/a.go": false} {
		if got := f.Excluded(in(file)); got != want {
			t.Errorf("Excluded(%s) = %v, want %v", file, got, want)
		}
	}
	if !f.RuleOn("guardinfer", in("legacy/deep/a.go"), false) || f.RuleOn("guardinfer", in("app/a.go"), false) {
		t.Errorf("inference should be on in legacy/ only")
	}
	if f.RuleOn("checkthenact", in("app/a_test.go"), true) || !f.RuleOn("checkthenact", in("app/a.go"), true) {
		t.Errorf("checkthenact should be off in tests only")
	}
	if f.RuleOn("unusedignore", in("legacy/a.go"), true) {
		t.Errorf("unusedignore is off everywhere")
	}
	if !f.RuleAnywhere("guardinfer", false) || f.RuleAnywhere("shared", false) || f.RuleAnywhere("unusedignore", true) {
		t.Errorf("RuleAnywhere: want guardinfer somewhere, shared and unusedignore nowhere")
	}
	if !f.Varies("guardinfer", false) || f.Varies("unusedignore", true) || !f.Varies("checkthenact", true) {
		t.Errorf("Varies: want inference and checkthenact to vary, unusedignore not")
	}
	if f.Excluded("/elsewhere/internal/gen/x.go") {
		t.Errorf("a file outside the configuration's tree matched an override")
	}
}

// TestErrors: every mistake names the file, the line and what is valid.
func TestErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"disabel: [unusedignore]\n", `:1:1: unknown key "disabel"; the keys here are baseline, disable, enable`},
		{"disable: [guardby]\n", `:1:11: no rule "guardby"; the rules are checkthenact, directives, guardedby`},
		{"infer: yes\n", `:1:8: want true or false, got "yes"`},
		{"flags:\n  noblock.all: maybe\n", `:2:16: noblock.all: want true or false`},
		{"flags:\n  nosuch.flag: 1\n", `:2:16: nosuch.flag: no such flag`},
		{"inference:\n  scor: 3\n", `:2:3: unknown key "scor"; the keys here are explain, locked, prose, ratio, score`},
		{"overrides:\n  - paths: [gen]\n    exclud: true\n", `:3:5: unknown key "exclud"; the keys here are disable, enable, exclude, infer, paths, shared`},
		{"overrides:\n  - exclude: true\n", `:2:5: an override needs paths:`},
		{"overrides:\n  - paths: [\"gen/[\"]\n", `:2:13: bad glob "gen/["`},
		{"overrides: gen\n", `:1:12: want a list of overrides`},
		{"tests: true\ntests: false\n", `:2:1: tests is set twice (first at line 1)`},
		{"- a\n", `:1:1: want a mapping of settings`},
		{"disable: [a\n", `line 1`},
	} {
		_, err := Parse("dir/"+Name, []byte(c.text), schema)
		if err == nil || !strings.Contains(err.Error(), "dir/"+Name) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) = %v, want an error naming the file and %q", c.text, err, c.want)
		}
	}
	if f, err := Parse(Name, nil, schema); err != nil || len(f.Rules) != 0 {
		t.Errorf("an empty file: %v, %v", f, err)
	}
}

// TestFind: the file is found in the working directory or above: up to
// the module root outside a repository, up to the repository root inside
// one (a file at the root serves the modules below it).
func TestFind(t *testing.T) {
	root := t.TempDir()
	mod := filepath.Join(root, "mod")
	deep := filepath.Join(mod, "a", "b")
	os.MkdirAll(deep, 0o755)
	os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module m\n"), 0o644)
	os.WriteFile(filepath.Join(root, Name), []byte(""), 0o644) // above the module, no repository: not found
	if got, err := Find(deep); err != nil || got != "" {
		t.Errorf("Find above the module root, outside a repository: %q, %v", got, err)
	}
	os.Mkdir(filepath.Join(root, ".git"), 0o755) // now root is a repository's root
	if got, _ := Find(deep); got != filepath.Join(root, Name) {
		t.Errorf("Find in a module below a repository's root = %q, want the root's", got)
	}
	os.WriteFile(filepath.Join(mod, Name), []byte(""), 0o644)
	if got, _ := Find(deep); got != filepath.Join(mod, Name) {
		t.Errorf("Find = %q, want the module root's", got)
	}
	os.WriteFile(filepath.Join(mod, "a", Name), []byte(""), 0o644)
	if got, _ := Find(deep); got != filepath.Join(mod, "a", Name) {
		t.Errorf("Find = %q, want the nearest", got)
	}
	if got, _ := Find(filepath.Dir(root)); got != "" {
		t.Errorf("Find above everything = %q", got)
	}
}
