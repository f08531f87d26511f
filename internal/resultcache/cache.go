// Package resultcache is the standalone driver's store of per-package
// results: a directory of entries, each a file named by its key. It is
// safe for several guardvet processes at once, on one machine or on
// several sharing the directory over a network file system, without
// locks:
//
//   - an entry is written to a temporary file in the directory and renamed
//     into place, so a reader sees a whole old entry, a whole new one, or
//     none (rename is atomic on POSIX file systems, NFS included, and
//     replaces the target on Windows);
//   - every entry carries its key, its length and the SHA-256 of its data,
//     checked on each read: a truncated, corrupt or misplaced entry is a
//     miss, never data;
//   - writers of one key write the same bytes (the key is a hash of every
//     input), so the last rename wins harmlessly.
//
// A failure to write (a full disk, a read-only directory) loses that entry
// and nothing else: callers treat the cache as an optimisation.
//
// The directory is bounded: Trim removes entries unused for MaxAge, then
// the least recently used ones until the total is under MaxBytes. Reads
// refresh an entry's modification time at most once an hour, as the go
// command's cache does.
package resultcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Key names an entry: a SHA-256 of everything that determines it.
type Key [sha256.Size]byte

func (k Key) String() string { return hex.EncodeToString(k[:]) }

// Defaults for Trim.
const (
	MaxAge   = 7 * 24 * time.Hour // an entry unused this long is removed
	MaxBytes = 512 << 20          // the directory is trimmed below this size
	// trimEvery is how often a process walks the directory to trim it.
	trimEvery = time.Hour
	// touchEvery is how stale an entry's time must be before a read
	// refreshes it.
	touchEvery = time.Hour
)

const magic = "guardvet-result-cache 1\n"

// Cache is one cache directory.
type Cache struct {
	dir string
	now func() time.Time
}

// Open returns the cache in dir, creating the directory if needed.
func Open(dir string) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	return &Cache{dir: dir, now: time.Now}, nil
}

// Dir is the cache's directory.
func (c *Cache) Dir() string { return c.dir }

func (c *Cache) path(k Key) string {
	s := k.String()
	return filepath.Join(c.dir, s[:2], s)
}

// Get returns the data stored under k, if a whole, intact entry is there.
func (c *Cache) Get(k Key) ([]byte, bool) {
	name := c.path(k)
	raw, err := os.ReadFile(name)
	if err != nil {
		return nil, false
	}
	data, ok := decode(k, raw)
	if !ok {
		return nil, false
	}
	if info, err := os.Stat(name); err == nil && c.now().Sub(info.ModTime()) > touchEvery {
		_ = os.Chtimes(name, c.now(), c.now()) // best effort: only trimming reads it
	}
	return data, true
}

// Put stores data under k.
func (c *Cache) Put(k Key, data []byte) error {
	name := c.path(k)
	if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
		return err
	}
	return writeAtomic(name, encode(k, data))
}

func encode(k Key, data []byte) []byte {
	sum := sha256.Sum256(data)
	var b bytes.Buffer
	b.Grow(len(magic) + 150 + len(data))
	fmt.Fprintf(&b, "%s%s %x %d\n", magic, k, sum, len(data))
	b.Write(data)
	return b.Bytes()
}

func decode(k Key, raw []byte) ([]byte, bool) {
	rest, ok := bytes.CutPrefix(raw, []byte(magic))
	if !ok {
		return nil, false
	}
	header, data, ok := bytes.Cut(rest, []byte("\n"))
	if !ok {
		return nil, false
	}
	fields := strings.Fields(string(header))
	if len(fields) != 3 || fields[0] != k.String() {
		return nil, false
	}
	n, err := strconv.Atoi(fields[2])
	if err != nil || n != len(data) {
		return nil, false
	}
	sum := sha256.Sum256(data)
	if fields[1] != hex.EncodeToString(sum[:]) {
		return nil, false
	}
	return data, true
}

// writeAtomic writes data to a temporary file next to name and renames it
// to name.
func writeAtomic(name string, data []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(name), ".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(f.Name())
		}
	}()
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), name)
}

// Trim bounds the directory: entries unused for maxAge go, then the least
// recently used until the rest take at most maxBytes, and temporary files
// left by writers that died. It walks the directory at most once per
// trimEvery across all processes sharing it (a time stamp file says when
// it last did); otherwise it returns at once.
func (c *Cache) Trim(maxAge time.Duration, maxBytes int64) error {
	stamp := filepath.Join(c.dir, "trimmed")
	if info, err := os.Stat(stamp); err == nil && c.now().Sub(info.ModTime()) < trimEvery {
		return nil
	}
	if err := writeAtomic(stamp, []byte(c.now().UTC().Format(time.RFC3339)+"\n")); err != nil {
		return err
	}
	type entry struct {
		name string
		size int64
		mod  time.Time
	}
	var entries []entry
	var total int64
	err := filepath.WalkDir(c.dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // removed by another process meanwhile
			}
			return err
		}
		if d.IsDir() || name == stamp {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		age := c.now().Sub(info.ModTime())
		if age > maxAge || (strings.HasPrefix(d.Name(), ".tmp-") && age > trimEvery) {
			_ = os.Remove(name)
			return nil
		}
		entries = append(entries, entry{name, info.Size(), info.ModTime()})
		total += info.Size()
		return nil
	})
	if err != nil {
		return err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].mod.Before(entries[j].mod) })
	for _, e := range entries {
		if total <= maxBytes {
			break
		}
		if os.Remove(e.name) == nil {
			total -= e.size
		}
	}
	return nil
}

// Clean removes every entry, leaving an empty directory.
func (c *Cache) Clean() error {
	items, err := os.ReadDir(c.dir)
	if err != nil {
		return err
	}
	for _, it := range items {
		if err := os.RemoveAll(filepath.Join(c.dir, it.Name())); err != nil {
			return err
		}
	}
	return nil
}
