package resultcache

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func key(s string) Key { return Key(sha256.Sum256([]byte(s))) }

func TestPutGet(t *testing.T) {
	c, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get(key("a")); ok {
		t.Fatal("Get on an empty cache hit")
	}
	if err := c.Put(key("a"), []byte("alpha")); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.Get(key("a")); !ok || string(got) != "alpha" {
		t.Fatalf("Get = %q, %v; want alpha", got, ok)
	}
	if err := c.Put(key("empty"), nil); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.Get(key("empty")); !ok || len(got) != 0 {
		t.Fatalf("Get of empty data = %q, %v", got, ok)
	}
}

// TestDamagedEntriesMiss: an entry truncated, with a flipped byte, or
// copied under another key's name is a miss, never data.
func TestDamagedEntriesMiss(t *testing.T) {
	c, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat([]byte("guarded "), 100)
	for i, damage := range []func([]byte) []byte{
		func(b []byte) []byte { return b[:len(b)-1] },
		func(b []byte) []byte { return b[:10] },
		func(b []byte) []byte { b[len(b)-5] ^= 1; return b },
		func(b []byte) []byte { b[3] ^= 1; return b },
		func(b []byte) []byte { return append(b, '!') },
		func(b []byte) []byte { return nil },
	} {
		k := key(fmt.Sprint("damaged", i))
		if err := c.Put(k, data); err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(c.path(k))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(c.path(k), damage(raw), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, ok := c.Get(k); ok {
			t.Errorf("damage %d: Get hit with %d bytes", i, len(got))
		}
	}
	// A whole, valid entry under the wrong name.
	if err := c.Put(key("x"), []byte("x data")); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(c.path(key("x")))
	os.MkdirAll(filepath.Dir(c.path(key("y"))), 0o777)
	if err := os.WriteFile(c.path(key("y")), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get(key("y")); ok {
		t.Error("an entry copied under another key's name hit")
	}
}

// TestConcurrentWriters: many writers of the same keys at once; every read
// after sees whole data.
func TestConcurrentWriters(t *testing.T) {
	c, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 50 {
				k := key(fmt.Sprint(i))
				if err := c.Put(k, bytes.Repeat([]byte{byte(i)}, 1000+i)); err != nil {
					t.Error(err)
				}
				if got, ok := c.Get(k); ok && len(got) != 1000+i {
					t.Errorf("writer %d: read %d bytes of entry %d", w, len(got), i)
				}
			}
		})
	}
	wg.Wait()
	for i := range 50 {
		if got, ok := c.Get(key(fmt.Sprint(i))); !ok || len(got) != 1000+i {
			t.Errorf("entry %d: %d bytes, %v", i, len(got), ok)
		}
	}
	leftovers, _ := filepath.Glob(filepath.Join(c.Dir(), "*", ".tmp-*"))
	if len(leftovers) != 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

func TestPutFailsCleanly(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	if _, err := Open(filepath.Join(file, "sub")); err == nil {
		t.Fatal("Open under a file succeeded")
	}
	c := &Cache{dir: filepath.Join(file, "sub"), now: time.Now}
	if err := c.Put(key("a"), []byte("a")); err == nil {
		t.Fatal("Put under a file succeeded")
	}
	if _, ok := c.Get(key("a")); ok {
		t.Fatal("Get hit after a failed Put")
	}
}

// TestTrim: old entries go, then the least recently used until the total
// fits; a recent trim makes the next one a no-op.
func TestTrim(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	c := &Cache{dir: dir, now: func() time.Time { return now }}
	for i := range 10 {
		k := key(fmt.Sprint(i))
		if err := c.Put(k, bytes.Repeat([]byte("x"), 1000)); err != nil {
			t.Fatal(err)
		}
		// Entry i was last used i days ago.
		mod := now.Add(-time.Duration(i) * 24 * time.Hour)
		os.Chtimes(c.path(k), mod, mod)
	}
	if err := c.Trim(5*24*time.Hour+time.Hour, 3500); err != nil {
		t.Fatal(err)
	}
	var kept []int
	for i := range 10 {
		if _, err := os.Stat(c.path(key(fmt.Sprint(i)))); err == nil {
			kept = append(kept, i)
		}
	}
	// Older than 5 days: 6..9 go. Each entry is about 1,100 bytes with its
	// header: three fit in 3,500, the three most recent.
	if fmt.Sprint(kept) != "[0 1 2]" {
		t.Errorf("kept %v, want [0 1 2]", kept)
	}
	if err := c.Put(key("new"), []byte("n")); err != nil {
		t.Fatal(err)
	}
	old := now.Add(-30 * 24 * time.Hour)
	os.Chtimes(c.path(key("new")), old, old)
	if err := c.Trim(time.Hour, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(c.path(key("new"))); err != nil {
		t.Error("a second trim within the hour removed an entry")
	}
}
