package directives

import (
	"go/ast"
	"go/token"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// Target is the kind of declaration a directive may annotate.
type Target uint8

const (
	OnField Target = 1 << iota // struct field or package-level var
	OnFunc                     // function or method declaration
	OnLine                     // a statement inside a function body
	OnType                     // a type declaration, or a package-level var declaration (for order)
)

// verb describes one directive verb: where it may appear and what it takes.
type verb struct {
	targets Target
	args    argKind
}

type argKind uint8

const (
	noArgs    argKind = iota
	oneLock           // exactly one lock path
	someLocks         // one or more lock paths
	someNames         // one or more function names
	reason            // free text, required
	twoLocks          // two or more lock paths
	oneField          // exactly one field name
)

// verbs is the grammar of //guard: directives. docs/directives.md documents each.
var verbs = map[string]verb{
	"by":        {OnField, oneLock},
	"only":      {OnField, someNames},
	"atomic":    {OnField, noArgs},
	"holds":     {OnFunc, someLocks},
	"rholds":    {OnFunc, someLocks},
	"acquires":  {OnFunc, someLocks},
	"racquires": {OnFunc, someLocks},
	"releases":  {OnFunc, someLocks},
	"rreleases": {OnFunc, someLocks},
	"excludes":  {OnFunc, someLocks},
	"ignore":    {OnFunc | OnLine, reason},
	"order":     {OnType, twoLocks},
	"noblock":   {OnField, noArgs},
	"blocks":    {OnFunc, noArgs},
	"refcount":  {OnField, oneField},

	// gVisor's checklocks dialect, mapped onto the same model. These verbs
	// are reached only through the +check... spellings (dialect below).
	"checklocks":       {OnField | OnFunc, oneLock}, // by on a field, holds on a function
	"checklocksignore": {OnField | OnFunc | OnLine, noArgs},
	"checklocksforce":  {OnLine, noArgs},
	"checklocksalias":  {OnType, oneLock},
}

// dialect maps gVisor's checklocks annotations (// +NAME or // +NAME:ARG)
// to verbs. docs/checklocks.md lists each, with the places guardvet differs.
// dialect.go reads them as checklocks does. A // +check comment that is
// none of these is a misspelling when it is close to one of them (edit
// distance 2, a longer spelling of one checklocks does not match by
// prefix, or +checklock...), and otherwise another gVisor analyzer's
// annotation, which is left alone.
var dialect = map[string]string{
	"checklocks":            "checklocks",
	"checklocksread":        "rholds",
	"checklocksacquire":     "acquires",
	"checklocksacquireread": "racquires",
	"checklocksrelease":     "releases",
	"checklocksreleaseread": "rreleases",
	"checklocksexclude":     "excludes",
	"checklocksignore":      "checklocksignore",
	"checklocksforce":       "checklocksforce",
	"checklocksalias":       "checklocksalias",
	"checkatomic":           "atomic",
}

// unapplied are annotations checklocks defines (tools/checklocks/
// annotations.go) that guardvet reads as valid but does not apply:
// +checklocksfail marks an expected checklocks failure in its own tests,
// and +checklocksexcludewrite (must not be held for writing) has no
// //guard: equivalent. docs/checklocks.md lists them.
var unapplied = map[string]bool{
	"checklocksfail":         true,
	"checklocksexcludewrite": true,
}

// missingPlus matches a whole comment that is a checklocks annotation
// without its +, which checklocks itself would silently skip.
var missingPlus = regexp.MustCompile(`^(checklocks[a-z]*:\S+|checklocks(ignore|force)\b|checkatomic\b)`)

// Directive is one parsed //guard: comment.
type Directive struct {
	Pos      token.Pos // of the comment
	Verb     string
	Args     []string
	Text     string // the argument text as written (for ignore reasons)
	Spelling string // how the directive is written, for messages: //guard:by, +checklocks
	Dialect  bool   // written in gVisor's checklocks dialect
	// Warn is a diagnostic for a directive that is still applied: a
	// spelling checklocks reads another way than it looks (dialect.go).
	Warn string
}

const prefix = "//guard:"

// spaced matches a comment that was meant as a directive but has a space
// after //, which Go's directive convention (and godoc) would not hide.
var spaced = regexp.MustCompile(`^//\s+guard:[a-z]`)

// parseComment parses a single comment. ok is false when the comment is not
// a guard directive at all. A non-empty problem means it was meant as one
// but is malformed.
func parseComment(c *ast.Comment) (d Directive, ok bool, problem string) {
	text := c.Text
	if !strings.HasPrefix(text, prefix) {
		return parseOther(c)
	}
	body := text[len(prefix):]
	// A second // starts a plain comment: //guard:by mu // protects n
	if i := strings.Index(body, "//"); i >= 0 {
		body = body[:i]
	}
	body = strings.TrimRight(body, " \t")
	word, rest := body, ""
	if i := strings.IndexAny(body, " \t"); i >= 0 { // //guard:by<TAB>mu is //guard:by mu
		word, rest = body[:i], body[i+1:]
	}
	rest = strings.TrimSpace(rest)
	d = Directive{Pos: c.Slash, Verb: word, Text: rest, Spelling: prefix + word}
	if rest != "" {
		d.Args = strings.Fields(rest)
	}
	v, known := verbs[word]
	if !known {
		msg := "unknown directive //guard:" + shorten(word)
		if s := suggest(word, verbNames()); s != "" {
			msg += "; did you mean //guard:" + s + "?"
		} else {
			msg += "; known verbs are " + strings.Join(verbNames(), ", ")
		}
		return d, true, msg
	}
	return d, true, arityProblem(word, v.args, d.Args, rest)
}

// parseOther reads a comment that does not start with //guard:: a
// checklocks annotation, or a near miss of either spelling that would
// otherwise be ignored without a word.
func parseOther(c *ast.Comment) (d Directive, ok bool, problem string) {
	text := c.Text
	if strings.HasPrefix(text, "//") {
		rest := strings.TrimLeft(text[2:], " \t")
		if strings.HasPrefix(rest, "+check") {
			return parseSpaced(c, text, rest)
		}
		if missingPlus.MatchString(rest) {
			return Directive{Pos: c.Slash}, true, "checklocks annotation without its +, which would be ignored; write // +" + shorten(strings.Fields(rest)[0])
		}
	}
	if rest, ok := blockDialect(text); ok {
		return parseBlock(c, rest)
	}
	if fixed, ok := misspelledPrefix(text); ok {
		return Directive{Pos: c.Slash}, true, "misspelled directive prefix: guardvet reads //guard:, and this comment would be ignored; write " + shorten(fixed)
	}
	if spaced.MatchString(text) {
		fixed := "//" + strings.TrimLeft(text[2:], " \t")
		if i := strings.Index(fixed[2:], "//"); i >= 0 {
			fixed = fixed[:i+2]
		}
		return Directive{Pos: c.Slash}, true, "malformed directive: no space is allowed after // in a directive; write " + shorten(firstWords(fixed))
	}
	return Directive{}, false, ""
}

// arityProblem says what is wrong with the arguments of a known verb, or
// returns "" when they fit what the verb takes.
func arityProblem(word string, kind argKind, args []string, rest string) string {
	switch kind {
	case noArgs:
		if len(args) > 0 {
			return "//guard:" + word + " takes no arguments; remove " + shorten(strings.Join(args, " "))
		}
	case oneLock:
		if len(args) != 1 {
			if len(args) == 0 {
				return "//guard:" + word + " needs a lock path, as in //guard:" + word + " mu"
			}
			return "//guard:" + word + " takes one lock path; write one //guard:" + word + " line per lock"
		}
	case someLocks:
		if len(args) == 0 {
			return "//guard:" + word + " needs at least one lock path, as in //guard:" + word + " c.mu"
		}
	case someNames:
		if len(args) == 0 {
			return "//guard:" + word + " needs at least one function name, as in //guard:" + word + " get set"
		}
	case twoLocks:
		if len(args) < 2 {
			return "//guard:" + word + " needs at least two lock paths, outer first, as in //guard:" + word + " detachMu ptmxMu"
		}
	case oneField:
		if len(args) != 1 {
			return "//guard:" + word + " takes one field name, as in //guard:" + word + " refs"
		}
	case reason:
		if rest == "" {
			return "//guard:" + word + " needs a reason, as in //guard:" + word + " initialised before the goroutines start"
		}
	}
	return ""
}

// maxQuoted is how much of a directive's own text a message quotes.
const maxQuoted = 60

// shorten cuts text quoted from a directive to its first maxQuoted
// characters and an ellipsis, so that a long comment mistaken for a
// directive, or a runaway argument, does not fill the message.
func shorten(s string) string {
	if utf8.RuneCountInString(s) <= maxQuoted {
		return s
	}
	r := []rune(s)[:maxQuoted-1]
	return strings.TrimRight(string(r), " \t") + "…"
}

func firstWords(s string) string {
	f := strings.Fields(s)
	if len(f) > 2 {
		f = f[:2]
	}
	return strings.Join(f, " ")
}

func verbNames() []string {
	names := make([]string, 0, len(verbs))
	for n := range verbs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// suggest returns the closest candidate within edit distance 2, or "".
// misspelledPrefix recognises //gaurd:by mu and the like: a comment that
// starts with a word close to "guard" (edit distance 1 or 2), a colon and
// a known verb, which guardvet would otherwise skip as prose. It returns
// the comment's first words spelled right.
func misspelledPrefix(text string) (string, bool) {
	body, ok := strings.CutPrefix(text, "//")
	if !ok {
		return "", false
	}
	word, rest, ok := strings.Cut(body, ":")
	if !ok || word == "guard" || len(word) < 4 || len(word) > 7 || strings.ContainsAny(word, " \t") {
		return "", false
	}
	if editDistance(strings.ToLower(word), "guard") > 2 {
		return "", false
	}
	verb := rest
	if i := strings.IndexAny(rest, " \t"); i >= 0 {
		verb = rest[:i]
	}
	if _, known := verbs[verb]; !known {
		return "", false
	}
	return firstWords(prefix + rest), true
}

func suggest(word string, candidates []string) string {
	best, bestDist := "", 3
	for _, c := range candidates {
		if d := editDistance(word, c); d < bestDist || (d == bestDist && c < best) {
			best, bestDist = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func (t Target) String() string {
	var s []string
	if t&OnField != 0 {
		s = append(s, "struct fields and package-level variables")
	}
	if t&OnFunc != 0 {
		s = append(s, "functions")
	}
	if t&OnLine != 0 {
		s = append(s, "statements")
	}
	if t&OnType != 0 {
		s = append(s, "type and package-level var declarations")
	}
	return strings.Join(s, " and ")
}
