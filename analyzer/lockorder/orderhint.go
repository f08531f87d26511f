package lockorder

import (
	"go/ast"
	"go/token"
	"path"
	"strings"
)

// orderLine is the //guard:order line that declares the order an edge
// takes (its held lock first), and where to write it, as the end of a
// cycle's message: "//guard:order mu statsMu on type S". Locks of one type
// of this package are ordered on that type, by field name; others on a
// package-level var declaration or a type's doc, by qualified name, with
// the import names of the file at pos. When a lock cannot be named from
// here (a lock of a package the file does not import), it gives only the
// directive's name.
func (c *checker) orderLine(e localEdge) string {
	from, fromOK := c.orderName(e.From, e.pos)
	to, toOK := c.orderName(e.To, e.pos)
	if !fromOK || !toOK {
		return "with //guard:order (docs/directives.md)"
	}
	fromType, fromField, fromTyped := strings.Cut(from, ".")
	toType, toField, toTyped := strings.Cut(to, ".")
	if fromTyped && toTyped && fromType == toType && !strings.Contains(fromField, ".") && !strings.Contains(toField, ".") {
		return "on type " + fromType + ": //guard:order " + fromField + " " + toField
	}
	return "on a package-level var declaration or a type's doc: //guard:order " + from + " " + to
}

// orderName is how a //guard:order in the file at pos names the lock
// class key ("pkg/path.T.mu" or "pkg/path.mu"): "T.mu" or "mu" for this
// package, "name.T.mu" for an imported one (name as the file imports it).
func (c *checker) orderName(key string, pos token.Pos) (string, bool) {
	if rest, ok := strings.CutPrefix(key, c.pass.Pkg.Path()+"."); ok && !strings.Contains(rest, "/") {
		return rest, true
	}
	for _, f := range c.pass.Files {
		if f.FileStart > pos || pos > f.FileEnd {
			continue
		}
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			rest, ok := strings.CutPrefix(key, p+".")
			if !ok || strings.Contains(rest, "/") {
				continue
			}
			return importName(c, imp, p) + "." + rest, true
		}
	}
	return "", false
}

// importName is the name an import spec gives its package in the file.
func importName(c *checker, imp *ast.ImportSpec, p string) string {
	if imp.Name != nil && imp.Name.Name != "_" && imp.Name.Name != "." {
		return imp.Name.Name
	}
	for _, q := range c.pass.Pkg.Imports() {
		if q.Path() == p {
			return q.Name()
		}
	}
	return path.Base(p)
}
