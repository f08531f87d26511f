package baseline

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestFingerprintIgnoresWhatMovesWithOtherCode(t *testing.T) {
	base := Fingerprint("lockorder", "a/b.go", "a.mu then b.mu at b.go:12:3; 2 of 3 paths", "\ta.mu.Lock()")
	for _, same := range [][4]string{
		{"lockorder", "a/b.go", "a.mu then b.mu at b.go:40:1; 5 of 9 paths", "\ta.mu.Lock()"},
		{"lockorder", "a/b.go", "a.mu then b.mu at b.go:12:3; 2 of 3 paths", "  a.mu.Lock()  "},
	} {
		if got := Fingerprint(same[0], same[1], same[2], same[3]); got != base {
			t.Errorf("Fingerprint%q = %s, want %s (positions, counts and indentation do not count)", same, got, base)
		}
	}
	for _, other := range [][4]string{
		{"guardedby", "a/b.go", "a.mu then b.mu at b.go:12:3; 2 of 3 paths", "\ta.mu.Lock()"},
		{"lockorder", "a/c.go", "a.mu then b.mu at b.go:12:3; 2 of 3 paths", "\ta.mu.Lock()"},
		{"lockorder", "a/b.go", "b.mu then a.mu at b.go:12:3; 2 of 3 paths", "\ta.mu.Lock()"},
		{"lockorder", "a/b.go", "a.mu then b.mu at b.go:12:3; 2 of 3 paths", "\ta.mu.RLock()"},
	} {
		if got := Fingerprint(other[0], other[1], other[2], other[3]); got == base {
			t.Errorf("Fingerprint%q = %s, the same as another finding's", other, got)
		}
	}
}

func TestRank(t *testing.T) {
	got := Rank([]string{"a", "b", "a", "a"})
	want := []string{"a:1", "b:1", "a:2", "a:3"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Rank = %v, want %v", got, want)
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "baseline.json")
	in := []Finding{
		{Rule: "lockorder", File: "b.go", Line: 3, Message: "<-ch blocks", Fingerprint: "f2:1"},
		{Rule: "guardedby", File: "a.go", Line: 9, Message: "m1", Fingerprint: "f1:1"},
	}
	if err := Write(path, in); err != nil {
		t.Fatal(err)
	}
	f, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Findings) != 2 || f.Findings[0].File != "a.go" || f.Findings[1] != in[0] {
		t.Errorf("read back %+v, want the findings sorted by file", f.Findings)
	}
	data, _ := os.ReadFile(path)
	if strings.Count(string(data), "\n") != 7 {
		t.Errorf("want one finding per line, so that diffs of the file are readable:\n%s", data)
	}
	if !strings.Contains(string(data), `"<-ch blocks"`) {
		t.Errorf("messages are escaped:\n%s", data)
	}
	if err := Write(path, nil); err != nil {
		t.Fatal(err)
	}
	if f, err := Read(path); err != nil || len(f.Findings) != 0 {
		t.Errorf("an empty baseline reads back as %+v, %v", f, err)
	}
}

func TestReadRejects(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"garbage":  "not json",
		"unknown":  `{"guardvet_baseline": 1, "findings": [], "extra": 1}`,
		"version":  `{"guardvet_baseline": 7, "findings": []}`,
		"noprint":  `{"guardvet_baseline": 1, "findings": [{"rule": "x", "file": "a.go"}]}`,
		"notafile": ``,
	} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(body), 0o644)
		if _, err := Read(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: Read = %v, want an error naming the file", name, err)
		}
	}
	if _, err := Read(filepath.Join(dir, "missing")); err == nil {
		t.Errorf("a missing file reads without error")
	}
}

func TestMatchAndUpdate(t *testing.T) {
	f := &File{Version: Version, Findings: []Finding{
		{File: "a.go", Fingerprint: "old:1"},
		{File: "a.go", Fingerprint: "fixed:1"},
		{File: "other.go", Fingerprint: "unseen:1"},
	}}
	checked := func(e Finding) bool { return e.File == "a.go" }
	current := []Finding{{File: "a.go", Fingerprint: "old:1"}, {File: "a.go", Fingerprint: "new:1"}}
	isNew, stale := f.Match(current, checked)
	if !reflect.DeepEqual(isNew, []bool{false, true}) {
		t.Errorf("isNew = %v, want [false true]", isNew)
	}
	if len(stale) != 1 || stale[0].Fingerprint != "fixed:1" {
		t.Errorf("stale = %+v, want only the fixed finding (other.go was not checked)", stale)
	}
	up := f.Update(current, checked)
	var got []string
	for _, e := range up {
		got = append(got, e.Fingerprint)
	}
	if !reflect.DeepEqual(got, []string{"old:1", "new:1", "unseen:1"}) {
		t.Errorf("Update = %v, want the current findings and the unchecked file's entry", got)
	}
}
