package directives

import (
	"go/ast"
	"go/token"
	"strings"
	"testing"
	"unicode/utf8"
)

// The directive grammars read arbitrary comment text: every comment of
// every file guardvet loads. These fuzz targets hold them to three
// properties on any input: no panic; a directive is either accepted, with
// a known verb and no problem, or comes with a problem to report; and the
// same text always parses the same way. `go test` runs the seeds; make
// fuzz runs each target for longer.

func checkParse(t *testing.T, text string) {
	c := &ast.Comment{Slash: token.Pos(1), Text: text}
	d, ok, problem := parseComment(c)
	d2, ok2, problem2 := parseComment(c)
	if ok != ok2 || problem != problem2 || d.Verb != d2.Verb || strings.Join(d.Args, "\x00") != strings.Join(d2.Args, "\x00") {
		t.Fatalf("%q parses differently twice: (%v, %q, %q) then (%v, %q, %q)", text, ok, d.Verb, problem, ok2, d2.Verb, problem2)
	}
	if !ok {
		if problem != "" {
			t.Fatalf("%q: not a directive, yet a problem: %q", text, problem)
		}
		return
	}
	if problem != "" {
		if !utf8.ValidString(problem) && utf8.ValidString(text) {
			t.Fatalf("%q: problem is not valid UTF-8: %q", text, problem)
		}
		return
	}
	if _, known := verbs[d.Verb]; !known {
		t.Fatalf("%q accepted with an unknown verb %q", text, d.Verb)
	}
	if d.Spelling == "" {
		t.Fatalf("%q accepted without a spelling for messages", text)
	}
}

// FuzzGuardDirective fuzzes guardvet's own grammar, //guard:VERB args.
func FuzzGuardDirective(f *testing.F) {
	for _, seed := range []string{
		"by mu", "by inner.mu", "by pkg.Mu", "only lockedPTMX setPTMX", "atomic", "holds c.mu",
		"rholds c.mu d.mu", "acquires c.mu", "releases c.mu", "excludes c.mu", "order a b c",
		"ignore reason here", "noblock", "refcount refs", "blocks", "by", "by mu mu", "bye mu",
		"by mu // trailing comment", "only", "order a", "by \x00", "holds c.mu,d.mu",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, rest string) {
		checkParse(t, "//guard:"+rest)
		checkParse(t, "// guard:"+rest) // the spaced form is reported, not read
		checkParse(t, "//gaurd:"+rest)  // misspelled prefixes are caught
	})
}

// FuzzChecklocksAnnotation fuzzes gVisor's dialect, // +checklocks:L and
// friends, including typos and annotations missing their +.
func FuzzChecklocksAnnotation(f *testing.F) {
	for _, seed := range []string{
		"+checklocks:mu", "+checklocks:e.mu", "+checklocksread:mu", "+checklocksacquire:n.mu",
		"+checklocksacquireread:n.mu", "+checklocksrelease:n.mu", "+checklocksreleaseread:mu",
		"+checklocksexclude:mu", "+checklocksignore", "+checklocksignore: reason", "+checklocksforce",
		"+checklocksforce: NewJob calls back with mu held.", "+checklocksalias:snd.ep.mu=mu",
		"+checkatomic", "+checkloks:mu", "+checkatomicignore", "checklocks:mu", "+checkescape",
		"+checklocks:", "+checklocks", "+checklocksalias:=", "+checklocksfail", "+checklocksexcludewrite:mu",
		"+checklocksignore.", "+checklocksignored", "+checklocks:mu protects n", "+checklocks:mu // n", " +checklocks:mu",
		"\t+checklocksforce", "+checkatomic.", "+checklocks:mu\t", "+checklocks: ", "+checklocksread:\t",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, rest string) {
		checkParse(t, "// "+rest)
		checkParse(t, "//"+rest)
		checkParse(t, "/* "+rest+" */")
	})
}
