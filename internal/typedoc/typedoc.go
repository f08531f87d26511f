// Package typedoc reads named types' doc comments, for the checks that
// take a type's documented contract at its word: the guard inference's
// evidence and the races mode's library roots both ask whether a type is
// documented as not safe for concurrent use. Each is written once here.
package typedoc

import (
	"go/ast"
	"go/token"
	"regexp"
	"strings"
)

// Each calls f for each type declared at package level in files, with
// its doc comment's words joined by single spaces: the spec's own doc,
// or the declaration's where it declares one type ("" if none).
func Each(files []*ast.File, f func(ts *ast.TypeSpec, doc string)) {
	for _, file := range files {
		for _, d := range file.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				doc := ts.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				text := ""
				if doc != nil {
					text = strings.Join(strings.Fields(doc.Text()), " ")
				}
				f(ts, text)
			}
		}
	}
}

// notConcurrent matches a type doc that rules out concurrent use of its
// values: "It is not safe for concurrent usage", "is not safe for
// concurrent use by multiple goroutines", "not thread-safe", "must not be
// used concurrently", "unsafe for concurrent use", "It is unsafe
// modifying/reading RequestCtx instance from concurrently running
// goroutines" (unsafe, then concurrent use in the same sentence).
var notConcurrent = regexp.MustCompile(`(?i)\b(?:not|never)\s+(?:safe\s+(?:for|to\s+use\s+for|to\s+use)\s+(?:\w+\s+)?concurrent(?:ly)?|(?:thread|goroutine|concurrency)[- ]safe)|\bmust\s+not\s+be\s+used\s+concurrently|\bis\s+not\s+(?:safe\s+)?concurrency[- ]safe|\bunsafe\b[^.]{0,80}?\bconcurrent(?:ly)?\b`)

// Serial reports whether doc, a type's doc comment, says its values are
// not for concurrent use.
func Serial(doc string) bool {
	return notConcurrent.MatchString(doc)
}

// SerialType reports whether doc, the doc comment of the type named
// name, says in a sentence about the type itself that it is not for
// concurrent use: the sentence's subject is the type ("Conn is not safe
// for concurrent use", "A Reader ...", "Readers ..."), "It", "This
// type", or the type's methods or values. "Modification of fields
// concurrently with Send is not thread-safe" speaks of something else:
// such a type may still be used from many goroutines through its
// methods.
func SerialType(name, doc string) bool {
	if !notConcurrent.MatchString(doc) {
		return false // most docs: no sentence to look at
	}
	subject := subjectOf(name)
	for _, sentence := range sentences(doc) {
		if subject.MatchString(sentence) && notConcurrent.MatchString(sentence) {
			return true
		}
	}
	return false
}

// concurrent matches a sentence saying values are for concurrent use:
// "safe for concurrent use", "safe to use from multiple goroutines",
// "may be used concurrently", "Read and Write may be called
// concurrently", "thread-safe".
var concurrent = regexp.MustCompile(`(?i)\bsafe\s+(?:for|to\s+use\s+(?:for|from|by)|to\s+call\s+from)\s+(?:\w+\s+)?(?:concurrent(?:ly)?|multiple\s+goroutines)|\b(?:may|can)\s+be\s+(?:used|called|invoked)\s+(?:\w+\s+)?(?:concurrently|simultaneously|from\s+multiple\s+goroutines)|\bmultiple\s+goroutines\s+(?:may|can)\s+(?:invoke|call|use)\b|\b(?:thread|goroutine|concurrency)[- ]safe\b`)

// ConcurrentType reports whether doc, the doc comment of the type named
// name, says in a sentence about the type itself, with no "not" in it,
// that its values are for concurrent use ("Conn is safe for concurrent
// use", "Multiple goroutines may invoke methods on a Conn
// simultaneously" is about its methods: "Its methods may be called
// concurrently").
func ConcurrentType(name, doc string) bool {
	if !concurrent.MatchString(doc) {
		return false
	}
	subject := subjectOf(name)
	for _, sentence := range sentences(doc) {
		if (subject.MatchString(sentence) || strings.Contains(sentence, name)) && concurrent.MatchString(sentence) && !notConcurrent.MatchString(sentence) {
			return true
		}
	}
	return false
}

// subjectOf matches a sentence whose subject is the type named name,
// "It", "This type", or the type's methods or values.
func subjectOf(name string) *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:(?:a|an|the|each|this)\s+)?(?:` + regexp.QuoteMeta(name) + `(?:s|'s\s+methods)?|it|its\s+methods|this\s+type|(?:the\s+)?(?:methods|values|instances)(?:\s+of\s+\w+)?)\b`)
}

// sentences splits doc, its words joined by single spaces, at each
// full stop followed by a space.
func sentences(doc string) []string {
	var out []string
	for doc != "" {
		i := strings.Index(doc, ". ")
		if i < 0 {
			out = append(out, doc)
			break
		}
		out = append(out, doc[:i+1])
		doc = doc[i+2:]
	}
	return out
}
