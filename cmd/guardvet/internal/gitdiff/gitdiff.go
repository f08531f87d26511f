// Package gitdiff finds the lines of a git repository that changed since
// a revision, for guardvet -new-from-rev: the lines added or changed in
// the working tree (staged or not) relative to the revision, as `git diff
// -U0 REV` lists them, and every line of the files git does not track yet
// (ignored files aside). The diff is parsed with sourcegraph/go-diff.
package gitdiff

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/sourcegraph/go-diff/diff"
)

// Changes are the changed lines of a repository's files, by absolute
// path.
type Changes struct {
	Root  string
	files map[string]*lines
}

// lines are a file's changed lines; all is set for a file that is new
// since the revision.
type lines struct {
	all    bool
	ranges [][2]int // [first, last], 1-based, inclusive
}

// Since lists the changes since rev in the repository that contains dir.
// Its errors say what git said.
func Since(dir, rev string) (*Changes, error) {
	root, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("not in a git repository: %v", err)
	}
	c := &Changes{Root: strings.TrimSpace(string(root)), files: map[string]*lines{}}
	if _, err := git(c.Root, "rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return nil, fmt.Errorf("%q is not a revision of %s", rev, c.Root)
	}
	out, err := git(c.Root, "diff", "--no-color", "--no-ext-diff", "--src-prefix=a/", "--dst-prefix=b/", "-U0", rev, "--")
	if err != nil {
		return nil, err
	}
	if err := c.addDiff(out); err != nil {
		return nil, err
	}
	untracked, err := git(c.Root, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, err
	}
	for _, name := range strings.Split(string(untracked), "\x00") {
		if name != "" {
			c.files[filepath.Join(c.Root, filepath.FromSlash(name))] = &lines{all: true}
		}
	}
	return c, nil
}

// MergeBase is the commit where HEAD's branch left ref (git merge-base
// ref HEAD): the revision a pull request's changes are counted from.
func MergeBase(dir, ref string) (string, error) {
	if _, err := git(dir, "rev-parse", "--verify", "--quiet", ref+"^{commit}"); err != nil {
		return "", fmt.Errorf("%q is not a revision", ref)
	}
	out, err := git(dir, "merge-base", ref, "HEAD")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// addDiff records the new side of each hunk of a unified diff with no
// context. A hunk that only deletes marks the lines on either side of
// the deletion: code next to removed code is changed code.
func (c *Changes) addDiff(out []byte) error {
	fds, err := diff.ParseMultiFileDiff(out)
	if err != nil {
		return fmt.Errorf("reading git diff: %v", err)
	}
	for _, fd := range fds {
		name, ok := strings.CutPrefix(fd.NewName, "b/")
		if !ok { // /dev/null: the file was deleted
			continue
		}
		l := &lines{}
		if fd.OrigName == "/dev/null" {
			l.all = true
		}
		for _, h := range fd.Hunks {
			first, n := int(h.NewStartLine), int(h.NewLines)
			if n == 0 {
				l.ranges = append(l.ranges, [2]int{first, first + 1})
				continue
			}
			l.ranges = append(l.ranges, [2]int{first, first + n - 1})
		}
		c.files[filepath.Join(c.Root, filepath.FromSlash(name))] = l
	}
	return nil
}

// Changed reports whether line of file (an absolute path) is new or
// changed.
func (c *Changes) Changed(file string, line int) bool {
	l := c.files[file]
	if l == nil {
		return false
	}
	if l.all {
		return true
	}
	for _, r := range l.ranges {
		if r[0] <= line && line <= r[1] {
			return true
		}
	}
	return false
}

// git runs git in dir and returns its standard output; its error carries
// git's standard error.
func git(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return out, nil
}
