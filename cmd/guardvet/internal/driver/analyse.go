package driver

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/analyzer/lockstate"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/output"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/progress"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/runcache"
)

// analyse loads the packages the patterns name and runs the enabled
// analyzers on them, each module from its own directory: Go files given
// as arguments may belong to different modules of one repository (a
// pre-commit hook passes the staged files), and go list loads one main
// module at a time. It returns the findings in output order, the -json
// trees, and the exit code so far: ExitError when a package failed to load
// or type-check (printed to stderr). ok is false when nothing could be
// analysed at all.
//
// With the result cache on (runcache), a module's packages whose results
// are cached are replayed, and only the others are loaded and analysed.
// conf is the run's configuration (adopt.Adoption.Config, or a mode's).
func analyse(opts *options, conf *config.Config, enabled, all []*analysis.Analyzer, patterns []string, prog *progress.Line, log *errorLog) (out output.Result, ok bool) {
	rc := runcache.Open(opts.cache, opts.flags, conf, enabled, all)
	cfg := &packages.Config{ // Dir is set per module below
		Mode:      packages.LoadAllSyntax | packages.NeedModule,
		Tests:     opts.tests,
		ParseFile: parseHook(prog, rc),
	}
	if opts.tags != "" {
		cfg.BuildFlags = []string{"-tags=" + opts.tags}
	}
	keep := keepOpts{json: opts.json || rc != nil, facts: rc != nil}
	cold := func(cfg *packages.Config, patterns []string) (runcache.LoadResult, bool) {
		return analyseLoad(cfg, conf, patterns, enabled, keep, prog, log)
	}
	out = output.Result{Code: output.ExitClean, Checked: map[string]bool{}, Dirs: map[string]bool{}}
	loaded := 0
	for _, g := range groupPatterns(patterns) {
		cfg.Dir = g.dir
		roots, fatal := rc.Analyse(cfg, g.patterns, cold, prog, log.w, &out)
		if fatal {
			return output.Result{Code: output.ExitError}, false
		}
		loaded += roots
	}
	rc.Trim() // best effort
	if loaded == 0 {
		if out.Code == output.ExitClean {
			log.printf("guardvet: %s matched no packages", strings.Join(patterns, " "))
		}
		return output.Result{Code: output.ExitError}, false
	}
	out.Findings = output.Sort(out.Findings)
	return out, true
}

// keepOpts says what analyseLoad keeps besides the findings.
type keepOpts struct{ json, facts bool }

// analyseLoad loads patterns with cfg and analyses them. Load and type
// errors are printed to stderr and make code ExitError; fatal is true
// when nothing can be analysed (which it says).
//
// keep says what the result keeps besides the findings: the -json tree,
// and the facts of every package analysed with the packages (for the
// cache).
func analyseLoad(cfg *packages.Config, conf *config.Config, patterns []string, enabled []*analysis.Analyzer, keep keepOpts, prog *progress.Line, log *errorLog) (res runcache.LoadResult, fatal bool) {
	res = runcache.LoadResult{Findings: map[string][]output.Finding{}, Tree: output.JSONTree{}, Code: output.ExitClean}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		for _, line := range loadFailure(err) {
			log.printf("%s", line)
		}
		res.Code = output.ExitError
		return res, false
	}
	res.Loaded = pkgs
	if printErrors(log, pkgs) > 0 { // load and type errors, to stderr
		res.Code = output.ExitError
	}
	conf, err = runConfig(conf, enabled, pkgs)
	if err != nil {
		log.printf("guardvet: %v", err)
		return res, true
	}
	if conf.AnalyseUnannotated() {
		heapCeiling() // every body is analysed: much garbage (memory.go)
	}
	all := 0
	packages.Visit(pkgs, nil, func(*packages.Package) { all++ })
	prog.SetPhase("analysing %d packages, %d of them checked", all, len(pkgs))
	summaries := conf.Summaries()
	graph, err := checker.Analyze(config.Bind(enabled, conf), pkgs, &checker.Options{})
	if err != nil {
		log.printf("guardvet: %v", err)
		return res, true
	}
	seen := map[string]bool{}
	failed := map[string]*packages.Package{}
	for _, act := range graph.Roots {
		id := act.Package.ID
		if !seen[id] {
			seen[id] = true
			res.Roots = append(res.Roots, id)
		}
		if act.Err != nil {
			if hasErrors(act.Package) { // printed above; one entry in -json
				failed[id] = act.Package
			} else {
				log.printf("guardvet: %s: %v", act, act.Err)
				res.Code = output.ExitError
			}
			continue
		}
		for _, d := range act.Diagnostics {
			res.Findings[id] = append(res.Findings[id], output.Finding{Analyzer: act.Analyzer, Diag: d, Fset: act.Package.Fset,
				Posn: act.Package.Fset.Position(d.Pos), Variant: strings.Contains(id, " [")})
		}
	}
	if keep.facts && res.Code == output.ExitClean {
		res.KeepFacts(graph, summaries)
	}
	if !keep.json {
		return res, false
	}
	var buf strings.Builder
	if err := graph.PrintJSON(&buf); err != nil {
		log.printf("guardvet: %v", err)
		return res, true
	}
	var tree output.JSONTree
	if err := json.Unmarshal([]byte(buf.String()), &tree); err != nil {
		log.printf("guardvet: %v", err)
		return res, true
	}
	res.Tree = tree
	for id, p := range failed {
		res.Tree[id] = typecheckEntry(p)
	}
	return res, false
}

// typecheckEntry is the -json entry of a package that failed to load or
// type-check: its errors and its dependencies', under "typecheck" (the
// name golangci-lint gives such errors) in x/tools' shape for an analyzer
// that failed, {"error": "..."}, in place of every analyzer's "failed
// prerequisites".
func typecheckEntry(p *packages.Package) map[string]json.RawMessage {
	msg, _ := json.Marshal(map[string]string{"error": strings.Join(errorLines([]*packages.Package{p}), "\n")})
	return map[string]json.RawMessage{"typecheck": msg}
}

// parseHook is go/packages' default parser, counting the files for the
// progress line and hashing them for the cache's keys (either may be
// nil); nil, go/packages' own, when there is neither.
func parseHook(p *progress.Line, rc *runcache.Cache) func(*token.FileSet, string, []byte) (*ast.File, error) {
	if p == nil && rc == nil {
		return nil
	}
	return func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
		p.Parsed()
		rc.HashParsed(filename, src)
		const mode = parser.AllErrors | parser.ParseComments // as go/packages parses
		return parser.ParseFile(fset, filename, src, mode)
	}
}

// annotated reports whether any package of the load, dependencies
// included, has a directive (directives.Annotates).
func annotated(pkgs []*packages.Package) bool {
	found := false
	packages.Visit(pkgs, func(p *packages.Package) bool { return !found }, func(p *packages.Package) {
		for _, f := range p.Syntax {
			found = found || directives.FileAnnotated(f)
		}
	})
	return found
}

// runConfig is conf with the options a run derives from what it loaded:
// no summaries for annotated importers when nothing loaded has a
// directive (they would be computed for nobody), and the engine's early
// release of its records (lockstate.ReleaseEarly).
func runConfig(conf *config.Config, enabled []*analysis.Analyzer, pkgs []*packages.Package) (*config.Config, error) {
	if !annotated(pkgs) {
		conf = conf.MustWith("summaries", "false")
	}
	var roots []*types.Package
	for _, p := range pkgs {
		roots = append(roots, p.Types)
	}
	return lockstate.ReleaseEarly(conf, enabled, roots)
}
