// Package rule builds guardvet's rules on the engine: each rule states
// what is its own (name, doc.go, run, facts, flags) in a Spec, and New
// makes the analysis.Analyzer with what every rule has in common (its
// page's URL, its Doc, the engine among its Requires, report.Used as its
// result) and runs it with the engine's result and a reporter, flushing
// the reporter and releasing the engine's records (lockstate.Result.Done)
// when the rule returns, so that no rule does either itself.
package rule

import (
	"flag"

	"golang.org/x/tools/go/analysis"

	"github.com/guardvet/guardvet/analyzer/internal/docs"
	"github.com/guardvet/guardvet/analyzer/internal/report"
	"github.com/guardvet/guardvet/analyzer/lockstate"
)

// Spec is what one rule declares.
type Spec struct {
	// Name is the rule's name, also the category of its diagnostics; its
	// page is docs/rules/Name.md.
	Name string
	// DocFile is the text of the rule's doc.go (embedded): its Doc is the
	// "# Analyzer Name" section (docs.Extract).
	DocFile string
	// Run checks one package: it reads Pass.Engine and files diagnostics
	// through Pass.Report.
	Run func(*Pass)
	// Requires lists the analyzers the rule reads besides the engine,
	// which New adds last.
	Requires []*analysis.Analyzer
	// Facts are the rule's fact types (analysis.Analyzer.FactTypes).
	Facts []analysis.Fact
	// Flags are the rule's own options.
	Flags flag.FlagSet
}

// Pass is what a rule's Run gets for one package.
type Pass struct {
	*analysis.Pass
	// Engine is the lock state of the package's bodies (lockstate's
	// result). Its records are released after Run returns.
	Engine *lockstate.Result
	// Report files the rule's diagnostics, with the package's
	// //guard:ignore directives applied; they are flushed after Run.
	Report *report.Reporter
}

// New returns the Analyzer of the rule s.
func New(s Spec) *analysis.Analyzer {
	run := func(pass *analysis.Pass) (any, error) {
		ls := lockstate.Of(pass)
		defer ls.Done()
		p := &Pass{Pass: pass, Engine: ls, Report: report.New(pass, ls.Dirs.Ignores, s.Name)}
		s.Run(p)
		return p.Report.Flush(), nil
	}
	return &analysis.Analyzer{
		Name:       s.Name,
		Doc:        docs.Extract(s.DocFile, s.Name),
		URL:        docs.RuleURL(s.Name),
		Run:        run,
		Requires:   append(s.Requires[:len(s.Requires):len(s.Requires)], lockstate.Analyzer),
		ResultType: report.UsedType,
		FactTypes:  s.Facts,
		Flags:      s.Flags,
	}
}
