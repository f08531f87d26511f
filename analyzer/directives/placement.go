package directives

import (
	"go/ast"
	"go/types"
	"strings"
)

// Where checklocks reads its annotations (gvisor.dev/gvisor/tools/
// checklocks, checklocks.go run and facts.go):
//
//   - struct fields: the doc and trailing comments of the fields of a
//     package-level type declaration or var declaration of a struct type,
//     and of the struct types written directly as a field's type
//     (structLockGuardFacts), numbering the fields by declaration line;
//   - package-level variables: the doc comment of the var spec only, and
//     for its first name only (globalLockGuardFacts reads vs.Doc and
//     vs.Names[0]);
//   - functions: the doc comment of a function declaration (functionFacts);
//   - +checklocksalias: a type spec's doc and trailing comments and its
//     declaration's doc, for every spec of type ( ... ) (typeAliasFacts);
//   - +checklocksignore, +checklocksforce: any comment, keyed by the
//     comment's own line (annotations.go, extractLineFailures).
//
// Nothing else: a checklocks annotation anywhere else is skipped without
// a word. guardvet reports each such place at the annotation, and checks
// what checklocks checks: the annotation is not applied.

// guarding reports whether d is a checklocks annotation that guards the
// field or variable it is on (+checklocks, +checkatomic).
func guarding(d Directive) bool {
	return d.Dialect && (d.Verb == "checklocks" || d.Verb == "atomic")
}

// nativeFix is the //guard: directive guardvet reads where checklocks does
// not read d.
func nativeFix(d Directive) string {
	if d.Verb == "atomic" {
		return "//guard:atomic"
	}
	return "//guard:by " + strings.Join(d.Args, " ")
}

// globalDirectives takes the directives of a package-level var spec.
// checklocks reads only the spec's doc comment, which go/parser sets only
// inside var ( ... ): an annotation above an unparenthesized var, above
// var (, or at the end of the line is reported and not applied.
func (c *collector) globalDirectives(gd *ast.GenDecl, vs *ast.ValueSpec) []Directive {
	ds := c.take(vs.Doc)
	for _, d := range c.take(vs.Comment) {
		if d.Dialect && (d.Verb == "checklocksignore" || d.Verb == "checklocksforce") {
			c.lineIgnore(d.Pos, d) // keyed by its line, as everywhere
			continue
		}
		ds = c.globalDoc(ds, d)
	}
	if len(gd.Specs) == 1 {
		for _, d := range c.take(gd.Doc) {
			ds = c.globalDoc(ds, d)
		}
	}
	return ds
}

// globalDoc adds d, from the trailing comment of a var spec or the doc of
// its var declaration, to ds, unless checklocks does not read it there.
func (c *collector) globalDoc(ds []Directive, d Directive) []Directive {
	if !guarding(d) {
		return append(ds, d)
	}
	c.report(d.Pos, "checklocks ignores "+d.Spelling+" here: of a package-level variable it reads only the comment lines above it inside var ( ... ), "+
		"and so does guardvet; move the annotation there, as in var ( // +checklocks:mu, then the variable on the next line )")
	return ds
}

// severalNames reports a checklocks annotation on a declaration of several
// names (var a, b int; a, b int in a struct), which checklocks applies to
// the first name only, and returns what applies to the other names.
func (c *collector) severalNames(ds []Directive, names []*ast.Ident, what string) []Directive {
	if len(names) < 2 {
		return ds
	}
	var rest []Directive
	reported := false
	for _, d := range ds {
		if !guarding(d) {
			rest = append(rest, d)
			continue
		}
		if !reported {
			c.report(d.Pos, "checklocks applies "+d.Spelling+" only to "+names[0].Name+", the first of the "+what+
				" declared together here, and so does guardvet; declare each on a line of its own with its annotation")
			reported = true
		}
	}
	return rest
}

// fieldIndex reports a checklocks annotation on a field after a line that
// declares several fields: checklocks takes the annotations of the i-th
// line of fields for the struct's i-th field (structLockGuardFacts), so it
// guards another field than the one written. guardvet applies it to the
// field it is written on.
func (c *collector) fieldIndex(ds []Directive, st *ast.StructType, i int) {
	own := 0
	for _, f := range st.Fields.List[:i] {
		own += max(1, len(f.Names))
	}
	if own == i {
		return
	}
	strct := c.structOf(st)
	if strct == nil || i >= strct.NumFields() || own >= strct.NumFields() {
		return
	}
	for _, d := range ds {
		if guarding(d) {
			c.report(d.Pos, "checklocks applies "+d.Spelling+" to the field "+strct.Field(i).Name()+", not "+strct.Field(own).Name()+
				": it counts the fields declared together on an earlier line of this struct as one; declare each field on a line of its own")
			return
		}
	}
}

// unreadStruct reports the checklocks annotations on the fields of a
// struct type checklocks does not read (declared in a function body, or
// written inside another type: *struct{...}, []struct{...}), and returns
// the directives still to apply.
func (c *collector) unreadStruct(ds []Directive) []Directive {
	var rest []Directive
	for _, d := range ds {
		if !guarding(d) {
			rest = append(rest, d)
			continue
		}
		c.report(d.Pos, "checklocks ignores "+d.Spelling+" on a field of a struct type that is not declared at package level, "+
			"or is written inside another type, and so does guardvet; write "+nativeFix(d)+", which guardvet reads there")
	}
	return rest
}

// inBody is the message for a checklocks annotation inside a function
// body other than a line's +checklocksignore or +checklocksforce.
func inBody(d Directive) string {
	return "checklocks ignores " + d.Spelling + " inside a function body (on a local variable, a function literal or a statement), " +
		"and so does guardvet; annotate a struct field, a package-level variable or a function's doc comment"
}

// aloneInBody is the message for +checklocksignore or +checklocksforce on
// a line of its own in a function body: checklocks keys it by its own
// line, where nothing is checked.
func aloneInBody(d Directive) string {
	return d.Spelling + " on a line of its own: checklocks applies it only to its own line, where nothing is checked, " +
		"and so does guardvet; put it at the end of the line it is meant for"
}

func (c *collector) structOf(st *ast.StructType) *types.Struct {
	strct, _ := c.pass.TypesInfo.Types[st].Type.(*types.Struct)
	return strct
}

// groupAliases takes the +checklocksalias annotations above type ( ... )
// with several specs: checklocks applies them to every type of the group
// (typeAliasFacts reads the declaration's doc for each spec), and so does
// guardvet, to its struct types. With no struct type in the group, each is
// reported as on a non-struct type.
func (c *collector) groupAliases(gd *ast.GenDecl) []Directive {
	if len(gd.Specs) < 2 || gd.Doc == nil {
		return nil
	}
	var ds []Directive
	for _, cm := range gd.Doc.List {
		if d, ok := c.pending[cm]; ok && d.Dialect && d.Verb == "checklocksalias" {
			ds = append(ds, d)
			delete(c.pending, cm)
		}
	}
	for _, spec := range gd.Specs {
		if _, ok := spec.(*ast.TypeSpec).Type.(*ast.StructType); ok {
			return ds
		}
	}
	ts := gd.Specs[0].(*ast.TypeSpec)
	for _, d := range ds {
		c.alias(d, ts, nil) // reports: not a struct type
	}
	return nil
}
