package driver

import (
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/guardvet/guardvet/cmd/guardvet/internal/output"
	"github.com/guardvet/guardvet/internal/resultcache"
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
	runKeys map[string]resultcache.Key   // by module directory
	trace   bool                         // GUARDVET_CACHE_TRACE: say on stderr what the cache did
	packs   []map[resultcache.Key][]byte // the packs of the modules seen (see seen)
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
	hits    map[string][]output.Finding
	hitTree output.JSONTree
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
	plan := &cachePlan{keys: map[string]resultcache.Key{}, hits: map[string][]output.Finding{}, hitTree: output.JSONTree{},
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
func (rc *runCache) lookup(k resultcache.Key) ([]output.Finding, map[string]json.RawMessage, bool) {
	data, ok := rc.get(k)
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
func (plan *cachePlan) merge(res loadResult) ([]output.Finding, output.JSONTree) {
	fresh := map[string]bool{}
	for _, id := range res.roots {
		fresh[id] = true
	}
	tree := output.JSONTree{}
	for id, v := range res.tree {
		if _, isRoot := plan.keys[id]; isRoot || !fresh[id] {
			tree[id] = v // a root of the group, or an error in a dependency
		}
	}
	var out []output.Finding
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
//
// With pack, everything goes into the module's pack (see seen), written
// as one entry.
func (rc *runCache) store(plan *cachePlan, res loadResult, dir string, pack bool) {
	type put struct {
		k    resultcache.Key
		data []byte
	}
	var puts []put
	for id, e := range res.facts {
		p := plan.byID[id]
		if p == nil {
			continue // not in go list's graph of the patterns (a variant the reload added)
		}
		if data, err := encodeFacts(e); err == nil {
			puts = append(puts, put{factsKey(plan.pk.of(p)), data})
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
		if data, err := json.Marshal(en.e); err == nil {
			puts = append(puts, put{k, data})
		}
	}
	if pack {
		// A module's first run writes one file, the pack, not one or two
		// per package loaded: creating files is the slow part.
		m := make(map[resultcache.Key][]byte, len(puts))
		for _, p := range puts {
			m[p.k] = p.data
		}
		k, err := rc.seenKey(dir)
		if err != nil {
			return
		}
		if data, err := resultcache.EncodePack(m); err == nil {
			_ = rc.cache.Put(k, data)
		}
		return
	}
	// Writing is a few system calls per entry: several at once.
	work := make(chan put)
	var wg sync.WaitGroup
	for range storeWriters {
		wg.Go(func() {
			for p := range work {
				_ = rc.cache.Put(p.k, p.data) // a full disk loses the entry, not the run
			}
		})
	}
	for _, p := range puts {
		work <- p
	}
	close(work)
	wg.Wait()
}

// storeWriters is how many entries a run writes at once.
const storeWriters = 8

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
		return output.ExitError
	}
	verb := args[0]
	if err := fs.Parse(args[1:]); err != nil || fs.NArg() > 0 || (verb != "dir" && verb != "clean") {
		if err == nil {
			fs.Usage()
		}
		return output.ExitError
	}
	dir, on := CacheDir(*dirFlag)
	switch {
	case verb == "dir" && !on:
		fmt.Fprintln(stdout, "off")
	case verb == "dir":
		fmt.Fprintln(stdout, dir)
	case !on:
		fmt.Fprintln(stderr, "guardvet cache clean: the cache is off ($"+EnvCache+"=off)")
		return output.ExitError
	default:
		c, err := resultcache.Open(dir)
		if err == nil {
			err = c.Clean()
		}
		if err != nil {
			fmt.Fprintf(stderr, "guardvet cache clean: %v\n", err)
			return output.ExitError
		}
	}
	return output.ExitClean
}

// goFiles counts the Go files of pkgs and what they import.
func goFiles(pkgs []*packages.Package) int {
	n := 0
	packages.Visit(pkgs, nil, func(p *packages.Package) { n += len(p.CompiledGoFiles) })
	return n
}

// seen reports whether this module was analysed on this cache with this
// guardvet and these flags before, and loads what that first run stored:
// its pack, the entries of every package it analysed, kept as one entry
// under a key of the run and the module's directory. If there is none,
// the run is most likely cold: it loads everything at once, as without a
// cache, rather than asking go list first what is cached, and writes the
// pack.
func (rc *runCache) seen(dir string) bool {
	k, err := rc.seenKey(dir)
	if err != nil {
		return true // no run key: plan will fail too, and the run goes uncached
	}
	data, ok := rc.cache.Get(k)
	if !ok {
		return false
	}
	if m, err := resultcache.DecodePack(data); err == nil {
		rc.packs = append(rc.packs, m)
	}
	return true
}

// get returns the entry under k: from a pack, or from its own file.
func (rc *runCache) get(k resultcache.Key) ([]byte, bool) {
	for _, m := range rc.packs {
		if data, ok := m[k]; ok {
			return data, true
		}
	}
	return rc.cache.Get(k)
}

func (rc *runCache) seenKey(dir string) (resultcache.Key, error) {
	run, err := rc.runKey(dir)
	if err != nil {
		return resultcache.Key{}, err
	}
	wd := dir
	if wd == "" {
		wd, _ = os.Getwd()
	}
	return resultcache.Key(hashOf(run[:], []byte("seen"), []byte(wd))), nil
}

// planFromLoad makes the plan of a cold run from what it loaded: the keys
// of its roots and of every package, for store. Files already hashed as
// they were parsed (sums) are not read again. nil when a key cannot be
// computed.
func (rc *runCache) planFromLoad(pkgs []*packages.Package, dir string, sums *fileSums) *cachePlan {
	run, err := rc.runKey(dir)
	if err != nil || len(pkgs) == 0 {
		return nil
	}
	pk := newPackageKeys(run)
	sums.mu.Lock()
	for name, sum := range sums.m {
		pk.files[name] = sum
	}
	sums.mu.Unlock()
	plan := &cachePlan{keys: map[string]resultcache.Key{}, missing: map[string]bool{}, meta: pkgs,
		byID: map[string]*packages.Package{}, pk: pk, sums: pk.files}
	packages.Visit(pkgs, nil, func(p *packages.Package) { plan.byID[p.ID] = p })
	for _, p := range pkgs {
		if _, dup := plan.keys[p.ID]; !dup {
			plan.roots = append(plan.roots, p.ID)
			plan.keys[p.ID] = pk.of(p)
		}
	}
	if pk.err != nil {
		return nil
	}
	return plan
}

// fileSums are the SHA-256 of the files a load parsed, by name.
type fileSums struct {
	mu sync.Mutex
	m  map[string][sha256.Size]byte
}
