package suite_test

import (
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/guardvet/guardvet/analyzer/internal/testconfig"
	"github.com/guardvet/guardvet/analyzer/internal/testdir"
	"github.com/guardvet/guardvet/analyzer/suite"
)

// TestFixturesWithEveryRule checks fixture packages with every rule of the
// suite on, in the default configuration a user gets. Each diagnostic that
// any rule reports must match a // want comment on its line (the syntax of
// analysistest: "regexp" or `regexp`, several per comment; fact
// expectations, name:"regexp", are not checked here), and each want must
// be met. So a fixture written for one rule cannot hide another rule's
// false positive on the same code. A "// gap: `regexp`" comment marks a
// diagnostic that should be reported and is not yet (a known false
// negative): the line must stay silent, and when it is reported the test
// says the gap is closed.
func TestFixturesWithEveryRule(t *testing.T) {
	checkWithEveryRule(t, fixturesWithEveryRule)
}

// TestInferenceFixturesWithEveryRule does the same for the fixtures
// written for guard inference, with inference on (-config.infer).
func TestInferenceFixturesWithEveryRule(t *testing.T) {
	checkWithEveryRule(t, []string{"guardinfer/...", "guardinfertests/...", "lockedconv/..."}, "infer", "true")
}

// TestSharedFixturesWithEveryRule checks every fixture of
// fixturesWithEveryRule, and the shared rule's own, with the shared rule on
// (-config.shared) as well: the other fixtures must not gain findings from
// it, and its fixture must not gain findings from the other rules.
func TestSharedFixturesWithEveryRule(t *testing.T) {
	checkWithEveryRule(t, append(slices.Clone(fixturesWithEveryRule), "shared/..."), "shared", "true")
}

// TestStrictFixturesWithEveryRule checks the fixtures written for
// -config.strict with every rule on and it on: they show what checkthenact
// and escape leave out by default, reported. (The default fixtures that
// show those shapes silent, escapecow and ctalossless, are not rerun here:
// under -config.strict their silent shapes are reported.)
func TestStrictFixturesWithEveryRule(t *testing.T) {
	checkWithEveryRule(t, strictFixtures, "strict", "true")
}

// TestNoblockAllFixturesWithEveryRule checks the fixture written for
// -noblock.all with every rule on and it on.
func TestNoblockAllFixturesWithEveryRule(t *testing.T) {
	checkWithEveryRule(t, []string{"noblockall/..."}, "noblock.all", "true")
}

var strictFixtures = []string{"ctastrict/...", "escapestrict/..."}

// checkWithEveryRule checks fixtures with every rule, under the default
// configuration with opts (name, value, ...) set.
func checkWithEveryRule(t *testing.T, fixtures []string, opts ...string) {
	t.Helper()
	testdata := testdir.Path(t)
	pkgs, res := analyzeFixtures(t, testdata, fixtures, opts...)
	type key struct {
		file string
		line int
	}
	got := map[key][]string{} // diagnostics by line, as "rule: message"
	for _, act := range res.Roots {
		if act.Err != nil {
			t.Errorf("%s: %v", act, act.Err)
			continue
		}
		for _, d := range act.Diagnostics {
			p := act.Package.Fset.Position(d.Pos)
			k := key{p.Filename, p.Line}
			got[k] = append(got[k], act.Analyzer.Name+": "+d.Message)
		}
	}
	wants := map[key][]*regexp.Regexp{}
	gaps := map[key][]*regexp.Regexp{} // "// gap:" comments: known false negatives
	for _, p := range pkgs {
		for _, f := range p.Syntax {
			for _, g := range f.Comments {
				for _, c := range g.List {
					if pat, ok := strings.CutPrefix(c.Text, "// gap: "); ok {
						re, err := regexp.Compile(strings.Trim(pat, "`\""))
						if err != nil {
							t.Errorf("%s: %v", p.Fset.Position(c.Slash), err)
							continue
						}
						pos := p.Fset.Position(c.Slash)
						gaps[key{pos.Filename, pos.Line}] = append(gaps[key{pos.Filename, pos.Line}], re)
						continue
					}
					res, err := parseWants(c)
					if err != nil {
						t.Errorf("%s: %v", p.Fset.Position(c.Slash), err)
					}
					if len(res) > 0 {
						pos := p.Fset.Position(c.Slash)
						k := key{pos.Filename, pos.Line}
						wants[k] = append(wants[k], res...)
					}
				}
			}
		}
	}
	var problems []string
	rel := func(f string) string {
		if r, err := filepath.Rel(filepath.Join(testdata, "src"), f); err == nil {
			return r
		}
		return f
	}
	for k, diags := range got {
		for _, d := range diags {
			msg := d[strings.Index(d, ": ")+2:]
			matched := -1
			for i, re := range wants[k] {
				if re.MatchString(msg) {
					matched = i
					break
				}
			}
			if matched < 0 {
				what := "unexpected diagnostic"
				for _, re := range gaps[k] {
					if re.MatchString(msg) {
						what = "known gap now reported (turn its // gap: into a // want)"
					}
				}
				problems = append(problems, fmt.Sprintf("%s:%d: %s %s", rel(k.file), k.line, what, d))
				continue
			}
			wants[k] = append(wants[k][:matched], wants[k][matched+1:]...)
		}
	}
	for k, res := range wants {
		for _, re := range res {
			problems = append(problems, fmt.Sprintf("%s:%d: no diagnostic matched %q", rel(k.file), k.line, re))
		}
	}
	sort.Strings(problems)
	for _, p := range problems {
		t.Error(p)
	}
}

// analyzeFixtures loads fixture packages from the GOPATH-style tree gopath
// (gopath/src/<pkg>) and runs every rule of the suite on them. Load and
// type errors fail the test.
func analyzeFixtures(t *testing.T, gopath string, patterns []string, opts ...string) ([]*packages.Package, *checker.Graph) {
	t.Helper()
	pkgs := loadFixtures(t, gopath, patterns)
	res, err := checker.Analyze(testconfig.Bind(t, suite.Analyzers(), opts...), pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pkgs, res
}

// loadFixtures loads fixture packages from the GOPATH-style tree gopath;
// load and type errors fail the test.
func loadFixtures(t *testing.T, gopath string, patterns []string) []*packages.Package {
	t.Helper()
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  gopath,
		Env:  append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Errorf("%s: %v", p.PkgPath, e)
		}
	}
	return pkgs
}

// parseWants returns the diagnostic expectations of a // want comment.
func parseWants(c *ast.Comment) ([]*regexp.Regexp, error) {
	// The want may follow a directive in the same comment:
	// //guard:by mu // want "..."
	text := strings.TrimSuffix(c.Text, "*/")
	i := strings.LastIndex(text, "// want ")
	if i < 0 {
		i = strings.LastIndex(text, "/* want ")
	}
	if i < 0 {
		return nil, nil
	}
	text = text[i+len("// "):]
	var s scanner.Scanner
	fset := token.NewFileSet()
	src := []byte(text[len("want "):])
	s.Init(fset.AddFile("", -1, len(src)), src, nil, 0)
	var out []*regexp.Regexp
	fact := false
	for {
		_, tok, lit := s.Scan()
		switch tok {
		case token.EOF, token.SEMICOLON:
			return out, nil
		case token.IDENT, token.COLON:
			fact = true // name:"fact": not a diagnostic
			continue
		case token.STRING:
			if fact {
				fact = false
				continue
			}
			pat, err := strconv.Unquote(lit)
			if err != nil {
				return nil, err
			}
			re, err := regexp.Compile(pat)
			if err != nil {
				return nil, err
			}
			out = append(out, re)
		default:
			if tok.IsKeyword() { // package:"fact"
				fact = true
				continue
			}
			return nil, fmt.Errorf("want comment: unexpected %s", tok)
		}
	}
}

// fixturesWithEveryRule are the fixture packages checked with every rule
// on. Not listed:
//   - guardinfer, guardinfertests, lockedconv: written for -infer, which
//     is off by default; TestInferenceFixturesWithEveryRule checks them
//     with it on;
//   - guardinferexplain: its wants end with the evidence that
//     -config.infer.explain adds (guardinfer's TestExplain);
//   - shared: written for -config.shared, which is off by default;
//     TestSharedFixturesWithEveryRule checks it, and all of these, with it on;
//   - escapestrict, ctastrict: written for -config.strict, which is off
//     by default; TestStrictFixturesWithEveryRule checks them with it on;
//   - guardinfersuggest: its wants are inference's suggestions, and in
//     -suggest mode the command prints nothing else (guardedby's report of
//     a ...Locked call on it is not shown);
var fixturesWithEveryRule = []string{
	"atomicasm/...",
	"atomiccopy/...",
	"anonfield/...",
	"atomicwrap/...",
	"baddirectives/...",
	"basic/...",
	"checklocks/...",
	"checklocksbad/...",
	"checklocksforeign/...",
	"checklocksgrammar/...",
	"checklocksreal/...",
	"checkthenact/...",
	"closures/...",
	"condacquire/...",
	"contracts/...",
	"crosspkg/...",
	"ctacompute/...",
	"ctalossless/...",
	"ctaflow/...",
	"ctaouter/...",
	"ctasections/...",
	"ctashapes/...",
	"deferbranch/...",
	"deferreturn/...",
	"deferpaths/...",
	"downgrade/...",
	"escape/...",
	"escapecow/...",
	"escapesnap/...",
	"fixes/...",
	"fresh/...",
	"funcvalrelease/...",
	"heldbycallers/...",
	"joinedobjects/...",
	"lockinstance/...",
	"generics/...",
	"globals/...",
	"guarantee/...",
	"guaranteeexceptions/...",
	"ignores/...",
	"ignoresguarded/...",
	"ignoresinfer/...",
	"importers/...",
	"joinmodes/...",
	"lastref/...",
	"lockmap/...",
	"lockorder/...",
	"orderhint/...",
	"lockretake/...",
	"nestedlock/...",
	"noblock/...",
	"onereport/...",
	"onlyhelpers/...",
	"ptysession/...",
	"readwrite/...",
	"reassign/...",
	"retake/...",
	"retakeorder/...",
	"samelock/...",
	"sessiontwin/...",
	"sharedignore/...", // with the shared rule off, its //guard:ignore is not reported unused
	"suppressonly/...",
	"trylockwrap/...",
	"wrappers/...",
}
