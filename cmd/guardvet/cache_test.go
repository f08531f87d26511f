package main_test

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/guardvet/guardvet/internal/resultcache"
)

// The result cache: a run with a warm cache prints what a run without one
// prints, byte for byte, in every format; what it prints comes from the
// cache; an edit re-analyses what it changes; a broken entry is
// recomputed; concurrent writers and an unusable directory do no harm.

// cacheEnv turns the cache on in dir for a run (TestMain turns it off for
// every other test).
func cacheEnv(dir string) []string { return []string{"GUARDVETCACHE=" + dir} }

func TestCacheSameOutputEveryFormat(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"text", "-json", "-sarif", "-diff"} {
		t.Run(strings.TrimPrefix(mode, "-"), func(t *testing.T) {
			var args []string
			if mode != "text" {
				args = []string{mode}
			}
			want, wantErr := runFixtures(t, nil, args...)
			dir := t.TempDir()
			cold, coldErr := runFixtures(t, cacheEnv(dir), args...)
			if entries := cacheEntries(t, dir); len(entries) == 0 {
				t.Fatal("a run with the cache on stored nothing")
			}
			warm, warmErr := runFixtures(t, cacheEnv(dir), args...)
			for _, got := range []struct{ name, out, err string }{{"cold", cold, coldErr}, {"warm", warm, warmErr}} {
				if got.out != want {
					t.Errorf("%s cache: stdout differs from a run without the cache:\n%s", got.name, firstDifference(want, got.out))
				}
				if got.err != wantErr {
					t.Errorf("%s cache: stderr differs from a run without the cache:\n%s", got.name, firstDifference(wantErr, got.err))
				}
			}
		})
	}
}

// TestCacheReplays proves that a warm run prints what the cache holds: an
// entry rewritten, with a valid checksum, to say something else is what
// the next run prints; an entry with a flipped byte is a miss, recomputed.
func TestCacheReplays(t *testing.T) {
	t.Parallel()
	want, _ := runFixtures(t, nil)
	dir := t.TempDir()
	runFixtures(t, cacheEnv(dir))
	c, err := resultcache.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	// A module's first run stores its entries in one pack.
	var rewritten []string
	for _, name := range cacheEntries(t, dir) {
		k := keyOf(t, name)
		data, ok := c.Get(k)
		if !ok {
			t.Fatalf("entry %s does not read back", name)
		}
		pack, err := resultcache.DecodePack(data)
		if err != nil {
			continue // not a pack
		}
		for pk, entry := range pack {
			var e map[string]any
			if json.Unmarshal(entry, &e) != nil {
				continue // a package's facts (gob), not its findings
			}
			fs, _ := e["Findings"].([]any)
			if len(fs) == 0 {
				continue
			}
			f := fs[0].(map[string]any)
			f["Message"] = "REPLAYED " + f["Message"].(string)
			rewritten = append(rewritten, f["Message"].(string))
			if pack[pk], err = json.Marshal(e); err != nil {
				t.Fatal(err)
			}
		}
		if data, err = resultcache.EncodePack(pack); err != nil {
			t.Fatal(err)
		}
		if err := c.Put(k, data); err != nil {
			t.Fatal(err)
		}
	}
	if len(rewritten) == 0 {
		t.Fatal("no cached entry has findings")
	}
	got, _ := runFixtures(t, cacheEnv(dir))
	for _, m := range rewritten {
		if !strings.Contains(got, m) {
			t.Errorf("warm run does not print the cached message %q:\n%s", m, got)
		}
	}
	// Corrupt every entry: one flipped byte in the data. The checksum no
	// longer matches, so every package is analysed again.
	for _, name := range cacheEntries(t, dir) {
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		raw[len(raw)-2] ^= 0x20
		if err := os.WriteFile(name, raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := runFixtures(t, cacheEnv(dir)); got != want {
		t.Errorf("after corrupting the entries, output differs from a run without the cache:\n%s", firstDifference(want, got))
	}
	// Truncated entries are misses too.
	for _, name := range cacheEntries(t, dir) {
		if err := os.Truncate(name, 10); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := runFixtures(t, cacheEnv(dir)); got != want {
		t.Errorf("after truncating the entries, output differs from a run without the cache:\n%s", firstDifference(want, got))
	}
}

// TestCacheEdits edits a module between runs: an edit to the package with
// the finding and an edit to the package it imports (whose lock helpers
// are facts) are both seen, and an edit that fixes the bug clears it.
func TestCacheEdits(t *testing.T) {
	t.Parallel()
	dir := writeModule(t)
	cache := t.TempDir()
	check := func(step, wantOut string, wantCode int, wantTrace string) {
		t.Helper()
		cmd := exec.Command(guardvet, "./...")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), append(cacheEnv(cache), "GUARDVET_CACHE_TRACE=1")...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, _ := cmd.Output()
		if code := cmd.ProcessState.ExitCode(); code != wantCode || !strings.Contains(string(out), wantOut) {
			t.Fatalf("%s: exit %d, stdout:\n%s\nwant exit %d and %q", step, code, out, wantCode, wantOut)
		}
		if !strings.Contains(stderr.String(), wantTrace) {
			t.Errorf("%s: the cache says\n%s\nwant %q", step, stderr.String(), wantTrace)
		}
		off := exec.Command(guardvet, "./...")
		off.Dir = dir
		fresh, _ := off.Output()
		if string(fresh) != string(out) {
			t.Fatalf("%s: cached output differs from a run without the cache:\n%s", step, firstDifference(string(fresh), string(out)))
		}
	}
	check("cold", wantBad, 1, "first run here: 3 packages analysed and stored")
	check("warm", wantBad, 1, "3 of 3 packages replayed")
	use := filepath.Join(dir, "use/use.go")
	src, err := os.ReadFile(use)
	if err != nil {
		t.Fatal(err)
	}
	// A line added above the bug moves it: the finding must move too.
	if err := os.WriteFile(use, []byte(strings.Replace(string(src), "func Bad", "// Bad reads N.\nfunc Bad", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	// Only use is analysed again, from source, with lib from export data
	// and its facts from the cache.
	check("leaf edit", "use/use.go:13:11: c.N read while c.mu is not known to be held", 1, "2 of 3 packages replayed; 1 analysed incrementally")
	// lib's Lock helper stops locking: Good's access is now a finding too,
	// which only a re-analysis of use with lib's new facts can show.
	lib := filepath.Join(dir, "lib/lib.go")
	lsrc, err := os.ReadFile(lib)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lib, []byte(strings.Replace(string(lsrc), "func (c *C) Lock()   { c.mu.Lock() }", "func (c *C) Lock()   {}", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	check("dependency edit", "use/use.go:7:4: c.N", 1, "1 of 3 packages replayed; 2 analysed incrementally")
	if err := os.WriteFile(lib, lsrc, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(use, []byte(strings.Replace(string(src), "return c.N", "c.Lock()\n\tdefer c.Unlock()\n\treturn c.N", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	check("fixed", "", 0, "analysed incrementally")
}

// TestCacheConcurrentWriters runs two guardvet processes on one cold cache
// directory at once, then a third on the warm one: each prints what a run
// without the cache prints.
func TestCacheConcurrentWriters(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"text", "-json"} {
		var args []string
		if mode != "text" {
			args = []string{mode}
		}
		want, _ := runFixtures(t, nil, args...)
		dir := t.TempDir()
		var wg sync.WaitGroup
		outs := make([]string, 2)
		for i := range outs {
			wg.Go(func() { outs[i], _ = runFixtures(t, cacheEnv(dir), args...) })
		}
		wg.Wait()
		outs = append(outs, func() string { s, _ := runFixtures(t, cacheEnv(dir), args...); return s }())
		for i, got := range outs {
			if got != want {
				t.Errorf("%s, run %d: output differs from a run without the cache:\n%s", mode, i+1, firstDifference(want, got))
			}
		}
	}
}

// TestCacheUnusable: a cache directory that cannot be made (its parent is
// a file) means no cache, not a failed run.
func TestCacheUnusable(t *testing.T) {
	t.Parallel()
	want, wantErr := runFixtures(t, nil)
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got, gotErr := runFixtures(t, cacheEnv(filepath.Join(file, "cache")))
	if got != want || gotErr != wantErr {
		t.Errorf("with an unusable cache directory, output differs from a run without the cache:\n%s\n%s", firstDifference(want, got), firstDifference(wantErr, gotErr))
	}
}

func TestCacheCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cmd := exec.Command(guardvet, "cache", "dir")
	cmd.Env = append(os.Environ(), cacheEnv(dir)...)
	out, err := cmd.Output()
	if err != nil || strings.TrimSpace(string(out)) != dir {
		t.Fatalf("guardvet cache dir = %q, %v; want %s", out, err, dir)
	}
	runFixtures(t, cacheEnv(dir))
	if len(cacheEntries(t, dir)) == 0 {
		t.Fatal("nothing cached")
	}
	cmd = exec.Command(guardvet, "cache", "clean")
	cmd.Env = append(os.Environ(), cacheEnv(dir)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("guardvet cache clean: %v\n%s", err, out)
	}
	if n := len(cacheEntries(t, dir)); n != 0 {
		t.Errorf("guardvet cache clean left %d entries", n)
	}
	cmd = exec.Command(guardvet, "cache", "frob")
	if err := cmd.Run(); cmd.ProcessState.ExitCode() != 2 {
		t.Errorf("guardvet cache frob: %v, want exit 2", err)
	}
}

// cacheEntries lists the entry files under dir.
func cacheEntries(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(name string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && len(d.Name()) == 64 {
			out = append(out, name)
		}
		return nil
	})
	return out
}

func keyOf(t *testing.T, name string) resultcache.Key {
	t.Helper()
	var k resultcache.Key
	b, err := hex.DecodeString(filepath.Base(name))
	if err != nil || len(b) != len(k) {
		t.Fatalf("entry name %s is not a key", name)
	}
	copy(k[:], b)
	return k
}

// TestCacheEditsKeepDependencyFacts edits two packages of a module so that
// both are analysed again incrementally: first a, which reaches notify only
// through mid (whose export data names nothing of notify), then k, which
// calls notify.Pause itself. The facts notify passes on (Pause acquires
// its lock) were once read for a before notify was loaded, missed Pause,
// and were reused for k: k's lock-order cycle through Pause was lost.
func TestCacheEditsKeepDependencyFacts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26\n",
		"notify/notify.go": `package notify

import "sync"

type notifier struct {
	pauseMu sync.Mutex
	paused  bool //guard:by pauseMu
}

func (n *notifier) pause()  { n.pauseMu.Lock() }
func (n *notifier) resume() { n.pauseMu.Unlock() }

func (n *notifier) isPaused() bool {
	n.pauseMu.Lock()
	defer n.pauseMu.Unlock()
	return n.paused
}

var shared struct{ notifier *notifier }

func Pause()  { shared.notifier.pause() }
func Resume() { shared.notifier.resume() }
`,
		"mid/mid.go": `package mid

import "example.com/m/notify"

func Do() {
	notify.Pause()
	notify.Resume()
}
`,
		"a/a.go": `package a

import (
	"sync"

	"example.com/m/mid"
)

type A struct {
	mu sync.Mutex
	n  int //guard:by mu
}

func (a *A) Run() {
	a.mu.Lock()
	a.n++
	a.mu.Unlock()
	mid.Do()
}
`,
		"k/k.go": `package k

import (
	"sync"

	"example.com/m/notify"
)

type K struct {
	mu sync.Mutex
	n  int //guard:by mu
}

func (k *K) Save() {
	k.mu.Lock()
	notify.Pause()
	k.n++
	notify.Resume()
	k.mu.Unlock()
}

func (k *K) Load() {
	notify.Pause()
	k.mu.Lock()
	k.n--
	k.mu.Unlock()
	notify.Resume()
}
`,
	}
	writeFiles(t, dir, files)
	cache := t.TempDir()
	run := func(env ...string) (string, string) {
		cmd := exec.Command(guardvet, "./...")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, _ := cmd.Output()
		return string(out), stderr.String()
	}
	want, _ := run("GUARDVETCACHE=off")
	if !strings.Contains(want, "k/k.go:") || !strings.Contains(want, "potential deadlock") {
		t.Fatalf("without the cache, no lock-order cycle in k:\n%s", want)
	}
	run(append(cacheEnv(cache), "GUARDVET_CACHE_TRACE=1")...) // fills the cache
	for _, name := range []string{"a/a.go", "k/k.go"} {
		path := filepath.Join(dir, name)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append([]byte("// Edited.\n"), src...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, _ = run("GUARDVETCACHE=off")
	got, trace := run(append(cacheEnv(cache), "GUARDVET_CACHE_TRACE=1")...)
	if !strings.Contains(trace, "2 analysed incrementally") {
		t.Fatalf("the edits were not analysed incrementally:\n%s", trace)
	}
	if got != want {
		t.Errorf("the incremental run differs from a run without the cache:\n%s", firstDifference(want, got))
	}
}
