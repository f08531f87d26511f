package golangci

import (
	"go/token"
	"path/filepath"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/internal/fold"
)

// golangci-lint turns each related position of a diagnostic
// (analysis.Diagnostic.Related) into an issue of its own, "RULE(related
// information): MESSAGE" at the related line: one finding counts as
// several issues, and //nolint:guardvet on the finding's line leaves the
// others failing the run. It has no setting to change that. So the plugin
// folds the related positions into the finding's message, "MESSAGE;
// related: FILE:LINE:COL: TEXT" for each, FILE being the base name as in
// guardvet's other messages, and golangci-lint sees one diagnostic per
// finding.

// foldRelated returns the analyzers to give golangci-lint for roots: copies
// of them whose diagnostics carry their related positions in the message.
//
// The Requires graph stays consistent: an analyzer is copied when it is a
// root or requires (transitively) a copied one, and the copies require the
// copies, so each analyzer is in the graph once, as itself or as its copy,
// and runs once (unusedignore requires the rules, which are roots too).
// A copy keeps the original's Name, Doc, URL, flags, FactTypes and
// ResultType; its Run gives the original's Run a pass whose Analyzer is the
// original and whose ResultOf is keyed by the originals, because the
// analyzers look their inputs up by the package-level values. Analyzers
// that need no copy (config, and x/tools ones if any) are shared as they
// are. The package-level analyzers are not modified.
func foldRelated(roots []*analysis.Analyzer) []*analysis.Analyzer {
	isRoot := map[*analysis.Analyzer]bool{}
	for _, a := range roots {
		isRoot[a] = true
	}
	use := map[*analysis.Analyzer]*analysis.Analyzer{} // original -> itself or its copy
	var visit func(a *analysis.Analyzer) *analysis.Analyzer
	visit = func(a *analysis.Analyzer) *analysis.Analyzer {
		if u, ok := use[a]; ok {
			return u
		}
		reqs := make([]*analysis.Analyzer, len(a.Requires))
		changed := isRoot[a]
		for i, r := range a.Requires {
			reqs[i] = visit(r) // the graph is acyclic (analysis.Validate)
			changed = changed || reqs[i] != r
		}
		u := a
		if changed {
			c := *a
			c.Requires = reqs
			c.Run = foldingRun(a, reqs)
			u = &c
		}
		use[a] = u
		return u
	}
	out := make([]*analysis.Analyzer, len(roots))
	for i, a := range roots {
		out[i] = visit(a)
	}
	return out
}

// foldingRun is the Run of the copy of a that requires reqs (a.Requires,
// some of them copies).
func foldingRun(a *analysis.Analyzer, reqs []*analysis.Analyzer) func(*analysis.Pass) (any, error) {
	original := map[*analysis.Analyzer]*analysis.Analyzer{} // copy -> original
	for i, r := range reqs {
		if r != a.Requires[i] {
			original[r] = a.Requires[i]
		}
	}
	run := a.Run
	return func(pass *analysis.Pass) (any, error) {
		p := *pass
		p.Analyzer = a
		p.ResultOf = make(map[*analysis.Analyzer]any, len(pass.ResultOf))
		for k, v := range pass.ResultOf {
			if o := original[k]; o != nil {
				k = o
			}
			p.ResultOf[k] = v
		}
		p.Report = func(d analysis.Diagnostic) {
			pass.Report(foldDiagnostic(pass.Fset, d))
		}
		return run(&p)
	}
}

// foldDiagnostic appends d's related positions to its message and drops
// them from d.
func foldDiagnostic(fset *token.FileSet, d analysis.Diagnostic) analysis.Diagnostic {
	if len(d.Related) == 0 {
		return d
	}
	related := make([]fold.Related, len(d.Related))
	for i, r := range d.Related {
		p := position(fset, r.Pos)
		related[i] = fold.Related{File: p.Filename, Line: p.Line, Col: p.Column, Message: r.Message}
	}
	d.Message = fold.Message(d.Message, related)
	d.Related = nil
	return d
}

// position is pos as golangci-lint positions issues: after //line
// directives, unless one points outside Go files.
func position(fset *token.FileSet, pos token.Pos) token.Position {
	if !pos.IsValid() {
		return token.Position{}
	}
	p := fset.PositionFor(pos, true)
	if filepath.Ext(p.Filename) != ".go" {
		p = fset.PositionFor(pos, false)
	}
	return p
}
