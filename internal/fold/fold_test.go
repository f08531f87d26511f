package fold_test

import (
	"testing"

	"github.com/guardvet/guardvet/internal/fold"
)

func TestMessage(t *testing.T) {
	got := fold.Message("potential deadlock", []fold.Related{
		{File: "/abs/dir/a.go", Line: 3, Col: 2, Message: "A.mu locked here"},
		{Message: "no position"},
	})
	if want := "potential deadlock; related: a.go:3:2: A.mu locked here; related: no position"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := fold.Message("alone", nil); got != "alone" {
		t.Errorf("no related: got %q", got)
	}
}
