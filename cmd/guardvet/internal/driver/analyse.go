package driver

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/output"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/progress"
	"github.com/guardvet/guardvet/internal/resultcache"
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
// With the result cache on (cache.go), a module's packages whose results
// are cached are replayed, and only the others are loaded and analysed.
func analyse(opts *options, enabled, all []*analysis.Analyzer, patterns []string, prog *progress.Line, log *errorLog) (out output.Result, ok bool) {
	rc := openCache(opts, enabled, all)
	var sums *fileSums // the files' SHA-256, taken as they are parsed, for the cache's keys
	if rc != nil {
		sums = &fileSums{m: map[string][sha256.Size]byte{}}
	}
	cfg := &packages.Config{ // Dir is set per module below
		Mode:      packages.LoadAllSyntax | packages.NeedModule,
		Tests:     opts.tests,
		ParseFile: parseHook(prog, sums),
	}
	if opts.tags != "" {
		cfg.BuildFlags = []string{"-tags=" + opts.tags}
	}
	keep := keepOpts{json: opts.json || rc != nil, facts: rc != nil}
	out = output.Result{Code: output.ExitClean, Checked: map[string]bool{}, Dirs: map[string]bool{}}
	loaded := 0
	for _, g := range groupPatterns(patterns) {
		cfg.Dir = g.dir
		var plan *cachePlan
		coldFill := rc != nil && !rc.seen(cfg.Dir)
		if rc != nil && !coldFill {
			prog.SetPhase("listing packages")
			plan = rc.plan(cfg, g)
		}
		if plan != nil && len(plan.missing) == 0 {
			if rc.trace {
				fmt.Fprintf(log.w, "guardvet: cache: %d of %d packages replayed\n", len(plan.hits), len(plan.roots))
			}
			loaded += len(plan.roots)
			for _, id := range plan.roots {
				out.Findings = append(out.Findings, plan.hits[id]...)
			}
			out.Add(nil, plan.hitTree, plan.meta)
			continue
		}
		res, fatal := analyseMissing(rc, plan, cfg, g, enabled, keep, prog, log)
		if !fatal && plan != nil && !plan.covers(res) {
			// The import paths did not yield every package to analyse
			// (an unusual layout): analyse what the patterns name.
			plan.reload = g.patterns
			res, fatal = analyseLoad(cfg, g.patterns, enabled, keep, prog, log)
		}
		if fatal {
			return output.Result{Code: output.ExitError}, false
		}
		loaded += len(res.roots)
		out.Code = max(out.Code, res.code)
		if plan == nil {
			for _, id := range res.roots {
				out.Findings = append(out.Findings, res.findings[id]...)
			}
			out.Add(nil, res.tree, res.loaded)
			if coldFill && res.code == output.ExitClean {
				rc.fill(res, cfg.Dir, sums, log.w)
			}
			continue
		}
		fs, tree := plan.merge(res)
		out.Add(fs, tree, plan.meta)
		if res.code == output.ExitClean {
			rc.store(plan, res, cfg.Dir, false)
		}
	}
	if rc != nil {
		_ = rc.cache.Trim(resultcache.MaxAge, resultcache.MaxBytes) // best effort
	}
	if loaded == 0 {
		if out.Code == output.ExitClean {
			log.printf("guardvet: %s matched no packages", strings.Join(patterns, " "))
		}
		return output.Result{Code: output.ExitError}, false
	}
	out.Findings = output.Sort(out.Findings)
	return out, true
}

// fill stores a module's first run on this cache (as far as the cache
// knows): everything was loaded at once, as without a cache, and the keys
// come from that load.
func (rc *runCache) fill(res loadResult, dir string, sums *fileSums, stderr io.Writer) {
	plan := rc.planFromLoad(res.pkgs, dir, sums)
	if plan == nil {
		return
	}
	rc.store(plan, res, dir, true)
	if rc.trace {
		fmt.Fprintf(stderr, "guardvet: cache: first run here: %d packages analysed and stored\n", len(plan.roots))
	}
}

// analyseMissing analyses what the cache does not have of a group (all of
// it, without a cache): incrementally when the cache allows it, else as a
// cold run.
func analyseMissing(rc *runCache, plan *cachePlan, cfg *packages.Config, g loadGroup, enabled []*analysis.Analyzer, keep keepOpts, prog *progress.Line, log *errorLog) (res loadResult, fatal bool) {
	done := false
	var why error
	if plan != nil && len(plan.hits) > 0 {
		prog.SetPhase("%d of %d packages replayed from the cache; analysing the others", len(plan.hits), len(plan.roots))
		res, why = rc.analyseIncrementally(cfg, plan, enabled)
		done = why == nil
	}
	if !done {
		load := g.patterns
		prog.Loading(0)
		if plan != nil {
			load = plan.reload
			prog.Loading(plan.files)
		}
		res, fatal = analyseLoad(cfg, load, enabled, keep, prog, log)
	}
	if plan != nil && rc.trace {
		how := "analysed as a cold run"
		if why != nil {
			how += " (incremental analysis: " + why.Error() + ")"
		}
		if done {
			how = fmt.Sprintf("analysed incrementally (%d packages from source, with facts)", len(res.facts))
		}
		fmt.Fprintf(log.w, "guardvet: cache: %d of %d packages replayed; %d %s\n", len(plan.hits), len(plan.roots), len(plan.missing), how)
	}
	return res, fatal
}

// keepOpts says what analyseLoad keeps besides the findings.
type keepOpts struct{ json, facts bool }

// loadResult is what one packages.Load and its analysis produced.
type loadResult struct {
	roots    []string                    // the root packages' IDs, in load order
	findings map[string][]output.Finding // by root package ID
	facts    map[string]*factsEntry      // every analysed package's facts, by ID, when asked for
	pkgs     []*packages.Package         // the roots as loaded, when facts are asked for
	loaded   []*packages.Package         // the roots as loaded
	tree     output.JSONTree
	code     int
}

// analyseLoad loads patterns with cfg and analyses them. Load and type
// errors are printed to stderr and make code ExitError; fatal is true
// when nothing can be analysed (which it says).
//
// keep says what the result keeps besides the findings: the -json tree,
// and the facts of every package analysed with the packages (for the
// cache).
func analyseLoad(cfg *packages.Config, patterns []string, enabled []*analysis.Analyzer, keep keepOpts, prog *progress.Line, log *errorLog) (res loadResult, fatal bool) {
	res = loadResult{findings: map[string][]output.Finding{}, tree: output.JSONTree{}, code: output.ExitClean}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		for _, line := range loadFailure(err) {
			log.printf("%s", line)
		}
		res.code = output.ExitError
		return res, false
	}
	res.loaded = pkgs
	if printErrors(log, pkgs) > 0 { // load and type errors, to stderr
		res.code = output.ExitError
	}
	restore, err := runOptions(enabled, pkgs)
	if err != nil {
		log.printf("guardvet: %v", err)
		return res, true
	}
	if config.Current().AnalyseUnannotated() {
		heapCeiling() // every body is analysed: much garbage (memory.go)
	}
	all := 0
	packages.Visit(pkgs, nil, func(*packages.Package) { all++ })
	prog.SetPhase("analysing %d packages, %d of them checked", all, len(pkgs))
	summaries := config.Analyzer.Flags.Lookup("summaries").Value.String() == "true"
	graph, err := checker.Analyze(enabled, pkgs, &checker.Options{})
	restore()
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
			res.roots = append(res.roots, id)
		}
		if act.Err != nil {
			if hasErrors(act.Package) { // printed above; one entry in -json
				failed[id] = act.Package
			} else {
				log.printf("guardvet: %s: %v", act, act.Err)
				res.code = output.ExitError
			}
			continue
		}
		for _, d := range act.Diagnostics {
			res.findings[id] = append(res.findings[id], output.Finding{Analyzer: act.Analyzer, Diag: d, Fset: act.Package.Fset,
				Posn: act.Package.Fset.Position(d.Pos), Variant: strings.Contains(id, " [")})
		}
	}
	if keep.facts && res.code == output.ExitClean {
		res.facts = graphFacts(graph, summaries)
		res.pkgs = pkgs
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
	res.tree = tree
	for id, p := range failed {
		res.tree[id] = typecheckEntry(p)
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
func parseHook(p *progress.Line, sums *fileSums) func(*token.FileSet, string, []byte) (*ast.File, error) {
	if p == nil && sums == nil {
		return nil
	}
	return func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
		p.Parsed()
		if sums != nil {
			sum := sha256.Sum256(src)
			sums.mu.Lock()
			sums.m[filename] = sum
			sums.mu.Unlock()
		}
		const mode = parser.AllErrors | parser.ParseComments // as go/packages parses
		return parser.ParseFile(fset, filename, src, mode)
	}
}

// reloadPatterns are the patterns that load the packages with the given
// IDs (and their test variants): their import paths, sorted. Patterns that
// name files (file=...) are kept as they are: a file's package is not
// always what its import path loads.
func reloadPatterns(group []string, missing []*packages.Package) []string {
	for _, p := range group {
		if strings.HasPrefix(p, "file=") {
			return group
		}
	}
	set := map[string]bool{}
	for _, p := range missing {
		set[basePath(p)] = true
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
