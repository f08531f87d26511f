package driver

import (
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/guardvet/guardvet/cmd/guardvet/internal/resultcache"
)

// The standalone driver's result cache. For each root package, the key
// (cachekey.go) hashes everything its findings depend on; the entry
// (cacheentry.go) holds the findings and the package's part of -json. A
// run first asks go list for the packages and their files, which is
// cheap, computes the keys, and replays every root whose entry is there;
// only the others are loaded, type-checked and analysed, with what they
// import. A run with errors stores nothing, so errors are always found
// and printed anew.
//
// The directory is -cache, else $GUARDVETCACHE, else guardvet under the
// user's cache directory (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on
// Linux, ~/Library/Caches on macOS); "off" turns the cache off.

// EnvCache names the environment variable that moves or turns off the
// cache.
const EnvCache = "GUARDVETCACHE"

// CacheDir returns the cache directory flagValue (-cache) or the
// environment selects, and false when the cache is off.
func CacheDir(flagValue string) (string, bool) {
	v := flagValue
	if v == "" {
		v = os.Getenv(EnvCache)
	}
	switch v {
	case "off":
		return "", false
	case "":
		base, err := os.UserCacheDir()
		if err != nil {
			return "", false
		}
		return filepath.Join(base, "guardvet"), true
	}
	return v, true
}

// runCache is the cache as one run uses it.
type runCache struct {
	cache   *resultcache.Cache
	opts    *options
	enabled []*analysis.Analyzer
	rep     *replayer
	runKeys map[string]resultcache.Key // by module directory
	trace   bool                       // GUARDVET_CACHE_TRACE: say on stderr what the cache did
}

// EnvCacheTrace names the environment variable that, set, makes a run
// say on stderr, for each module, how many packages the cache replayed
// and how the others were analysed: a debugging aid.
const EnvCacheTrace = "GUARDVET_CACHE_TRACE"

// openCache returns the run's cache, or nil when it is off or its
// directory cannot be made: the run then goes without, as it would with
// a cold cache.
func openCache(opts *options, enabled, all []*analysis.Analyzer) *runCache {
	dir, on := CacheDir(opts.cache)
	if !on {
		return nil
	}
	c, err := resultcache.Open(dir)
	if err != nil {
		return nil
	}
	registerFacts(all)
	return &runCache{cache: c, opts: opts, enabled: enabled, rep: newReplayer(all), runKeys: map[string]resultcache.Key{},
		trace: os.Getenv(EnvCacheTrace) != ""}
}

func (rc *runCache) runKey(dir string) (resultcache.Key, error) {
	if k, ok := rc.runKeys[dir]; ok {
		return k, nil
	}
	k, err := runKey(rc.opts, rc.enabled, dir)
	if err == nil {
		rc.runKeys[dir] = k
	}
	return k, err
}

// cachePlan is what the cache knows of one load group.
type cachePlan struct {
	roots   []string // root package IDs, in go list's order
	keys    map[string]resultcache.Key
	hits    map[string][]Finding
	hitTree jsonTree
	missing map[string]bool
	reload  []string                     // the patterns that load the missing roots
	files   int                          // the Go files the reload parses, about (for progress)
	meta    []*packages.Package          // the roots, from go list (no syntax or types)
	byID    map[string]*packages.Package // every package of the load, by ID
	pk      *packageKeys
	sums    map[string][sha256.Size]byte
}

// plan lists the group's root packages and replays those in the cache.
// It returns nil when the cache cannot be used for the group (go list
// fails or reports errors, a file cannot be read): the group is then
// analysed as without a cache, and nothing of it stored.
func (rc *runCache) plan(cfg *packages.Config, g loadGroup) *cachePlan {
	meta := *cfg
	meta.Mode = metaMode
	pkgs, err := packages.Load(&meta, g.patterns...)
	if err != nil || len(pkgs) == 0 || loadErrors(pkgs) {
		return nil
	}
	run, err := rc.runKey(cfg.Dir)
	if err != nil {
		return nil
	}
	pk := newPackageKeys(run)
	plan := &cachePlan{keys: map[string]resultcache.Key{}, hits: map[string][]Finding{}, hitTree: jsonTree{},
		missing: map[string]bool{}, sums: pk.files, meta: pkgs, byID: map[string]*packages.Package{}, pk: pk}
	packages.Visit(pkgs, nil, func(p *packages.Package) { plan.byID[p.ID] = p })
	var missing []*packages.Package
	for _, p := range pkgs {
		if _, dup := plan.keys[p.ID]; dup {
			continue
		}
		k := pk.of(p)
		plan.roots = append(plan.roots, p.ID)
		plan.keys[p.ID] = k
		if fs, tree, ok := rc.lookup(k); ok {
			plan.hits[p.ID] = fs
			if tree != nil {
				plan.hitTree[p.ID] = tree
			}
			continue
		}
		plan.missing[p.ID] = true
		missing = append(missing, p)
	}
	if pk.err != nil {
		return nil
	}
	plan.files = goFiles(missing)
	plan.reload = g.patterns // nothing cached: load what the patterns name
	if len(missing) < len(plan.roots) {
		plan.reload = reloadPatterns(g.patterns, missing)
	}
	return plan
}

// lookup replays the entry under k.
func (rc *runCache) lookup(k resultcache.Key) ([]Finding, map[string]json.RawMessage, bool) {
	data, ok := rc.cache.Get(k)
	if !ok {
		return nil, nil, false
	}
	var e cacheEntry
	if json.Unmarshal(data, &e) != nil {
		return nil, nil, false
	}
	fs, ok := rc.rep.findings(&e)
	if !ok {
		return nil, nil, false
	}
	return fs, e.JSON, true
}

// covers reports whether a load analysed every root the plan misses.
func (plan *cachePlan) covers(res loadResult) bool {
	fresh := map[string]bool{}
	for _, id := range res.roots {
		fresh[id] = true
	}
	for id := range plan.missing {
		if !fresh[id] {
			return false
		}
	}
	return true
}

// merge combines a load's results with the plan's hits into the group's
// findings and -json tree: fresh results where the load has them, cached
// ones for the other roots, and nothing for packages the load analysed
// that the group's patterns do not name.
func (plan *cachePlan) merge(res loadResult) ([]Finding, jsonTree) {
	fresh := map[string]bool{}
	for _, id := range res.roots {
		fresh[id] = true
	}
	tree := jsonTree{}
	for id, v := range res.tree {
		if _, isRoot := plan.keys[id]; isRoot || !fresh[id] {
			tree[id] = v // a root of the group, or an error in a dependency
		}
	}
	var out []Finding
	for _, id := range plan.roots {
		if fresh[id] {
			out = append(out, res.findings[id]...)
			continue
		}
		out = append(out, plan.hits[id]...)
		if v, ok := plan.hitTree[id]; ok {
			tree[id] = v
		}
	}
	return out, tree
}

// store writes the fresh results of the plan's roots, and the facts of
// every package analysed. A root whose positions cannot be kept as
// offsets, or an entry that cannot be written, is left out: the next run
// analyses it again.
func (rc *runCache) store(plan *cachePlan, res loadResult) {
	for id, e := range res.facts {
		p := plan.byID[id]
		if p == nil {
			continue // not in go list's graph of the patterns (a variant the reload added)
		}
		if data, err := encodeFacts(e); err == nil {
			_ = rc.cache.Put(factsKey(plan.pk.of(p)), data)
		}
	}
	for _, id := range res.roots {
		k, isRoot := plan.keys[id]
		if !isRoot {
			continue
		}
		en := newEntryEncoder(plan.sums)
		for _, f := range res.findings[id] {
			en.add(f)
		}
		if !en.ok {
			continue
		}
		en.e.JSON = res.tree[id]
		data, err := json.Marshal(en.e)
		if err != nil {
			continue
		}
		_ = rc.cache.Put(k, data) // a full disk loses the entry, not the run
	}
}

// cacheCommand is guardvet cache dir|clean [-cache DIR]: print the cache's
// directory, or empty it.
func cacheCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("guardvet cache", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dirFlag := fs.String("cache", "", "the cache directory, as for a run")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: guardvet cache dir|clean [-cache DIR]\n  dir    print the result cache's directory (\"off\" when it is turned off)\n  clean  remove every entry")
	}
	if len(args) == 0 {
		fs.Usage()
		return ExitError
	}
	verb := args[0]
	if err := fs.Parse(args[1:]); err != nil || fs.NArg() > 0 || (verb != "dir" && verb != "clean") {
		if err == nil {
			fs.Usage()
		}
		return ExitError
	}
	dir, on := CacheDir(*dirFlag)
	switch {
	case verb == "dir" && !on:
		fmt.Fprintln(stdout, "off")
	case verb == "dir":
		fmt.Fprintln(stdout, dir)
	case !on:
		fmt.Fprintln(stderr, "guardvet cache clean: the cache is off ($"+EnvCache+"=off)")
		return ExitError
	default:
		c, err := resultcache.Open(dir)
		if err == nil {
			err = c.Clean()
		}
		if err != nil {
			fmt.Fprintf(stderr, "guardvet cache clean: %v\n", err)
			return ExitError
		}
	}
	return ExitClean
}

// goFiles counts the Go files of pkgs and what they import.
func goFiles(pkgs []*packages.Package) int {
	n := 0
	packages.Visit(pkgs, nil, func(p *packages.Package) { n += len(p.CompiledGoFiles) })
	return n
}
