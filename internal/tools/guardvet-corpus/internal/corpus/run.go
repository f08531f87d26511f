package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Runner runs a prebuilt guardvet on sets.
type Runner struct {
	Guardvet string // the binary; it builds nothing itself
	Corpus   string // the corpus module's directory
	Repo     string // the repository root
}

// Run is the outcome of one set.
type Run struct {
	Set   Set
	Diags []Diag
	Wall  time.Duration // guardvet's wall time
	RSS   int64         // guardvet's peak resident set, bytes (0 if not measured)
	Err   error         // the set's result cannot be trusted (load or type errors, a failed analysis, a crash)
}

// Run runs guardvet -json on one set and normalises its diagnostics.
func (r *Runner) Run(s Set) *Run {
	run := &Run{Set: s}
	dir, module := "", ""
	switch s.Where {
	case InCorpus:
		dir = r.Corpus
	case InRepo:
		dir = r.Repo
	default:
		mod, _ := s.CopyOf()
		tmp, err := r.copyModule(mod)
		if tmp != "" {
			defer os.RemoveAll(tmp)
		}
		if err != nil {
			run.Err = err
			return run
		}
		dir, module = tmp, mod
	}
	env, err := goEnv(dir)
	if err != nil {
		run.Err = err
		return run
	}
	copyDir := ""
	if module != "" {
		copyDir = dir
	}
	norm := NewNormaliser(env.GOMODCACHE, env.GOROOT, copyDir, module)

	var stdout, stderr bytes.Buffer
	cmd := exec.Command(r.Guardvet, append([]string{"-json"}, s.Args...)...)
	cmd.Dir, cmd.Stdout, cmd.Stderr, cmd.Env = dir, &stdout, &stderr, runEnv()
	start := time.Now()
	err = cmd.Run()
	run.Wall = time.Since(start)
	if cmd.ProcessState != nil {
		run.RSS = peakRSS(cmd.ProcessState)
	}
	if err != nil {
		code := -1
		if cmd.ProcessState != nil {
			code = cmd.ProcessState.ExitCode()
		}
		if code != 1 { // 1 is findings; 2 is load or type errors or bad usage
			run.Err = fmt.Errorf("guardvet %s (in %s) exited %d (%v):\n%s", strings.Join(s.Args, " "), dir, code, err, tail(stderr.String(), 20))
			return run
		}
	}
	diags, errs, err := Decode(s.Name, stdout.Bytes(), norm)
	if err != nil {
		run.Err = err
		return run
	}
	if len(errs) > 0 {
		run.Err = fmt.Errorf("analysis errors:\n  %s", strings.Join(errs, "\n  "))
		return run
	}
	run.Diags = diags
	return run
}

// copyModule makes a writable copy of MODULE@VERSION from the module
// cache (downloading it if needed) with its dependencies downloaded, so
// that guardvet can run ./... in it as in a checkout. It returns the copy's
// directory, to be removed by the caller.
func (r *Runner) copyModule(mod string) (string, error) {
	out, err := goCmd(r.Corpus, "mod", "download", "-json", mod)
	if err != nil {
		return "", err
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		return "", fmt.Errorf("go mod download -json %s: no directory (%v%s)", mod, err, info.Error)
	}
	tmp, err := os.MkdirTemp("", "guardvet-corpus-")
	if err != nil {
		return "", err
	}
	if tmp, err = filepath.EvalSymlinks(tmp); err != nil {
		return "", err
	}
	// os.CopyFS creates files 0666 and directories 0777 (less the umask):
	// writable, unlike the module cache.
	if err := os.CopyFS(tmp, os.DirFS(info.Dir)); err != nil {
		return tmp, fmt.Errorf("copying %s: %v", mod, err)
	}
	if _, err := goCmd(tmp, "mod", "download"); err != nil {
		return tmp, err
	}
	return tmp, nil
}

type goEnvVars struct{ GOMODCACHE, GOROOT string }

func goEnv(dir string) (goEnvVars, error) {
	var v goEnvVars
	out, err := goCmd(dir, "env", "-json", "GOMODCACHE", "GOROOT")
	if err != nil {
		return v, err
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return v, fmt.Errorf("go env -json: %v", err)
	}
	return v, nil
}

// goCmd runs the go command in dir and returns its standard output.
func goCmd(dir string, args ...string) ([]byte, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr, cmd.Env = dir, &stdout, &stderr, runEnv()
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go %s (in %s): %v\n%s", strings.Join(args, " "), dir, err, tail(stderr.String(), 20))
	}
	return stdout.Bytes(), nil
}

// runEnv is the environment of every command: the caller's, without a
// go.work that could pull other modules into the corpus.
func runEnv() []string { return append(os.Environ(), "GOWORK=off") }

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n:]...)
	}
	return "  " + strings.Join(lines, "\n  ")
}
