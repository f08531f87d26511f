package runcache

import (
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/tools/go/gcexportdata"
)

// TestExportData reads what go list -export gives for a package of the
// standard library, through exportData and gcexportdata.Read, and finds
// its API in it; a file that is not an archive is passed through.
func TestExportData(t *testing.T) {
	out, err := exec.Command("go", "list", "-export", "-f", "{{.Export}}", "sync").Output()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := exportData(f)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := gcexportdata.Read(r, token.NewFileSet(), map[string]*types.Package{}, "sync")
	if err != nil {
		t.Fatal(err)
	}
	if obj := pkg.Scope().Lookup("Mutex"); obj == nil {
		t.Errorf("sync's export data has no Mutex")
	}
	r, err = exportData(strings.NewReader("iDATA"))
	if b := make([]byte, 5); err != nil || func() bool { n, _ := r.Read(b); return string(b[:n]) != "iDATA" }() {
		t.Errorf("export data alone is not passed through (%v)", err)
	}
	if _, err := exportData(strings.NewReader("!<arch>\n" + strings.Repeat(" ", 60))); err == nil {
		t.Errorf("an archive without __.PKGDEF: no error")
	}
}
