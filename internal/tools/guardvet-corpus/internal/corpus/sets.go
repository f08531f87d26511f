// Package corpus is the logic of guardvet-corpus: the sets file, the
// expected diagnostics file, guardvet's JSON output turned into stable
// diagnostics, and their comparison.
package corpus

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Where a set runs.
const (
	InCorpus = "corpus" // the corpus module's directory (testdata/corpus)
	InRepo   = "repo"   // the repository root, like make std
	copyPfx  = "copy:"  // copy:MODULE@VERSION, a writable copy of that module

	// warmOnly, after WHERE and a +, keeps a set's re-run on the warm
	// result cache and drops the one on a partly filled cache (Set.NoPartial).
	warmOnly = "warmonly"
)

// Set is one line of the sets file: a name, where guardvet runs, and its
// arguments.
type Set struct {
	Name  string
	Where string   // InCorpus, InRepo or copy:MODULE@VERSION
	Args  []string // guardvet's arguments, -json excluded
	// NoPartial skips the re-run on a partly filled result cache (WHERE
	// written WHERE+warmonly). That re-run analyses some packages
	// incrementally, which needs their imports' export data: on a cold
	// build cache it compiles them, the gate's largest cost after
	// guardvet's own runs. Sets of modules no other set compiles are
	// marked, once the incremental path is exercised in their
	// configuration on other modules.
	NoPartial bool
}

// CopyOf returns MODULE@VERSION for a set that runs in a copy of a module.
func (s Set) CopyOf() (string, bool) {
	return strings.CutPrefix(s.Where, copyPfx)
}

// ParseSets reads a sets file: one set per line, fields separated by
// blanks (name, where, arguments...); blank lines and lines starting with
// # are ignored. WHERE may end in +warmonly (Set.NoPartial).
func ParseSets(r io.Reader) ([]Set, error) {
	var sets []Set
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 3 {
			return nil, fmt.Errorf("sets line %d: want NAME WHERE ARGS..., got %q", n, line)
		}
		s := Set{Name: f[0], Where: f[1], Args: f[2:]}
		if where, opt, ok := strings.Cut(s.Where, "+"); ok {
			if opt != warmOnly {
				return nil, fmt.Errorf("sets line %d: %s: unknown option %q after + (want %s)", n, s.Where, opt, warmOnly)
			}
			s.Where, s.NoPartial = where, true
		}
		if seen[s.Name] {
			return nil, fmt.Errorf("sets line %d: set %s defined twice", n, s.Name)
		}
		seen[s.Name] = true
		switch {
		case s.Where == InCorpus, s.Where == InRepo:
		case strings.HasPrefix(s.Where, copyPfx):
			mod, _ := s.CopyOf()
			if path, ver, ok := strings.Cut(mod, "@"); !ok || path == "" || ver == "" {
				return nil, fmt.Errorf("sets line %d: %s: want copy:MODULE@VERSION", n, s.Where)
			}
		default:
			return nil, fmt.Errorf("sets line %d: where %q: want %s, %s or %sMODULE@VERSION", n, s.Where, InCorpus, InRepo, copyPfx)
		}
		sets = append(sets, s)
	}
	return sets, sc.Err()
}

// Select returns the sets named in list (comma-separated), in the sets
// file's order; an empty list selects them all.
func Select(sets []Set, list string) ([]Set, error) {
	if list == "" {
		return sets, nil
	}
	want := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		if name = strings.TrimSpace(name); name != "" {
			want[name] = true
		}
	}
	var out []Set
	for _, s := range sets {
		if want[s.Name] {
			out = append(out, s)
			delete(want, s.Name)
		}
	}
	for name := range want {
		return nil, fmt.Errorf("no set named %q in the sets file", name)
	}
	return out, nil
}
