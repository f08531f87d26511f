package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestReadLooks checks which module versions a look's rows name, that a
// library set runs the library alone, that escaped module paths are
// unescaped, and that a position keeps its strongest verdict.
func TestReadLooks(t *testing.T) {
	rows := "# heading\n" +
		"ttlcache-races-043\tgithub.com/!rene!kroon/ttlcache/v2@v2.11.0/cache.go:292:22\traces\ttrue\tr\t-\n" +
		"smtplib-races-043\tgithub.com/emersion/go-smtp@v0.26.0/conn.go:175:5\traces\ttrue\tr\t-\n" +
		"smtp-races-043\tgithub.com/emersion/go-smtp@v0.26.0/conn.go:60:4\traces\tfalse\tr\ts\n" +
		"smtp-races-044\tgithub.com/emersion/go-smtp@v0.26.0/conn.go:60:4\traces\tbenign\tr\t-\n" +
		"dns-races-043\tgithub.com/miekg/dns@v1.1.73/server.go:440:13\traces\tfalse\tr\ts\n" +
		"fsimpl\tgvisor.dev/gvisor@v0.0.0-1/a.go:1:1\tdirectives\ttrue\tr\t-\n"
	path := filepath.Join(t.TempDir(), "firstlook.txt")
	if err := os.WriteFile(path, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	verdicts, targets, err := readLooks(path, regexp.MustCompile(""), false)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tg := range targets {
		got = append(got, tg.String())
	}
	want := []string{
		"github.com/ReneKroon/ttlcache/v2@v2.11.0",
		"github.com/emersion/go-smtp@v0.26.0",
		"github.com/emersion/go-smtp@v0.26.0 (library)",
	}
	if len(got) != len(want) {
		t.Fatalf("targets = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("target %d = %q, want %q", i, got[i], want[i])
		}
	}
	if v := verdicts["github.com/emersion/go-smtp@v0.26.0/conn.go:60:4"]; v != "benign" {
		t.Errorf("merged verdict = %q, want benign", v)
	}
	if _, ok := verdicts["gvisor.dev/gvisor@v0.0.0-1/a.go:1:1"]; ok {
		t.Error("a row of another rule was read")
	}
	_, all, err := readLooks(path, regexp.MustCompile(""), true)
	if err != nil || len(all) != 4 {
		t.Errorf("with -all: %d targets (%v), want 4 (dns too)", len(all), err)
	}
}
