package sessionref

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// ringTokens are the units a scrollback may start at: runes of every UTF-8
// length, and whole escape sequences of each kind the parser knows.
var ringTokens = []string{
	"a", "Z", " ", "\r", "\n", "\t",
	"é", "€", "😀",
	"\x1b[31m", "\x1b[0m", "\x1b[38;5;196m", "\x1b[?25l", "\x1b[2J", "\x1b[H",
	"\x1b]0;title\x07", "\x1b]8;;http://example.com/é\x1b\\", "\x1bP1$r0m\x1b\\",
	"\x1b7", "\x1b(B", "\x1b=",
}

// TestRingTrimsAtSafePoints writes random token streams in random chunks
// into rings of random sizes and checks after every write that the
// scrollback is a suffix of the stream that starts at a token boundary,
// holds at most max bytes, and drops no more than it has to.
func TestRingTrimsAtSafePoints(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	longest := 0
	for _, tok := range ringTokens {
		longest = max(longest, len(tok))
	}
	for round := range 300 {
		size := 1 + rng.IntN(200)
		r := ring{max: size}
		var stream []byte
		bounds := map[int]bool{0: true} // token boundaries in stream
		var pending []byte
		for range 400 {
			tok := ringTokens[rng.IntN(len(ringTokens))]
			pending = append(pending, tok...)
			stream = append(stream, tok...)
			bounds[len(stream)] = true
			if rng.IntN(3) == 0 {
				continue // write several tokens at once, or split one below
			}
			for len(pending) > 0 {
				n := 1 + rng.IntN(len(pending))
				r.write(pending[:n])
				pending = pending[n:]
				written := len(stream) - len(pending)
				got := r.snapshot()
				start := written - len(got)
				if len(got) > size {
					t.Fatalf("round %d: scrollback of %d bytes, max %d", round, len(got), size)
				}
				if !bytes.Equal(got, stream[start:written]) {
					t.Fatalf("round %d: scrollback is not a suffix of the output", round)
				}
				if len(got) > 0 && !bounds[start] {
					t.Fatalf("round %d (max %d): scrollback starts inside a token: %q", round, size, got[:min(len(got), 12)])
				}
				if written >= size && len(got) < size-longest {
					t.Fatalf("round %d: kept %d bytes of %d, max %d: dropped more than a token", round, len(got), written, size)
				}
				if held := len(r.buf); held > 2*size+len(stream) {
					t.Fatalf("round %d: ring holds %d bytes", round, held)
				}
			}
		}
	}
}

// TestRingCutExamples pins the two cuts a late subscriber used to see.
func TestRingCutExamples(t *testing.T) {
	r := ring{max: 7}
	r.write([]byte("ab\x1b[31mred")) // 10 bytes: a plain cut would keep "[31mred"
	if got := string(r.snapshot()); got != "red" {
		t.Fatalf("after a colour change: %q, want %q", got, "red")
	}
	r = ring{max: 4}
	r.write([]byte("a€€")) // 7 bytes: a plain cut would keep "\xac€"
	if got := string(r.snapshot()); got != "€" {
		t.Fatalf("after runes: %q, want %q", got, "€")
	}
}

// TestRingOversizedSequence: a control string longer than the scrollback
// cannot be kept whole. Memory stays bounded, the scrollback never starts
// inside it, and text after it is kept.
func TestRingOversizedSequence(t *testing.T) {
	r := ring{max: 16}
	r.write([]byte("\x1b]0;" + strings.Repeat("x", 100)))
	if got := r.snapshot(); len(got) != 0 {
		t.Fatalf("inside an oversized string: %q, want nothing", got)
	}
	if kept := len(r.buf) - r.head; kept > 16 {
		t.Fatalf("kept %d bytes, max 16", kept)
	}
	r.write([]byte(strings.Repeat("y", 50) + "\x07after"))
	if got := string(r.snapshot()); got != "after" {
		t.Fatalf("after the string ended: %q, want %q", got, "after")
	}
}
