package directives

import (
	"go/ast"
	"sort"
	"strings"
	"unicode"
)

// The checklocks dialect is read the way checklocks reads it
// (gvisor.dev/gvisor/tools/checklocks, annotations.go: the constants and
// extractAnnotations): each annotation is a prefix of the comment's raw
// text, "// +NAME", with exactly one space after //.
//
//   - The names that take an argument match with their colon,
//     "// +checklocks:", and the argument is all the rest of the comment,
//     spaces and all.
//   - "// +checklocksignore", "// +checklocksforce", "// +checklocksfail"
//     and "// +checkatomic" match whatever follows them: a reason after a
//     colon, a full stop, or more letters (so checklocks reads the
//     name checkatomicignore, with its plus, as checkatomic).
//
// Whatever does not start with "// +" is skipped silently by checklocks;
// guardvet reports the forms that were meant as an annotation.

// prefixNames are the annotations checklocks matches without a colon.
var prefixNames = []string{"checkatomic", "checklocksfail", "checklocksforce", "checklocksignore"}

// parseSpaced reads a comment whose text after // and any spaces starts
// with +check: text is the whole comment, rest what follows the spaces.
// Only "// +" is an annotation to checklocks; with no space or more
// than one, a comment that would otherwise be a valid annotation is
// reported and not applied.
func parseSpaced(c *ast.Comment, text, rest string) (Directive, bool, string) {
	d, ok, problem := parseDialect(c, rest)
	if !ok || strings.HasPrefix(text, "// +") || strings.HasPrefix(problem, unknownPrefix) {
		return d, ok, problem
	}
	word := shorten(strings.Fields(rest)[0])
	if strings.HasPrefix(text, "//+") {
		return Directive{Pos: c.Slash}, true, "checklocks ignores " + word + " without a space after //, and so does guardvet; write // " + word
	}
	return Directive{Pos: c.Slash}, true, "checklocks ignores " + word + " unless exactly one space follows //, and so does guardvet; write // " + word
}

// blockDialect reports whether text is a /* */ comment that starts with a
// checklocks annotation, and returns its body.
func blockDialect(text string) (string, bool) {
	body, ok := strings.CutPrefix(text, "/*")
	if !ok {
		return "", false
	}
	body = strings.TrimSpace(strings.TrimSuffix(body, "*/"))
	return body, strings.HasPrefix(body, "+check")
}

// parseBlock reports a checklocks annotation written as a /* */ comment,
// which checklocks skips, when it would be a valid one as a // comment.
func parseBlock(c *ast.Comment, body string) (Directive, bool, string) {
	if _, ok, problem := parseDialect(c, body); !ok || problem != "" {
		return Directive{}, false, "" // prose, or another analyzer's
	}
	word := shorten(strings.Fields(body)[0])
	return Directive{Pos: c.Slash}, true, "checklocks ignores " + word + " in a /* */ comment, and so does guardvet; write // " + word
}

// parseDialect parses "+NAME" or "+NAME:ARG" (the text after "// ").
func parseDialect(c *ast.Comment, text string) (Directive, bool, string) {
	body := text[1:] // drop "+"
	for _, name := range prefixNames {
		if after, ok := strings.CutPrefix(body, name); ok {
			return prefixAnnotation(c, name, after)
		}
	}
	name := body[:identEnd(body)]
	next := body[len(name):]
	d := Directive{Pos: c.Slash, Spelling: "+" + name, Dialect: true}
	verb, known := dialect[name]
	if !known {
		if unapplied[name] {
			return Directive{}, false, ""
		}
		return unknownAnnotation(d, name)
	}
	d.Verb = verb
	arg, hasColon := strings.CutPrefix(next, ":")
	if !hasColon || strings.TrimSpace(arg) == "" {
		return d, true, "+" + name + " needs a lock path, as in +" + name + ":mu"
	}
	if strings.IndexFunc(arg, unicode.IsSpace) >= 0 {
		path := strings.Fields(arg)[0]
		return d, true, "checklocks reads all the text after +" + name + ": as the lock path (" + shorten(strings.TrimSpace(arg)) +
			") and cannot resolve it, so neither checklocks nor guardvet applies it; write // +" + name + ":" + shorten(path) + " and the remark on a line of its own"
	}
	d.Args = []string{arg}
	d.Text = arg
	return d, true, ""
}

// prefixAnnotation reads an annotation checklocks matches by prefix alone:
// name, then whatever follows (after). A reason may follow a colon
// (// +checklocksforce: NewJob calls back with mu held.). More letters
// after the name still make it this annotation, as checklocks reads it,
// which the Warn says.
func prefixAnnotation(c *ast.Comment, name, after string) (Directive, bool, string) {
	if name == "checklocksfail" {
		return Directive{}, false, "" // checklocks' expected failures: accepted, not applied
	}
	d := Directive{Pos: c.Slash, Spelling: "+" + name, Dialect: true, Verb: dialect[name], Text: "+" + name}
	if reason, ok := strings.CutPrefix(after, ":"); ok && strings.TrimSpace(reason) != "" {
		d.Text = strings.TrimSpace(reason)
	}
	if n := identEnd(after); n > 0 {
		written := shorten(name + after[:n])
		d.Warn = "checklocks matches +" + name + " by prefix and reads +" + written + " as +" + name +
			", and so does guardvet; write // +" + name + ", or another annotation if that is not what is meant"
	}
	return d, true, ""
}

// unknownAnnotation reports a +check... name that is no checklocks
// annotation: a misspelling when it is close to one, and otherwise
// another gVisor analyzer's annotation, which is left alone.
func unknownAnnotation(d Directive, name string) (Directive, bool, string) {
	names := make([]string, 0, len(dialect))
	for n := range dialect {
		names = append(names, n)
	}
	sort.Strings(names)
	msg := unknownPrefix + shorten(name)
	best := suggest(name, names)
	if best == "" {
		for _, n := range names { // a longer spelling of a known name, like +checklocksexcludes
			if strings.HasPrefix(name, n) && len(n) > len(best) {
				best = n
			}
		}
	}
	switch {
	case best != "":
		msg += "; did you mean +" + best + "?"
	case strings.HasPrefix(name, "checklock"):
		msg += "; known annotations are +" + strings.Join(names, ", +")
	default:
		// Another analyzer's annotation (+checkescape, +checkoffset,
		// +checkalignedignore, ...): not ours to judge.
		return Directive{}, false, ""
	}
	return d, true, msg
}

const unknownPrefix = "unknown checklocks annotation +"

// identEnd is the length of the run of letters, digits and underscores
// that s starts with.
func identEnd(s string) int {
	for i, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
			return i
		}
	}
	return len(s)
}
