package directives_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/guardvet/guardvet/analyzer/directives"
)

// The checklocks grammar, row by row: a comment in a place, what
// checklocks does with it, read from its source (gvisor.dev/gvisor
// tools/checklocks at the version the corpus pins), and what guardvet
// does: what it applies and what it reports at the comment.

// places are where a row's comment goes; %s is the comment. The
// annotated object is x (a field, a variable) or f (a function); line
// rows annotate the return statement of g.
var places = map[string]string{
	"field":         "type T struct {\n\tmu sync.Mutex\n\t%s\n\tx int\n}\n",
	"field-end":     "type T struct {\n\tmu sync.Mutex\n\tx int %s\n}\n",
	"var":           "%s\nvar x int\n",
	"var-group":     "var (\n\t%s\n\tx int\n)\n",
	"var-group-end": "var (\n\tx int %s\n)\n",
	"func":          "type T struct{ mu sync.Mutex }\n\n%s\nfunc (t *T) f() {}\n",
	"local":         "func g() {\n\t%s\n\tvar x int\n\t_ = x\n}\n",
	"line-end":      "type T struct {\n\tmu sync.Mutex\n\tn  int //guard:by mu\n}\n\nfunc (t *T) g() int {\n\treturn t.n %s\n}\n",
	"line-alone":    "type T struct {\n\tmu sync.Mutex\n\tn  int //guard:by mu\n}\n\nfunc (t *T) g() int {\n\t%s\n\treturn t.n\n}\n",
	"init-line":     "var x = []int{len(\"a\"), %s\n\t0,\n}\n",
	"init-end":      "var x = len(\"b\") %s\n",
	"type-group":    "%s\ntype (\n\tx struct {\n\t\tmu    sync.Mutex\n\t\tinner struct{ mu sync.Mutex }\n\t}\n\ty int\n)\n",
	"local-type":    "func g() {\n\ttype L struct {\n\t\tmu sync.Mutex\n\t\t%s\n\t\tx int\n\t}\n\t_ = L{}\n}\n",
	"slice-elem":    "type S struct {\n\titems []struct {\n\t\tmu sync.Mutex\n\t\t%s\n\t\tx int\n\t}\n}\n",
}

type grammarRow struct {
	place, comment string
	// checklocks is what checklocks does, and where its source says so.
	checklocks string
	// applied is what guardvet applies: the fact on x or f, "ignore" or
	// "force" for a line, or "" for nothing.
	applied string
	// report is a part of guardvet's diagnostic at the comment, or "".
	report string
}

var grammar = []grammarRow{
	// annotations.go, extractAnnotations: strings.HasPrefix(c.Text, "// +checklocks:").
	{"field", "// +checklocks:mu", "guards x (facts.go fillLockGuardFacts)", "guard(by mu)", ""},
	{"field-end", "// +checklocks:mu", "guards x: structLockGuardFacts reads field.Comment too", "guard(by mu)", ""},
	{"field", "//+checklocks:mu", "skipped: no prefix \"// +checklocks:\"", "", "without a space after //"},
	{"field", "//  +checklocks:mu", "skipped: no prefix \"// +checklocks:\"", "", "unless exactly one space follows //"},
	{"field", "//\t+checklocks:mu", "skipped: no prefix \"// +checklocks:\"", "", "unless exactly one space follows //"},
	{"field", "/* +checklocks:mu */", "skipped: no prefix \"// +checklocks:\"", "", "in a /* */ comment"},
	{"field", "// +checklocks:mu protects x", "reported: guard \"mu protects x\" cannot be resolved (fillLockGuardFacts)", "", "as the lock path (mu protects x)"},
	{"field", "// +checklocks:mu // x", "reported: guard \"mu // x\" cannot be resolved", "", "as the lock path (mu // x)"},
	{"field", "// +checklocksignore", "x atomicIgnore, no guard (fillLockGuardFacts)", "", ""},
	{"field", "// +checklocksignore.", "the same: \"// +checklocksignore\" is a prefix", "", ""},
	{"field", "// +checkatomic", "x atomicRequired (fillLockGuardFacts)", "guard(atomic)", ""},
	{"field", "// +checkatomic: written with atomic.Store", "the same, by prefix", "guard(atomic)", ""},
	{"field", "// +checkatomicignore", "the same, by prefix: atomicRequired", "guard(atomic)", "reads +checkatomicignore as +checkatomic"},
	{"field", "// +checklocksread:mu", "reported: not legal on fields (fillLockGuardFacts)", "", "applies to functions, not to a field"},
	{"field", "// +checkloks:mu", "skipped: no prefix matches", "", "did you mean +checklocks?"},
	{"field", "// checklocks:mu", "skipped: no prefix matches", "", "without its +"},
	{"field", "// +checklocksfail", "an expected failure of its own tests (addFailures)", "", ""},
	{"field", "// +checkescape", "another analyzer's", "", ""},
	// checklocks.go forAllGlobals, facts.go globalLockGuardFacts: vs.Doc
	// and vs.Names[0] only; go/parser sets vs.Doc only inside var ( ... ).
	{"var", "// +checklocks:globalMu", "skipped: the doc is the GenDecl's, not the spec's", "", "of a package-level variable it reads only"},
	{"var-group", "// +checklocks:globalMu", "guards x", "guard(by globalMu)", ""},
	{"var-group-end", "// +checklocks:globalMu", "skipped: vs.Comment is not read", "", "of a package-level variable it reads only"},
	// facts.go functionFacts: the FuncDecl's doc.
	{"func", "// +checklocks:t.mu", "f needs t.mu held", "contract(holds t.mu)", ""},
	{"func", "// +checklocksacquire:t.mu", "f acquires t.mu", "contract(acquires t.mu)", ""},
	{"func", "// +checklocksignore", "f not checked", "contract(ignore)", ""},
	{"func", "// +checklocksignore: a reason", "the same, by prefix", "contract(ignore)", ""},
	{"func", "// +checklocksignore.", "the same, by prefix", "contract(ignore)", ""},
	{"func", "//+checklocks:t.mu", "skipped: no prefix matches", "", "without a space after //"},
	{"func", "// +checklocks:t.mu and more", "reported: \"t.mu and more\" matches no parameter (resolveFunctionGuard)", "", "as the lock path (t.mu and more)"},
	// Nothing reads annotations in a function body but extractLineFailures.
	{"local", "// +checklocks:globalMu", "skipped", "", "inside a function body"},
	{"local-type", "// +checklocks:mu", "skipped: forAllTypes visits package-level types only", "", "not declared at package level"},
	{"slice-elem", "// +checklocks:mu", "skipped: structLockGuardFacts recurses into direct struct fields only", "", "written inside another type"},
	// annotations.go extractLineFailures: any comment, keyed by its own line.
	{"line-end", "// +checklocksignore", "exempts the line", "ignore", ""},
	{"line-end", "// +checklocksignore.", "the same, by prefix", "ignore", ""},
	{"line-end", "// +checklocksignore the caller holds t.mu", "the same, by prefix", "ignore", ""},
	{"line-end", "// +checklocksignored", "the same, by prefix", "ignore", "reads +checklocksignored as +checklocksignore"},
	{"line-end", "//+checklocksignore", "skipped: no prefix matches", "", "without a space after //"},
	{"line-end", "// +checklocksforce", "forces the line's locks", "force", ""},
	{"line-end", "// +checklocksforce: the caller holds it", "the same, by prefix", "force", ""},
	{"line-alone", "// +checklocksignore", "exempts its own line, which holds nothing", "", "on a line of its own"},
	{"line-alone", "// +checklocksforce", "forces its own line, which holds nothing", "", "on a line of its own"},
	// facts.go typeAliasFacts: ts.Doc, ts.Comment and the declaration's
	// doc, for every spec of type ( ... ).
	{"type-group", "// +checklocksalias:inner.mu=mu", "an alias on x (and \"only valid on struct types\" on y)", "aliases(inner.mu=mu)", ""},
	// checklocks.go run: package-level initializers are not analysed
	// (buildssa's SrcFuncs are function declarations and their literals);
	// a line annotation on one is keyed by its line all the same.
	{"init-line", "// +checklocksignore", "exempts the line, where nothing is checked", "ignore", ""},
	{"init-end", "// +checklocksignore: set before any goroutine starts", "the same", "ignore", ""},
	{"init-end", "// +checklocksforce", "forces the line, where nothing is checked", "force", ""},
	{"line-alone", "//guard:ignore the caller holds t.mu", "not an annotation: guardvet's own, which covers the next line", "ignore", ""},
}

// recorder collects analysistest's complaints: the rows carry no // want.
type recorder struct{}

func (recorder) Errorf(string, ...any) {}

func TestChecklocksGrammarTable(t *testing.T) {
	dir := t.TempDir()
	var pkgs []string
	for i, row := range grammar {
		tmpl, ok := places[row.place]
		if !ok {
			t.Fatalf("row %d: no place %q", i, row.place)
		}
		pkg := fmt.Sprintf("p%d", i)
		src := "package " + pkg + "\n\nimport \"sync\"\n\nvar globalMu sync.Mutex\n\n" + fmt.Sprintf(tmpl, row.comment)
		if err := os.MkdirAll(filepath.Join(dir, "src", pkg), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "src", pkg, pkg+".go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, pkg)
	}
	results := analysistest.Run(recorder{}, dir, directives.Analyzer, pkgs...)
	if len(results) != len(grammar) {
		t.Fatalf("%d results for %d rows", len(results), len(grammar))
	}
	for _, r := range results {
		var i int
		fmt.Sscanf(r.Pass.Pkg.Name(), "p%d", &i)
		row := grammar[i]
		name := fmt.Sprintf("%s %q (checklocks: %s)", row.place, row.comment, row.checklocks)
		if r.Err != nil {
			t.Errorf("%s: %v", name, r.Err)
			continue
		}
		if got := applied(r); got != row.applied {
			t.Errorf("%s: guardvet applies %q, want %q", name, got, row.applied)
		}
		var msgs []string
		for _, d := range r.Diagnostics {
			msgs = append(msgs, d.Message)
			if p := r.Pass.Fset.Position(d.Pos); p.Line != commentLine(row) {
				t.Errorf("%s: diagnostic on line %d, not the comment's %d: %s", name, p.Line, commentLine(row), d.Message)
			}
		}
		got := strings.Join(msgs, "\n")
		switch {
		case row.report == "" && got != "":
			t.Errorf("%s: unexpected report %q", name, got)
		case row.report != "" && !strings.Contains(got, row.report):
			t.Errorf("%s: report %q, want one containing %q", name, got, row.report)
		}
	}
}

// applied summarises what guardvet applies in a row's package.
func applied(r *analysistest.Result) string {
	res := r.Result.(*directives.Result)
	for obj, facts := range r.Facts {
		if obj != nil && (obj.Name() == "x" || obj.Name() == "f") {
			for _, f := range facts {
				return fmt.Sprint(f)
			}
		}
	}
	if len(res.Ignores) > 0 {
		return "ignore"
	}
	for _, fn := range r.Pass.Files {
		tf := r.Pass.Fset.File(fn.Pos())
		for line := 1; line <= tf.LineCount(); line++ {
			if res.Forced(tf.Position(tf.LineStart(line))) {
				return "force"
			}
		}
	}
	return ""
}

// commentLine is the line of a row's comment in its file.
func commentLine(row grammarRow) int {
	before, _, _ := strings.Cut(places[row.place], "%s")
	return strings.Count(before, "\n") + 7 // the package clause, import and globalMu take six lines
}
