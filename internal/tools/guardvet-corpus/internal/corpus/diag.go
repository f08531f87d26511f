package corpus

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Diag is one diagnostic of a set, its position normalised.
type Diag struct {
	Set, Pos, Rule, Message string
}

// Key is the diagnostic's comparison key.
func (d Diag) Key() Key { return Key{d.Set, d.Pos, d.Rule} }

// Normaliser turns absolute file names into names that do not depend on
// the machine: each prefix in order is replaced by its replacement, the
// first that matches wins.
type Normaliser []Replace

// Replace is one prefix replacement.
type Replace struct{ Prefix, With string }

// NewNormaliser returns the usual normaliser: copy (the directory of a
// module copied for the run, if any) becomes module (MODULE@VERSION),
// GOROOT becomes $GOROOT, and the module cache prefix is stripped, which
// leaves MODULE@VERSION/FILE.
func NewNormaliser(modcache, goroot, copy, module string) Normaliser {
	var n Normaliser
	if copy != "" {
		n = append(n, Replace{dirPrefix(copy), module + "/"})
	}
	if goroot != "" { // before the module cache: a toolchain Go downloaded lives in it
		n = append(n, Replace{dirPrefix(goroot), "$GOROOT/"})
	}
	if modcache != "" {
		n = append(n, Replace{dirPrefix(modcache), ""})
	}
	return n
}

func dirPrefix(dir string) string { return strings.TrimSuffix(dir, "/") + "/" }

// File normalises one file name.
func (n Normaliser) File(name string) string {
	for _, r := range n {
		if rest, ok := strings.CutPrefix(name, r.Prefix); ok {
			return r.With + rest
		}
	}
	return name
}

// Pos normalises a FILE:LINE:COLUMN position.
func (n Normaliser) Pos(pos string) string {
	file, line, col, ok := splitPos(pos)
	if !ok {
		return n.File(pos)
	}
	return fmt.Sprintf("%s:%d:%d", n.File(file), line, col)
}

// splitPos splits FILE:LINE:COLUMN; the file name may itself hold colons.
func splitPos(pos string) (file string, line, col int, ok bool) {
	i := strings.LastIndexByte(pos, ':')
	if i < 0 {
		return "", 0, 0, false
	}
	j := strings.LastIndexByte(pos[:i], ':')
	if j <= 0 {
		return "", 0, 0, false
	}
	line, err1 := strconv.Atoi(pos[j+1 : i])
	col, err2 := strconv.Atoi(pos[i+1:])
	if err1 != nil || err2 != nil || line <= 0 || col < 0 {
		return "", 0, 0, false
	}
	return pos[:j], line, col, true
}

// comparePos orders positions by file, then line and column as numbers.
func comparePos(a, b string) int {
	fa, la, ca, oka := splitPos(a)
	fb, lb, cb, okb := splitPos(b)
	if !oka || !okb {
		return strings.Compare(a, b)
	}
	switch {
	case fa != fb:
		return strings.Compare(fa, fb)
	case la != lb:
		return la - lb
	}
	return ca - cb
}

// jsonDiag is a diagnostic in guardvet -json output (the x/tools shape:
// package ID -> analyzer -> diagnostics, or -> {"error": ...}).
type jsonDiag struct {
	Posn    string `json:"posn"`
	Message string `json:"message"`
}

// Decode reads guardvet -json output for a set. Diagnostics reported for a
// package and again for its test variant are kept once. Analysis errors
// (an analyzer that failed on a package) are returned as errs: the run
// cannot be trusted then.
func Decode(set string, data []byte, n Normaliser) (diags []Diag, errs []string, err error) {
	var tree map[string]map[string]json.RawMessage
	if len(strings.TrimSpace(string(data))) == 0 {
		return nil, nil, nil // no findings: guardvet prints nothing
	}
	if err := json.Unmarshal(data, &tree); err != nil {
		return nil, nil, fmt.Errorf("guardvet -json output: %v", err)
	}
	seen := map[Diag]bool{}
	for pkg, byRule := range tree {
		for rule, raw := range byRule {
			var list []jsonDiag
			if err := json.Unmarshal(raw, &list); err != nil {
				var e struct {
					Error string `json:"error"`
				}
				if json.Unmarshal(raw, &e) == nil && e.Error != "" {
					errs = append(errs, fmt.Sprintf("%s: %s: %s", pkg, rule, e.Error))
					continue
				}
				return nil, nil, fmt.Errorf("guardvet -json output: %s: %s: %v", pkg, rule, err)
			}
			for _, j := range list {
				d := Diag{Set: set, Pos: n.Pos(j.Posn), Rule: rule, Message: j.Message}
				if !seen[d] {
					seen[d] = true
					diags = append(diags, d)
				}
			}
		}
	}
	SortDiags(diags)
	sort.Strings(errs)
	return diags, errs, nil
}

// SortDiags sorts by set, position, rule and message.
func SortDiags(ds []Diag) {
	sort.Slice(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Set != b.Set {
			return a.Set < b.Set
		}
		if c := comparePos(a.Pos, b.Pos); c != 0 {
			return c < 0
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
}
