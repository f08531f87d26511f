package guardinfer

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// One access, one finding. Reading d.mu.mem.mutable reads the struct-valued
// field d.mu.mem too; when both fields miss their guard there, the finding
// on the field actually read (mutable) is the one to show, and a second on
// d.mu.mem at the same expression would be a cascade. Through a pointer
// (s.conf.timeout, conf a *Config) the two are other objects, each with
// its own finding.

// finding is a diagnostic at an access, waiting for flushFindings.
type finding struct {
	node ast.Node
	d    analysis.Diagnostic
}

// emit queues a finding at the access node.
func (r *inference) emit(node ast.Node, d analysis.Diagnostic) {
	r.findings = append(r.findings, finding{node, d})
}

// flushFindings reports the queued findings, in order, leaving out each
// whose access is the operand of another's (d.mu.mem in d.mu.mem.mutable).
func (r *inference) flushFindings() {
	inner := map[ast.Node]bool{}
	for _, f := range r.findings {
		e, _ := f.node.(ast.Expr)
		for e != nil {
			se, ok := ast.Unparen(e).(*ast.SelectorExpr)
			if !ok {
				break
			}
			e = ast.Unparen(se.X)
			if t := r.pass.TypesInfo.TypeOf(e); t == nil || !isStruct(t) {
				break // through a pointer: another object, maybe another bug
			}
			inner[e] = true
		}
	}
	for _, f := range r.findings {
		if e, ok := f.node.(ast.Expr); ok && inner[ast.Unparen(e)] {
			continue
		}
		r.rep.Report(f.d)
	}
	r.findings = nil
}

func isStruct(t types.Type) bool {
	_, ok := t.Underlying().(*types.Struct)
	return ok
}
