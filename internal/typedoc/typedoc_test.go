package typedoc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// TestSerial checks the sentences that say a type is not safe for
// concurrent use, and that those saying it is safe do not match.
func TestSerial(t *testing.T) {
	for doc, want := range map[string]bool{
		"PgConn is a low-level PostgreSQL connection handle. It is not safe for concurrent usage.": true,
		"A Reader is not safe for concurrent use.":                                                 true,
		"Encoder is not goroutine-safe.":                                                           true,
		"The client is not thread safe.":                                                           true,
		"A Tx must not be used concurrently.":                                                      true,
		"It is unsafe modifying/reading RequestCtx instance from concurrently running goroutines.": true,
		"A Client is safe for concurrent use by multiple goroutines.":                              false,
		"Cache is goroutine-safe.":                                                                 false,
		"It is not necessary to call Close; the pool is safe for concurrent use.":                  false,
		"Do not copy a Mutex.":                                                                     false,
	} {
		if got := Serial(doc); got != want {
			t.Errorf("Serial(%q) = %v, want %v", doc, got, want)
		}
	}
}

// TestEach checks that a spec's own doc wins and that a grouped
// declaration's doc is not given to each of its types.
func TestEach(t *testing.T) {
	const src = `package p

// Conn is not safe for concurrent use.
type Conn struct{}

// Group doc.
type (
	// A is documented.
	A int
	B int
)
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	Each([]*ast.File{f}, func(ts *ast.TypeSpec, doc string) { got[ts.Name.Name] = doc })
	want := map[string]string{"Conn": "Conn is not safe for concurrent use.", "A": "A is documented.", "B": ""}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("doc of %s = %q, want %q", k, got[k], v)
		}
	}
}

// TestSerialType checks that only a sentence about the type itself
// makes it serial.
func TestSerialType(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		want      bool
	}{
		{"PgConn", "PgConn is a low-level PostgreSQL connection handle. It is not safe for concurrent usage.", true},
		{"Reader", "A Reader is not safe for concurrent use.", true},
		{"Encoder", "Encoders are not goroutine-safe.", true},
		{"Tx", "Its methods must not be used concurrently.", true},
		{"Client", "Client encapsulates a connection to a Sentry server. It must be initialized by calling NewClient. Modification of fields concurrently with Send or after calling Report for the first time is not thread-safe.", false},
		{"Pool", "Pool is safe for concurrent use by multiple goroutines.", false},
	} {
		if got := SerialType(c.name, c.doc); got != c.want {
			t.Errorf("SerialType(%q, %q) = %v, want %v", c.name, c.doc, got, c.want)
		}
	}
}

// TestConcurrentType checks the sentences that say a type is for
// concurrent use, and that a "not" in them says the opposite.
func TestConcurrentType(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		want      bool
	}{
		{"Pool", "Pool is safe for concurrent use by multiple goroutines.", true},
		{"Conn", "Conn is a generic stream-oriented network connection. Multiple goroutines may invoke methods on a Conn simultaneously.", true},
		{"Buffer", "A Buffer is a variable-sized buffer. Its methods may be called concurrently.", true},
		{"Writer", "Writer is thread-safe.", true},
		{"Reader", "A Reader is not safe for concurrent use.", false},
		{"Encoder", "Encoders are not goroutine-safe.", false},
		{"Reader", "Reader is a drop-in replacement for compress/gzip.Reader. It reads ahead in a goroutine of its own.", false},
		{"Client", "Client sends events. The package's Default client is safe for concurrent use.", false},
	} {
		if got := ConcurrentType(c.name, c.doc); got != c.want {
			t.Errorf("ConcurrentType(%q, %q) = %v, want %v", c.name, c.doc, got, c.want)
		}
	}
}
