package corpus

import (
	"strings"
	"testing"
)

func TestNormaliser(t *testing.T) {
	n := NewNormaliser("/root/go/pkg/mod", "/usr/local/go", "/tmp/guardvet-corpus-123", "golang.org/x/tools@v0.52.0")
	for in, want := range map[string]string{
		"/root/go/pkg/mod/gvisor.dev/gvisor@v0.0.0-2026/pkg/tcpip/link/xdp/endpoint.go:57:1": "gvisor.dev/gvisor@v0.0.0-2026/pkg/tcpip/link/xdp/endpoint.go:57:1",
		"/usr/local/go/src/net/http/server.go:786:3":                                         "$GOROOT/src/net/http/server.go:786:3",
		"/tmp/guardvet-corpus-123/go/analysis/checker/checker.go:1:2":                        "golang.org/x/tools@v0.52.0/go/analysis/checker/checker.go:1:2",
		"/tmp/guardvet-corpus-1234/x.go:1:2":                                                 "/tmp/guardvet-corpus-1234/x.go:1:2", // a prefix of the name, not of the directory
		"/root/go/pkg/modx/a.go:1:1":                                                         "/root/go/pkg/modx/a.go:1:1",
		"/elsewhere/a.go:3:4":                                                                "/elsewhere/a.go:3:4",
	} {
		if got := n.Pos(in); got != want {
			t.Errorf("Pos(%s) = %s, want %s", in, got, want)
		}
	}
	// A toolchain downloaded by the go command lives in the module cache:
	// its files are still $GOROOT's.
	n = NewNormaliser("/root/go/pkg/mod", "/root/go/pkg/mod/golang.org/toolchain@v0.0.1-go1.26.6.linux-amd64", "", "")
	if got := n.Pos("/root/go/pkg/mod/golang.org/toolchain@v0.0.1-go1.26.6.linux-amd64/src/os/file.go:1:1"); got != "$GOROOT/src/os/file.go:1:1" {
		t.Errorf("toolchain in the module cache: %s", got)
	}
}

func TestDecode(t *testing.T) {
	n := NewNormaliser("/mod", "/goroot", "", "")
	out := `{
	"example.com/p": {
		"guardedby": [
			{"posn": "/mod/example.com/p@v1/p.go:10:2", "end": "/mod/example.com/p@v1/p.go:10:2", "message": "b"},
			{"posn": "/mod/example.com/p@v1/p.go:9:30", "end": "", "message": "a"}
		]
	},
	"example.com/p [example.com/p.test]": {
		"guardedby": [
			{"posn": "/mod/example.com/p@v1/p.go:10:2", "message": "b"}
		],
		"lockorder": [
			{"posn": "/mod/example.com/p@v1/p_test.go:3:1", "message": "c", "category": "lockorder"}
		]
	}
}`
	diags, errs, err := Decode("s", []byte(out), n)
	if err != nil || len(errs) > 0 {
		t.Fatal(err, errs)
	}
	want := []Diag{
		{"s", "example.com/p@v1/p.go:9:30", "guardedby", "a"},
		{"s", "example.com/p@v1/p.go:10:2", "guardedby", "b"}, // once, though both variants report it
		{"s", "example.com/p@v1/p_test.go:3:1", "lockorder", "c"},
	}
	if len(diags) != len(want) {
		t.Fatalf("got %+v, want %+v", diags, want)
	}
	for i := range want {
		if diags[i] != want[i] {
			t.Errorf("diag %d = %+v, want %+v", i, diags[i], want[i])
		}
	}

	_, errs, err = Decode("s", []byte(`{"example.com/q": {"guardedby": {"error": "boom"}, "escape": []}}`), n)
	if err != nil || len(errs) != 1 || !strings.Contains(errs[0], "boom") {
		t.Errorf("analysis error: errs = %q, err = %v", errs, err)
	}
	if diags, errs, err := Decode("s", []byte("\n"), n); err != nil || diags != nil || errs != nil {
		t.Errorf("empty output: %v %v %v", diags, errs, err)
	}
	if _, _, err := Decode("s", []byte("guardvet: not json"), n); err == nil {
		t.Errorf("text instead of JSON: no error")
	}
}
