package main

// A message whose body is one of several kinds, among them a value (no
// pointer) and a function literal of a named func type: the call
// through the body enters only the kinds the body can be where the
// message was made. batch's goroutines encode bodies of their own and
// never the shared tally, which only main's report reaches: no finding.

type body interface{ encode() }

type stamp struct{ at *int }

func (s stamp) encode() { *s.at++ }

type encodeFunc func()

func (f encodeFunc) encode() { f() }

type tally struct{ n int }

func (t *tally) encode() { t.n++ }

type message struct{ body body }

func (m *message) encode() { m.body.encode() }

var shared = &tally{}

func batch() {
	at := 0
	n := 0
	for _, b := range []body{stamp{at: &at}, encodeFunc(func() { n++ })} {
		m := &message{body: b}
		m.encode()
	}
}

func report() {
	m := &message{body: shared}
	m.encode()
}

func init() {
	go batch()
	go batch()
}
