package runcache

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/guardvet/guardvet/cmd/guardvet/internal/output"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/progress"
)

// LoadResult is what one packages.Load and its analysis produced, or an
// incremental analysis.
type LoadResult struct {
	Roots    []string                    // the root packages' IDs, in load order
	Findings map[string][]output.Finding // by root package ID
	Loaded   []*packages.Package         // the roots as loaded
	Tree     output.JSONTree
	Code     int
	facts    map[string]*factsEntry // every analysed package's facts, by ID, when kept
}

// KeepFacts keeps the facts of every package the checker graph
// analysed, for the cache to store; summaries is the run's
// -config.summaries, which the facts depend on.
func (r *LoadResult) KeepFacts(graph *checker.Graph, summaries bool) {
	r.facts = graphFacts(graph, summaries)
}

// Cold loads patterns with cfg and analyses them as a run without a
// cache does (printing load and type errors, which make the result's
// Code ExitError). fatal is true when nothing can be analysed (which it
// says). With a cache, the result keeps the -json tree and the facts.
type Cold func(cfg *packages.Config, patterns []string) (res LoadResult, fatal bool)

// Analyse analyses one load group, the packages patterns name loaded
// from cfg.Dir, into out: it replays the roots whose results the cache
// has, analyses the others (incrementally when it can, else with cold),
// and stores what it analysed. It returns the number of root packages;
// fatal is true when nothing could be analysed. Without a cache (rc
// nil), the group is analysed with cold. The cache's trace goes to
// stderr.
func (rc *Cache) Analyse(cfg *packages.Config, patterns []string, cold Cold, prog *progress.Line, stderr io.Writer, out *output.Result) (roots int, fatal bool) {
	var plan *cachePlan
	coldFill := rc != nil && !rc.seen(cfg.Dir)
	if rc != nil && !coldFill {
		prog.SetPhase("listing packages")
		plan = rc.plan(cfg, patterns)
	}
	if plan != nil && len(plan.missing) == 0 {
		if rc.trace {
			fmt.Fprintf(stderr, "guardvet: cache: %d of %d packages replayed\n", len(plan.hits), len(plan.roots))
		}
		for _, id := range plan.roots {
			out.Findings = append(out.Findings, plan.hits[id]...)
		}
		out.Add(nil, plan.hitTree, plan.meta)
		return len(plan.roots), false
	}
	res, fatal := rc.analyseMissing(plan, cfg, patterns, cold, prog, stderr)
	if !fatal && plan != nil && !plan.covers(res) {
		// The import paths did not yield every package to analyse
		// (an unusual layout): analyse what the patterns name.
		plan.reload = patterns
		res, fatal = cold(cfg, patterns)
	}
	if fatal {
		return 0, true
	}
	out.Code = max(out.Code, res.Code)
	if plan == nil {
		for _, id := range res.Roots {
			out.Findings = append(out.Findings, res.Findings[id]...)
		}
		out.Add(nil, res.Tree, res.Loaded)
		if coldFill && res.Code == output.ExitClean {
			rc.fill(res, cfg.Dir, stderr)
		}
		return len(res.Roots), false
	}
	fs, tree := plan.merge(res)
	out.Add(fs, tree, plan.meta)
	if res.Code == output.ExitClean {
		rc.store(plan, res, cfg.Dir, false)
	}
	return len(res.Roots), false
}

// fill stores a module's first run on this cache (as far as the cache
// knows): everything was loaded at once, as without a cache, and the keys
// come from that load.
func (rc *Cache) fill(res LoadResult, dir string, stderr io.Writer) {
	plan := rc.planFromLoad(res.Loaded, dir)
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
func (rc *Cache) analyseMissing(plan *cachePlan, cfg *packages.Config, patterns []string, cold Cold, prog *progress.Line, stderr io.Writer) (res LoadResult, fatal bool) {
	done := false
	var why error
	if plan != nil && len(plan.hits) > 0 {
		prog.SetPhase("%d of %d packages replayed from the cache; analysing the others", len(plan.hits), len(plan.roots))
		res, why = rc.analyseIncrementally(cfg, plan, rc.enabled)
		done = why == nil
	}
	if !done {
		load := patterns
		prog.Loading(0)
		if plan != nil {
			load = plan.reload
			prog.Loading(plan.files)
		}
		res, fatal = cold(cfg, load)
	}
	if plan != nil && rc.trace {
		how := "analysed as a cold run"
		if why != nil {
			how += " (incremental analysis: " + why.Error() + ")"
		}
		if done {
			how = fmt.Sprintf("analysed incrementally (%d packages from source, with facts)", len(res.facts))
		}
		fmt.Fprintf(stderr, "guardvet: cache: %d of %d packages replayed; %d %s\n", len(plan.hits), len(plan.roots), len(plan.missing), how)
	}
	return res, fatal
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
