package corpus

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/guardvet/guardvet/internal/resultcache"
)

// Runner runs a prebuilt guardvet on sets.
type Runner struct {
	Guardvet string // the binary; it builds nothing itself
	Corpus   string // the corpus module's directory
	Repo     string // the repository root
	// Warm runs each set a second time on the result cache the first run
	// filled, and fails the set unless it prints the same bytes.
	Warm bool
}

// Run is the outcome of one set.
type Run struct {
	Set   Set
	Diags []Diag
	Wall  time.Duration // guardvet's wall time
	// WarmWall is the wall time of the re-run on the warm result cache
	// (Runner.Warm), 0 if there was none.
	WarmWall time.Duration
	// Partial says how the re-run on a cache missing some packages'
	// findings analysed them: "incremental", "cold", or "" (no re-run).
	Partial string
	// PartialWall is the wall time of that re-run, 0 if there was none.
	PartialWall time.Duration
	// Total is the wall time of the whole set: copies, go env, and every
	// run of guardvet.
	Total time.Duration
	RSS   int64 // guardvet's peak resident set, bytes (0 if not measured)
	Err   error // the set's result cannot be trusted (load or type errors, a failed analysis, a crash)
}

// Run runs guardvet -json on one set and normalises its diagnostics.
func (r *Runner) Run(s Set) *Run {
	run := &Run{Set: s}
	defer func(start time.Time) { run.Total = time.Since(start) }(time.Now())
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

	// Each set starts on an empty result cache of its own: the first run
	// is cold, and fills it for the warm re-run.
	cacheDir, err := os.MkdirTemp("", "guardvet-corpus-cache-")
	if err != nil {
		run.Err = err
		return run
	}
	defer os.RemoveAll(cacheDir)
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(r.Guardvet, jsonArgs(s.Args)...)
	cmd.Dir, cmd.Stdout, cmd.Stderr, cmd.Env = dir, &stdout, &stderr, append(runEnv(), "GUARDVETCACHE="+cacheDir)
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
	if r.Warm && !wholeProgram(s.Args) {
		if run.Err = r.warm(run, dir, cacheDir, stdout.Bytes()); run.Err != nil {
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
// jsonArgs is guardvet's command line for a set, with -json: after the
// subcommand for guardvet races, first otherwise.
func jsonArgs(args []string) []string {
	if wholeProgram(args) {
		return append([]string{"races", "-json"}, args[1:]...)
	}
	return append([]string{"-json"}, args...)
}

// wholeProgram reports whether a set runs guardvet races, which has no
// result cache to re-run warm.
func wholeProgram(args []string) bool { return len(args) > 0 && args[0] == "races" }

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

// warm re-runs the set on the cache its first run filled and requires the
// same -json bytes: the cache must not change a finding.
func (r *Runner) warm(run *Run, dir, cacheDir string, cold []byte) error {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(r.Guardvet, jsonArgs(run.Set.Args)...)
	cmd.Dir, cmd.Stdout, cmd.Stderr, cmd.Env = dir, &stdout, &stderr, append(runEnv(), "GUARDVETCACHE="+cacheDir)
	start := time.Now()
	err := cmd.Run()
	run.WarmWall = time.Since(start)
	if code := cmd.ProcessState.ExitCode(); err != nil && code != 1 {
		return fmt.Errorf("guardvet on a warm cache exited %d (%v):\n%s", code, err, tail(stderr.String(), 20))
	}
	if !bytes.Equal(stdout.Bytes(), cold) {
		return fmt.Errorf("guardvet on a warm result cache printed other findings than the cold run:\n%s", firstLineDiff(string(cold), stdout.String()))
	}
	if run.Set.NoPartial {
		return nil
	}
	return r.partial(run, dir, cacheDir, cold)
}

// partial drops the findings of a fifth of the root packages (at most
// eight) from the cache and re-runs the set: those are analysed again, incrementally (from
// source, with their imports from export data and facts from the cache)
// when the cache allows it, and the -json bytes must be the same as the
// cold run's. Run.Partial says how the run analysed them.
func (r *Runner) partial(run *Run, dir, cacheDir string, cold []byte) error {
	c, err := resultcache.Open(cacheDir)
	if err != nil {
		return err
	}
	// The cold run stored everything in one pack: a findings entry is
	// JSON, a facts entry gob.
	err = filepath.WalkDir(cacheDir, func(name string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || len(d.Name()) != 64 {
			return err
		}
		var k resultcache.Key
		if b, err := hex.DecodeString(d.Name()); err != nil || len(b) != len(k) {
			return nil
		} else {
			copy(k[:], b)
		}
		data, ok := c.Get(k)
		if !ok {
			return nil
		}
		pack, err := resultcache.DecodePack(data)
		if err != nil {
			return nil // not a pack
		}
		var results []resultcache.Key
		for pk, entry := range pack {
			if len(entry) > 0 && entry[0] == '{' {
				results = append(results, pk)
			}
		}
		sort.Slice(results, func(i, j int) bool { return bytes.Compare(results[i][:], results[j][:]) < 0 })
		// A fifth of them, at most eight, spread over the set: few enough
		// for the incremental analysis, as after an edit, and cheap.
		n := min(8, max(1, len(results)/5))
		for i := range n {
			delete(pack, results[i*len(results)/n])
		}
		if data, err = resultcache.EncodePack(pack); err != nil {
			return err
		}
		return c.Put(k, data)
	})
	if err != nil {
		return err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(r.Guardvet, jsonArgs(run.Set.Args)...)
	cmd.Dir, cmd.Stdout, cmd.Stderr, cmd.Env = dir, &stdout, &stderr, append(runEnv(), "GUARDVETCACHE="+cacheDir, "GUARDVET_CACHE_TRACE=1")
	start := time.Now()
	err = cmd.Run()
	run.PartialWall = time.Since(start)
	if code := cmd.ProcessState.ExitCode(); err != nil && code != 1 {
		return fmt.Errorf("guardvet on a partly filled cache exited %d (%v):\n%s", code, err, tail(stderr.String(), 20))
	}
	switch {
	case strings.Contains(stderr.String(), "analysed incrementally"):
		run.Partial = "incremental"
	case strings.Contains(stderr.String(), "analysed as a cold run"):
		run.Partial = "cold"
	}
	if !bytes.Equal(stdout.Bytes(), cold) {
		return fmt.Errorf("guardvet on a partly filled result cache (%s) printed other findings than the cold run:\n%s", run.Partial, firstLineDiff(string(cold), stdout.String()))
	}
	return nil
}

// firstLineDiff shows the first line where a and b differ.
func firstLineDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) || i < len(lb); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n  cold: %s\n  warm: %s", i+1, x, y)
		}
	}
	return "(no line differs)"
}
