package suite_test

import (
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/guardvet/guardvet/analyzer/suite"
)

// TestFixturesWithEveryRule checks fixture packages with every rule of the
// suite on, in the default configuration a user gets. Each diagnostic that
// any rule reports must match a // want comment on its line (the syntax of
// analysistest: "regexp" or `regexp`, several per comment; fact
// expectations, name:"regexp", are not checked here), and each want must
// be met. So a fixture written for one rule cannot hide another rule's
// false positive on the same code.
func TestFixturesWithEveryRule(t *testing.T) {
	testdata, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  testdata,
		Env:  append(os.Environ(), "GOPATH="+testdata, "GO111MODULE=off", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, fixturesWithEveryRule...)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Errorf("%s: %v", p.PkgPath, e)
		}
	}
	res, err := checker.Analyze(suite.Analyzers(), pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
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
	for _, p := range pkgs {
		for _, f := range p.Syntax {
			for _, g := range f.Comments {
				for _, c := range g.List {
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
				problems = append(problems, fmt.Sprintf("%s:%d: unexpected diagnostic %s", rel(k.file), k.line, d))
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
// on. Not listed, and checked by their own rule's test only:
//   - guardinfer, guardinfersuggest, lockedconv: written for -infer, which
//     is off by default;
//   - ignoresguarded: an ignore that suppresses a guardedby finding is
//     reported unused when that rule's case is not reported;
//   - sessiontwin: its noblock and checkthenact findings have no want yet.
var fixturesWithEveryRule = []string{
	"atomicasm/...",
	"atomicwrap/...",
	"baddirectives/...",
	"basic/...",
	"checklocks/...",
	"checklocksbad/...",
	"checklocksforeign/...",
	"checklocksreal/...",
	"checkthenact/...",
	"closures/...",
	"contracts/...",
	"crosspkg/...",
	"ctasections/...",
	"deferbranch/...",
	"deferpaths/...",
	"escape/...",
	"escapesnap/...",
	"fixes/...",
	"fresh/...",
	"generics/...",
	"globals/...",
	"guarantee/...",
	"guaranteeexceptions/...",
	"ignores/...",
	"importers/...",
	"joinmodes/...",
	"lockorder/...",
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
	"trylockwrap/...",
	"wrappers/...",
}
