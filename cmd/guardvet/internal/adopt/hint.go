package adopt

import (
	"bytes"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"sort"

	"github.com/guardvet/guardvet/analyzer/directives"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/configfile"
	"github.com/guardvet/guardvet/cmd/guardvet/internal/output"
)

// HintUnannotated prints one line on stderr when a run's silence would
// mislead: it found nothing, no mode that looks beyond directives was on
// (-infer, -suggest, -shared, -config.unannotated), and none of the files
// it checked has a directive, so guardvet checked only the contracts of
// the packages they import. hints: false in .guardvet.yaml turns it off.
func (ad *Adoption) HintUnannotated(res output.Result, stderr io.Writer) {
	if (ad.conf != nil && ad.conf.NoHints) || ad.modal || len(res.Findings) > 0 || res.Code != output.ExitClean || len(res.Checked) == 0 {
		return
	}
	if c := ad.cfg; c != nil && (c.Infer() || c.Shared() || c.UnannotatedOrder()) {
		return
	}
	files := make([]string, 0, len(res.Checked))
	for f := range res.Checked {
		files = append(files, f)
	}
	sort.Strings(files)
	if filesAnnotated(files) {
		return
	}
	fmt.Fprintf(stderr, "guardvet: no //guard: or checklocks directive in the %s checked, so only contracts declared elsewhere were checked: -infer infers guards from how the code uses its locks, -config.unannotated finds lock-order inversions, guardvet races ./... looks for races across the whole program (experimental) (docs/adoption.md; hints: false in %s hides this line)\n",
		output.Plural(len(res.Dirs), "package", "packages"), configfile.Name)
}

// filesAnnotated reports whether any of files has a directive
// (directives.Annotates). A file without "guard:" or "check" in it has
// none and is not parsed.
func filesAnnotated(files []string) bool {
	fset := token.NewFileSet()
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil || (!bytes.Contains(src, []byte("guard:")) && !bytes.Contains(src, []byte("check"))) {
			continue
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
		if f == nil {
			continue
		}
		_ = err // a file with syntax errors failed the run before this
		if directives.FileAnnotated(f) {
			return true
		}
	}
	return false
}
