package output

import (
	"bytes"
	"fmt"
	"go/format"
	"io"
	"os"
	"sort"

	"github.com/pmezard/go-difflib/difflib"
)

type edit struct {
	start, end int
	text       []byte
}

// ApplyFixes applies the first suggested fix of every finding. With diff,
// it prints a unified diff and leaves the files alone. Overlapping edits
// are an error that names the file; nothing is written then. It returns
// the number of findings whose fix was applied (or shown).
func ApplyFixes(findings []Finding, diff bool, stdout io.Writer) (int, error) {
	byFile := map[string][]edit{}
	fixed := 0
	for _, f := range findings {
		if len(f.Diag.SuggestedFixes) == 0 {
			continue
		}
		fixed++
		for _, e := range f.Diag.SuggestedFixes[0].TextEdits {
			tf := f.Fset.File(e.Pos)
			if tf == nil {
				continue
			}
			end := e.End
			if !end.IsValid() {
				end = e.Pos
			}
			byFile[tf.Name()] = append(byFile[tf.Name()], edit{tf.Offset(e.Pos), tf.Offset(end), e.NewText})
		}
	}
	var files []string
	for name := range byFile {
		files = append(files, name)
	}
	sort.Strings(files)
	results := map[string][]byte{}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			return 0, err
		}
		out, err := apply(src, byFile[name])
		if err != nil {
			return 0, fmt.Errorf("%s: %v", RelPath(name), err)
		}
		// A fix must not break code: if the edited file does not parse,
		// nothing is written.
		formatted, err := format.Source(out)
		if err != nil {
			return 0, fmt.Errorf("%s: the suggested fixes would leave the file unparsable, so none was applied: %v", RelPath(name), err)
		}
		out = formatted
		results[name] = out
		if diff {
			ud := difflib.UnifiedDiff{
				A: difflib.SplitLines(string(src)), B: difflib.SplitLines(string(out)),
				FromFile: RelPath(name) + " (old)", ToFile: RelPath(name) + " (new)", Context: 3,
			}
			text, err := difflib.GetUnifiedDiffString(ud)
			if err != nil {
				return 0, err
			}
			fmt.Fprint(stdout, text)
		}
	}
	if diff {
		return fixed, nil
	}
	for _, name := range files {
		if err := os.WriteFile(name, results[name], 0o644); err != nil {
			return 0, err
		}
	}
	return fixed, nil
}

func apply(src []byte, edits []edit) ([]byte, error) {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var out bytes.Buffer
	last := 0
	for i, e := range edits {
		if i > 0 && e.start == edits[i-1].start && e.end == edits[i-1].end && bytes.Equal(e.text, edits[i-1].text) {
			continue // the same fix reported for a package and its test variant
		}
		if e.start < last {
			return nil, fmt.Errorf("suggested fixes overlap at offset %d; apply them one at a time", e.start)
		}
		out.Write(src[last:e.start])
		out.Write(e.text)
		last = e.end
	}
	out.Write(src[last:])
	return out.Bytes(), nil
}
