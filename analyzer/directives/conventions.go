package directives

import (
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"
	"unicode"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
)

// The conventions read here are what unannotated code already says about
// its locks, in prose and in names. They are unchecked promises, so only
// guard inference reads them (config.Config.ProseGuards and
// LockedConvention); with inference off the directives analyzer ignores
// them and guardvet stays silent on code without directives.

// ProseGuard is a field's guard as a comment states it, resolved to a lock
// field of the same struct. It is not a directive: guard inference checks
// it and offers to turn it into one.
type ProseGuard struct {
	Lock    string    // the lock field, as a //guard:by argument
	Comment token.Pos // the comment that says so
	Quote   string    // the words that say so, for messages
}

// Documented reports whether the field's own comment says how it is
// shared: a guard phrase (plain, qualified or negated) or a protocol
// ("owned by the dialer goroutine", "immutable"). Only fields of structs
// with a lock are read.
func (r *Result) Documented(v *types.Var) bool {
	return v != nil && r.protocol[v.Origin()]
}

// Prose returns the soft guard a comment states for the field, or nil.
func (r *Result) Prose(v *types.Var) *ProseGuard {
	if v == nil {
		return nil
	}
	return r.prose[v.Origin()]
}

var (
	// "guarded by mu", "protected by c.mu", "must hold mu", "mu must be held".
	fieldPhrase = regexp.MustCompile(`(?i)\b(?:guarded|protected|synchronized|synchronised|serialized|serialised)\s+by\s+(?:the\s+)?((?:\w+\.)*\w+)|\bmust\s+hold\s+(?:the\s+)?((?:\w+\.)*\w+)|\b((?:\w+\.)*\w+)\s+must\s+be\s+held`)
	// A lock field's comment naming what it guards: "guards a, b and c",
	// "protects the following fields".
	hatPhrase = regexp.MustCompile(`(?i)\b(?:guards|protects|guarding|protecting|serializes|serialises)\b(.*)`)
	following = regexp.MustCompile(`(?i)\b(?:following|below|after\s+it|after\s+this|next)\b`)
	// Prose that qualifies the guard (only writes, atomics, conditions,
	// some cases: "in a few limited cases where needed for testing") is
	// not a plain guard; such comments are ignored, not guessed at.
	qualified = regexp.MustCompile(`(?i)\b(?:atomic\w*|writ\w*|read\w*|mutat\w*|modif\w*|updat\w*|chang\w*|also|except|unless|when|while|during|if|once|sometimes|either|or|on\s+\w+\s+(?:requests?|calls?|paths?)|in\s+(?:\w+\s+){0,3}cases?|where\s+needed|for\s+test\w*)\b`)
	// A negation just before the phrase ("Not guarded by mu.", "is never
	// protected by mu") says the opposite: no guard, and the field is out
	// of any "following fields" section.
	negated = regexp.MustCompile(`(?i)\b(?:not|never|without|\w+n't)\s+(?:\w+\s+)?$`)
	// Words in a field's own comment that describe how it is shared
	// without naming a plain guard: "owned by the reader goroutine",
	// "immutable", "set once", "only accessed from". Races leave such a
	// field alone, as they do one whose guard prose is qualified or negated.
	protocolPhrase = regexp.MustCompile(`(?i)\b(?:owned\s+by|goroutine|immutable|read-only|readonly|never\s+changes|set\s+once|only\s+(?:accessed|used|read|written|modified|set|called)|racy|atomic\w*|synchroni[sz]\w*|happens[- ]before)\b`)
	// Generic names for "the only lock of this struct".
	genericLock = map[string]bool{"mutex": true, "lock": true}
)

// proseGuards reads the prose guards of one struct type.
func (c *collector) proseGuards(st *ast.StructType) {
	ps := c.newProseScan(st)
	if ps == nil {
		return
	}
	tf := c.pass.Fset.File(st.Pos())
	prevEnd := 0
	for _, f := range st.Fields.List {
		start := f.Pos()
		if f.Doc != nil {
			start = f.Doc.Pos()
		}
		if prevEnd > 0 && tf.Line(start) > prevEnd+1 {
			ps.carry = nil // a blank line ends "the following fields"
		}
		prevEnd = tf.Line(f.End())
		isLock := false
		if tv, ok := c.pass.TypesInfo.Types[f.Type]; ok {
			isLock, _ = locks.IsLock(tv.Type)
		}
		text, cm := commentText(f.Doc, f.Comment)
		if isLock {
			ps.lockField(f, text, cm)
		} else {
			ps.field(f, text, cm)
			if fieldPhrase.MatchString(text) || protocolPhrase.MatchString(text) {
				for _, v := range ps.varsOf(f) {
					c.res.protocol[v] = true
				}
			}
		}
	}
}

// proseScan reads one struct's comments for the locks they say guard its
// fields.
type proseScan struct {
	c         *collector
	lockNames map[string]bool
	onlyLock  string // the struct's one lock, if it has one
	fields    map[string][]*types.Var
	// carry is a "the following fields" guard: it applies to the fields
	// after it until a blank line or a new section.
	carry   *ProseGuard
	carryCm *ast.Comment
}

// newProseScan returns the scan of a struct with at least one lock field,
// or nil.
func (c *collector) newProseScan(st *ast.StructType) *proseScan {
	strct, _ := c.pass.TypesInfo.Types[st].Type.(*types.Struct)
	if strct == nil {
		return nil
	}
	ps := &proseScan{c: c, lockNames: map[string]bool{}, fields: map[string][]*types.Var{}}
	for i := 0; i < strct.NumFields(); i++ {
		if ok, _ := locks.IsLock(strct.Field(i).Type()); ok {
			ps.lockNames[strct.Field(i).Name()] = true
			ps.onlyLock = strct.Field(i).Name()
		}
	}
	if len(ps.lockNames) == 0 {
		return nil
	}
	if len(ps.lockNames) > 1 {
		ps.onlyLock = ""
	}
	for _, f := range st.Fields.List {
		for _, v := range ps.varsOf(f) {
			ps.fields[v.Name()] = append(ps.fields[v.Name()], v)
		}
	}
	return ps
}

// resolve names the lock field a word of a comment means: the field
// itself, or the struct's only lock for a generic word ("the mutex").
func (ps *proseScan) resolve(word string) string {
	if i := strings.LastIndexByte(word, '.'); i >= 0 {
		word = word[i+1:]
	}
	if ps.lockNames[word] {
		return word
	}
	if genericLock[strings.ToLower(word)] {
		return ps.onlyLock
	}
	return ""
}

func (ps *proseScan) varsOf(f *ast.Field) []*types.Var {
	var vs []*types.Var
	for _, name := range f.Names {
		if v, ok := ps.c.pass.TypesInfo.Defs[name].(*types.Var); ok {
			vs = append(vs, v)
		}
	}
	return vs
}

// set records that a comment says lock guards v, unless a directive or a
// more specific comment already said something, or v is a lock itself.
func (ps *proseScan) set(v *types.Var, lock string, cm *ast.Comment, quote string) {
	if ps.c.res.fields[v] != nil || ps.c.res.prose[v] != nil {
		return
	}
	if ok, _ := locks.IsLock(v.Type()); ok {
		return
	}
	ps.c.res.prose[v] = &ProseGuard{Lock: lock, Comment: cm.Slash, Quote: strings.TrimSpace(quote)}
}

// lockField reads a lock field's comment: "mu guards a and b", or "mu
// guards the following fields".
func (ps *proseScan) lockField(f *ast.Field, text string, cm *ast.Comment) {
	ps.carry = nil
	m := hatPhrase.FindStringSubmatch(text)
	if m == nil || qualified.MatchString(text) {
		return
	}
	name := ""
	if len(f.Names) == 1 {
		name = f.Names[0].Name
	} else if len(f.Names) == 0 {
		name = embeddedName(f.Type)
	}
	if name == "" {
		return
	}
	if following.MatchString(m[1]) {
		ps.carry, ps.carryCm = &ProseGuard{Lock: name, Quote: strings.TrimSpace(m[0])}, cm
		return
	}
	for _, word := range strings.FieldsFunc(m[1], func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '.' }) {
		word = strings.Trim(word, ".")
		if strings.Contains(word, ".") {
			continue // "guards trInfo.tr": a field of what trInfo points to, not trInfo
		}
		for _, v := range ps.fields[word] {
			ps.set(v, name, cm, m[0])
		}
	}
}

// field reads another field's comment: "guarded by mu" (perhaps for the
// following fields too), a negation, or nothing, when the carried guard
// applies.
func (ps *proseScan) field(f *ast.Field, text string, cm *ast.Comment) {
	if loc := fieldPhrase.FindStringIndex(text); loc != nil && negated.MatchString(text[:loc[0]]) {
		if f.Doc != nil {
			ps.carry = nil
		}
		return
	}
	if m := fieldPhrase.FindStringSubmatch(text); m != nil && !qualified.MatchString(text) {
		word := m[1] + m[2] + m[3]
		if lock := ps.resolve(word); lock != "" {
			for _, v := range ps.varsOf(f) {
				ps.set(v, lock, cm, m[0])
			}
			if following.MatchString(text) {
				ps.carry, ps.carryCm = &ProseGuard{Lock: lock, Quote: strings.TrimSpace(m[0])}, cm
			}
			return
		}
	}
	if f.Doc != nil {
		ps.carry = nil // a comment above a field starts a new section
	}
	if ps.carry != nil && !qualified.MatchString(text) {
		for _, v := range ps.varsOf(f) {
			ps.set(v, ps.carry.Lock, ps.carryCm, ps.carry.Quote)
		}
	}
}

// commentText joins a field's doc and trailing comments, and returns the
// first comment for positions.
func commentText(groups ...*ast.CommentGroup) (string, *ast.Comment) {
	var parts []string
	var first *ast.Comment
	for _, g := range groups {
		if g == nil {
			continue
		}
		if first == nil {
			first = g.List[0]
		}
		parts = append(parts, g.Text())
	}
	return strings.Join(strings.Fields(strings.Join(parts, " ")), " "), first
}

func embeddedName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return embeddedName(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// A function doc that says its caller holds a lock: "Assumes db.mu is
// locked", "Called with c.mu held", "Caller must hold mu", "mu must be held".
var funcPhrase = regexp.MustCompile(`(?i)\b(?:assumes|requires)\s+((?:\w+\.)*\w+)\s+(?:is\s+|to\s+be\s+)?(?:locked|held)\b|\bcalled\s+with\s+((?:\w+\.)*\w+)\s+(?:locked|held)\b|\bmust\s+hold\s+(?:the\s+)?((?:\w+\.)*\w+)|\b((?:\w+\.)*\w+)\s+must\s+be\s+(?:held|locked)\b`)

// mayStateHold reports whether doc has a word funcPhrase needs ("locked",
// "held", "hold"), in any case.
func mayStateHold(doc string) bool {
	lower := strings.ToLower(doc)
	return strings.Contains(lower, "held") || strings.Contains(lower, "locked") || strings.Contains(lower, "hold")
}

// proseContract gives a function whose doc says its caller holds a lock
// the contract that says so, like //guard:holds. The words must resolve to
// a lock through the receiver, a parameter or a package-level variable.
func (c *collector) proseContract(fd *ast.FuncDecl) {
	if fd.Doc == nil {
		return
	}
	fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil || c.res.funcs[fn] != nil {
		return // a directive or the ...Locked name said it first
	}
	doc := fd.Doc.Text()
	if !mayStateHold(doc) {
		return // the regular expression is costly on every documented function
	}
	m := funcPhrase.FindStringSubmatch(strings.Join(strings.Fields(doc), " "))
	if m == nil {
		return
	}
	word := m[1] + m[2] + m[3] + m[4]
	sig := fn.Type().(*types.Signature)
	ref, problem := c.resolveFuncLock(sig, word)
	if problem != "" && !strings.Contains(word, ".") && sig.Recv() != nil && sig.Recv().Name() != "" && sig.Recv().Name() != "_" {
		ref, problem = c.resolveFuncLock(sig, sig.Recv().Name()+"."+word)
	}
	if problem != "" {
		return // unresolvable prose is ignored
	}
	if c.acquiresFirst(fd, sig, ref) {
		return // the body takes the lock itself: the prose is about something else
	}
	contract := &Contract{Convention: ByDoc}
	if c.lockIsRW(sig, ref) {
		contract.RHolds = []LockRef{ref}
	} else {
		contract.Holds = []LockRef{ref}
	}
	c.res.funcs[fn] = contract
}

// lockIsRW reports whether a resolved function lock path ends at an RWMutex.
func (c *collector) lockIsRW(sig *types.Signature, ref LockRef) bool {
	var t types.Type
	switch {
	case ref.Kind == Global:
		if v := c.res.Global(ref); v != nil {
			t = v.Type()
		}
	case ref.Param == Receiver:
		t = sig.Recv().Type()
	case ref.Param < sig.Params().Len():
		t = sig.Params().At(ref.Param).Type()
	default:
		t = sig.Results().At(ref.Param - sig.Params().Len()).Type()
	}
	for _, seg := range strings.Split(strings.TrimPrefix(ref.Sel, "."), ".") {
		if t == nil || seg == "" {
			break
		}
		obj, _, _ := types.LookupFieldOrMethod(t, true, c.pass.Pkg, seg)
		fv, ok := obj.(*types.Var)
		if !ok {
			return false
		}
		t = fv.Type()
	}
	_, rw := locks.IsLock(t)
	return rw
}

// lockedConvention gives a method named ...Locked the contract its name
// states: the caller holds the receiver's lock. The lock is the receiver
// struct's only lock, or the only one of its locks the method's doc names.
func (c *collector) lockedConvention(fd *ast.FuncDecl) {
	name := fd.Name.Name
	if fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 || !strings.HasSuffix(name, "Locked") || name == "Locked" {
		return
	}
	fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil || c.res.funcs[fn] != nil {
		return // a declared contract wins
	}
	recv := fn.Type().(*types.Signature).Recv()
	if recv.Name() == "_" {
		return
	}
	t := recv.Type()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	strct, ok := t.Underlying().(*types.Struct)
	if !ok {
		return
	}
	if fd.Doc != nil {
		// "Called with the Conn.mu held": the doc names the lock of
		// another type, which the receiver reaches through a field
		// (de.c.mu). Unreachable, no contract: not the receiver's lock.
		if path, other := c.otherTypeLock(t, fd.Doc.Text()); other {
			if path == "" {
				return
			}
			ref, problem := c.resolveFuncLock(fn.Type().(*types.Signature), recv.Name()+"."+path)
			if problem != "" || c.acquiresFirst(fd, fn.Type().(*types.Signature), ref) {
				return
			}
			contract := &Contract{Convention: ByDoc}
			if c.lockIsRW(fn.Type().(*types.Signature), ref) {
				contract.RHolds = []LockRef{ref}
			} else {
				contract.Holds = []LockRef{ref}
			}
			c.res.funcs[fn] = contract
			return
		}
	}
	var all []*types.Var
	for i := 0; i < strct.NumFields(); i++ {
		if ok, _ := locks.IsLock(strct.Field(i).Type()); ok {
			all = append(all, strct.Field(i))
		}
	}
	chosen := all
	if len(all) > 1 && fd.Doc != nil {
		chosen = nil
		doc := fd.Doc.Text()
		for _, f := range all {
			if regexp.MustCompile(`\b` + regexp.QuoteMeta(f.Name()) + `\b`).MatchString(doc) {
				chosen = append(chosen, f)
			}
		}
	}
	if len(chosen) != 1 {
		return
	}
	ref, problem := c.resolveFuncLock(fn.Type().(*types.Signature), recv.Name()+"."+chosen[0].Name())
	if problem != "" {
		return
	}
	if c.acquiresFirst(fd, fn.Type().(*types.Signature), ref) {
		return // takes the lock itself: the name says "locks", not "needs it held"
	}
	contract := &Contract{Convention: ByName}
	if _, rw := locks.IsLock(chosen[0].Type()); rw {
		contract.RHolds = []LockRef{ref}
	} else {
		contract.Holds = []LockRef{ref}
	}
	c.res.funcs[fn] = contract
}

// acquiresFirst reports whether the first thing fd's body does with the
// lock ref (reached through the receiver or a parameter), outside function
// literals, is to take it: a function that locks the lock itself does not
// need its caller to hold it, whatever its name or doc says ("Client lock
// must not be held on entry" on a ...Locked method that locks c.mu). A
// body that first releases the lock (unlock, wait, relock) still needs it
// held.
func (c *collector) acquiresFirst(fd *ast.FuncDecl, sig *types.Signature, ref LockRef) bool {
	if fd.Body == nil || ref.Kind == Global {
		return false
	}
	var root string
	switch {
	case ref.Param == Receiver:
		root = sig.Recv().Name()
	case ref.Param >= 0 && ref.Param < sig.Params().Len():
		root = sig.Params().At(ref.Param).Name()
	}
	if root == "" || root == "_" {
		return false
	}
	want := root + ref.Sel
	// Local helpers: lock := func() { if need { o.mu.Lock() } }. A call of
	// one counts as what its literal does first.
	helpers, _ := astq.CalledClosures(c.pass.TypesInfo, fd.Body)
	first := c.firstLockOp(fd.Body, want, helpers, 0)
	return first != "" && !strings.HasSuffix(first, "Unlock")
}

// firstLockOp returns the first lock operation (Lock, RLock, Unlock, ...)
// on the lock path want in body, outside function literals except those
// of local helpers called by name, or "".
func (c *collector) firstLockOp(body ast.Node, want string, helpers map[types.Object]*ast.FuncLit, depth int) string {
	first := ""
	astq.Contains(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return false
		}
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && depth < 2 {
			if lit := helpers[c.pass.TypesInfo.Uses[id]]; lit != nil {
				first = c.firstLockOp(lit.Body, want, helpers, depth+1)
				return first != ""
			}
		}
		se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		switch se.Sel.Name {
		case "Lock", "RLock", "TryLock", "TryRLock", "Unlock", "RUnlock":
		default:
			return false
		}
		x := types.ExprString(se.X)
		if sel := c.pass.TypesInfo.Selections[se]; sel != nil {
			if implicit := locks.ImplicitFields(sel); len(implicit) > 0 {
				x += "." + strings.Join(implicit, ".") // c.Lock() on an embedded sync.Mutex
			}
		}
		if x != want {
			return false
		}
		first = se.Sel.Name
		return true
	})
	return first
}

// typeLock is a type-qualified lock in prose: Conn.mu.
var typeLock = regexp.MustCompile(`\b([A-Za-z_]\w*)\.(\w+)\b`)

// otherTypeLock reads, in a ...Locked method's doc, a lock named by the
// type that declares it (Conn.mu) when that type is not the receiver's
// (recv, dereferenced). other says the doc names one; path is the field
// path to it from the receiver (c.mu, through the receiver's field c of
// type Conn or *Conn), or "" when no field of the receiver leads there.
func (c *collector) otherTypeLock(recv types.Type, doc string) (path string, other bool) {
	rs, _ := recv.Underlying().(*types.Struct)
	for _, m := range typeLock.FindAllStringSubmatch(doc, -1) {
		tn, _ := c.pass.Pkg.Scope().Lookup(m[1]).(*types.TypeName)
		if tn == nil || types.Identical(tn.Type(), recv) {
			continue
		}
		owner, ok := tn.Type().Underlying().(*types.Struct)
		if !ok {
			continue
		}
		isLock := false
		for i := 0; i < owner.NumFields(); i++ {
			if f := owner.Field(i); f.Name() == m[2] {
				isLock, _ = locks.IsLock(f.Type())
			}
		}
		if !isLock {
			continue
		}
		if rs != nil {
			for i := 0; i < rs.NumFields(); i++ {
				ft := rs.Field(i).Type()
				if p, ok := ft.Underlying().(*types.Pointer); ok {
					ft = p.Elem()
				}
				if types.Identical(ft, tn.Type()) {
					return rs.Field(i).Name() + "." + m[2], true
				}
			}
		}
		return "", true
	}
	return "", false
}

// conventions reads the prose guards and ...Locked methods of one file, after
// every directive is known (a directive always wins).
func (c *collector) conventions() {
	for _, decl := range c.file.Decls {
		switch decl := decl.(type) {
		case *ast.FuncDecl:
			if c.res.Config.LockedConvention() {
				c.lockedConvention(decl)
			}
			if c.res.Config.ProseGuards() {
				c.proseContract(decl)
			}
		case *ast.GenDecl:
			if !c.res.Config.ProseGuards() || decl.Tok != token.TYPE {
				continue
			}
			for _, spec := range decl.Specs {
				if st, ok := spec.(*ast.TypeSpec).Type.(*ast.StructType); ok {
					c.proseGuards(st)
				}
			}
		}
	}
}
