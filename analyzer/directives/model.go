package directives

import (
	"go/types"
	"strings"
)

// RefKind says what a LockRef is rooted at.
type RefKind uint8

const (
	// Relative paths start at the struct that declares a guarded field.
	Relative RefKind = iota
	// Param paths start at a function's receiver, parameter or named result.
	Param
	// Global paths start at a package-level variable.
	Global
)

// Receiver is the Param index of a method receiver.
const Receiver = -1

// LockRef is a resolved lock path from a directive. It is stored in facts,
// so it holds names and indices, never types.Object pointers.
type LockRef struct {
	Kind    RefKind
	Param   int    // Param: Receiver, a parameter index, or len(params)+i for result i
	PkgPath string // Global: the variable's package
	Name    string // Global: the variable's name
	Sel     string // fields after the root, with embedded lock fields explicit: ".mu", ".inner.Mutex"
	Text    string // the path as the user wrote it, for messages
}

// FieldGuard is what directives require of a struct field or package-level
// variable. It is exported as a fact so every package that touches the
// field checks the same contract.
type FieldGuard struct {
	By     []LockRef // all must be held (read mode for reads, write mode for writes)
	Alias  []LockRef // per By entry: another name for the same lock (+checklocksalias), or zero
	Only   []string  // FuncKeys of the functions allowed to touch the field
	OnlyAs []string  // the names as written, for messages
	Getter string    // an //guard:only method that just returns the field, offered as a fix
	Atomic bool      // every access must go through sync/atomic
	// NoBlock marks a lock (field or variable) that must never be held
	// across a blocking operation (//guard:noblock).
	NoBlock bool
	// Refcount names the field of the same struct that counts the users of
	// each entry of this map (//guard:refcount): an entry is removed only
	// where its count is zero, and stored only where it is absent.
	Refcount string
}

// Guards reports whether g constrains accesses to the field itself (as
// opposed to only describing the lock it is, like noblock).
func (g *FieldGuard) Guards() bool {
	return g != nil && (len(g.By) > 0 || len(g.Only) > 0 || g.Atomic)
}

func (*FieldGuard) AFact() {}

func (g *FieldGuard) String() string {
	var parts []string
	for i, b := range g.By {
		if i < len(g.Alias) && g.Alias[i].Text != "" {
			parts = append(parts, "by "+b.Text+"="+g.Alias[i].Text)
			continue
		}
		parts = append(parts, "by "+b.Text)
	}
	if len(g.OnlyAs) > 0 {
		parts = append(parts, "only "+strings.Join(g.OnlyAs, " "))
	}
	if g.Atomic {
		parts = append(parts, "atomic")
	}
	if g.Refcount != "" {
		parts = append(parts, "refcount "+g.Refcount)
	}
	if g.NoBlock {
		parts = append(parts, "noblock")
	}
	return "guard(" + strings.Join(parts, ", ") + ")"
}

// Aliases are the lock equations of a struct type (+checklocksalias):
// each pair names one lock twice, by paths relative to the type. It is
// exported as a fact on the type's name so that every package compares
// lock paths through the type the same way.
type Aliases struct {
	Pairs [][2]LockRef
}

func (*Aliases) AFact() {}

func (a *Aliases) String() string {
	var parts []string
	for _, p := range a.Pairs {
		parts = append(parts, p[0].Text+"="+p[1].Text)
	}
	return "aliases(" + strings.Join(parts, ", ") + ")"
}

// Contract is what a function promises and requires about locks, either
// declared by directives or summarised from its body (lockstate's
// Effects embed one).
type Contract struct {
	Holds     []LockRef // caller holds in write mode, still held on return
	RHolds    []LockRef // caller holds in at least read mode
	Acquires  []LockRef // not held on entry, held (write) on return
	RAcquires []LockRef
	Releases  []LockRef // held (write) on entry, released on return
	RReleases []LockRef
	Excludes  []LockRef // must not be held by the caller
	// Downgrades are held (write) on entry and read-locked on return,
	// never released in between (a helper around DowngradeLock). Only
	// inferred: no directive declares it.
	Downgrades []LockRef
	Ignore     string // //guard:ignore reason: the body is not checked
	Blocks     bool   // //guard:blocks: calling it blocks (for the noblock rule)
	// Convention says where a contract no directive declared comes from:
	// ByName for a method named ...Locked, ByDoc for a doc comment that
	// says the caller holds the lock. Only guard inference reads them.
	Convention string
}

func (*Contract) AFact() {}

// lockList is one of a Contract's lists of locks, with the verb that
// fills it (a directive's) and names it (in String).
type lockList struct {
	verb string
	refs *[]LockRef
}

// lockLists returns c's lists of locks, in the order String prints them.
// Downgrades has no directive: only the engine infers it.
func (c *Contract) lockLists() []lockList {
	return []lockList{
		{"holds", &c.Holds}, {"rholds", &c.RHolds},
		{"acquires", &c.Acquires}, {"racquires", &c.RAcquires},
		{"releases", &c.Releases}, {"rreleases", &c.RReleases},
		{"excludes", &c.Excludes}, {"downgrades", &c.Downgrades},
	}
}

func (c *Contract) String() string {
	var parts []string
	for _, l := range c.lockLists() {
		for _, r := range *l.refs {
			parts = append(parts, l.verb+" "+r.Text)
		}
	}
	if c.Ignore != "" {
		parts = append(parts, "ignore")
	}
	if c.Blocks {
		parts = append(parts, "blocks")
	}
	if c.Convention != "" {
		parts = append(parts, "by "+c.Convention)
	}
	return "contract(" + strings.Join(parts, ", ") + ")"
}

// The sources of a Contract.Convention.
const (
	ByName = "name"
	ByDoc  = "doc"
)

// Empty reports whether c says nothing.
func (c *Contract) Empty() bool {
	return c == nil || len(c.Holds)+len(c.RHolds)+len(c.Acquires)+len(c.RAcquires)+len(c.Releases)+len(c.RReleases)+len(c.Excludes)+len(c.Downgrades) == 0 && c.Ignore == "" && !c.Blocks
}

// FuncKey names a function or method independently of type-checker
// instances: "pkg/path.f" or "pkg/path.T.m" (generic origin, pointer
// receivers folded).
func FuncKey(fn *types.Func) string {
	fn = fn.Origin()
	pkg := ""
	if fn.Pkg() != nil {
		pkg = fn.Pkg().Path()
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig != nil && sig.Recv() != nil {
		t := sig.Recv().Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			return pkg + "." + n.Obj().Name() + "." + fn.Name()
		}
		return pkg + ".?." + fn.Name()
	}
	return pkg + "." + fn.Name()
}

// Order is one //guard:order declaration: lock classes, outermost first.
type Order struct {
	Classes []string // lock classes (see Class), outer first
	Texts   []string // the paths as written
	Where   string   // "pkg.Type" or "pkg" where it was declared, for messages
}

// Orders is the package fact listing the lock orders declared in a package.
type Orders struct{ List []Order }

func (*Orders) AFact() {}

func (o *Orders) String() string {
	var parts []string
	for _, x := range o.List {
		parts = append(parts, strings.Join(x.Classes, " < "))
	}
	return "orders(" + strings.Join(parts, "; ") + ")"
}

// ParamIndex maps a signature's receiver and parameters to the index used
// ParamOf returns obj's index among sig's parameters, or Receiver for its
// receiver; ok is false when obj is neither.
func ParamOf(sig *types.Signature, obj types.Object) (index int, ok bool) {
	if r := sig.Recv(); r != nil && r == obj {
		return Receiver, true
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if sig.Params().At(i) == obj {
			return i, true
		}
	}
	return 0, false
}

// by directives.LockRef (Receiver for the receiver).
func ParamIndex(sig *types.Signature) map[types.Object]int {
	params := map[types.Object]int{}
	if sig.Recv() != nil {
		params[sig.Recv()] = Receiver
	}
	for i := 0; i < sig.Params().Len(); i++ {
		params[sig.Params().At(i)] = i
	}
	return params
}
