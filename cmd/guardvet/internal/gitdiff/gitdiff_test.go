package gitdiff

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestSince edits a real repository: a changed line, an inserted line,
// a deletion, an unstaged and a staged change, a new untracked file, an
// ignored one, a deleted file.
func TestSince(t *testing.T) {
	dir := t.TempDir()
	dir, _ = filepath.EvalSymlinks(dir)
	write := func(name, body string) {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitRun(t, dir, "init", "-q")
	write("a.go", "1\n2\n3\n4\n5\n6\n7\n8\n")
	write("sub/b.go", "1\n2\n3\n")
	write("gone.go", "x\n")
	write(".gitignore", "ignored.go\n")
	gitRun(t, dir, "add", ".")
	gitRun(t, dir, "commit", "-q", "-m", "base")

	write("a.go", "1\nTWO\n3\n4\nnew\n5\n7\n8\n") // 2 changed, new after 4, 6 deleted
	write("sub/b.go", "1\n2\n3\n4\n")             // staged: line 4 added
	gitRun(t, dir, "add", "sub/b.go")
	write("fresh.go", "a\nb\n")
	write("ignored.go", "a\n")
	os.Remove(filepath.Join(dir, "gone.go"))

	c, err := Since(filepath.Join(dir, "sub"), "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(dir, "a.go")
	for line, want := range map[int]bool{1: false, 2: true, 3: false, 4: false, 5: true, 6: true, 7: true, 8: false} {
		if got := c.Changed(a, line); got != want {
			t.Errorf("a.go:%d changed = %v, want %v", line, got, want)
		}
	}
	if !c.Changed(filepath.Join(dir, "sub", "b.go"), 4) || c.Changed(filepath.Join(dir, "sub", "b.go"), 3) {
		t.Errorf("sub/b.go: want line 4 (staged) changed and line 3 not")
	}
	if !c.Changed(filepath.Join(dir, "fresh.go"), 2) {
		t.Errorf("an untracked file is new: every line counts as changed")
	}
	if c.Changed(filepath.Join(dir, "ignored.go"), 1) {
		t.Errorf("an ignored file counts as changed")
	}
	if _, err := Since(dir, "nosuchrev"); err == nil || !strings.Contains(err.Error(), "nosuchrev") {
		t.Errorf("Since(nosuchrev) = %v, want an error naming it", err)
	}
	if _, err := Since(t.TempDir(), "HEAD"); err == nil || !strings.Contains(err.Error(), "not in a git repository") {
		t.Errorf("outside a repository: %v", err)
	}
}

// TestMergeBase: a branch behind main counts from where it left main, not
// from main's tip.
func TestMergeBase(t *testing.T) {
	dir := t.TempDir()
	dir, _ = filepath.EvalSymlinks(dir)
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitRun(t, dir, "init", "-q", "-b", "main")
	write("a.go", "1\n2\n3\n")
	gitRun(t, dir, "add", ".")
	gitRun(t, dir, "commit", "-q", "-m", "base")
	gitRun(t, dir, "checkout", "-q", "-b", "feature")
	write("b.go", "x\n")
	gitRun(t, dir, "add", ".")
	gitRun(t, dir, "commit", "-q", "-m", "feature")
	gitRun(t, dir, "checkout", "-q", "main")
	write("a.go", "1\nTWO\n3\n")
	gitRun(t, dir, "commit", "-q", "-am", "main moves on")
	gitRun(t, dir, "checkout", "-q", "feature")
	base, err := MergeBase(dir, "main")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Since(dir, base)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Changed(filepath.Join(dir, "b.go"), 1) || c.Changed(filepath.Join(dir, "a.go"), 2) {
		t.Errorf("from the merge base: want the branch's b.go changed and not main's later a.go edit")
	}
	if tip, _ := Since(dir, "main"); !tip.Changed(filepath.Join(dir, "a.go"), 2) {
		t.Errorf("from main's tip, main's later edit shows as a change (why the merge base is needed)")
	}
	if _, err := MergeBase(dir, "nosuch"); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("MergeBase(nosuch) = %v", err)
	}
}
