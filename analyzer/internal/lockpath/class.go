package lockpath

import (
	"go/types"
	"strings"

	"github.com/guardvet/guardvet/analyzer/internal/astq"
	"github.com/guardvet/guardvet/analyzer/internal/locks"
)

// A lock class names a kind of lock rather than an instance: the named
// struct type that declares the lock field plus the field ("pkg/path.T.mu",
// shown as "T.mu"), or a package-level lock variable ("pkg/path.mu"). Lock
// order is a property of classes: every Session's detachMu comes before its
// ptmxMu.

// Class returns the class of the lock at p.
func Class(p Path) (key, display string, ok bool) {
	v, isVar := p.Root.(*types.Var)
	if !isVar {
		return "", "", false
	}
	segs := splitSel(p.Sel)
	if isPackageLevel(v) {
		if lock, _ := locks.IsLock(v.Type()); lock {
			return v.Pkg().Path() + "." + v.Name(), v.Pkg().Name() + "." + v.Name(), true
		}
	}
	return ClassFrom(v.Type(), segs)
}

// ClassFrom walks field names (and "[i]" index steps) from type t to the
// first lock-typed field and returns its class.
func ClassFrom(t types.Type, segs []string) (key, display string, ok bool) {
	owner, field := lockField(t, segs)
	if field == nil || owner == nil || owner.Obj().Pkg() == nil {
		return "", "", false
	}
	obj := owner.Obj()
	return obj.Pkg().Path() + "." + obj.Name() + "." + field.Name(), obj.Name() + "." + field.Name(), true
}

// LockVar returns the variable or struct field that holds the lock at p:
// where //guard:noblock and other lock-level directives are attached.
func LockVar(p Path) *types.Var {
	v, isVar := p.Root.(*types.Var)
	if !isVar {
		return nil
	}
	if isPackageLevel(v) {
		if lock, _ := locks.IsLock(v.Type()); lock {
			return v
		}
	}
	_, field := lockField(v.Type(), splitSel(p.Sel))
	return field
}

// lockField walks segs from t to the first field whose type is a lock.
func lockField(t types.Type, segs []string) (*types.Named, *types.Var) {
	for _, seg := range segs {
		if strings.HasPrefix(seg, "[") {
			switch u := astq.Deref(t).Underlying().(type) {
			case *types.Slice:
				t = u.Elem()
			case *types.Array:
				t = u.Elem()
			case *types.Map:
				t = u.Elem()
			default:
				return nil, nil
			}
			continue
		}
		owner, _ := types.Unalias(astq.Deref(t)).(*types.Named)
		st, isStruct := astq.Deref(t).Underlying().(*types.Struct)
		if !isStruct {
			return nil, nil
		}
		field := astq.Field(st, seg)
		if field == nil {
			return nil, nil
		}
		if lock, _ := locks.IsLock(field.Type()); lock {
			return owner, field
		}
		t = field.Type()
	}
	return nil, nil
}

// splitSel splits ".a.b[0].c" into "a", "b", "[0]", "c".
func splitSel(sel string) []string {
	var out []string
	for sel != "" {
		switch sel[0] {
		case '.':
			sel = sel[1:]
			end := strings.IndexAny(sel, ".[")
			if end < 0 {
				end = len(sel)
			}
			out = append(out, sel[:end])
			sel = sel[end:]
		case '[':
			end := indexEnd(sel)
			if end < 0 {
				return out
			}
			out = append(out, sel[:end+1])
			sel = sel[end+1:]
		default:
			return out
		}
	}
	return out
}

// indexEnd returns the position of the ']' that closes the index step at
// the start of sel ("[k]", "[0]", or a quoted constant such as
// ["a.b]"], whose dots and brackets are the key's), or -1.
func indexEnd(sel string) int {
	if len(sel) > 1 && sel[1] == '"' {
		for i := 2; i < len(sel); i++ {
			switch sel[i] {
			case '\\':
				i++ // an escaped character
			case '"':
				if i+1 < len(sel) && sel[i+1] == ']' {
					return i + 1
				}
				return -1
			}
		}
		return -1
	}
	return strings.IndexByte(sel, ']')
}

// Rewrite is one lock equation of a struct type (+checklocksalias): for
// any instance x of the type, the lock at x+From is the lock at x+To. Both
// are selector strings in Path form (".a.b.mu").
type Rewrite struct{ From, To string }

// Canonical rewrites p through the lock equations of the types along it,
// so that every name of one lock instance maps to the same Path. At each
// step of p (the root, then each field or index), the equations of the
// type there (rewrites of that type, pointers removed) are tried against
// the rest of the path; the leftmost match is replaced and the walk starts
// again. Equations must point from the longer name to the shorter, so the
// rewriting ends; a cap guards against a cycle anyway.
func Canonical(p Path, rewrites func(types.Type) []Rewrite) Path {
	if p.Root == nil {
		return p
	}
	for round := 0; round < 8; round++ {
		segs := splitSel(p.Sel)
		t := p.Root.Type()
		changed := false
		prefix := ""
		for i := 0; i <= len(segs) && t != nil && !changed; i++ {
			rest := p.Sel[len(prefix):]
			for _, rw := range rewrites(t) {
				if rest == rw.From || strings.HasPrefix(rest, rw.From+".") || strings.HasPrefix(rest, rw.From+"[") {
					p.Sel = prefix + rw.To + rest[len(rw.From):]
					changed = true
					break
				}
			}
			if i == len(segs) {
				break
			}
			t = step(t, segs[i])
			if strings.HasPrefix(segs[i], "[") {
				prefix += segs[i]
			} else {
				prefix += "." + segs[i]
			}
		}
		if !changed {
			return p
		}
	}
	return p
}

// step returns the type reached from t by one path segment (a field name,
// or "[i]" for an element), or nil.
func step(t types.Type, seg string) types.Type {
	if strings.HasPrefix(seg, "[") {
		switch u := astq.Deref(t).Underlying().(type) {
		case *types.Slice:
			return u.Elem()
		case *types.Array:
			return u.Elem()
		case *types.Map:
			return u.Elem()
		}
		return nil
	}
	st, ok := astq.Deref(t).Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	if f := astq.Field(st, seg); f != nil {
		return f.Type()
	}
	return nil
}
