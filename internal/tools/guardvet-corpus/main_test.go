package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fakeGuardvet writes a script that records its arguments and prints the
// JSON in $FAKE_OUT, exiting with $FAKE_CODE.
func fakeGuardvet(t *testing.T, dir string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("needs /bin/sh")
	}
	bin := filepath.Join(dir, "guardvet")
	script := "#!/bin/sh\necho \"$@\" > \"$FAKE_ARGS\"\ncat \"$FAKE_OUT\"\nexit ${FAKE_CODE:-0}\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

func TestGate(t *testing.T) {
	tmp := t.TempDir()
	bin := fakeGuardvet(t, tmp)
	corpusDir := filepath.Join(tmp, "corpus")
	os.Mkdir(corpusDir, 0o755)
	write := func(name, s string) {
		t.Helper()
		if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(corpusDir, "sets"), "one repo -test=false ./...\n")
	expected := filepath.Join(corpusDir, "expected.txt")
	write(expected, "# header\n")
	out := filepath.Join(tmp, "out.json")
	write(out, `{"p": {"guardedby": [{"posn": "/elsewhere/a.go:3:4", "message": "x written while mu is not held"}]}}`)
	t.Setenv("FAKE_OUT", out)
	t.Setenv("FAKE_ARGS", filepath.Join(tmp, "args"))
	t.Setenv("FAKE_CODE", "1")

	gate := func(extra ...string) (int, string) {
		var stdout, stderr strings.Builder
		args := append([]string{"-guardvet", bin, "-corpus", corpusDir, "-repo", tmp}, extra...)
		code := run(args, &stdout, &stderr)
		return code, stdout.String() + stderr.String()
	}

	if code, text := gate(); code != 1 || !strings.Contains(text, "/elsewhere/a.go:3:4\tguardedby\tx written while mu is not held") {
		t.Fatalf("unexpected diagnostic: exit %d, want 1:\n%s", code, text)
	}
	if args, _ := os.ReadFile(filepath.Join(tmp, "args")); strings.TrimSpace(string(args)) != "-json -test=false ./..." {
		t.Errorf("guardvet ran with %q, want -json and the set's arguments", args)
	}
	if code, text := gate("-update"); code != 0 {
		t.Fatalf("-update: exit %d:\n%s", code, text)
	}
	data, _ := os.ReadFile(expected)
	line := "one\t/elsewhere/a.go:3:4\tguardedby\tuntriaged\tx written while mu is not held\tx written while mu is not held"
	if !strings.HasPrefix(string(data), "# header\n") || !strings.Contains(string(data), line) {
		t.Fatalf("after -update:\n%s\nwant the header and\n%s", data, line)
	}
	if code, text := gate(); code != 1 || !strings.Contains(text, "1 untriaged") {
		t.Errorf("untriaged entry: exit %d, want 1:\n%s", code, text)
	}
	write(expected, strings.Replace(string(data), "untriaged\tx written while mu is not held", "true\tthe error path skips the lock", 1))
	if code, text := gate(); code != 0 {
		t.Errorf("triaged: exit %d, want 0:\n%s", code, text)
	}
	write(out, `{"p": {"guardedby": [{"posn": "/elsewhere/a.go:3:4", "message": "reworded"}]}}`)
	if code, text := gate(); code != 0 {
		t.Errorf("reworded message: exit %d, want 0:\n%s", code, text)
	}

	t.Setenv("FAKE_CODE", "2") // load or type errors
	if code, text := gate(); code != 2 || !strings.Contains(text, "exited 2") {
		t.Errorf("guardvet exit 2: gate exit %d, want 2:\n%s", code, text)
	}
	if code, _ := gate("-update"); code != 2 {
		t.Errorf("-update with a failed set: exit %d, want 2", code)
	}
	if data2, _ := os.ReadFile(expected); !strings.Contains(string(data2), "the error path skips the lock") {
		t.Errorf("-update with a failed set rewrote the file:\n%s", data2)
	}

	write(filepath.Join(corpusDir, "sets"), "two repo ./...\n")
	if code, text := gate(); code != 2 || !strings.Contains(text, `no set named "one"`) {
		t.Errorf("entry of an unknown set: exit %d, want 2:\n%s", code, text)
	}
}

// TestJobsKeepOrder runs three sets at once, the first the slowest: the
// table must still list them in the sets' order, each with its own
// findings.
func TestJobsKeepOrder(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs /bin/sh")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "guardvet")
	// The package named last is the set's; the slow set sleeps first.
	script := "#!/bin/sh\nfor a; do last=$a; done\ncase $last in slow) sleep 1;; esac\n" +
		"printf '{\"p\": {\"guardedby\": [{\"posn\": \"/x/%s.go:1:1\", \"message\": \"m\"}]}}' \"$last\"\nexit 1\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	corpusDir := filepath.Join(tmp, "corpus")
	os.Mkdir(corpusDir, 0o755)
	os.WriteFile(filepath.Join(corpusDir, "sets"), []byte("s1 repo slow\ns2 repo fast\ns3 repo quick\n"), 0o644)
	var entries strings.Builder
	for _, s := range [][2]string{{"s1", "slow"}, {"s2", "fast"}, {"s3", "quick"}} {
		entries.WriteString(s[0] + "\t/x/" + s[1] + ".go:1:1\tguardedby\ttrue\tr\tm\n")
	}
	os.WriteFile(filepath.Join(corpusDir, "expected.txt"), []byte(entries.String()), 0o644)

	var stdout, stderr strings.Builder
	code := run([]string{"-j", "3", "-warm=false", "-guardvet", bin, "-corpus", corpusDir, "-repo", tmp}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d, want 0:\n%s%s", code, stdout.String(), stderr.String())
	}
	var order []string
	for _, line := range strings.Split(stdout.String(), "\n") {
		if f := strings.Fields(line); len(f) > 1 && strings.HasPrefix(f[0], "s") && f[1] == "1" {
			order = append(order, f[0])
		}
	}
	if strings.Join(order, " ") != "s1 s2 s3" {
		t.Errorf("rows in order %v, want s1 s2 s3:\n%s", order, stdout.String())
	}
}
