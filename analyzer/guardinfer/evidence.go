package guardinfer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"github.com/guardvet/guardvet/analyzer/lockstate"
	"github.com/guardvet/guardvet/internal/typedoc"
	"golang.org/x/tools/go/types/typeutil"
)

// Evidence for an inferred guard: the points that score it, the
// explanation a finding ends with, and the comments that explain an
// unlocked access.

// evidence is how often one lock is held at a field's accesses.
type evidence struct {
	lock    string // the lock, as a //guard:by argument
	ref     guardRef
	held    int
	example token.Pos // an access that holds it
	misses  []*lockstate.Access
}

func (r *inference) count(accs []*lockstate.Access, lock string, ref guardRef) evidence {
	e := evidence{lock: lock, ref: ref}
	for _, a := range accs {
		if r.heldAt(a, ref) {
			e.held++
			if !e.example.IsValid() {
				e.example = a.Pos
			}
		} else if !r.meantHeld(a, ref) {
			e.misses = append(e.misses, a)
		}
	}
	return e
}

// meantHeld reports whether the code means the lock to be held at a,
// without showing that it is: it is held on some paths only (if needLock
// { mu.Lock() }), its goroutine's starter holds it until it joins the
// goroutine (heldByStarter), or every call of a's function is made in a function
// whose doc says the lock is held (docSaysHeld) or where it is held. Such
// an access is not reported, and not evidence either: it counts against
// the ratio as a miss does, so that reading intent never adds findings.
func (r *inference) meantHeld(a *lockstate.Access, ref guardRef) bool {
	l := r.lockOf(a, ref)
	if !l.Valid() {
		return false
	}
	if a.State.Lock(l).Mode == lockstate.Maybe || r.heldByStarter(a, l) || r.addressToHelper(a) {
		return true
	}
	f := r.funcOf[a]
	return f != nil && r.heldByCallers(f, l, 0, true)
}

// explained reports whether a comment says why an access runs safely
// without the lock, as a //guard:ignore would: a comment of the function
// it is in, its doc or one above it in the body, that says
//
//   - the code is meant to run without the lock: a sentence with "without"
//     the lock ("without the lock", "without holding mu", "without
//     cc.mu") and "called", "must", "needs to" or "safe"; or it "safely
//     unlock"s and goes on;
//   - "the world is stopped" (nothing else runs);
//   - callers "must serialize" the calls, or keep an order: it "must
//     not be called until" (or "before") something, "must only be called
//     after" it, "must (or should) be called before" it;
//   - the memory order the access relies on: "load-acquire",
//     "load-consume", "store-release" (also in the comment at the end of
//     the access's line).
//
// Inference reads prose to find guards ("guarded by mu"); it reads it for
// the exceptions too. The vocabulary is in docs/rules/guardinfer.md.
func (r *inference) explained(a *lockstate.Access, lock string) bool {
	f := r.funcOf[a]
	if f == nil || f.Decl == nil {
		return false
	}
	var file *ast.File
	for _, fl := range r.pass.Files {
		if fl.Pos() <= f.Decl.Pos() && f.Decl.Pos() < fl.End() {
			file = fl
			break
		}
	}
	if file == nil {
		return false
	}
	if a.Base.Valid() && r.docHeldAt(f, a.Base.Root) {
		return true
	}
	line := r.pass.Fset.Position(a.Pos).Line
	for _, cg := range file.Comments {
		if cg.End() > a.Pos && (cg.Pos() < a.Pos || r.pass.Fset.Position(cg.Pos()).Line != line) {
			break // past the access, and not the comment at the end of its line
		}
		if cg.Pos() < f.Decl.Pos() && (f.Decl.Doc == nil || cg != f.Decl.Doc) {
			continue
		}
		if explainsUnlocked(strings.ToLower(cg.Text()), strings.ToLower(lock)) {
			return true
		}
	}
	return f.Lit == nil && (r.callersExplain(f.Obj, lock) || r.typeDocRunsFirst(f.Obj))
}

// runsFirst is a type's doc saying one of its methods runs before the
// others: "User needs to call Start before calling other functions",
// "Init must be called first".
var runsFirst = regexp.MustCompile(`(?i)\bcall(?:ing)?\s+(?:the\s+)?(\w+)(?:\s+method)?\s+(?:before|first)\b|\b(\w+)\s+(?:must|should|needs\s+to)\s+be\s+called\s+(?:before|first)\b`)

// typeDocRunsFirst reports whether method fn's receiver type is
// documented as having fn called before its other methods (runsFirst):
// the method sets the object up before it is shared.
func (r *inference) typeDocRunsFirst(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return false
	}
	for _, m := range runsFirst.FindAllStringSubmatch(r.typeDoc(typeName(recv.Type())), -1) {
		if m[1]+m[2] == fn.Name() {
			return true
		}
	}
	return false
}

// typeDocSaysSerial reports whether the doc of the named type the method
// fn is declared on says its values are not for concurrent use: callers
// then never run two of its methods at once.
func (r *inference) typeDocSaysSerial(n *types.Named) bool {
	return n != nil && n.Obj().Pkg() == r.pass.Pkg && typedoc.Serial(r.typeDoc(n.Obj().Name()))
}

// typeDoc is the doc comment of one of the package's named types, its
// words joined by single spaces.
func (r *inference) typeDoc(name string) string {
	if name == "" {
		return ""
	}
	if r.typeDocs == nil {
		r.typeDocs = map[string]string{}
		typedoc.Each(r.pass.Files, func(ts *ast.TypeSpec, doc string) {
			if doc != "" {
				r.typeDocs[ts.Name.Name] = doc
			}
		})
	}
	return r.typeDocs[name]
}

// callersExplain reports whether fn is an unexported method or function
// called only by declarations whose doc explains running without the
// lock: register, called only by RegisterService, "This must be called
// before invoking Serve".
func (r *inference) callersExplain(fn *types.Func, lock string) bool {
	if fn == nil || fn.Exported() {
		return false
	}
	fn = fn.Origin()
	sites := r.callers[fn]
	if !r.calledOnly(fn) {
		return false
	}
	for _, site := range sites {
		d := site.fn.Decl
		if site.fn.Lit != nil || d == nil || d.Doc == nil || !explainsUnlocked(strings.ToLower(d.Doc.Text()), strings.ToLower(lock)) {
			return false
		}
	}
	return true
}

// callOrder matches a doc stating when the function may run, in one
// sentence: "This is only valid after Start() is called", "It is not safe
// to call this function until l.Notify has been closed", "may only be
// called once Run returned", "call Start explicitly before calling
// Protocol". The author keeps that order; the access needs no lock for it.
var callOrder = regexp.MustCompile(`\b(?:not safe to call|only valid|(?:must|should|may|can) only be called|must be called|should be called)\b[^.]{0,60}?\b(?:after|until|once)\b|\bcall \w+(?:\(\))?(?: explicitly)? before (?:calling|using)\b`)

func explainsUnlocked(text, lock string) bool {
	text = strings.Join(strings.Fields(text), " ")
	if strings.Contains(text, "world is stopped") || strings.Contains(text, "world stopped") ||
		strings.Contains(text, "must serialize") || strings.Contains(text, "must serialise") {
		return true
	}
	// A call order the callers keep: "must not be called until after
	// WriteHeader", "must only be called after Close", "must be called
	// before invoking Serve".
	for _, order := range []string{"must not be called until", "must only be called after", "must not be called before", "must be called before", "should be called before"} {
		if strings.Contains(text, order) {
			return true
		}
	}
	if callOrder.MatchString(text) {
		return true
	}
	if strings.Contains(text, "safely unlock") {
		return true
	}
	// A memory order named at the access: the read is ordered by an
	// atomic operation elsewhere (x := p.local // load-consume).
	for _, order := range []string{"load-acquire", "load-consume", "store-release"} {
		if strings.Contains(text, order) {
			return true
		}
	}
	// "without the lock" alone only says what the code does ("reads n
	// without mu"); the sentence must say it is meant: "called", "must",
	// "needs to", "safe" or "safely".
	for _, sentence := range strings.FieldsFunc(strings.NewReplacer(". ", "\n", ": ", "\n", "; ", "\n").Replace(text), func(r rune) bool { return r == '\n' }) {
		if !withoutLock(sentence, lock) {
			continue
		}
		for _, meant := range []string{"called", "must", "needs to", "safe"} {
			if strings.Contains(sentence, meant) {
				return true
			}
		}
	}
	return false
}

// withoutLock reports whether a sentence says "without" the lock: "without
// the lock", "without locking", "without cc.mu", "without holding mu".
func withoutLock(sentence, lock string) bool {
	for rest := sentence; ; {
		i := strings.Index(rest, "without ")
		if i < 0 {
			return false
		}
		rest = rest[i+len("without "):]
		words := strings.Fields(rest)
		for _, w := range words[:min(len(words), 3)] {
			w = strings.Trim(w, ",()'\"`")
			if w == "lock" || w == "locking" || (lock != "" && (w == lock || strings.HasSuffix(w, "."+lock))) {
				return true
			}
		}
	}
}

// heldOnEntry is a function doc saying that a lock is held when it runs,
// without naming the lock field: "Lock should be held.", "Server lock is
// held on entry.", "fs lock should be held.", "Read lock must be held.",
// "Caller must hold the lock.", "Must be called with the lock held.",
// "Should be called while holding the lock on the level." The optional
// word before "lock" (group 1 to 4) names whose ("Both locks should be
// held": the receiver's and a parameter's). A negation ("Lock must not be
// held") does not match.
var heldOnEntry = regexp.MustCompile(`(?i)(?:^|[.;:!?]\s+)(?:the\s+)?(?:(\w+)(?:'s)?\s+)?(?:lock|mutex|locks)\s+(?:should|must|needs\s+to|has\s+to|is\s+(?:expected|assumed|required)\s+to)\s+be\s+(?:held|locked|acquired|taken)\b` +
	`|(?:^|[.;:!?]\s+|\b(?:assumes|requires|expects)\s+)(?:the\s+)?(?:(\w+)(?:'s)?\s+)?(?:lock|mutex)\s+(?:is\s+)?(?:(?:assumed|already)\s+)?(?:held|locked|acquired|taken)\b` +
	`|\b(?:must|should)\s+hold\s+(?:the\s+)?(?:(\w+)(?:'s)?\s+)?(?:lock|mutex)\b` +
	`|\b(?:with|while\s+holding)\s+(?:the\s+)?(?:(\w+)(?:'s)?\s+)?(?:lock|mutex)(?:\s+(?:held|locked|acquired)|\s+on)\b`)

// docSaysHeld reports whether fd's doc says that the lock of root, its
// receiver or a parameter, is held when fd runs (heldOnEntry). Such a
// promise does not name the lock, so it is not a contract and not
// evidence: the accesses through root in that function are explained, as
// by a //guard:ignore, and that is all. A word naming whose lock must be
// root's name or type name ("Server lock", "fs lock"); without one, or
// for "read" and "write" locks, it is the receiver's; "both" and "all"
// locks are the receiver's and the parameters'.
func (r *inference) docSaysHeld(fd *ast.FuncDecl, root types.Object) bool {
	v, ok := root.(*types.Var)
	if !ok {
		return false
	}
	text := strings.Join(strings.Fields(fd.Doc.Text()), " ")
	lower := strings.ToLower(text)
	if !strings.Contains(lower, "lock") && !strings.Contains(lower, "mutex") {
		return false
	}
	m := heldOnEntry.FindStringSubmatch(text)
	if m == nil {
		return false
	}
	fn, _ := r.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return false
	}
	sig := fn.Type().(*types.Signature)
	isRecv := sig.Recv() == v
	isParam := false
	for i := 0; i < sig.Params().Len(); i++ {
		isParam = isParam || sig.Params().At(i) == v
	}
	switch owner := strings.ToLower(m[1] + m[2] + m[3] + m[4]); owner {
	case "", "read", "write", "caller", "callers", "a", "its", "our", "this":
		return isRecv
	case "both", "all":
		return isRecv || isParam
	default:
		return (isRecv || isParam) && (owner == strings.ToLower(v.Name()) || owner == strings.ToLower(typeName(v.Type())))
	}
}

// typeName is the name of a named type, or of the one a pointer points to.
func typeName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// score is the evidence that a lock guards a field: the writes made with
// it held, and the functions that hold it at an access. Each counts up to
// maxPoints; -config.infer.score sets the total a guard needs. Many reads
// under a lock in one function are not evidence that the lock is the
// field's guard; writes under it in several functions are.
type score struct {
	writes     int
	firstWrite token.Pos
	holders    []string // function names, in the order met
}

func (s score) points() int {
	return min(s.writes, maxPoints) + min(len(s.holders), maxPoints)
}

func (r *inference) score(accs []*lockstate.Access, ref guardRef) score {
	var sc score
	seen := map[*types.Func]bool{}
	for _, b := range accs {
		if !r.heldAt(b, ref) {
			continue
		}
		if b.Write && !b.Atomic {
			if sc.writes == 0 {
				sc.firstWrite = b.Pos
			}
			sc.writes++
		}
		if f := r.funcOf[b]; f != nil && !seen[f.Obj] {
			seen[f.Obj] = true
			sc.holders = append(sc.holders, f.Obj.Name())
		}
	}
	return sc
}

// explain is the evidence behind a finding at a, under
// -config.infer.explain: the writes made with the lock held, the functions
// that hold it, and where a runs.
func (r *inference) explain(accs []*lockstate.Access, ref guardRef, a *lockstate.Access, scored bool) string {
	if !r.explainOn {
		return ""
	}
	sc := r.score(accs, ref)
	var parts []string
	if sc.writes > 0 {
		parts = append(parts, fmt.Sprintf("%d %s with the lock held (first at %s)", sc.writes, plural(sc.writes, "write", "writes"), r.site(sc.firstWrite)))
	} else {
		parts = append(parts, "no write with the lock held")
	}
	if n := len(sc.holders); n > 0 {
		shown := sc.holders
		if n > 3 {
			shown = sc.holders[:3]
		}
		list := strings.Join(shown, ", ")
		if n > 3 {
			list += ", ..."
		}
		parts = append(parts, fmt.Sprintf("the lock held in %d %s (%s)", n, plural(n, "function", "functions"), list))
	}
	if f := r.funcOf[a]; f != nil {
		where := f.Obj.Name()
		switch {
		case strings.HasSuffix(r.pass.Fset.File(a.Pos).Name(), "_test.go"):
			where = "test " + where + ", while a goroutine it started with the object runs"
		case f.Context == lockstate.Goroutine:
			where = "a goroutine started in " + where
		case f.Lit != nil:
			where = "a closure in " + where
		case f.Obj.Exported():
			where = "exported " + where + ", which callers outside the package can call from any goroutine"
		}
		parts = append(parts, "this access is in "+where)
	}
	if scored {
		parts = append(parts, fmt.Sprintf("score %d (-config.infer.score %d needed)", sc.points(), r.minScore))
	}
	return "; evidence: " + strings.Join(parts, "; ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// addressToHelper reports whether the access only takes the field's
// address to hand it to a function of this package
// (getOrCreate(&c.pipeliner, &c.pipelinerMu)): taking an address reads
// and writes nothing; the helper's own code does, under whatever lock it
// takes there, which is not this access's lock state.
func (r *inference) addressToHelper(a *lockstate.Access) bool {
	if r.handedAddrs == nil {
		r.handedAddrs = map[ast.Expr]bool{}
		for _, file := range r.pass.Files {
			ast.Inspect(file, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				fn := typeutil.StaticCallee(r.pass.TypesInfo, call)
				if fn == nil || fn.Pkg() != r.pass.Pkg || r.declOf(fn) == nil {
					return true
				}
				for _, arg := range call.Args {
					if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.AND {
						r.handedAddrs[u.X] = true
					}
				}
				return true
			})
		}
	}
	return a.Node != nil && r.handedAddrs[a.Node]
}
