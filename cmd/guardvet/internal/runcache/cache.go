// Package runcache is the standalone driver's result cache and the
// incremental runs it allows. For each root package, the key
// (cachekey.go) hashes everything its findings depend on; the entry
// (cacheentry.go) holds the findings and the package's part of -json. A
// run first asks go list for the packages and their files, which is
// cheap, computes the keys, and replays every root whose entry is there;
// only the others are loaded, type-checked and analysed, with what they
// import: incrementally, from export data and cached facts, when few
// changed (incremental.go), else as a cold run does. A run with errors
// stores nothing, so errors are always found and printed anew.
//
// The directory is -cache, else $GUARDVETCACHE, else guardvet under the
// user's cache directory (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on
// Linux, ~/Library/Caches on macOS); "off" turns the cache off.
package runcache

import (
	"crypto/sha256"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/guardvet/guardvet/analyzer/config"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/output"
	"github.com/guardvet/guardvet/internal/resultcache"
)

// EnvCache names the environment variable that moves or turns off the
// cache.
const EnvCache = "GUARDVETCACHE"

// Dir returns the cache directory flagValue (-cache) or the
// environment selects, and false when the cache is off.
func Dir(flagValue string) (string, bool) {
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

// Cache is the result cache as one run uses it. A nil *Cache is no cache:
// Analyse analyses as without one, and the other methods do nothing.
type Cache struct {
	cache   *resultcache.Cache
	flags   *flag.FlagSet  // the run's flags, for its key (runKey)
	conf    *config.Config // the run's configuration: in the key too, and the incremental analysis runs under it
	enabled []*analysis.Analyzer
	rep     *replayer
	runKeys map[string]resultcache.Key   // by module directory
	trace   bool                         // GUARDVET_CACHE_TRACE: say on stderr what the cache did
	packs   []map[resultcache.Key][]byte // the packs of the modules seen (see seen)
	sums    *fileSums                    // the files' SHA-256, taken as they are parsed, for the keys
}

// envCacheTrace names the environment variable that, set, makes a run
// say on stderr, for each module, how many packages the cache replayed
// and how the others were analysed: a debugging aid.
const envCacheTrace = "GUARDVET_CACHE_TRACE"

// Open returns the run's cache in the directory dirFlag (-cache) or the
// environment selects, or nil when it is off or its directory cannot be
// made: the run then goes without, as it would with a cold cache. flags
// are the run's (every one that can change a finding is in the key), conf
// its configuration, and enabled the analyzers it runs, of all.
func Open(dirFlag string, flags *flag.FlagSet, conf *config.Config, enabled, all []*analysis.Analyzer) *Cache {
	dir, on := Dir(dirFlag)
	if !on {
		return nil
	}
	c, err := resultcache.Open(dir)
	if err != nil {
		return nil
	}
	registerFacts(all)
	return &Cache{cache: c, flags: flags, conf: conf, enabled: enabled, rep: newReplayer(all), runKeys: map[string]resultcache.Key{},
		trace: os.Getenv(envCacheTrace) != "", sums: &fileSums{m: map[string][sha256.Size]byte{}}}
}

// HashParsed records the SHA-256 of a file of the run as it is parsed, so
// that the keys of a module's first run (fill) do not read it again.
func (rc *Cache) HashParsed(filename string, src []byte) {
	if rc == nil {
		return
	}
	sum := sha256.Sum256(src)
	rc.sums.mu.Lock()
	rc.sums.m[filename] = sum
	rc.sums.mu.Unlock()
}

// Trim removes old entries when the cache has grown past its bounds
// (resultcache.MaxAge, resultcache.MaxBytes); best effort.
func (rc *Cache) Trim() {
	if rc != nil {
		_ = rc.cache.Trim(resultcache.MaxAge, resultcache.MaxBytes)
	}
}

func (rc *Cache) runKey(dir string) (resultcache.Key, error) {
	if k, ok := rc.runKeys[dir]; ok {
		return k, nil
	}
	k, err := runKey(rc.flags, rc.conf, rc.enabled, dir)
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
func (rc *Cache) plan(cfg *packages.Config, patterns []string) *cachePlan {
	meta := *cfg
	meta.Mode = metaMode
	pkgs, err := packages.Load(&meta, patterns...)
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
	plan.reload = patterns // nothing cached: load what the patterns name
	if len(missing) < len(plan.roots) {
		plan.reload = reloadPatterns(patterns, missing)
	}
	return plan
}

// lookup replays the entry under k.
func (rc *Cache) lookup(k resultcache.Key) ([]output.Finding, map[string]json.RawMessage, bool) {
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
func (plan *cachePlan) covers(res LoadResult) bool {
	fresh := map[string]bool{}
	for _, id := range res.Roots {
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
func (plan *cachePlan) merge(res LoadResult) ([]output.Finding, output.JSONTree) {
	fresh := map[string]bool{}
	for _, id := range res.Roots {
		fresh[id] = true
	}
	tree := output.JSONTree{}
	for id, v := range res.Tree {
		if _, isRoot := plan.keys[id]; isRoot || !fresh[id] {
			tree[id] = v // a root of the group, or an error in a dependency
		}
	}
	var out []output.Finding
	for _, id := range plan.roots {
		if fresh[id] {
			out = append(out, res.Findings[id]...)
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
func (rc *Cache) store(plan *cachePlan, res LoadResult, dir string, pack bool) {
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
	for _, id := range res.Roots {
		k, isRoot := plan.keys[id]
		if !isRoot {
			continue
		}
		en := newEntryEncoder(plan.sums)
		for _, f := range res.Findings[id] {
			en.add(f)
		}
		if !en.ok {
			continue
		}
		en.e.JSON = res.Tree[id]
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
func (rc *Cache) seen(dir string) bool {
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
func (rc *Cache) get(k resultcache.Key) ([]byte, bool) {
	for _, m := range rc.packs {
		if data, ok := m[k]; ok {
			return data, true
		}
	}
	return rc.cache.Get(k)
}

func (rc *Cache) seenKey(dir string) (resultcache.Key, error) {
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
func (rc *Cache) planFromLoad(pkgs []*packages.Package, dir string) *cachePlan {
	run, err := rc.runKey(dir)
	if err != nil || len(pkgs) == 0 {
		return nil
	}
	pk := newPackageKeys(run)
	rc.sums.mu.Lock()
	for name, sum := range rc.sums.m {
		pk.files[name] = sum
	}
	rc.sums.mu.Unlock()
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
