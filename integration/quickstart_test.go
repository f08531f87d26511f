//go:build integration

package integration

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestQuickStart follows README's Quick start by copy and paste, with the
// snippets taken from README itself so that it cannot drift:
//
//	go test -tags integration -run QuickStart -v ./integration/
//
// Install: the "from a checkout" block, run with bash, with the clone URL
// replaced by a git repository holding a snapshot of this working tree (as
// TestPrecommit makes it; a clean clone of it), and GOBIN a temporary
// directory put first on PATH. guardvet -version answers.
//
// The first directive: a new module made with README's `go mod init`,
// README's Go code in the file README names.
//
// Run: each command of README's first Run block in that module. The
// standalone one prints exactly the output README shows (on stdout,
// nothing on stderr) and exits with README's code for findings; go vet
// prints the same finding without the rule in parentheses and fails. Then
// README's commands for several modules (-C alpha), at the root of a
// repository with two such modules, alpha/ and beta/, for each of them.
//
// The fix README describes, applied as written: all the commands are
// clean and exit 0.
//
// The module cache and the build cache are the machine's (anything missing
// is fetched through GOPROXY).
func TestQuickStart(t *testing.T) {
	start := time.Now()
	root := moduleRoot(t)
	readme := docFile(t, root, "README.md")
	tmp := t.TempDir()
	env := precommitEnv(t, tmp)
	gobin := filepath.Join(tmp, "gobin")
	env = append(env, "GOBIN="+gobin, "PATH="+gobin+string(os.PathListSeparator)+os.Getenv("PATH"))
	sh := func(t *testing.T, dir, script string) result {
		t.Helper()
		t0 := time.Now()
		res := command(t, dir, env, "bash", "-eo", "pipefail", "-c", script)
		t.Logf("$ (cd %s && %s)  [%v, exit %d]\nstdout:\n%sstderr:\n%s", dir, strings.TrimSpace(script), time.Since(t0).Round(time.Millisecond), res.code, res.stdout, res.stderr)
		return res
	}

	// 1. Install from a checkout.
	install := docBlocks(t, docSection(t, readme, "### Install"), "sh", 2)[0]
	step := time.Now()
	clone := filepath.Join(tmp, "upstream", "guardvet")
	precommitSnapshot(t, env, root, clone)
	script := docReplace(t, install, "https://github.com/"+strings.TrimPrefix(thisModule, "github.com/"), clone, 1)
	home := filepath.Join(tmp, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if res := sh(t, home, script); res.code != 0 {
		t.Fatalf("README's install block failed (exit %d)", res.code)
	}
	if _, err := os.Stat(filepath.Join(gobin, "guardvet")); err != nil {
		t.Fatalf("README's install block put no guardvet in GOBIN: %v", err)
	}
	if res := sh(t, home, "guardvet -version"); res.code != 0 ||
		!regexp.MustCompile(`^guardvet \S+ `+regexp.QuoteMeta(runtime.Version())+`\n$`).MatchString(res.stdout) {
		t.Errorf("guardvet -version: exit %d, %q; README says e.g. \"guardvet v0.1.0 go1.26.8\"", res.code, res.stdout)
	}
	t.Logf("TIMING install from a clone: %v", time.Since(step).Round(time.Millisecond))

	// 2. The first directive, in a new module.
	first := docSection(t, readme, "### The first directive")
	where := regexp.MustCompile("\\(`(go mod init [^`]+)`\\), as `([^`]+\\.go)`").FindStringSubmatch(first)
	if where == nil {
		t.Fatalf("README's first directive does not say where the code goes (\"(`go mod init ...`), as `FILE.go`\"):\n%s", first)
	}
	code := docBlocks(t, first, "go", 1)[0]
	shown := docBlocks(t, first, "", 1)[0]
	mod := filepath.Join(tmp, "demo")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	if res := sh(t, mod, where[1]); res.code != 0 {
		t.Fatalf("%s failed", where[1])
	}
	file := filepath.Join(mod, filepath.FromSlash(where[2]))
	precommitWrite(t, file, code)

	// The output README shows: "$ COMMAND", then exactly what it prints.
	shownCmd, shownOut, _ := strings.Cut(shown, "\n")
	if !strings.HasPrefix(shownCmd, "$ ") {
		t.Fatalf("README's output block does not start with \"$ COMMAND\":\n%s", shown)
	}
	shownCmd = strings.TrimPrefix(shownCmd, "$ ")
	finding := regexp.MustCompile(`^(\S+):(\d+):(\d+): (.+) \((\w+)\)$`).FindStringSubmatch(strings.TrimSuffix(shownOut, "\n"))
	if finding == nil || finding[1] != where[2] {
		t.Fatalf("README's shown output is not one finding \"%s:LINE:COL: message (rule)\":\n%s", where[2], shownOut)
	}
	if _, err := os.Stat(filepath.Join(root, "docs", "rules", finding[5]+".md")); err != nil {
		t.Errorf("the rule of README's finding, %s, has no page docs/rules/%s.md: %v", finding[5], finding[5], err)
	}

	// The exit codes README states.
	codes := regexp.MustCompile(`exit code is (\d) with no findings, (\d) with findings`).FindStringSubmatch(docSection(t, readme, "### Reading a finding"))
	if codes == nil {
		t.Fatalf("README's \"Reading a finding\" no longer states the exit codes as \"exit code is N with no findings, N with findings\"")
	}
	clean, found := atoi(t, codes[1]), atoi(t, codes[2])

	// 3. Run, as README's Run blocks say: in a module, and per module with
	// -C in a repository with two, alpha/ and beta/.
	runBlocks := docBlocks(t, docSection(t, readme, "### Run"), "sh", 2)
	commandsOf := func(block string) []string {
		var commands []string
		for _, l := range strings.Split(block, "\n") {
			if c, _, _ := strings.Cut(l, "#"); strings.TrimSpace(c) != "" {
				commands = append(commands, strings.TrimSpace(c))
			}
		}
		if len(commands) != 2 || !strings.HasPrefix(commands[0], "guardvet ") || !strings.HasPrefix(commands[1], "go vet ") {
			t.Fatalf("README's Run block is %q; this test expects a standalone command, then go vet", commands)
		}
		return commands
	}
	commands := commandsOf(runBlocks[0])
	if commands[0] != shownCmd {
		t.Fatalf("README's Run block starts with %q, its shown output with %q", commands[0], shownCmd)
	}
	repo := filepath.Join(tmp, "repo")
	perModule := map[string][]string{}
	for _, m := range []string{"alpha", "beta"} {
		dir := filepath.Join(repo, m)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if res := sh(t, dir, where[1]); res.code != 0 {
			t.Fatalf("%s failed", where[1])
		}
		precommitWrite(t, filepath.Join(dir, filepath.FromSlash(where[2])), code)
		perModule[m] = commandsOf(docReplace(t, runBlocks[1], "-C alpha ", "-C "+m+" ", 2))
	}
	vetLine := strings.TrimSuffix(strings.TrimSuffix(shownOut, "\n"), " ("+finding[5]+")")
	check := func(t *testing.T, mod string, commands []string, fixed bool) {
		res := sh(t, mod, commands[0])
		want, wantCode := shownOut, found
		if fixed {
			want, wantCode = "", clean
		}
		if res.code != wantCode {
			t.Errorf("%s: exit %d, README says %d", commands[0], res.code, wantCode)
		}
		if res.stdout != want {
			t.Errorf("%s printed on stdout:\n%s\nREADME shows:\n%s", commands[0], res.stdout, want)
		}
		if res.stderr != "" {
			t.Errorf("%s printed on stderr:\n%s", commands[0], res.stderr)
		}
		res = sh(t, mod, commands[1])
		out := res.stdout + res.stderr
		hasLine := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(vetLine) + `$`).MatchString(out)
		switch {
		case fixed && (res.code != 0 || out != ""):
			t.Errorf("%s on the fixed code: exit %d, output %q; want 0 and nothing", commands[1], res.code, out)
		case !fixed && (res.code == 0 || !hasLine):
			t.Errorf("%s: exit %d, want non-zero and README's finding without the rule in parentheses, %q", commands[1], res.code, vetLine)
		}
	}
	step = time.Now()
	t.Run("finding", func(t *testing.T) {
		check(t, mod, commands, false)
		for _, m := range []string{"alpha", "beta"} {
			check(t, repo, perModule[m], false)
		}
	})

	// 4. The fix README describes.
	fix := regexp.MustCompile("Lock `([^`]+)` in `(\\w+)` \\(`([^`]+)`\\)").FindStringSubmatch(first)
	if fix == nil {
		t.Fatalf("README's first directive no longer describes the fix as \"Lock `LOCK` in `FUNC` (`STATEMENTS`)\":\n%s", first)
	}
	fn := regexp.MustCompile(`(?m)^func \([^)]*\) ` + fix[2] + `\([^)]*\)[^{\n]*\{\n`)
	loc := fn.FindStringIndex(code)
	if loc == nil {
		t.Fatalf("README's code has no method %s to fix", fix[2])
	}
	fixed := code[:loc[1]] + "\t" + fix[3] + "\n" + code[loc[1]:]
	precommitWrite(t, file, fixed)
	t.Logf("the fixed %s:\n%s", where[2], fixed)
	t.Run("fixed", func(t *testing.T) {
		check(t, mod, commands, true)
		for _, m := range []string{"alpha", "beta"} {
			precommitWrite(t, filepath.Join(repo, m, filepath.FromSlash(where[2])), fixed)
			check(t, repo, perModule[m], true)
		}
	})
	t.Logf("TIMING run and vet, finding and fixed: %v", time.Since(step).Round(time.Millisecond))
	t.Logf("TIMING total: %v", time.Since(start).Round(time.Millisecond))
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
