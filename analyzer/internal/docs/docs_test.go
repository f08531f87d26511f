package docs_test

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/analyzer/lockstate"
	"github.com/guardvet/guardvet/analyzer/suite"
)

// The documentation is README.md (the quick start) and docs/ (the
// reference). These tests keep the two honest: every relative link and
// #anchor resolves, every rule has its page and its Analyzer.URL points at
// it, and every directive, checklocks annotation and analyzer flag is
// documented somewhere.

// repoBlob is the prefix of Analyzer.URL: the file at path on main.
const repoBlob = "https://github.com/guardvet/guardvet/blob/main/"

// repoRoot is the module root, three levels up from this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil || !strings.HasPrefix(string(data), "module github.com/guardvet/guardvet\n") {
		t.Fatalf("%s is not guardvet's module root (%v)", root, err)
	}
	return root
}

// markdownFiles returns README.md and every .md file under docs/, as
// slash-separated paths relative to root.
func markdownFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files
}

// outsideFences calls f with each line of a markdown document that is not
// inside a fenced code block, and its 1-based number.
func outsideFences(text string, f func(line string, number int)) {
	fence := ""
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		f(line, i+1)
	}
}

// proseLines returns the lines of a markdown document that are not inside
// a fenced code block, with their 1-based numbers, and inline code spans
// blanked out.
func proseLines(text string) (lines []string, numbers []int) {
	outsideFences(text, func(line string, number int) {
		lines = append(lines, codeSpan.ReplaceAllStringFunc(line, func(s string) string {
			return strings.Repeat("x", len(s))
		}))
		numbers = append(numbers, number)
	})
	return lines, numbers
}

var (
	codeSpan = regexp.MustCompile("`[^`]*`")
	heading  = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	link     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	mdLink   = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
)

// anchors returns the anchors GitHub gives the headings of a markdown
// document: lower case, punctuation other than - and _ dropped, spaces
// turned into -, and -1, -2, ... on repeats.
func anchors(text string) map[string]bool {
	set := map[string]bool{}
	seen := map[string]int{}
	outsideFences(text, func(line string, _ int) {
		m := heading.FindStringSubmatch(line)
		if m == nil {
			return
		}
		a := slug(m[1])
		if n := seen[a]; n > 0 {
			set[a+"-"+strconv.Itoa(n)] = true
		} else {
			set[a] = true
		}
		seen[a]++
	})
	return set
}

func slug(title string) string {
	title = mdLink.ReplaceAllString(title, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestSlug(t *testing.T) {
	for title, want := range map[string]string{
		"The headline example: a PTY that is closed while it is read": "the-headline-example-a-pty-that-is-closed-while-it-is-read",
		"Set-up: two commands":                           "set-up-two-commands",
		"`guardvet -suggest`, in one pass":               "guardvet--suggest-in-one-pass",
		"Compared with a grep guard and with checklocks": "compared-with-a-grep-guard-and-with-checklocks",
		"[Rules](rules/README.md) and flags":             "rules-and-flags",
	} {
		if got := slug(title); got != want {
			t.Errorf("slug(%q) = %q, want %q", title, got, want)
		}
	}
}

// TestLinks checks every relative link in README.md and docs/**/*.md: the
// file or directory must exist, and an #anchor must name a heading of the
// markdown file it points into.
func TestLinks(t *testing.T) {
	root := repoRoot(t)
	texts := map[string]string{}
	read := func(rel string) (string, bool) {
		if text, ok := texts[rel]; ok {
			return text, true
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return "", false
		}
		texts[rel] = string(data)
		return string(data), true
	}
	checked := 0
	for _, file := range markdownFiles(t, root) {
		text, _ := read(file)
		lines, numbers := proseLines(text)
		for i, line := range lines {
			for _, m := range link.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if u, err := url.Parse(target); err == nil && u.Scheme != "" {
					continue // http, https, mailto
				}
				where := fmt.Sprintf("%s:%d: link %s", file, numbers[i], target)
				path, frag, _ := strings.Cut(target, "#")
				dest := file
				if path != "" {
					dest = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(file), path)))
					if strings.HasPrefix(dest, "../") {
						t.Errorf("%s: points outside the repository", where)
						continue
					}
					if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(dest))); err != nil {
						t.Errorf("%s: %s does not exist", where, dest)
						continue
					}
				}
				checked++
				if frag == "" {
					continue
				}
				if !strings.HasSuffix(dest, ".md") {
					t.Errorf("%s: an anchor into %s, which is not markdown", where, dest)
					continue
				}
				destText, ok := read(dest)
				if !ok {
					t.Errorf("%s: cannot read %s", where, dest)
					continue
				}
				if !anchors(destText)[frag] {
					t.Errorf("%s: %s has no heading with anchor #%s", where, dest, frag)
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d relative links found; is the documentation where this test looks?", checked)
	}
}

// TestRulePages checks that every rule has a page, docs/rules/NAME.md,
// that its Analyzer.URL points at it, and that every other analyzer's URL
// points at a page (and anchor) that exists.
func TestRulePages(t *testing.T) {
	root := repoRoot(t)
	for _, a := range suite.Analyzers() {
		if a != config.Analyzer {
			page := filepath.Join(root, "docs", "rules", a.Name+".md")
			if _, err := os.Stat(page); err != nil {
				t.Errorf("rule %s has no page: %v", a.Name, err)
			}
			if want := repoBlob + "docs/rules/" + a.Name + ".md"; a.URL != want {
				t.Errorf("rule %s: URL is %q, want %q", a.Name, a.URL, want)
			}
		}
	}
	for _, a := range append(suite.Analyzers(), lockstate.Analyzer) {
		rest, ok := strings.CutPrefix(a.URL, repoBlob)
		if !ok {
			t.Errorf("analyzer %s: URL %q does not start with %s", a.Name, a.URL, repoBlob)
			continue
		}
		path, frag, _ := strings.Cut(rest, "#")
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
		if err != nil {
			t.Errorf("analyzer %s: URL %s: %v", a.Name, a.URL, err)
			continue
		}
		if frag != "" && !anchors(string(data))[frag] {
			t.Errorf("analyzer %s: URL %s: %s has no heading with anchor #%s", a.Name, a.URL, path, frag)
		}
	}
}

// allDocs returns README.md and docs/**/*.md, concatenated.
func allDocs(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	for _, file := range markdownFiles(t, root) {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteString("\n")
	}
	return b.String()
}

// mapKeys returns the string keys of the composite literal assigned to the
// package-level variable name in a Go file.
func mapKeys(t *testing.T, file, name string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, decl := range f.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.VAR {
			continue
		}
		for _, spec := range gen.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, id := range vs.Names {
				if id.Name != name || i >= len(vs.Values) {
					continue
				}
				lit, ok := vs.Values[i].(*ast.CompositeLit)
				if !ok {
					t.Fatalf("%s: %s is not a composite literal", file, name)
				}
				for _, elt := range lit.Elts {
					kv := elt.(*ast.KeyValueExpr)
					key, err := strconv.Unquote(kv.Key.(*ast.BasicLit).Value)
					if err != nil {
						t.Fatal(err)
					}
					keys = append(keys, key)
				}
			}
		}
	}
	if len(keys) == 0 {
		t.Fatalf("%s: no map %s", file, name)
	}
	return keys
}

// TestEverythingDocumented checks that every //guard: verb, every
// checklocks annotation and every analyzer flag is named in the
// documentation, so moving text between pages cannot drop one.
func TestEverythingDocumented(t *testing.T) {
	root := repoRoot(t)
	docs := allDocs(t, root)
	parse := filepath.Join(root, "analyzer", "directives", "parse.go")
	for _, verb := range mapKeys(t, parse, "verbs") {
		if strings.HasPrefix(verb, "checklocks") {
			continue // reached only through the +checklocks... spellings, below
		}
		if !strings.Contains(docs, "//guard:"+verb+" ") && !strings.Contains(docs, "//guard:"+verb+"`") && !strings.Contains(docs, "//guard:"+verb+"\n") {
			t.Errorf("directive //guard:%s is not documented", verb)
		}
	}
	for _, m := range []string{"dialect", "unapplied"} {
		for _, name := range mapKeys(t, parse, m) {
			if !regexp.MustCompile(`\+` + name + `\b`).MatchString(docs) {
				t.Errorf("checklocks annotation +%s is not documented", name)
			}
		}
	}
	for _, a := range suite.Analyzers() {
		a.Flags.VisitAll(func(f *flag.Flag) {
			if !strings.Contains(docs, a.Name+"."+f.Name) {
				t.Errorf("flag -%s.%s is not documented", a.Name, f.Name)
			}
		})
	}
}
